//! Webhook subscriptions and deliveries end to end: the real server, a receiver on loopback
//! that checks signatures, retries after failures, ownership and scopes.

use crate::common;

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use test_support::{Pages, RawServer, Reply, ResponseTemplate};

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    headers: http::HeaderMap,
    body: String,
}

/// A webhook receiver on 127.0.0.1 answering `status` to every POST; wiremock keeps them all.
struct Receiver {
    server: Pages,
    status: Arc<AtomicU16>,
}

impl Receiver {
    async fn start() -> Receiver {
        let status = Arc::new(AtomicU16::new(200));
        let s = status.clone();
        let server = Pages::serve(move |_: &test_support::wiremock::Request| {
            ResponseTemplate::new(s.load(Ordering::SeqCst)).set_body_bytes(b"{}".to_vec())
        })
        .await;
        Receiver { server, status }
    }

    fn url(&self) -> String {
        format!("http://{}/hook", self.server.addr())
    }

    async fn received(&self) -> Vec<Received> {
        let requests = self.server.requests().await;
        requests
            .into_iter()
            .map(|r| Received { headers: r.headers, body: String::from_utf8_lossy(&r.body).into_owned() })
            .collect()
    }

    /// Waits (bounded) until at least `n` requests arrived.
    async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..400 {
            let got = self.received().await;
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("expected {n} deliveries, got {:?}", self.received().await);
    }
}

/// A receiver on 127.0.0.1 that reads each delivery and never answers: test_support's
/// misbehaving peer, stalling on every path.
struct HangingReceiver {
    server: RawServer,
}

impl HangingReceiver {
    async fn start() -> HangingReceiver {
        HangingReceiver { server: RawServer::start("127.0.0.1", vec![("/hook", Reply::Stall)]).await }
    }

    fn url(&self) -> String {
        self.server.url("/hook").to_string()
    }

    /// Deliveries that reached it.
    fn accepted(&self) -> usize {
        self.server.requests().len()
    }
}

/// Waits (bounded) until `check` holds, returning how long it took.
async fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Recomputes the signature the way docs/API.md tells receivers to.
fn verify(secret: &str, r: &Received) -> Value {
    let header = |n: &str| r.headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let timestamp = header("x-webhook-timestamp");
    assert!(timestamp.parse::<i64>().is_ok(), "timestamp {timestamp:?}");
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.{}", r.body).as_bytes());
    let expected = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
    assert_eq!(header("x-signature-256"), expected, "bad signature on {}", r.body);
    assert_eq!(header("content-type"), "application/json");
    let body: Value = serde_json::from_str(&r.body).unwrap();
    validate_schema("WebhookPayload", &body);
    assert_eq!(header("x-webhook-event"), body["event"].as_str().unwrap());
    assert_eq!(header("x-webhook-id"), body["id"].as_str().unwrap());
    body
}

async fn send(t: &TestServer, method: &str, path: &str, key: Option<&str>, body: Option<Value>) -> Answer {
    let mut req = t.client.request(method.parse().unwrap(), t.url(path));
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let a = Answer::from(req.send().await.unwrap()).await;
    let pattern = if path.starts_with("/api/v1/webhooks/") { "/api/v1/webhooks/{id}" } else { path };
    validate_documented(method, pattern, &a);
    a
}

async fn subscribe(t: &TestServer, key: &str, url: &str, events: &[&str]) -> (String, String) {
    let a = send(t, "POST", "/api/v1/webhooks", Some(key), Some(json!({ "url": url, "events": events }))).await;
    assert_eq!(a.status, 201, "{}", a.raw);
    a.assert_common();
    let w = &a.body["webhook"];
    (w["id"].as_str().unwrap().to_string(), w["secret"].as_str().unwrap().to_string())
}

async fn audit_with(t: &TestServer, key: &str, page: &str) {
    let resp = t.client.get(t.audit_url(page, "&format=compact")).header("x-api-key", key).send().await.unwrap();
    assert_eq!(resp.status(), 200);
}

fn webhook_key(t: &TestServer) -> (String, store::KeyRecord) {
    t.key(|k| k.scopes = vec!["audit".into(), "webhooks".into()])
}

#[tokio::test]
async fn signed_deliveries_and_retries() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let receiver = Receiver::start().await;
    let (key, record) = webhook_key(&t);
    let (hook_id, secret) = subscribe(&t, &key, &receiver.url(), &["audit.completed"]).await;
    assert!(secret.starts_with("whsec_"));

    // The list shows the subscription, never its secret.
    let list = send(&t, "GET", "/api/v1/webhooks", Some(&key), None).await;
    assert_eq!(list.status, 200, "{}", list.raw);
    assert_eq!(list.body["webhooks"][0]["id"], hook_id.as_str());
    assert!(!list.raw.contains(&secret));

    // An audit by the key's owner is delivered, signed.
    let page = site.url("/index.html");
    audit_with(&t, &key, &page).await;
    let got = receiver.wait_for(1).await;
    let body = verify(&secret, &got[0]);
    assert_eq!(body["event"], "audit.completed");
    assert_eq!(body["data"]["url"], page);
    assert!(body["data"]["score"].is_u64());

    // A failing receiver gets every retry of the next event, with the same event id.
    receiver.status.store(500, Ordering::SeqCst);
    audit_with(&t, &key, &site.url("/about.html")).await;
    let got = receiver.wait_for(1 + app::webhooks::MAX_ATTEMPTS as usize).await;
    let retries = &got[1..];
    let ids: Vec<&str> = retries.iter().map(|r| r.headers.get("x-webhook-id").unwrap().to_str().unwrap()).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "retries keep the event id: {ids:?}");
    for r in retries {
        verify(&secret, r);
    }

    // Every attempt is in the delivery log.
    let mut log = Vec::new();
    for _ in 0..200 {
        log = t.db(|s| s.list_deliveries(&hook_id, 50)).unwrap();
        if log.len() > app::webhooks::MAX_ATTEMPTS as usize {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let mut attempts: Vec<(u32, Option<u16>)> =
        log.iter().filter(|d| d.status_code == Some(500)).map(|d| (d.attempt, d.status_code)).collect();
    attempts.sort();
    assert_eq!(attempts, (1..=app::webhooks::MAX_ATTEMPTS).map(|a| (a, Some(500))).collect::<Vec<_>>());
    assert_eq!(log.iter().filter(|d| d.status_code == Some(200)).count(), 1);

    // The usage snapshot counts enabled subscriptions.
    let (usage_key, _) = t.key(|k| k.user_id = Some(record.user_id.clone()));
    let usage = send(&t, "GET", "/api/v1/usage", Some(&usage_key), None).await;
    assert_eq!(usage.body["webhook_subscriptions"], 1, "{}", usage.raw);
    t.db(|s| s.set_webhook_enabled(&record.user_id, &hook_id, false)).unwrap();
    let usage = send(&t, "GET", "/api/v1/usage", Some(&usage_key), None).await;
    assert_eq!(usage.body["webhook_subscriptions"], 0, "{}", usage.raw);
}

#[tokio::test]
async fn disabled_subscriptions_receive_nothing() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let (off, on) = (Receiver::start().await, Receiver::start().await);
    let (key, record) = webhook_key(&t);
    let (off_id, _) = subscribe(&t, &key, &off.url(), &["audit.completed"]).await;
    let (_, secret) = subscribe(&t, &key, &on.url(), &["audit.completed", "monitor.alert"]).await;
    // Subscribed to other events only: receives nothing for audits either.
    let other = Receiver::start().await;
    subscribe(&t, &key, &other.url(), &["workflow.completed"]).await;
    t.db(|s| s.set_webhook_enabled(&record.user_id, &off_id, false)).unwrap();

    audit_with(&t, &key, &site.url("/index.html")).await;
    // One lookup per event decides every recipient, so once the enabled subscription has
    // its delivery, the others have been passed over for good.
    let got = on.wait_for(1).await;
    verify(&secret, &got[0]);
    assert!(off.received().await.is_empty());
    assert!(other.received().await.is_empty());
    assert!(t.db(|s| s.list_deliveries(&off_id, 10)).unwrap().is_empty());
}

#[tokio::test]
async fn ownership_scopes_and_validation() {
    let t = TestServer::start(|_| {}).await;
    let receiver = Receiver::start().await;
    let (alice, _) = webhook_key(&t);
    let (bob, _) = webhook_key(&t);
    let (audit_only, _) = t.key(|k| k.scopes = vec!["audit".into(), "mcp".into()]);
    let (alice_hook, _) = subscribe(&t, &alice, &receiver.url(), &["monitor.alert"]).await;

    // Bob sees none of Alice's subscriptions and cannot delete them.
    let list = send(&t, "GET", "/api/v1/webhooks", Some(&bob), None).await;
    assert_eq!(list.body["webhooks"], json!([]), "{}", list.raw);
    let path = format!("/api/v1/webhooks/{alice_hook}");
    send(&t, "DELETE", &path, Some(&bob), None).await.assert_error(404, "not_found");
    send(&t, "DELETE", "/api/v1/webhooks/unknown", Some(&alice), None).await.assert_error(404, "not_found");

    // Key and scope.
    let body = json!({ "url": receiver.url(), "events": ["monitor.alert"] });
    for (method, path, b) in [
        ("GET", "/api/v1/webhooks", None),
        ("POST", "/api/v1/webhooks", Some(body.clone())),
        ("DELETE", path.as_str(), None),
    ] {
        send(&t, method, path, None, b.clone()).await.assert_error(401, "unauthorized");
        send(&t, method, path, Some("sa_unknownunknownunknownunknown00"), b.clone())
            .await
            .assert_error(401, "unauthorized");
        let a = send(&t, method, path, Some(&audit_only), b).await;
        a.assert_error(403, "forbidden");
        assert_eq!(a.body["error"]["details"]["scope"], "webhooks");
    }

    // Bodies.
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({ "url": receiver.url(), "events": ["audit.finished"] }), 400, "invalid_request"),
        (json!({ "url": receiver.url(), "events": [] }), 400, "invalid_request"),
        (json!({ "url": receiver.url() }), 400, "missing_parameter"),
        (json!({ "events": ["monitor.alert"] }), 400, "missing_parameter"),
        (json!({ "url": "ftp://example.com/", "events": ["monitor.alert"] }), 400, "invalid_url"),
        (json!({ "url": "http://10.0.0.1/hook", "events": ["monitor.alert"] }), 422, "blocked_target"),
        (json!({ "url": "http://localhost:9/hook", "events": ["monitor.alert"] }), 422, "blocked_target"),
    ];
    for (b, status, code) in cases {
        send(&t, "POST", "/api/v1/webhooks", Some(&alice), Some(b)).await.assert_error(status, code);
    }
    let not_json = t
        .client
        .post(t.url("/api/v1/webhooks"))
        .header("x-api-key", &alice)
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    Answer::from(not_json).await.assert_error(415, "unsupported_media_type");

    // Managing subscriptions charges no quota: no rate-limit headers.
    let list = send(&t, "GET", "/api/v1/webhooks", Some(&alice), None).await;
    assert!(list.header("x-ratelimit-limit").is_none());
    assert_eq!(list.body["webhooks"].as_array().map(Vec::len), Some(1));

    // Alice deletes her own; then it is gone.
    let gone = send(&t, "DELETE", &path, Some(&alice), None).await;
    assert_eq!((gone.status, gone.body["deleted"].as_str()), (200, Some(alice_hook.as_str())), "{}", gone.raw);
    send(&t, "DELETE", &path, Some(&alice), None).await.assert_error(404, "not_found");
    let list = send(&t, "GET", "/api/v1/webhooks", Some(&alice), None).await;
    assert_eq!(list.body["webhooks"], json!([]));
}

#[tokio::test]
async fn webhook_urls_are_absolute_http_urls_with_a_real_host() {
    let t = TestServer::start(|_| {}).await;
    let (key, record) = webhook_key(&t);
    for bad in [
        "..",
        "x",
        "{{7*7}}",
        "hooks.example.com/seo",
        "//hooks.example.com/hook",
        "http:hooks.example.com",
        "https://x/",
        "https://../",
        "https://{{7*7}}/",
        "https://a..b.example/",
        "https://hooks.example.123/",
        "ftp://hooks.example.com/",
        "https://user:pw@hooks.example.com/",
    ] {
        let a =
            send(&t, "POST", "/api/v1/webhooks", Some(&key), Some(json!({ "url": bad, "events": ["monitor.alert"] })))
                .await;
        a.assert_error(400, "invalid_url");
        let message = a.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("absolute http:// or https:// URL"), "{bad}: {message}");
    }
    assert!(t.db(|s| s.list_webhooks(&record.user_id)).unwrap().is_empty(), "nothing refused was stored");

    let receiver = Receiver::start().await;
    for (good, stored) in [
        ("https://hooks.example.com/seo".to_string(), "https://hooks.example.com/seo".to_string()),
        ("  HTTP://Hooks.Example.com:8080/a?b=1 ".to_string(), "http://hooks.example.com:8080/a?b=1".to_string()),
        (receiver.url(), receiver.url()),
    ] {
        let a =
            send(&t, "POST", "/api/v1/webhooks", Some(&key), Some(json!({ "url": good, "events": ["monitor.alert"] })))
                .await;
        assert_eq!(a.status, 201, "{good}: {}", a.raw);
        assert_eq!(a.body["webhook"]["url"], stored.as_str());
    }
}

#[tokio::test]
async fn a_hanging_receiver_delays_no_other_subscription() {
    use app::webhooks::{DROPPED_PREFIX, MAX_IN_FLIGHT_PER_SUBSCRIPTION, MAX_PENDING_PER_SUBSCRIPTION};
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let dispatcher = t.server.state().webhooks.clone();
    let (hanging, normal) = (HangingReceiver::start().await, Receiver::start().await);
    let (key_a, record_a) = webhook_key(&t);
    let (key_b, _) = webhook_key(&t);
    let (hook_a, _) = subscribe(&t, &key_a, &hanging.url(), &["audit.completed"]).await;
    let (_, secret_b) = subscribe(&t, &key_b, &normal.url(), &["audit.completed"]).await;

    // Key A: 40 audits through the API, then a burst of events past its queue's bound.
    for _ in 0..40 {
        audit_with(&t, &key_a, &site.url("/index.html")).await;
    }
    let burst = 2 * MAX_PENDING_PER_SUBSCRIPTION;
    for n in 0..burst {
        dispatcher.emit(&record_a.user_id, "audit.completed", json!({ "n": n })).await;
    }
    let events_a = 40 + burst;
    // A's receiver holds its attempts (10 s each) and A's queue is full.
    eventually("A's attempts", || hanging.accepted() == MAX_IN_FLIGHT_PER_SUBSCRIPTION).await;
    let hook_a = app::WebhookId::from(hook_a);
    let held_by_a = || t.db(|_| dispatcher.held_by(&hook_a));
    eventually("A's queue", || held_by_a() == MAX_PENDING_PER_SUBSCRIPTION).await;

    // Key B's audit is delivered at once.
    let started = Instant::now();
    audit_with(&t, &key_b, &site.url("/about.html")).await;
    let got = normal.wait_for(1).await;
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(1), "B's delivery took {waited:?}");
    let body = verify(&secret_b, &got[0]);
    assert_eq!(body["data"]["url"], site.url("/about.html"));

    // A never had more than its share of connections, and still holds only its bound.
    assert_eq!(hanging.accepted(), MAX_IN_FLIGHT_PER_SUBSCRIPTION);
    assert_eq!(held_by_a(), MAX_PENDING_PER_SUBSCRIPTION);
    let stats = t.db(|_| dispatcher.stats());
    assert!(stats.held <= MAX_PENDING_PER_SUBSCRIPTION + 1, "{stats:?}");

    // Every refused event of A is in A's delivery log, which the owner can read.
    let dropped = || {
        t.db(|s| s.list_deliveries(&hook_a, 10_000))
            .unwrap()
            .into_iter()
            .filter(|d| d.error.as_deref().is_some_and(|e| e.starts_with(DROPPED_PREFIX)))
            .count()
    };
    eventually("the refusals in the log", || dropped() == events_a - MAX_PENDING_PER_SUBSCRIPTION).await;
    let log = t.db(|s| s.list_deliveries(&hook_a, 1)).unwrap();
    assert_eq!((log[0].status_code, log[0].attempt), (None, 1), "{log:?}");
    assert!(log[0].payload.contains("\"event\":\"audit.completed\""), "{log:?}");
}
