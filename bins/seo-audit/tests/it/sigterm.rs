//! SIGTERM while a batch is being audited: the batch still answers in full, the process
//! exits 0, and every audit of the batch is in the database, whole. SIGTERM or SIGINT
//! while an analysis runs past the grace period: the process exits 0 all the same, within
//! the grace period and a small margin.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::common::{self, KillOnDrop};

const PAGE: &str = "<!doctype html><html lang=\"en\"><head><title>A slow fixture page for the shutdown test</title>\
<meta name=\"description\" content=\"A small page.\"></head><body><h1>Fixture</h1><p>Some words.</p></body></html>";

/// How long every page takes to answer: long enough for the signal to land mid-batch.
const PAGE_DELAY: Duration = Duration::from_millis(1500);

/// Every page answers after [`PAGE_DELAY`]; returns the port and the count of page requests.
fn slow_site() -> (u16, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let site = test_support::ThreadServer::start(move |request| {
        if request.path == "/robots.txt" {
            return Some(test_support::status(404));
        }
        counter.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(PAGE_DELAY);
        Some(test_support::html(PAGE))
    });
    (site.port(), hits)
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

/// A page of a million nested `<div>`s: an analysis that keeps a blocking thread busy far
/// longer than any grace period.
fn deep_page() -> String {
    let mut page = String::from("<!doctype html><html><head><title>Deep</title></head><body>");
    page.push_str(&"<div>".repeat(1_000_000));
    page
}

/// Serves [`deep_page`] to every request but robots.txt; returns the port and the count
/// of pages written out whole.
fn deep_site() -> (u16, Arc<AtomicUsize>) {
    let page = deep_page();
    let site = test_support::ThreadServer::start(move |request| {
        Some(if request.path == "/robots.txt" { test_support::status(404) } else { test_support::html(&page) })
    });
    (site.port(), site.served_counter())
}

/// `signal` while an analysis keeps a blocking thread busy: the process exits 0 within the
/// grace period and a small margin (docs/API.md, "Conventions of every endpoint").
fn exits_within_the_grace_period(signal: &str) {
    const GRACE: Duration = Duration::from_millis(1500);
    const MARGIN: Duration = Duration::from_secs(3);
    let dir = tempfile::tempdir().unwrap();
    let (port, served) = deep_site();
    let grace = GRACE.as_millis().to_string();
    let (child, addr) = common::spawn_serve_with(dir.path(), "warn", &["--shutdown-grace-ms", &grace]);
    let mut child = KillOnDrop(child);

    let client_addr = addr.clone();
    let client = std::thread::spawn(move || {
        let mut s = TcpStream::connect(&client_addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        write!(
            s,
            "GET /api/v1/audit?url=http%3A%2F%2F127.0.0.1%3A{port}%2Fdeep HTTP/1.1\r\nHost: {client_addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).to_string()
    });

    // The page is out: the service is reading or analysing it.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while served.load(Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "the page was never fetched");
        std::thread::sleep(Duration::from_millis(20));
    }
    let signalled = std::time::Instant::now();
    let pid = child.0.id().to_string();
    assert!(Command::new("kill").args([signal, &pid]).status().unwrap().success());

    let status = loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            break status;
        }
        let waited = signalled.elapsed();
        assert!(waited < GRACE + MARGIN, "still running {waited:?} after {signal} (grace {GRACE:?})");
        std::thread::sleep(Duration::from_millis(20));
    };
    let exited = signalled.elapsed();
    assert!(status.success(), "exit status {status:?}");
    // The request in flight got no answer, or a whole one if the analysis ended in time.
    let answer = client.join().unwrap();
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 "), "{answer}");
    eprintln!(
        "{signal}: exited {} ms after the signal (grace {} ms); the request in flight {}",
        exited.as_millis(),
        GRACE.as_millis(),
        if answer.is_empty() {
            "got no answer".to_string()
        } else {
            format!("was answered: {}", answer.lines().next().unwrap_or(""))
        }
    );
}

#[test]
fn sigterm_exits_within_the_grace_period_with_an_analysis_running() {
    exits_within_the_grace_period("-TERM");
}

#[test]
fn sigint_exits_within_the_grace_period_with_an_analysis_running() {
    exits_within_the_grace_period("-INT");
}
