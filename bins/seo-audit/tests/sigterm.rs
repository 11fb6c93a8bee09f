//! SIGTERM while a batch is being audited: the batch still answers in full, the process
//! exits 0, and every audit of the batch is in the database, whole.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

mod common;

const PAGE: &str = "<!doctype html><html lang=\"en\"><head><title>A slow fixture page for the shutdown test</title>\
<meta name=\"description\" content=\"A small page.\"></head><body><h1>Fixture</h1><p>Some words.</p></body></html>";

/// How long every page takes to answer: long enough for the signal to land mid-batch.
const PAGE_DELAY: Duration = Duration::from_millis(1500);

/// Every page answers after [`PAGE_DELAY`]; returns the port and the count of page requests.
fn slow_site() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let counter = counter.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let n = stream.read(&mut buf).unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let (status, body) = if head.starts_with("GET /robots.txt") {
                    ("404 Not Found", "")
                } else {
                    counter.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(PAGE_DELAY);
                    ("200 OK", PAGE)
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    (port, hits)
}

#[test]
fn sigterm_lets_a_running_batch_finish() {
    let dir = tempfile::tempdir().unwrap();
    let (port, hits) = slow_site();
    let (mut child, addr) = common::spawn_serve(dir.path(), "warn");

    // Five pages at three at a time: the batch needs two rounds of slow answers.
    let urls: Vec<String> = (0..5).map(|i| format!("http://127.0.0.1:{port}/page-{i}")).collect();
    let body = serde_json::json!({ "urls": urls }).to_string();
    let batch_addr = addr.clone();
    let batch = std::thread::spawn(move || {
        let mut s = TcpStream::connect(&batch_addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "POST /api/v1/audit/batch HTTP/1.1\r\nHost: {batch_addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        answer
    });

    while hits.load(Ordering::SeqCst) == 0 {
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());

    let answer = batch.join().unwrap();
    let (head, json) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{answer}"));
    assert!(head.starts_with("HTTP/1.1 200"), "{answer}");
    let json: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!((json["count"].as_u64(), json["succeeded"].as_u64()), (Some(5), Some(5)), "{json}");
    let status = child.wait().unwrap();
    assert!(status.success(), "exit status {status:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 5);

    // Every audit of the batch is stored, with a whole result.
    let store = store::Store::open(dir.path().join(store::DB_FILE_NAME)).unwrap();
    assert_eq!(store.count_audits().unwrap(), 5);
    for url in &urls {
        let stored = store.latest_audit_for_url(url).unwrap().unwrap_or_else(|| panic!("{url} not stored"));
        let result: Value = serde_json::from_str(&stored.result_json).unwrap();
        assert_eq!(result["page"]["url"], url.as_str());
    }
}
