//! A workflow run cut short by a killed server is not lost: after a restart on the same
//! database it reads `failed` with reason `interrupted` (DECISIONS §9).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::{bin, spawn_serve};

/// A page that takes a minute to answer (robots.txt answers 404 at once).
fn slow_site() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let n = stream.read(&mut buf).unwrap_or(0);
                if String::from_utf8_lossy(&buf[..n]).starts_with("GET /robots.txt") {
                    let _ =
                        stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    return;
                }
                std::thread::sleep(Duration::from_secs(60));
            });
        }
    });
    port
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

#[test]
fn killed_runs_read_interrupted_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin(dir.path()).args(["keys", "create", "--name", "restart", "--tier", "free"]).output().unwrap();
    assert!(out.status.success());
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let page = format!("http://127.0.0.1:{}/", slow_site());

    let (mut child, addr) = spawn_serve(dir.path(), "warn");
    let started = call(&addr, &key, "workflow_execute", json!({ "intent": "audit", "url": page }));
    let run = started["runId"].as_str().unwrap().to_string();
    // Wait (bounded) until the audit step is under way, fetching the slow page.
    let mut status = Value::Null;
    for _ in 0..200 {
        status = call(&addr, &key, "workflow_status", json!({ "runId": run }));
        if status["state"] == "running" && status["steps"][0]["status"] == "running" {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert_eq!(status["steps"][0]["status"], "running", "{status:#}");
    child.kill().unwrap(); // SIGKILL: no graceful anything.
    child.wait().unwrap();

    let (mut child, addr) = spawn_serve(dir.path(), "warn");
    let after = call(&addr, &key, "workflow_status", json!({ "runId": run }));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(after["state"], "failed", "{after:#}");
    assert_eq!(after["error"], json!({ "step": "audit", "reason": "interrupted" }));
    assert_eq!(after["steps"][0]["status"], "failed");
    assert_eq!(after["steps"][1]["status"], "pending");
}
