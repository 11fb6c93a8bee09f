//! A webhook delivery pending when the server is killed is not lost: the real binary is
//! SIGKILLed while `audit.completed` waits for its retry against a receiver that is down,
//! started again on the same data directory with the receiver up on the same port, and the
//! receiver gets the delivery with the event id of the attempt made before the kill
//! (docs/API.md, "Webhooks": at least once, the same `x-webhook-id` on every attempt).

use std::io::BufReader;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use test_support::{html, status, Reply, ThreadServer};

use crate::common;
use common::{bin, eventually, kill, listening_addr, request};

/// One request the receiver got: its `x-webhook-id`, its body, and the status it answered.
#[derive(Debug, Clone)]
struct Received {
    id: String,
    body: String,
    answered: u16,
}

/// A receiver that answers 503 to the first delivery and 200 to the others, keeping every
/// request; stopped, so its port refuses connections until it is restarted.
fn receiver() -> (ThreadServer, Arc<Mutex<Vec<Received>>>) {
    let got: Arc<Mutex<Vec<Received>>> = Arc::default();
    let log = got.clone();
    let mut receiver = ThreadServer::start(move |request| {
        let id = request.header("x-webhook-id").unwrap_or_default().to_string();
        let mut log = log.lock().unwrap();
        let answered = if log.is_empty() { 503 } else { 200 };
        log.push(Received { id, body: request.text(), answered });
        Some(Reply::Full { status: answered, headers: Vec::new(), body: b"{}".to_vec() })
    });
    receiver.stop();
    (receiver, got)
}

/// A site whose every page is a small HTML page (robots.txt: 404).
fn site() -> u16 {
    let body = "<!doctype html><html lang=en><head><title>Hooked</title></head>\
                <body><h1>Hooked</h1><p>A page to audit.</p></body></html>";
    ThreadServer::start(move |request| Some(if request.path == "/robots.txt" { status(404) } else { html(body) }))
        .port()
}

/// `serve` with the given retry base; the child and its address.
fn serve(data: &Path, retry_base_ms: u64) -> (Child, String) {
    let mut child = bin(data)
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .env("SEO_AUDIT_LOG", "warn")
        .env("SEO_AUDIT_WEBHOOK_RETRY_BASE_MS", retry_base_ms.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
    (child, addr)
}

#[test]
fn a_pending_delivery_survives_a_kill_and_arrives_once_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        bin(dir.path()).args(["keys", "create", "--name", "hooks", "--scopes", "audit,mcp,webhooks"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let page = format!("http://127.0.0.1:{}/", site());
    // The receiver's port, closed for now: every attempt is refused at once.
    let (mut receiver, got) = receiver();
    let port = receiver.port();

    // A first retry 3 s after the first attempt: time enough to kill the server in between.
    let (child, addr) = serve(dir.path(), 3_000);
    let hook = json!({ "url": format!("http://127.0.0.1:{port}/hook"), "events": ["audit.completed"] });
    let (status, created) = request(&addr, &key, "POST", "/api/v1/webhooks", Some(&hook));
    assert_eq!(status, 201, "{created}");
    let hook_id = created["webhook"]["id"].as_str().unwrap().to_string();
    let (status, audit) = request(&addr, &key, "GET", &format!("/api/v1/audit?url={page}&format=compact"), None);
    assert_eq!(status, 200, "{audit}");

    // The first attempt failed and the retry waits in the outbox: kill the server now.
    let db = store::Store::open(dir.path().join(store::DB_FILE_NAME)).unwrap();
    let first = eventually("the first attempt", Duration::from_secs(20), || {
        db.list_deliveries(&hook_id, 10).unwrap().into_iter().find(|d| d.attempt == 1)
    });
    kill(child);
    assert_eq!((first.status_code, first.error.is_some()), (None, true), "{first:?}");
    let rows = db.webhook_outbox(&hook_id).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let event_id = rows[0].event_id.clone();
    assert_eq!((rows[0].state, rows[0].attempts), (store::OutboxState::Pending, 1), "{rows:?}");
    assert_eq!(rows[0].claimed_by, None, "the failed attempt gave its claim back");
    let first_body: Value = serde_json::from_str(&first.payload).unwrap();
    assert_eq!(first_body["id"], event_id.as_str());

    // The receiver comes up on the same port; the server starts again with fast retries.
    receiver.restart();
    let (child, _) = serve(dir.path(), 200);
    let delivered = eventually("the delivery after the restart", Duration::from_secs(30), || {
        let got = got.lock().unwrap().clone();
        got.iter().any(|r| r.answered == 200).then_some(got)
    });
    // Nothing more comes once it is delivered: retries would be 0.4 s, 0.8 s apart.
    std::thread::sleep(Duration::from_secs(3));
    let after = got.lock().unwrap().clone();
    let rows = db.webhook_outbox(&hook_id).unwrap();
    let log = db.list_deliveries(&hook_id, 10).unwrap();
    kill(child);

    assert_eq!(after.len(), delivered.len(), "no attempt after the 2xx: {after:?}");
    let answered: Vec<u16> = after.iter().map(|r| r.answered).collect();
    assert_eq!(answered, [503, 200], "one refused attempt, then the one delivery");
    for r in &after {
        assert_eq!(r.id, event_id, "the same x-webhook-id as before the kill");
        assert_eq!(r.body, first.payload, "the same bytes on every attempt");
    }
    let body: Value = serde_json::from_str(&after[1].body).unwrap();
    assert_eq!((body["event"].as_str(), body["data"]["url"].as_str()), (Some("audit.completed"), Some(page.as_str())));
    assert_eq!((rows.len(), rows[0].state, rows[0].attempts), (1, store::OutboxState::Delivered, 3), "{rows:?}");
    let mut attempts: Vec<(u32, Option<u16>)> = log.iter().map(|d| (d.attempt, d.status_code)).collect();
    attempts.sort_unstable();
    assert_eq!(attempts, [(1, None), (2, Some(503)), (3, Some(200))], "every attempt in the delivery log");
}
