//! The analysis of a page is bounded by the audit slots and stops with its request
//! (docs/API.md "Analysis limits"), and every audit takes a place in the bounded queue,
//! batch items included (docs/API.md "Limits").
//!
//! The cancellation test reads the process's CPU time, which no other test may be spending
//! at the same time: it runs in this test binary started again for it alone
//! (`test_support::run_alone`).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;
use test_support::{wiremock, Pages, ResponseTemplate};

use crate::common::{self, fixture_site, TestServer, SLOW_DELAY};
use crate::hostile::shapes as hostile;

/// A site whose `/` is a page of 1 MiB in one tag with 200,000 distinct attributes: the
/// tokenizer's duplicate check makes it quadratic, about 20 s of CPU without a budget.
async fn costly_site() -> std::net::SocketAddr {
    let shape = hostile::SHAPES.iter().find(|s| s.name == "many-attributes").unwrap();
    let page = (shape.generate)(1024 * 1024);
    Pages::serve(move |_: &wiremock::Request| {
        ResponseTemplate::new(200).set_body_raw(page.clone(), "text/html; charset=utf-8")
    })
    .await
    .leak()
}

async fn fetch(srv: &TestServer, url: String) -> common::Answer {
    common::Answer::from(srv.client.get(url).send().await.unwrap()).await
}

/// CPU time of this process so far (user and system), from /proc.
#[cfg(target_os = "linux")]
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

#[cfg(target_os = "linux")]
#[test]
fn an_abandoned_analysis_stops_and_only_then_frees_its_slot() {
    test_support::run_alone("analysis::an_abandoned_analysis_alone");
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by an_abandoned_analysis_stops_and_only_then_frees_its_slot, in a process of its own"]
async fn an_abandoned_analysis_alone() {
    assert!(
        test_support::alone(),
        "it measures the process: run an_abandoned_analysis_stops_and_only_then_frees_its_slot"
    );
    let site = costly_site().await;
    let srv = TestServer::start(|c| {
        c.max_concurrent_audits = 1;
        c.audit_queue = 2;
        // No time budget: only the request going away can stop this analysis early.
        c.analysis_cpu_ms = 0;
        c.fetch.max_body_bytes = 2 * 1024 * 1024;
    })
    .await;
    let app = srv.server.state().app.clone();
    let impatient = reqwest::Client::builder().no_proxy().timeout(Duration::from_millis(1500)).build().unwrap();
    let gave_up = impatient.get(srv.audit_url(&format!("http://{site}/"), "")).send().await;
    assert!(gave_up.is_err(), "the page takes far longer than the client waits");

    // The analysis notices within a few milliseconds and gives its slot back.
    let started = Instant::now();
    while app.audits_running() > 0 {
        assert!(started.elapsed() < Duration::from_secs(3), "the abandoned analysis still holds its slot");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // And nothing goes on computing behind the freed slot.
    let before = process_cpu();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let spent = process_cpu() - before;
    assert!(spent < Duration::from_millis(300), "{spent:?} of CPU spent after the request went away");

    // The slot serves the next audit.
    let basic = fixture_site("server-basic").await;
    let answer = fetch(&srv, srv.audit_url(&basic.url("/"), "&format=compact")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_over_the_budget_is_audited_as_far_as_it_was_parsed() {
    let site = costly_site().await;
    let srv = TestServer::start(|c| {
        c.analysis_cpu_ms = 300;
        c.fetch.max_body_bytes = 2 * 1024 * 1024;
    })
    .await;
    let answer = fetch(&srv, srv.audit_url(&format!("http://{site}/"), "")).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["page"]["title"], "Hostile shape");
    let finding = answer.body["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "html-too-complex")
        .expect("the cut is reported");
    assert_eq!(finding["title"], "Analysis stopped before the end of the page");
}

/// Batches take their places in the queue like single audits: a storm of them is refused
/// at once instead of queueing past the bound, so an ordinary audit during the storm waits at
/// most for the places ahead of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_items_wait_inside_the_queue_bound() {
    let site = fixture_site("server-basic").await;
    let srv = TestServer::start(|c| {
        c.max_concurrent_audits = 1;
        c.audit_queue = 2;
    })
    .await;
    let batch = |n: usize| {
        let urls: Vec<String> = (0..n).map(|i| site.url(&format!("/slow/index.html?b={i}"))).collect();
        json!({ "urls": urls, "format": "compact" })
    };
    let storm: Vec<_> = (0..6)
        .map(|_| {
            let client = srv.client.clone();
            let url = srv.url("/api/v1/audit/batch");
            let body = batch(3);
            tokio::spawn(async move {
                let started = Instant::now();
                let resp = client.post(url).json(&body).send().await.unwrap();
                (resp.status().as_u16(), started.elapsed())
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let single = fetch(&srv, srv.audit_url(&site.url("/slow/index.html?single"), "&format=compact")).await;
    let waited = started.elapsed();
    let mut admitted = 0;
    for handle in storm {
        let (status, took) = handle.await.unwrap();
        match status {
            200 => admitted += 1,
            503 => assert!(took < Duration::from_secs(1), "a refused batch is refused at once ({took:?})"),
            other => panic!("unexpected status {other}"),
        }
    }
    // One slot and two queue places: one batch of three fits, no more.
    assert_eq!(admitted, 1);
    match single.status {
        // Served: after at most the three places ahead of it, each one slow fetch.
        200 => assert!(waited < SLOW_DELAY * 4 + Duration::from_secs(2), "waited {waited:?}"),
        503 => assert!(waited < Duration::from_secs(1), "refused at once ({waited:?})"),
        other => panic!("unexpected status {other}: {}", single.body),
    }
    // Nothing was fetched beyond what the places allow.
    let fetched = site.slow_hits.load(Ordering::SeqCst);
    assert!(fetched <= 4, "{fetched} slow pages fetched");
}
