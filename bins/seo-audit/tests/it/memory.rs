//! The binary's memory while HTTP/2 clients hold many request bodies half sent
//! (docs/SECURITY.md, "Request bodies").

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;

use crate::common;

/// The bodies of many HTTP/2 streams, each declaring 1 MB and stalling after 128 KiB, fill
/// the body budget and are refused past it; the process gets pages of the normal size only
/// (docs/SECURITY.md, "Request bodies": with mimalloc's transparent huge pages, every body's
/// buffer made 2 MiB resident, and the process grew by several times the bytes the budget
/// counted). Linux only: the switch and what it changes are read from `/proc`.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_h2_bodies_are_held_on_pages_of_the_normal_size() {
    const CONNECTIONS: usize = 10;
    const STREAMS: usize = 100;
    const SENT: usize = 128 * 1024;
    const DECLARED: usize = 1_000_000;
    static SPACES: [u8; SENT] = [b' '; SENT];
    let dir = tempfile::tempdir().unwrap();
    let (child, addr) = common::spawn_serve_with(dir.path(), "warn", &["--rate-limit-anonymous", "1000000"]);
    let served = common::KillOnDrop(child);
    let proc_file = |name: &str| std::fs::read_to_string(format!("/proc/{}/{name}", served.0.id())).unwrap();

    // The switch is on whatever the machine's setting (`THP_enabled` is shown since Linux 5.0).
    let status = proc_file("status");
    if let Some(enabled) = test_support::proc_kib(&status, "THP_enabled") {
        assert_eq!(enabled, 0, "transparent huge pages are off for the service");
    }
    let huge_before = test_support::proc_kib(&proc_file("smaps_rollup"), "AnonHugePages").unwrap_or(0);
    let rss_before = test_support::proc_kib(&status, "VmRSS").unwrap_or(0);

    let refused = Arc::new(AtomicUsize::new(0));
    let mut requests = Vec::new();
    for _ in 0..CONNECTIONS {
        // One client, one HTTP/2 connection (cleartext, prior knowledge: h2c).
        let client = reqwest::Client::builder().no_proxy().http2_prior_knowledge().build().unwrap();
        for _ in 0..STREAMS {
            let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(&SPACES))])
                .chain(futures_util::stream::pending());
            let request = client
                .post(format!("http://{addr}/api/content-gap"))
                .header("content-type", "application/json")
                .header("content-length", DECLARED.to_string())
                .body(reqwest::Body::wrap_stream(chunks));
            let refused = refused.clone();
            requests.push(tokio::spawn(async move {
                if request.send().await.is_ok_and(|r| r.status() == 503) {
                    refused.fetch_add(1, Ordering::SeqCst);
                }
            }));
        }
    }
    // The budget (16 MiB) holds 128 bodies of 128 KiB: the others are refused as they come.
    // A refusal means the budget is full; how many come how soon depends on how the
    // streams are scheduled (32 open at once on each connection; 464 to 516 were seen
    // within the deadline, on a loaded machine and an idle one), so a quarter is waited for.
    let wanted = CONNECTIONS * STREAMS / 4;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while refused.load(Ordering::SeqCst) < wanted {
        assert!(tokio::time::Instant::now() < deadline, "{} bodies refused", refused.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let huge = test_support::proc_kib(&proc_file("smaps_rollup"), "AnonHugePages").unwrap_or(0);
    let status = proc_file("status");
    let rss = test_support::proc_kib(&status, "VmRSS").unwrap_or(0);
    let peak = test_support::proc_kib(&status, "VmHWM").unwrap_or(0);
    eprintln!(
        "{} bodies refused; RSS {} -> {} MiB (peak {} MiB); huge pages {} -> {} MiB",
        refused.load(Ordering::SeqCst),
        rss_before >> 10,
        rss >> 10,
        peak >> 10,
        huge_before >> 10,
        huge >> 10
    );
    assert!(huge <= huge_before, "the bodies were written to huge pages: {huge_before} -> {huge} kB");
    // The documented bound of what these bodies may cost the process: 64 MB (61 MiB) above
    // what it held before, at its peak.
    assert!(
        peak.saturating_sub(rss_before) <= 61 * 1024,
        "the process grew from {rss_before} kB to a peak of {peak} kB"
    );
    for r in requests {
        r.abort();
    }
}
