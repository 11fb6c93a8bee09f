//! Three `seo-audit serve` processes on one PostgreSQL database, as three replicas behind a
//! load balancer (docs/ARCHITECTURE.md, "Replicas"): the rate limit is exact across them,
//! a key created or revoked is seen by all of them at once, and a workflow run whose
//! replica is SIGKILLed mid-run is completed by another once its lease runs out, its
//! webhook delivered once.

use std::io::BufReader;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use test_support::{typed, ThreadServer};

use crate::common::{command, eventually, listening_addr, request};

/// The lease of the replicas: a dead replica's run is taken over about this long after
/// its last renewal.
const LEASE_MS: u64 = 1_000;

/// One replica: its process and its address.
struct Replica {
    child: Child,
    addr: String,
}

impl Replica {
    fn start(url: &str) -> Replica {
        let mut child = command()
            .args(["--database", url, "serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
            .env("SEO_AUDIT_LOG", "warn")
            .env("SEO_AUDIT_LEASE_MS", LEASE_MS.to_string())
            .env("SEO_AUDIT_WEBHOOK_RETRY_BASE_MS", "200")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start seo-audit serve");
        let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
        Replica { child, addr }
    }

    /// SIGKILL: nothing is finished or given back gracefully.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `seo-audit --database URL ARGS...`; its stdout, trimmed.
fn admin(url: &str, args: &[&str]) -> String {
    let out = command().args(["--database", url]).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn new_key(url: &str, name: &str) -> String {
    admin(url, &["keys", "create", "--name", name, "--tier", "free", "--scopes", "audit,mcp,webhooks"])
}

/// A tools/call in the simple form; its structuredContent.
fn tool(addr: &str, key: &str, name: &str, arguments: Value) -> Value {
    let body = json!({ "method": "tools/call", "params": { "name": name, "arguments": arguments } });
    let (status, answer) = request(addr, key, "POST", "/api/mcp", Some(&body));
    assert_eq!((status, &answer["result"]["isError"]), (200, &json!(false)), "{answer}");
    answer["result"]["structuredContent"].clone()
}

/// Sleeps into the next minute when fewer than `margin` seconds are left of this one, so
/// that what follows falls within one quota window.
fn clear_of_the_minute_end(margin: u64) {
    let into = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64() % 60.0;
    if into > 60.0 - margin as f64 {
        std::thread::sleep(Duration::from_secs_f64(60.0 - into + 0.2));
    }
}

#[test]
fn three_replicas_share_the_quota_the_keys_and_the_work() {
    // The test process's PostgreSQL (`None`: not installed, the test skips with one line).
    let Some(server) = test_support::TempPostgres::shared() else { return };
    let url = server.fresh_database();
    admin(&url, &["migrate"]);
    let mut replicas: Vec<Replica> = (0..3).map(|_| Replica::start(&url)).collect();
    let addrs: Vec<String> = replicas.iter().map(|r| r.addr.clone()).collect();

    // (a) 50 concurrent quota-consuming requests of one free key (30 a minute), spread
    // round-robin over the three replicas: exactly 30 are granted.
    let key = new_key(&url, "quota");
    let fixes = json!({ "issues": [{ "id": "canonical-missing", "context": { "url": "https://shop.example/" } }] });
    clear_of_the_minute_end(10);
    let start = Arc::new(Barrier::new(50));
    let handles: Vec<_> = (0..50)
        .map(|i| {
            let (addr, key, body, start) = (addrs[i % 3].clone(), key.clone(), fixes.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                request(&addr, &key, "POST", "/api/auto-fix-batch", Some(&body)).0
            })
        })
        .collect();
    let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let granted = statuses.iter().filter(|s| **s == 200).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    eprintln!("quota across three replicas: {granted} of 50 granted, {refused} refused (limit 30)");
    assert_eq!((granted, refused), (30, 20), "{statuses:?}");
    // Every replica refuses the 51st, and the usage counter says 30.
    for addr in &addrs {
        assert_eq!(request(addr, &key, "POST", "/api/auto-fix-batch", Some(&fixes)).0, 429);
    }
    let (status, usage) = request(&addrs[1], &key, "GET", "/api/v1/usage", None);
    assert_eq!(status, 200, "{usage}");
    assert_eq!(usage["requests_this_minute"], 30, "{usage}");

    // (b) A key made with one command works on every replica at once; revoked, it is
    // refused by all three at once.
    let fresh = new_key(&url, "fresh");
    for addr in &addrs {
        assert_eq!(request(addr, &fresh, "GET", "/api/v1/usage", None).0, 200, "a new key works on {addr}");
    }
    let listed = admin(&url, &["keys", "list", "--json"]);
    let id = listed
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|k| k["name"] == "fresh")
        .and_then(|k| k["id"].as_str().map(str::to_string))
        .unwrap();
    admin(&url, &["keys", "revoke", &id]);
    let revoked = Instant::now();
    for addr in &addrs {
        assert_eq!(request(addr, &fresh, "GET", "/api/v1/usage", None).0, 401, "a revoked key is refused on {addr}");
    }
    assert!(revoked.elapsed() < Duration::from_secs(1));

    // (c) A workflow run started on replica 0, killed while its audit step runs, is
    // completed by another replica once its lease runs out; its webhook arrives once.
    let asked = Arc::new(AtomicBool::new(false));
    let flag = asked.clone();
    let site = test_support::ThreadServer::start(move |request| {
        if request.path == "/robots.txt" {
            return Some(test_support::status(404));
        }
        // The first answer never comes: the replica asking for it dies waiting.
        if request.path.starts_with("/page") && !flag.swap(true, Ordering::SeqCst) {
            std::thread::sleep(Duration::from_secs(60));
            return None;
        }
        let body = "<!doctype html><html lang=en><head><title>Taken over</title></head>\
                    <body><h1>Taken over</h1><p>Another replica finished the run.</p></body></html>";
        Some(test_support::html(body))
    });
    let page = site.url("/page");
    let hooks = receiver();
    let key = new_key(&url, "work");
    let hook =
        json!({ "url": format!("http://127.0.0.1:{}/hook", hooks.server.port()), "events": ["workflow.completed"] });
    let (status, created) = request(&addrs[0], &key, "POST", "/api/v1/webhooks", Some(&hook));
    assert_eq!(status, 201, "{created}");
    let started = tool(&addrs[0], &key, "workflow_execute", json!({ "intent": "audit", "url": page }));
    let run = started["runId"].as_str().unwrap().to_string();
    let status = |addr: &str| tool(addr, &key, "workflow_status", json!({ "runId": run }));
    eventually("the audit step under way on replica 0", Duration::from_secs(20), || {
        let s = status(&addrs[1]);
        (s["state"] == "running" && s["steps"][0]["status"] == "running" && asked.load(Ordering::SeqCst)).then_some(())
    });
    replicas[0].kill();
    let killed = Instant::now();
    let done = eventually("the run completed by another replica", Duration::from_secs(30), || {
        let s = status(&addrs[2]);
        (s["state"] != "running").then_some(s)
    });
    let takeover = killed.elapsed();
    eprintln!("run completed by another replica {} ms after the kill (lease {LEASE_MS} ms)", takeover.as_millis());
    assert_eq!(done["state"], "completed", "{done:#}");
    assert_eq!(done["resumes"], 1, "adopted once: {done:#}");
    assert_eq!(done["results"]["audit"]["title"], "Taken over", "{done:#}");

    let got = eventually("the workflow.completed delivery", Duration::from_secs(20), || {
        let got = hooks.got();
        (!got.is_empty()).then_some(got)
    });
    // Nothing more comes: a second replica delivering it too would be here by now
    // (deliveries go out at once; the claim's lease is 30 s, far beyond this wait).
    std::thread::sleep(Duration::from_secs(2));
    let after = hooks.got();
    assert_eq!(after.len(), got.len(), "{after:?}");
    assert_eq!(after.len(), 1, "one delivery of the one event: {after:?}");
    let (event_id, body) = &after[0];
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["id"], event_id.as_str(), "the x-webhook-id is the event's id");
    assert_eq!(
        (body["event"].as_str(), body["data"]["runId"].as_str()),
        (Some("workflow.completed"), Some(run.as_str()))
    );
    drop(replicas);
    server.drop_database(&url);
}

/// A loopback webhook receiver answering 200 to everything.
struct Receiver {
    server: ThreadServer,
}

impl Receiver {
    /// What it got: each request's `x-webhook-id` and body.
    fn got(&self) -> Vec<(String, String)> {
        let requests = self.server.requests();
        requests.iter().map(|r| (r.header("x-webhook-id").unwrap_or_default().to_string(), r.text())).collect()
    }
}

fn receiver() -> Receiver {
    Receiver { server: ThreadServer::start(|_| Some(typed("application/json", b"{}"))) }
}
