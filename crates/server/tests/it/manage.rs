//! What a key created, listed and ended (docs/API.md, "Managing what a key created"), through
//! the real server: monitors and workflow runs made with the agent tools, webhook
//! subscriptions; two owners, each blind to the other's ids (404, never 403); a stopped
//! monitor no longer checked by the scheduler; a disabled subscription getting no delivery;
//! the test event reaching a loopback receiver and the delivery log showing it.

use crate::common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

/// One POST the site got.
#[derive(Debug, Clone)]
struct Post {
    headers: http::HeaderMap,
    body: String,
}

/// A loopback site: an HTML page at every path (status per path, 200 unless set), GETs
/// counted per path, and every POST kept (webhook deliveries).
#[derive(Clone)]
struct Site {
    addr: SocketAddr,
    status: Arc<Mutex<HashMap<String, u16>>>,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    posts: Arc<Mutex<Vec<Post>>>,
}

impl Site {
    async fn start() -> Site {
        let status: Arc<Mutex<HashMap<String, u16>>> = Arc::default();
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let posts: Arc<Mutex<Vec<Post>>> = Arc::default();
        let (s, h, p) = (status.clone(), hits.clone(), posts.clone());
        let addr = Pages::serve(move |req: &wiremock::Request| {
            let path = req.url.path().to_string();
            if req.method == http::Method::POST {
                let body = String::from_utf8_lossy(&req.body).into_owned();
                p.lock().unwrap().push(Post { headers: req.headers.clone(), body });
                return ResponseTemplate::new(200).set_body_bytes(b"{}".to_vec());
            }
            if path == "/robots.txt" {
                return ResponseTemplate::new(404);
            }
            *h.lock().unwrap().entry(path.clone()).or_default() += 1;
            let code = s.lock().unwrap().get(&path).copied().unwrap_or(200);
            let html = format!(
                "<!doctype html><html lang=\"en\"><head><title>Oak tables and chairs from our workshop {path}</title>\
                 <meta name=\"description\" content=\"Solid oak furniture made to order in a small workshop.\">\
                 <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>\
                 <body><main><h1>Oak furniture</h1><p>Oak tables and chairs.</p></main></body></html>"
            );
            ResponseTemplate::new(code).set_body_raw(html, "text/html; charset=utf-8")
        })
        .await
        .leak();
        Site { addr, status, hits, posts }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    fn set_status(&self, path: &str, code: u16) {
        self.status.lock().unwrap().insert(path.to_string(), code);
    }

    fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }

    fn posts(&self) -> Vec<Post> {
        self.posts.lock().unwrap().clone()
    }
}

/// Waits (bounded, by polling) until `check` holds.
async fn until(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..600 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for {what}");
}

/// A request with `key`, its answer checked against the document for `pattern`.
async fn send(t: &TestServer, method: &str, path: &str, pattern: &str, key: &str, body: Option<Value>) -> Answer {
    let mut req = t.client.request(method.parse().unwrap(), t.url(path)).header("x-api-key", key);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let a = Answer::from(req.send().await.unwrap()).await;
    a.assert_common();
    validate_documented(method, pattern, &a);
    // Reading and managing what a key created consumes no quota: no rate-limit headers; a
    // test ping costs a unit (docs/API.md, "Managing what a key created").
    if pattern == "/api/v1/webhooks/{id}/test" {
        assert!(a.header("x-ratelimit-limit").is_some(), "{method} {path}: {:?}", a.headers);
    } else {
        assert!(a.header("x-ratelimit-limit").is_none(), "{method} {path}: {:?}", a.headers);
    }
    a
}

/// A tools/call in the modern form; its structuredContent (asserted not an error).
async fn tool(t: &TestServer, key: &str, name: &str, arguments: Value) -> Value {
    let a = tool_call_ok(t, key, name, arguments).await;
    assert_eq!(a.body["result"]["isError"], false, "{name}: {}", a.raw);
    a.body["result"]["structuredContent"].clone()
}

async fn tool_call_ok(t: &TestServer, key: &str, name: &str, arguments: Value) -> Answer {
    let a = common::tool_call(t, key, name, arguments).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a
}

fn two_owners(t: &TestServer) -> (String, String) {
    let scopes = || vec!["audit".to_string(), "mcp".to_string(), "webhooks".to_string()];
    (t.key(|k| k.scopes = scopes()).0, t.key(|k| k.scopes = scopes()).0)
}

fn owner_of(t: &TestServer, key: &str) -> String {
    t.db(|s| s.lookup(key)).unwrap().unwrap().user_id.into_string()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn monitors_are_listed_and_stopped_by_their_owner_only() {
    let site = Site::start().await;
    let t = TestServer::start(|c| c.monitor_interval_s = 1).await;
    let (alice, bob) = two_owners(&t);
    let (watched, witness) = (site.url("/watched"), site.url("/witness"));

    let made = tool(&t, &alice, "monitor_site", json!({ "url": watched })).await;
    let id = made["monitorId"].as_str().unwrap().to_string();
    let bobs =
        tool(&t, &bob, "monitor_site", json!({ "url": witness })).await["monitorId"].as_str().unwrap().to_string();

    // Each owner lists its own monitor only.
    let list = send(&t, "GET", "/api/v1/monitors", "/api/v1/monitors", &alice, None).await;
    assert_eq!(list.status, 200, "{}", list.raw);
    assert_eq!(ids(&list.body["monitors"]), [id.as_str()]);
    let m = &list.body["monitors"][0];
    assert_eq!((m["url"].as_str(), m["interval_seconds"].as_u64()), (Some(watched.as_str()), Some(1)));
    assert_eq!(m["rules"], json!(["score_drop", "new_critical", "status_not_2xx", "unreachable"]));
    assert_eq!(m["last_alert"], Value::Null, "{m}");
    let list = send(&t, "GET", "/api/v1/monitors", "/api/v1/monitors", &bob, None).await;
    assert_eq!(ids(&list.body["monitors"]), [bobs.as_str()]);

    // A failing check raises an alert, which the list shows with the check's time.
    site.set_status("/watched", 500);
    until("an alert of the watched page", || !t.db(|s| s.recent_alerts(&id, 1)).unwrap().is_empty()).await;
    let list = send(&t, "GET", "/api/v1/monitors", "/api/v1/monitors", &alice, None).await;
    let m = &list.body["monitors"][0];
    // The check that raised it may raise others with it (new_critical, and score_drop: a 500
    // page scores lower): the listed alert is one of the monitor's, with its rule and
    // severity, and the failing status raised a critical one.
    let stored = t.db(|s| s.recent_alerts(&id, 10)).unwrap();
    let listed = stored.iter().find(|a| m["last_alert"]["id"] == a.id.as_str()).expect("a stored alert");
    assert_eq!(m["last_alert"]["rule"], listed.rule.as_str(), "{m}");
    assert_eq!(m["last_alert"]["severity"], listed.severity.as_str(), "{m}");
    until("the status alert", || {
        t.db(|s| s.recent_alerts(&id, 10))
            .unwrap()
            .iter()
            .any(|a| a.rule == "status_not_2xx" && a.severity == "critical")
    })
    .await;
    assert!(m["last_checked_at"].is_string(), "{m}");
    // The owner's alert list (docs/API.md, "Alerts") holds the monitor's alerts, each with its
    // source and monitor; another owner's list none of them.
    let all = send(&t, "GET", "/api/v1/alerts", "/api/v1/alerts", &alice, None).await;
    assert_eq!(all.status, 200, "{}", all.raw);
    let mine = all.body["alerts"].as_array().unwrap();
    assert!(!mine.is_empty(), "{}", all.raw);
    for a in mine {
        assert_eq!((a["source"].as_str(), a["monitor_id"].as_str()), (Some("monitor"), Some(id.as_str())), "{a}");
        assert!(a["schedule_id"].is_null() && a["crawl_id"].is_null(), "{a}");
        assert_eq!(a["url"], watched.as_str(), "{a}");
    }
    assert!(mine.iter().any(|a| a["id"] == m["last_alert"]["id"]), "{}", all.raw);
    let theirs = send(&t, "GET", "/api/v1/alerts", "/api/v1/alerts", &bob, None).await;
    assert!(
        theirs.body["alerts"].as_array().unwrap().iter().all(|a| a["monitor_id"] == bobs.as_str()),
        "{}",
        theirs.raw
    );

    // Another owner's id answers as an unknown one: 404, not 403.
    let path = format!("/api/v1/monitors/{id}");
    let pattern = "/api/v1/monitors/{id}";
    let theirs = send(&t, "DELETE", &path, pattern, &bob, None).await;
    theirs.assert_error(404, "not_found");
    let unknown = send(&t, "DELETE", "/api/v1/monitors/nope", pattern, &alice, None).await;
    unknown.assert_error(404, "not_found");
    assert_eq!(theirs.body["error"]["message"].as_str().unwrap().replace(&id, "ID"), "No monitor ID.");
    assert_eq!(t.db(|s| s.list_monitors(&owner_of(&t, &alice))).unwrap().len(), 1);

    // Stopped: gone from the list and from the store, its alerts with it.
    let stopped = send(&t, "DELETE", &path, pattern, &alice, None).await;
    assert_eq!((stopped.status, stopped.body["deleted"].as_str()), (200, Some(id.as_str())), "{}", stopped.raw);
    send(&t, "DELETE", &path, pattern, &alice, None).await.assert_error(404, "not_found");
    let list = send(&t, "GET", "/api/v1/monitors", "/api/v1/monitors", &alice, None).await;
    assert_eq!(list.body["monitors"], json!([]));
    assert!(t.db(|s| s.list_monitors(&owner_of(&t, &alice))).unwrap().is_empty());
    assert!(t.db(|s| s.recent_alerts(&id, 10)).unwrap().is_empty());
    let all = send(&t, "GET", "/api/v1/alerts", "/api/v1/alerts", &alice, None).await;
    assert_eq!(all.body["alerts"], json!([]), "{}", all.raw);
    let far = time::OffsetDateTime::now_utc() + time::Duration::days(2);
    let due: Vec<String> = t.db(|s| s.due_monitors(far)).unwrap().into_iter().map(|m| m.id.into_string()).collect();
    assert_eq!(due, [bobs.as_str()], "the scheduler finds only the monitor still running");

    // The scheduler keeps checking the other monitor (once a second), never the stopped one
    // again. A check that had started before the stop may still fetch the page: count from
    // the witness's third check after the stop.
    let seen = site.hits("/witness");
    until("three checks of the witness", || site.hits("/witness") >= seen + 3).await;
    let watched_hits = site.hits("/watched");
    let seen = site.hits("/witness");
    until("two more checks of the witness", || site.hits("/witness") >= seen + 2).await;
    assert_eq!(site.hits("/watched"), watched_hits, "a stopped monitor is not checked");
}

#[tokio::test]
async fn workflow_runs_are_listed_for_their_owner_only() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, bob) = two_owners(&t);

    let run = tool(&t, &alice, "workflow_execute", json!({ "intent": "fix", "url": site.url("/fix") })).await;
    let run = run["runId"].as_str().unwrap().to_string();
    let mut waiting = Value::Null;
    for _ in 0..400 {
        let list = send(&t, "GET", "/api/v1/workflows", "/api/v1/workflows", &alice, None).await;
        assert_eq!(list.status, 200, "{}", list.raw);
        assert_eq!(ids(&list.body["workflows"]), [run.as_str()]);
        waiting = list.body["workflows"][0].clone();
        if ["awaiting_approval", "failed"].contains(&waiting["state"].as_str().unwrap()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(waiting["state"], "awaiting_approval", "{waiting}");
    assert_eq!((waiting["intent"].as_str(), waiting["current_step"].as_str()), (Some("fix"), Some("approval")));
    assert_eq!(waiting["url"], site.url("/fix"));

    // A second run is listed first; Bob sees neither.
    let audit = tool(&t, &alice, "workflow_execute", json!({ "intent": "audit", "url": site.url("/a") })).await;
    let audit = audit["runId"].as_str().unwrap().to_string();
    let mut newest = Value::Null;
    for _ in 0..400 {
        let list = send(&t, "GET", "/api/v1/workflows", "/api/v1/workflows", &alice, None).await;
        assert_eq!(ids(&list.body["workflows"]), [audit.as_str(), run.as_str()]);
        newest = list.body["workflows"][0].clone();
        if ["completed", "failed"].contains(&newest["state"].as_str().unwrap()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!((newest["state"].as_str(), &newest["current_step"]), (Some("completed"), &Value::Null), "{newest}");
    let list = send(&t, "GET", "/api/v1/workflows", "/api/v1/workflows", &bob, None).await;
    assert_eq!(list.body["workflows"], json!([]));

    // workflow_status without a runId lists the same runs.
    let listed = tool(&t, &alice, "workflow_status", json!({})).await;
    let runs: Vec<&str> = listed["runs"].as_array().unwrap().iter().map(|r| r["runId"].as_str().unwrap()).collect();
    assert_eq!(runs, [audit.as_str(), run.as_str()]);
    assert_eq!(
        (listed["runs"][1]["state"].as_str(), listed["runs"][1]["currentStep"].as_str()),
        (Some("awaiting_approval"), Some("approval"))
    );
    assert_eq!(tool(&t, &bob, "workflow_status", json!({})).await, json!({ "runs": [] }));
    assert_eq!(tool(&t, &alice, "workflow_status", json!({ "runId": run })).await["state"], "awaiting_approval");
}

#[tokio::test]
async fn monitor_site_stops_a_monitor() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, bob) = two_owners(&t);
    let page = site.url("/p");
    let made = tool(&t, &alice, "monitor_site", json!({ "url": page })).await;
    assert_eq!(made["created"], true);
    let id = made["monitorId"].as_str().unwrap().to_string();

    // Bob has no monitor of the page: not_found, and Alice's stays.
    let a = tool_call_ok(&t, &bob, "monitor_site", json!({ "url": page, "action": "stop" })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    assert!(a.body["result"]["content"][0]["text"].as_str().unwrap().starts_with("not_found"), "{}", a.raw);
    assert_eq!(t.db(|s| s.list_monitors(&owner_of(&t, &alice))).unwrap().len(), 1);

    let stopped = tool(&t, &alice, "monitor_site", json!({ "url": page, "action": "stop" })).await;
    assert_eq!(stopped, json!({ "monitorId": id, "url": page, "stopped": true }));
    assert!(t.db(|s| s.list_monitors(&owner_of(&t, &alice))).unwrap().is_empty());
    let list = send(&t, "GET", "/api/v1/monitors", "/api/v1/monitors", &alice, None).await;
    assert_eq!(list.body["monitors"], json!([]));

    // The default action makes a new one.
    let again = tool(&t, &alice, "monitor_site", json!({ "url": page, "action": "watch" })).await;
    assert_eq!(again["created"], true);
    assert_ne!(again["monitorId"], id.as_str());
}

fn webhooks_only(t: &TestServer) -> String {
    t.key(|k| k.scopes = vec!["audit".into(), "webhooks".into()]).0
}

fn verify(secret: &str, post: &Post) -> Value {
    let header = |n: &str| post.headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let timestamp = header("x-webhook-timestamp");
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.{}", post.body).as_bytes());
    assert_eq!(header("x-signature-256"), format!("sha256={}", hex::encode(mac.finalize().into_bytes())));
    let body: Value = serde_json::from_str(&post.body).unwrap();
    validate_schema("WebhookPayload", &body);
    assert_eq!(header("x-webhook-event"), body["event"].as_str().unwrap());
    assert_eq!(header("x-webhook-id"), body["id"].as_str().unwrap());
    body
}

#[tokio::test]
async fn webhooks_are_disabled_tested_and_their_deliveries_listed() {
    let site = Site::start().await;
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let (alice, bob) = (webhooks_only(&t), webhooks_only(&t));
    let made = send(
        &t,
        "POST",
        "/api/v1/webhooks",
        "/api/v1/webhooks",
        &alice,
        Some(json!({ "url": site.url("/hook"), "events": ["audit.completed"] })),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.raw);
    let id = made.body["webhook"]["id"].as_str().unwrap().to_string();
    let secret = made.body["webhook"]["secret"].as_str().unwrap().to_string();
    let (hook, test, log) = (
        format!("/api/v1/webhooks/{id}"),
        format!("/api/v1/webhooks/{id}/test"),
        format!("/api/v1/webhooks/{id}/deliveries"),
    );
    let (hook_p, test_p, log_p) =
        ("/api/v1/webhooks/{id}", "/api/v1/webhooks/{id}/test", "/api/v1/webhooks/{id}/deliveries");

    // The test event goes through the outbox to this subscription, which did not subscribe
    // to it, and reaches the receiver signed, with its event id.
    let queued = send(&t, "POST", &test, test_p, &alice, None).await;
    assert_eq!(queued.status, 202, "{}", queued.raw);
    let delivery = &queued.body["delivery"];
    assert_eq!((delivery["event"].as_str(), delivery["state"].as_str()), (Some("ping"), Some("pending")));
    let event_id = delivery["event_id"].as_str().unwrap().to_string();
    until("the ping", || !site.posts().is_empty()).await;
    let posts = site.posts();
    assert_eq!(posts.len(), 1);
    let body = verify(&secret, &posts[0]);
    assert_eq!(posts[0].headers["x-webhook-id"], event_id.as_str());
    assert_eq!((body["event"].as_str(), body["data"]["webhookId"].as_str()), (Some("ping"), Some(id.as_str())));

    // The delivery log shows it delivered.
    let mut entry = Value::Null;
    for _ in 0..400 {
        let got = send(&t, "GET", &log, log_p, &alice, None).await;
        assert_eq!(got.status, 200, "{}", got.raw);
        entry = got.body["deliveries"][0].clone();
        if entry["state"] == "delivered" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(entry["id"], delivery["id"], "{entry}");
    assert_eq!(
        (entry["state"].as_str(), entry["attempts"].as_u64(), entry["last_status_code"].as_u64()),
        (Some("delivered"), Some(1), Some(200)),
        "{entry}"
    );
    assert_eq!(
        (&entry["next_attempt_at"], &entry["last_error"], &entry["event_id"]),
        (&Value::Null, &Value::Null, &json!(event_id))
    );

    // Bob, and unknown ids, get 404 everywhere.
    let off = json!({ "enabled": false });
    for key in [&bob, &alice] {
        let id_of = |p: &str| if key == &bob { p.to_string() } else { p.replace(&id, "unknown") };
        send(&t, "PATCH", &id_of(&hook), hook_p, key, Some(off.clone())).await.assert_error(404, "not_found");
        send(&t, "POST", &id_of(&test), test_p, key, None).await.assert_error(404, "not_found");
        send(&t, "GET", &id_of(&log), log_p, key, None).await.assert_error(404, "not_found");
    }
    assert!(t.db(|s| s.list_webhooks(&owner_of(&t, &alice))).unwrap()[0].enabled);
    assert_eq!(site.posts().len(), 1);

    // Bad bodies.
    send(&t, "PATCH", &hook, hook_p, &alice, Some(json!({ "enabled": "no" })))
        .await
        .assert_error(400, "invalid_request");
    send(&t, "PATCH", &hook, hook_p, &alice, Some(json!({}))).await.assert_error(400, "missing_parameter");

    // Disabled: the list says so, the next event queues nothing for it, a test is refused.
    let patched = send(&t, "PATCH", &hook, hook_p, &alice, Some(off)).await;
    assert_eq!((patched.status, &patched.body["webhook"]["enabled"]), (200, &json!(false)), "{}", patched.raw);
    assert_eq!(patched.body["webhook"]["id"], id.as_str());
    let list = send(&t, "GET", "/api/v1/webhooks", "/api/v1/webhooks", &alice, None).await;
    assert_eq!(list.body["webhooks"][0]["enabled"], false);
    let audited = t.client.get(t.audit_url(&site.url("/page"), "&format=compact")).header("x-api-key", &alice);
    assert_eq!(audited.send().await.unwrap().status(), 200);
    // The event is written in the audit's own transaction, committed before the answer.
    assert_eq!(t.db(|s| s.webhook_outbox(&id)).unwrap().len(), 1, "only the ping");
    send(&t, "POST", &test, test_p, &alice, None).await.assert_error(409, "conflict");
    // A body is not needed, but one that is sent must be JSON.
    let plain = t.client.post(t.url(&test)).header("x-api-key", &alice).header("content-type", "text/plain").body("hi");
    Answer::from(plain.send().await.unwrap()).await.assert_error(415, "unsupported_media_type");
    assert_eq!(t.db(|s| s.webhook_outbox(&id)).unwrap().len(), 1);

    // Enabled again: the next event is delivered, and listed first.
    let patched = send(&t, "PATCH", &hook, hook_p, &alice, Some(json!({ "enabled": true }))).await;
    assert_eq!(patched.body["webhook"]["enabled"], true);
    let audited = t.client.get(t.audit_url(&site.url("/page2"), "&format=compact")).header("x-api-key", &alice);
    assert_eq!(audited.send().await.unwrap().status(), 200);
    until("the audit event", || site.posts().len() == 2).await;
    assert_eq!(verify(&secret, &site.posts()[1])["event"], "audit.completed");
    let got = send(&t, "GET", &log, log_p, &alice, None).await;
    let events: Vec<&str> =
        got.body["deliveries"].as_array().unwrap().iter().map(|d| d["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["audit.completed", "ping"]);
}

/// A test ping makes the service send a signed request: it costs 1 quota unit, so a key's
/// per-minute quota bounds them; past it, 429 `rate_limited` and nothing is queued
/// (docs/SECURITY.md, "What one caller can make the service do").
#[tokio::test]
async fn webhook_test_pings_cost_a_unit_and_stop_at_the_quota() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let key = t
        .key(|k| {
            k.scopes = vec!["webhooks".into()];
            k.rate_limit = Some(3);
        })
        .0;
    let made = send(
        &t,
        "POST",
        "/api/v1/webhooks",
        "/api/v1/webhooks",
        &key,
        Some(json!({ "url": site.url("/hook"), "events": ["audit.completed"] })),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.raw);
    let id = made.body["webhook"]["id"].as_str().unwrap().to_string();
    let test = format!("/api/v1/webhooks/{id}/test");
    for left in [2, 1, 0] {
        let a = send(&t, "POST", &test, "/api/v1/webhooks/{id}/test", &key, None).await;
        assert_eq!(a.status, 202, "{}", a.raw);
        assert_eq!(a.header("x-ratelimit-remaining"), Some(left.to_string().as_str()));
    }
    let refused = send(&t, "POST", &test, "/api/v1/webhooks/{id}/test", &key, None).await;
    refused.assert_error(429, "rate_limited");
    assert_eq!(t.db(|s| s.webhook_outbox(&id)).unwrap().len(), 3, "the refused ping queued nothing");
}
