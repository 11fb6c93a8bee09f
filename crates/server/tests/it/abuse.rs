//! Abuse of the real server on loopback: keys must never reach a log line or an answer,
//! oversized and hostile requests are refused cleanly, and every answer carries the
//! security headers.

use crate::common;

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

/// How many tests capture now: the capture records only while [`keys_never_reach_logs_or_answers`]
/// or [`staging_crawl_secrets_never_reach_logs_or_answers`] runs (each looks for its own
/// secrets in what was captured). The
/// subscriber is global to the test binary, which the other tests share; they must not log
/// into memory at trace level for the rest of the run.
static CAPTURING: AtomicUsize = AtomicUsize::new(0);

/// Everything logged in this test process, at every level, while [`Capture`] lives.
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let sink = buf.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(move || Sink(sink.clone()))
            .with_filter(tracing_subscriber::filter::filter_fn(|_| CAPTURING.load(Ordering::SeqCst) > 0));
        let _ = tracing_subscriber::registry().with(layer).try_init();
        buf
    })
    .clone()
}

/// Turns the capture on, and off again when dropped (also when the test fails).
struct Capture;

impl Capture {
    fn start() -> Capture {
        CAPTURING.fetch_add(1, Ordering::SeqCst);
        Capture
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        CAPTURING.fetch_sub(1, Ordering::SeqCst);
    }
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The POST endpoints that read a JSON body.
const JSON_POSTS: &[&str] = &[
    "/api/v1/audit/batch",
    "/api/v1/webhooks",
    "/api/content-gap",
    "/api/auto-fix-batch",
    "/api/ai-readiness",
    "/api/ai-visibility-scan",
    "/api/geo-check",
];

#[tokio::test]
async fn keys_never_reach_logs_or_answers() {
    let logs = captured_logs();
    let _capture = Capture::start();
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let (key, record) = t.key(|k| k.scopes = vec!["audit".into(), "mcp".into(), "webhooks".into()]);
    let invalid = format!("sa_{}", "q".repeat(40));
    let page = site.url("/index.html");
    let enc = |s: &str| -> String { url::form_urlencoded::byte_serialize(s.as_bytes()).collect() };
    let gets = [
        format!("/api/v1/audit?url={}", enc(&page)),
        format!("/api/v1/audit?url={}&format=compact", enc(&page)),
        "/api/v1/usage".to_string(),
        "/api/v1/webhooks".to_string(),
        "/api/status".to_string(),
        format!("/report?url={}", enc(&page)),
        "/report/127.0.0.1".to_string(),
        "/api/widget?domain=127.0.0.1".to_string(),
        "/".to_string(),
        "/nowhere".to_string(),
        "/api/v1/audit?url=http://10.0.0.1/".to_string(),
    ];
    let posts: Vec<(&str, serde_json::Value)> = vec![
        ("/api/v1/audit/batch", serde_json::json!({ "urls": [page] })),
        ("/api/v1/webhooks", serde_json::json!({ "url": "http://10.1.1.1/hook", "events": ["audit.completed"] })),
        ("/api/ai-readiness", serde_json::json!({ "url": page })),
        ("/api/content-gap", serde_json::json!({ "url": page, "competitors": [] })),
        (
            "/api/mcp",
            serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": { "name": "audit_url", "arguments": { "url": page } } }),
        ),
        ("/api/v1/audit/batch", serde_json::json!({ "urls": "not a list" })),
    ];
    let mut answers = String::new();
    for secret in [&key, &invalid] {
        for path in &gets {
            for in_query in [false, true] {
                let sep = if path.contains('?') { '&' } else { '?' };
                let req = if in_query {
                    t.client.get(t.url(&format!("{path}{sep}x-api-key={secret}")))
                } else {
                    t.client.get(t.url(path)).header("x-api-key", secret.as_str())
                };
                let resp = req.send().await.unwrap();
                let headers = format!("{:?}", resp.headers());
                answers.push_str(&format!("{headers}\n{}\n", resp.text().await.unwrap()));
            }
        }
        for (path, body) in &posts {
            let resp = t.client.post(t.url(path)).header("x-api-key", secret.as_str()).json(body).send().await.unwrap();
            let headers = format!("{:?}", resp.headers());
            answers.push_str(&format!("{headers}\n{}\n", resp.text().await.unwrap()));
        }
    }
    // HTTP/2 too: its frame layer logs at trace level, and must not log header values.
    let h2 = reqwest::Client::builder().no_proxy().http2_prior_knowledge().build().unwrap();
    for secret in [&key, &invalid] {
        for path in ["/api/v1/usage", "/api/status"] {
            let resp = h2.get(t.url(path)).header("x-api-key", secret.as_str()).send().await.unwrap();
            assert_eq!(resp.version(), reqwest::Version::HTTP_2);
            answers.push_str(&resp.text().await.unwrap());
        }
    }
    // Let background work (usage writes, badge audits, webhook attempts) log too.
    tokio::time::sleep(Duration::from_millis(300)).await;
    t.server.shutdown().await;

    let logged = String::from_utf8_lossy(&logs.lock().unwrap_or_else(|p| p.into_inner())).to_string();
    assert!(logged.contains("request"), "the capture works: {logged}");
    assert!(answers.contains(&record.key_prefix), "the usage answer names the key by its prefix");
    for (what, text) in [("logs", &logged), ("answers", &answers)] {
        for secret in [&key, &invalid] {
            // key_prefix (10 characters) is public by design (a field of the documented key
            // record); anything longer identifies the secret.
            assert!(!text.contains(secret.as_str()), "a key appears in the {what}");
            assert!(!text.contains(&secret[..20]), "the first 20 characters of a key appear in the {what}");
        }
    }
}

/// A staging site's header, cookie and basic auth given to `POST /api/v1/crawls`: the crawl
/// reaches the site with them, and no log line at any level, no answer (the crawl, its pages,
/// its exports, the listing) and no refusal carries them.
#[tokio::test]
async fn staging_crawl_secrets_never_reach_logs_or_answers() {
    const SECRETS: [&str; 3] = ["hdr-5e1b-secret", "ck-77a0-secret", "pw-93c2-secret"];
    let logs = captured_logs();
    let _capture = Capture::start();
    // The staging site, on the threaded server (which logs nothing itself): 401 without
    // its header, cookie and basic auth (base64 of "team:pw-93c2-secret").
    let site = test_support::ThreadServer::start(|r| {
        let authorised = r.header("authorization") == Some("Basic dGVhbTpwdy05M2MyLXNlY3JldA==")
            && r.header("x-preview") == Some(SECRETS[0])
            && r.header("cookie") == Some(format!("sid={}", SECRETS[1])).as_deref();
        let html = |body: &str| test_support::Reply::Full {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
        };
        let bare = |status: u16| test_support::Reply::Full { status, headers: Vec::new(), body: Vec::new() };
        Some(match r.path.as_str() {
            _ if !authorised => bare(401),
            "/" => html("<!doctype html><title>Staging home</title><a href=\"/a\">A</a>"),
            "/a" => html("<!doctype html><title>Staging A</title><a href=\"/\">Home</a>"),
            _ => bare(404),
        })
    });
    let start_url = site.url("/");
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|k| k.scopes = vec!["audit".into()]);
    let post = |body: serde_json::Value| {
        t.client.post(t.url("/api/v1/crawls")).header("x-api-key", key.as_str()).json(&body).send()
    };
    let mut answers = String::new();

    // A header the service sets itself is refused, by name, its value not echoed.
    let refused =
        Answer::from(post(serde_json::json!({"url": start_url, "headers": {"Host": SECRETS[0]}})).await.unwrap()).await;
    refused.assert_error(400, "invalid_request");
    assert_eq!(refused.body["error"]["details"]["parameter"], "headers", "{}", refused.raw);
    assert_eq!(refused.body["error"]["details"]["header"], "Host", "{}", refused.raw);
    answers.push_str(&refused.raw);

    let body = serde_json::json!({
        "url": start_url,
        "headers": {"X-Preview": SECRETS[0]},
        "cookies": [format!("sid={}", SECRETS[1])],
        "basic_auth": {"user": "team", "password": SECRETS[2]},
    });
    let started = Answer::from(post(body).await.unwrap()).await;
    assert_eq!(started.status, 202, "{}", started.raw);
    answers.push_str(&started.raw);
    let id = started.body["crawl"]["id"].as_str().unwrap().to_string();
    let read = |path: String| {
        let request = t.client.get(t.url(&path)).header("x-api-key", key.as_str());
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    let mut crawl = serde_json::Value::Null;
    for _ in 0..600 {
        let raw = read(format!("/api/v1/crawls/{id}")).await;
        crawl = serde_json::from_str(&raw).unwrap();
        if crawl["crawl"]["finished_at"].is_string() {
            answers.push_str(&raw);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(crawl["crawl"]["state"], "completed", "{crawl}");
    assert_eq!(crawl["crawl"]["progress"]["pages_done"], 2, "both pages answered behind the password: {crawl}");
    for path in [
        format!("/api/v1/crawls/{id}/pages"),
        format!("/api/v1/crawls/{id}/export?format=json"),
        format!("/api/v1/crawls/{id}/export?format=csv"),
        format!("/api/v1/crawls/{id}/export?format=json&table=issues"),
        "/api/v1/crawls".to_string(),
        format!("/crawls/{id}"),
    ] {
        answers.push_str(&read(path).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    t.server.shutdown().await;

    let logged = String::from_utf8_lossy(&logs.lock().unwrap_or_else(|p| p.into_inner())).to_string();
    assert!(logged.contains("request"), "the capture works");
    assert!(answers.contains(&id), "the answers were read");
    for (what, text) in [("logs", &logged), ("answers", &answers)] {
        for secret in SECRETS {
            assert!(!text.contains(secret), "a staging secret appears in the {what}");
        }
        assert!(!text.contains("dGVhbTpwdy05M2MyLXNlY3JldA"), "the basic auth appears in the {what}");
    }
}

/// Sends raw bytes, returns the answer (the connection is closed by the server or after
/// the answer's head when `Connection: close` was asked).
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}

#[tokio::test]
async fn oversized_and_hostile_requests() {
    let t = TestServer::start(|_| {}).await;
    let addr = t.server.local_addr();
    // With a key holding every scope, so that no endpoint refuses before reading the body.
    let (key, _) = t.key(|k| k.scopes = store::SCOPES.iter().map(|s| s.to_string()).collect());

    // A 100 KB header: 431 from the HTTP layer, the server unharmed.
    let big = format!(
        "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(100_000)
    );
    let answer = raw(addr, big.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{}", &answer[..answer.len().min(200)]);
    let ok = t.get("/api/status").await;
    assert_eq!(ok.status, 200);

    // Deeply nested JSON: a parse error (serde_json's recursion limit), not a stack overflow.
    let deep_array = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_object = format!("{}1{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
    for path in JSON_POSTS {
        for body in [&deep_array, &deep_object] {
            let a = Answer::from(
                t.client
                    .post(t.url(path))
                    .header("x-api-key", &key)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                    .unwrap(),
            )
            .await;
            a.assert_error(400, "invalid_request");
        }
    }
    // MCP speaks JSON-RPC: a parse error there, still no crash.
    let a = Answer::from(
        t.client
            .post(t.url("/api/mcp"))
            .header("content-type", "application/json")
            .body(deep_array.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(a.status == 200 || a.status == 400, "{}", a.raw);
    assert_eq!(a.body["error"]["code"], -32700, "{}", a.raw);

    // A million URLs within 1 MiB: refused for the count, not processed.
    let urls = format!(r#"{{"urls":[{}""]}}"#, "\"\",".repeat(340_000));
    assert!(urls.len() < server::MAX_REQUEST_BODY_BYTES);
    let a = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .header("content-type", "application/json")
            .body(urls)
            .send()
            .await
            .unwrap(),
    )
    .await;
    a.assert_error(400, "invalid_request");
    validate_documented("POST", "/api/v1/audit/batch", &a);

    // 2 MiB: 413, announced by Content-Length or not.
    let huge = format!(r#"{{"urls":["{}"]}}"#, "a".repeat(2 * 1024 * 1024));
    for path in JSON_POSTS {
        let a = Answer::from(
            t.client
                .post(t.url(path))
                .header("x-api-key", &key)
                .header("content-type", "application/json")
                .body(huge.clone())
                .send()
                .await
                .unwrap(),
        )
        .await;
        a.assert_error(413, "payload_too_large");
    }
    let chunked = format!(
        "POST /api/v1/audit/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{huge}\r\n0\r\n\r\n",
        huge.len()
    );
    let answer = raw(addr, chunked.as_bytes()).await;
    assert!(
        answer.starts_with("HTTP/1.1 413") && answer.contains("payload_too_large"),
        "{}",
        &answer[..answer.len().min(300)]
    );

    assert_eq!(t.get("/api/status").await.status, 200);
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 0);
}

#[tokio::test]
async fn security_headers_on_every_kind_of_answer() {
    let t = TestServer::start(|c| c.badge_audit_url = String::new()).await;
    t.db(|s| s.insert_audit(store::NewAudit::new("https://example.com/", "https://example.com/", 87, "1", "{}")))
        .unwrap();
    // (path, is an HTML page)
    let cases = [
        ("/", true),
        ("/report/example.com", true),
        ("/api/widget?domain=example.com&format=iframe", true),
        ("/api/widget?domain=example.com", false),
        ("/widget.js", false),
        ("/api/status", false),
        ("/api/v1/usage", false),
        ("/openapi.json", false),
        ("/nothing-here", false),
        ("/api/v1/audit?url=ftp://x/", false),
    ];
    for (path, html) in cases {
        let resp = t.client.get(t.url(path)).send().await.unwrap();
        let h = resp.headers();
        assert_eq!(h.get("x-content-type-options").and_then(|v| v.to_str().ok()), Some("nosniff"), "{path}");
        if html {
            let ct = h.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
            assert!(ct.starts_with("text/html"), "{path}: {ct}");
            let csp = h.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("");
            assert!(csp.contains("default-src 'none'") && csp.contains("frame-ancestors"), "{path}: {csp}");
            assert!(h.get("referrer-policy").is_some(), "{path}");
        }
    }
    let resp = t.client.post(t.url("/api/v1/audit/batch")).body("x").send().await.unwrap();
    assert_eq!(resp.status(), 415);
    assert_eq!(resp.headers().get("x-content-type-options").and_then(|v| v.to_str().ok()), Some("nosniff"));
}

#[tokio::test]
async fn target_texts_are_cut_in_error_answers() {
    // A target whose redirect and content type are each some 200 KB long.
    let huge = "x".repeat(200_000);
    let site = Pages::serve(move |req: &wiremock::Request| {
        let answer = if req.url.path() == "/redirect" {
            ResponseTemplate::new(302).insert_header("location", format!("ftp://{huge}/").as_str())
        } else {
            ResponseTemplate::new(200).insert_header("content-type", format!("image/{huge}").as_str())
        };
        answer.set_body_bytes(b"body".to_vec())
    })
    .await
    .leak();
    let t = TestServer::start(|_| {}).await;
    for (path, status, code) in [("/redirect", 502, "target_unreachable"), ("/typed", 422, "not_html")] {
        let a =
            Answer::from(t.client.get(t.audit_url(&format!("http://{site}{path}"), "")).send().await.unwrap()).await;
        a.assert_error(status, code);
        let message = a.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("xxxx…"), "{path}: the cut is marked: {message}");
        assert!(message.chars().count() < fetch::MAX_ECHO_CHARS + 100, "{path}: {} chars", message.len());
        assert!(a.raw.len() < 1_000, "{path}: a {} byte answer", a.raw.len());
    }
}
