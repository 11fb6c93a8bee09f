//! A full descriptor table: `accept` fails, the server backs off with one log line per
//! interval (not one per failure), and serves the waiting client once descriptors are free
//! (docs/SECURITY.md, "Connection bounds"). In a process of its own: it lowers the
//! process's open-file limit and fills it, and installs the global log subscriber, so the
//! work runs in this test binary started again for it alone (`test_support::run_alone`).

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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

fn text(logs: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8_lossy(&logs.lock().unwrap_or_else(|p| p.into_inner())).to_string()
}

/// `EMFILE`: the process has no descriptor left.
const EMFILE: i32 = 24;

#[test]
fn accept_failures_back_off_and_log_once_per_interval() {
    test_support::run_alone("accept_backoff::in_a_process_of_its_own");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by accept_failures_back_off_and_log_once_per_interval, in a process of its own"]
async fn in_a_process_of_its_own() {
    assert!(
        test_support::alone(),
        "it changes the whole process: run accept_failures_back_off_and_log_once_per_interval"
    );
    let logs = Arc::new(Mutex::new(Vec::new()));
    let sink = logs.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || Sink(sink.clone()))
        .init();
    let t = TestServer::start(|_| {}).await;
    let addr = t.server.local_addr();

    // Few descriptors, then all of them taken.
    let (_, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
    rlimit::setrlimit(rlimit::Resource::NOFILE, 512.min(hard), hard).unwrap();
    let mut hog = Vec::new();
    loop {
        match std::fs::File::open("/dev/null") {
            Ok(f) => hog.push(f),
            Err(e) if e.raw_os_error() == Some(EMFILE) => break,
            Err(e) => panic!("{e}"),
        }
        assert!(hog.len() <= 512, "the open-file limit did not hold");
    }
    // One descriptor for the client's socket; the server has none to accept it with.
    let mut client = loop {
        hog.pop().expect("a descriptor to free");
        match tokio::net::TcpStream::connect(addr).await {
            Ok(s) => break s,
            Err(e) if e.raw_os_error() == Some(EMFILE) => continue,
            Err(e) => panic!("{e}"),
        }
    };
    client.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await.unwrap();

    let deadline = Instant::now() + Duration::from_secs(10);
    while !text(&logs).contains("accept failed") {
        assert!(Instant::now() < deadline, "no accept failure logged: {}", text(&logs));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Let failures pile up (10, 20, 40, 80, 160 ms pauses), then free the descriptors.
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(hog);

    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), client.read_to_string(&mut answer)).await.unwrap().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let logs = text(&logs);
    let failed_lines = logs.lines().filter(|l| l.contains("accept failed")).count();
    assert_eq!(failed_lines, 1, "one line for the whole run of failures: {logs}");
    let recovered =
        logs.lines().find(|l| l.contains("accepting connections again")).unwrap_or_else(|| panic!("{logs}"));
    let failures: u64 = recovered
        .split_whitespace()
        .find_map(|w| w.strip_prefix("failures="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{recovered}"));
    assert!(failures >= 3, "the accept was retried, with pauses: {recovered}");
    eprintln!("{recovered}");
}
