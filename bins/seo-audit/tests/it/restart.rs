//! A workflow run cut short by a killed server is not lost: a restart on the same database
//! resumes it from the step that was cut short, and a run cut short again and again reads
//! `failed` with reason `interrupted` after `store::MAX_RESUMES` resumes (docs/API.md,
//! "Workflow runs").

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::common;
use common::{bin, spawn_serve};

/// A site whose `/slow` page takes a minute to answer every time, and whose `/once` page
/// takes a minute the first time only (robots.txt answers 404 at once). The flag turns true
/// when `/once` has been asked for.
fn site() -> (u16, Arc<AtomicBool>) {
    let asked = Arc::new(AtomicBool::new(false));
    let flag = asked.clone();
    let site = test_support::ThreadServer::start(move |request| {
        if request.path == "/robots.txt" {
            return Some(test_support::status(404));
        }
        if request.path.starts_with("/slow")
            || (request.path.starts_with("/once") && !flag.swap(true, Ordering::SeqCst))
        {
            std::thread::sleep(Duration::from_secs(60));
            return None;
        }
        let body = "<!doctype html><html lang=en><head><title>Back again after the restart</title></head>\
                    <body><h1>Back</h1><p>The page answers now.</p></body></html>";
        Some(test_support::html(body))
    });
    (site.port(), asked)
}

/// A tools/call in the simple form; the structuredContent (or the error text).
fn call(addr: &str, key: &str, name: &str, arguments: Value) -> Value {
    let body = json!({ "method": "tools/call", "params": { "name": name, "arguments": arguments } }).to_string();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nx-api-key: {key}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let json = raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    let answer: Value = serde_json::from_str(json).unwrap_or_else(|_| panic!("{raw}"));
    assert_eq!(answer["result"]["isError"], false, "{raw}");
    answer["result"]["structuredContent"].clone()
}

/// workflow_status until `done` holds (bounded); the last status.
fn wait_for(addr: &str, key: &str, run: &str, done: impl Fn(&Value) -> bool) -> Value {
    let mut status = Value::Null;
    for _ in 0..400 {
        status = call(addr, key, "workflow_status", json!({ "runId": run }));
        if done(&status) {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    status
}

fn new_key(dir: &std::path::Path) -> String {
    let out = bin(dir).args(["keys", "create", "--name", "restart", "--tier", "free"]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn audit_step_running(status: &Value) -> bool {
    status["state"] == "running" && status["steps"][0]["status"] == "running"
}

#[test]
fn a_killed_run_resumes_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path());
    let (port, asked) = site();
    let page = format!("http://127.0.0.1:{port}/once");

    let (mut child, addr) = spawn_serve(dir.path(), "warn");
    let started = call(&addr, &key, "workflow_execute", json!({ "intent": "audit", "url": page }));
    let run = started["runId"].as_str().unwrap().to_string();
    // The audit step is under way, stuck on the page's first (slow) answer.
    let status = wait_for(&addr, &key, &run, |s| audit_step_running(s) && asked.load(Ordering::SeqCst));
    assert!(audit_step_running(&status), "{status:#}");
    child.kill().unwrap(); // SIGKILL: no graceful anything.
    child.wait().unwrap();

    let (mut child, addr) = spawn_serve(dir.path(), "warn");
    let after = wait_for(&addr, &key, &run, |s| s["state"] != "running");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(after["state"], "completed", "{after:#}");
    assert_eq!(after["resumes"], 1);
    assert_eq!(after["error"], Value::Null);
    let statuses: Vec<&str> =
        after["steps"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["completed", "completed"]);
    assert_eq!(after["results"]["audit"]["title"], "Back again after the restart", "{after:#}");
}

#[test]
fn a_run_killed_at_every_attempt_ends_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let key = new_key(dir.path());
    let (port, _) = site();
    let page = format!("http://127.0.0.1:{port}/slow");

    let (mut child, mut addr) = spawn_serve(dir.path(), "warn");
    let started = call(&addr, &key, "workflow_execute", json!({ "intent": "audit", "url": page }));
    let run = started["runId"].as_str().unwrap().to_string();
    // The first attempt and each resumed one are killed while the audit step runs.
    for attempt in 0..=store::MAX_RESUMES {
        let status = wait_for(&addr, &key, &run, audit_step_running);
        assert!(audit_step_running(&status), "attempt {attempt}: {status:#}");
        assert_eq!(status["resumes"], attempt, "{status:#}");
        child.kill().unwrap();
        child.wait().unwrap();
        (child, addr) = spawn_serve(dir.path(), "warn");
    }
    let after = call(&addr, &key, "workflow_status", json!({ "runId": run }));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(after["state"], "failed", "{after:#}");
    assert_eq!(after["error"], json!({ "step": "audit", "reason": "interrupted" }));
    assert_eq!(after["resumes"], store::MAX_RESUMES);
    assert_eq!(after["steps"][0]["status"], "failed");
    assert_eq!(after["steps"][1]["status"], "pending");
}
