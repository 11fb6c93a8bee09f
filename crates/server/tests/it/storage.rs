//! What one anonymous address can add to the database in its minute of quota
//! (docs/SECURITY.md, "The bytes one caller can add per minute"): the real server on a real
//! SQLite file, loopback sites shaped to reach what a crawl and an audit may store.

use crate::common;

use common::*;
use serde_json::json;

/// The documented bound of what one anonymous address adds to the database in a minute, on
/// disk (the file and its write-ahead log): docs/SECURITY.md, "The bytes one caller can add
/// per minute", 10 units of at most 120 MiB each.
const DOCUMENTED_BYTES_PER_MINUTE: u64 = 10 * 120 * 1024 * 1024;

/// Bytes of the SQLite file and its write-ahead log under `dir`.
fn on_disk(dir: &std::path::Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| {
            let path = dir.join(format!("{}{suffix}", app::DB_FILE_NAME));
            std::fs::metadata(path).map_or(0, |m| m.len())
        })
        .sum()
}

/// A site where every path answers a page about as large as a crawl record keeps: 250 links
/// to distinct URLs of about 1,920 bytes (a record keeps 2,048), each with an anchor of 1,000
/// bytes, a title of 1,000 bytes the pages share (duplicate-title findings on every
/// page), and no description (a page finding on each).
async fn heavy_site() -> test_support::Pages {
    let served = std::sync::atomic::AtomicU64::new(0);
    test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        if request.url.path() == "/robots.txt" {
            return test_support::ResponseTemplate::new(404);
        }
        // Each page answered links to URLs of its own, none linked before.
        let k = served.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (pad, anchor) = ("x".repeat(1_900), "a".repeat(1_000));
        let links: String = (0..250).map(|i| format!("<a href='/{k}-{i}-{pad}'>{anchor}</a>")).collect();
        let title = "t".repeat(1_000);
        let body = format!("<html lang=en><title>{title}</title><h1>{title}</h1>{links}</html>");
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await
}

/// One anonymous address spends its minute of quota (10 units: eight crawls of 30 pages of
/// the heavy site, two audits of a 5 MiB page built to reach the audit result's bounds); the
/// SQLite file and its log grow by no more than the documented figure, and each stored
/// audit result is within `audit_core::bound::MAX_RESULT_BYTES`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_anonymous_address_at_its_quota_stores_within_the_documented_bound() {
    // The service's warnings (a write refused as "database is locked") show when it fails.
    let _ = tracing_subscriber::fmt().with_test_writer().with_max_level(tracing::Level::WARN).try_init();
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    if test_database(dir.path()).is_some() {
        eprintln!("skipped: the bytes on disk are measured on the SQLite file");
        return;
    }
    let t = TestServer::start_in(dir.clone(), |c| {
        c.rate_limits.anonymous = 10;
        // The service's own limits, not the small ones of the other tests.
        c.fetch.max_body_bytes = 5 * 1024 * 1024;
        c.fetch.total_timeout_ms = 20_000;
    })
    .await;
    let site = heavy_site().await;
    let hostile = test_support::Pages::serve(move |_: &test_support::wiremock::Request| {
        // Headings, descriptions and a title of control characters (six bytes each as JSON).
        let ctl = "\u{1}".repeat(1_000);
        let headings: String = (0..2_000).map(|_| format!("<h2>{ctl}</h2>")).collect();
        let body = format!(
            "<html lang=en><title>{ctl}{ctl}</title><meta name=description content='{ctl}{ctl}{ctl}{ctl}{ctl}'>{headings}</html>"
        );
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await;
    let before = on_disk(dir.path());

    let mut crawls = Vec::new();
    for _ in 0..8 {
        let body = json!({"url": format!("http://{}/", site.addr()), "sitemaps": false});
        let a = Answer::from(t.client.post(t.url("/api/v1/crawls")).json(&body).send().await.unwrap()).await;
        assert_eq!(a.status, 202, "{}", a.raw);
        crawls.push(a.body["crawl"]["id"].as_str().unwrap().to_string());
    }
    for _ in 0..2 {
        let url = format!("http://{}/", hostile.addr());
        let a = Answer::from(t.client.get(t.url("/api/v1/audit")).query(&[("url", &url)]).send().await.unwrap()).await;
        assert_eq!(a.status, 200, "{}", &a.raw[..a.raw.len().min(500)]);
        assert!(a.raw.len() <= audit_core::bound::MAX_RESULT_BYTES, "{} bytes", a.raw.len());
        assert_eq!(a.body["page"]["headings_total"], 2_000);
    }

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(900);
    loop {
        let states: Vec<String> =
            t.db(|s| crawls.iter().map(|id| s.get_crawl(id).unwrap().state.as_str().to_string()).collect());
        if states.iter().all(|s| s != "running" && s != "queued") {
            assert!(states.iter().all(|s| s == "completed"), "{states:?}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the crawls did not end: {states:?}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    for id in &crawls {
        let c = t.db(|s| s.get_crawl(id).unwrap());
        assert_eq!(c.progress.pages_done, 30, "every crawl fetched its 30 pages: {c:?}");
    }
    let grown = on_disk(dir.path()).saturating_sub(before);
    eprintln!(
        "one anonymous address's minute: the database grew by {grown} bytes ({:.1} MiB) against {} documented",
        grown as f64 / 1048576.0,
        DOCUMENTED_BYTES_PER_MINUTE
    );
    assert!(grown <= DOCUMENTED_BYTES_PER_MINUTE, "{grown} bytes");
}

/// Crawls of pages about as large as a record keeps, beside a keyed client's audits, their
/// webhook deliveries and the quota counters, on one SQLite file: every request is answered,
/// every crawl completes, every audit, delivery and quota unit is there, and `/api/status`
/// answers within a second at each probe. Before the writers took turns in one queue, such
/// crawls made the other writes fail with "database is locked" (docs/SECURITY.md, "Writes
/// beside running crawls").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawls_of_large_records_beside_audits_quota_and_webhooks_lose_nothing() {
    use std::net::IpAddr;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    let _ = tracing_subscriber::fmt().with_test_writer().with_max_level(tracing::Level::WARN).try_init();
    let dir = Arc::new(tempfile::tempdir().unwrap());
    if test_database(dir.path()).is_some() {
        eprintln!("skipped: the writers' queue is SQLite's");
        return;
    }
    let t = TestServer::start_in(dir.clone(), |c| {
        c.fetch.max_body_bytes = 5 * 1024 * 1024;
        c.fetch.total_timeout_ms = 20_000;
        c.max_pages.anonymous = 20;
        c.webhook_retry_base_ms = 50;
    })
    .await;
    let site = heavy_site().await;
    let small = test_support::Pages::serve(|request: &test_support::wiremock::Request| {
        let body = format!("<html lang=en><title>Page {}</title><h1>A page</h1></html>", request.url);
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await;
    let receiver = test_support::Pages::serve(|_: &test_support::wiremock::Request| {
        test_support::ResponseTemplate::new(200).set_body_raw("{}", "application/json")
    })
    .await;
    let (key, record) = t.key(|k| k.scopes = vec!["audit".into(), "webhooks".into()]);
    let hook = t
        .client
        .post(t.url("/api/v1/webhooks"))
        .header("x-api-key", &key)
        .json(&json!({"url": format!("http://{}/hook", receiver.addr()), "events": ["audit.completed"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(hook.status(), 201);
    let now = || time::OffsetDateTime::now_utc();
    let units_before = t.db(|s| s.usage_counts(&record.identity(), now())).unwrap().last_24h;

    // /api/status is asked every 50 ms from an address of its own while the rest runs; the
    // slowest answer is kept, and the slowest database round trip the service reported.
    let (done, slowest) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
    let slowest_ping = Arc::new(AtomicU64::new(0));
    let watcher = {
        let (done, slowest, slowest_ping) = (done.clone(), slowest.clone(), slowest_ping.clone());
        let client = reqwest::Client::builder().no_proxy().local_address(IpAddr::from([127, 0, 0, 6])).build().unwrap();
        let url = t.url("/api/status");
        tokio::spawn(async move {
            let mut asked = 0u32;
            while !done.load(Ordering::SeqCst) {
                let at = Instant::now();
                let a = Answer::from(client.get(&url).timeout(Duration::from_secs(30)).send().await.unwrap()).await;
                assert_eq!(a.status, 200, "{}", a.raw);
                slowest.fetch_max(at.elapsed().as_millis() as u64, Ordering::SeqCst);
                slowest_ping.fetch_max(a.body["latency_ms"].as_u64().unwrap(), Ordering::SeqCst);
                asked += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            asked
        })
    };

    // Four crawls from two addresses (two each: all four run at once).
    let mut crawls = Vec::new();
    for last in [2u8, 2, 3, 3] {
        let client =
            reqwest::Client::builder().no_proxy().local_address(IpAddr::from([127, 0, 0, last])).build().unwrap();
        let body = json!({"url": format!("http://{}/", site.addr()), "sitemaps": false});
        let a = Answer::from(client.post(t.url("/api/v1/crawls")).json(&body).send().await.unwrap()).await;
        assert_eq!(a.status, 202, "{}", a.raw);
        crawls.push(a.body["crawl"]["id"].as_str().unwrap().to_string());
    }
    // The keyed client's audits while they run, one after the other.
    const AUDITS: u64 = 24;
    for n in 0..AUDITS {
        let page = format!("http://{}/page-{n}", small.addr());
        let a =
            Answer::from(t.client.get(t.audit_url(&page, "")).header("x-api-key", &key).send().await.unwrap()).await;
        assert_eq!(a.status, 200, "audit {n}: {}", &a.raw[..a.raw.len().min(500)]);
    }

    let deadline = Instant::now() + Duration::from_secs(900);
    loop {
        let states: Vec<String> =
            t.db(|s| crawls.iter().map(|id| s.get_crawl(id).unwrap().state.as_str().to_string()).collect());
        if states.iter().all(|s| s != "running" && s != "queued") {
            assert!(states.iter().all(|s| s == "completed"), "{states:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the crawls did not end: {states:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for id in &crawls {
        let c = t.db(|s| s.get_crawl(id).unwrap());
        assert_eq!(c.progress.pages_done, 20, "every crawl fetched its 20 pages: {c:?}");
    }
    done.store(true, Ordering::SeqCst);
    let asked = watcher.await.unwrap();

    // Nothing lost: every audit stored, delivered and counted.
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), AUDITS);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let delivered = receiver.requests().await.len() as u64;
        let units = t.db(|s| s.usage_counts(&record.identity(), now())).unwrap().last_24h - units_before;
        if delivered == AUDITS && units == AUDITS {
            break;
        }
        assert!(delivered <= AUDITS && units <= AUDITS, "{delivered} deliveries, {units} units");
        assert!(Instant::now() < deadline, "{delivered} deliveries and {units} units of {AUDITS}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (slowest, slowest_ping) = (slowest.load(Ordering::SeqCst), slowest_ping.load(Ordering::SeqCst));
    eprintln!("/api/status: {slowest} ms at worst over {asked} requests, its database round trip {slowest_ping} ms");
    assert!(
        asked >= 5 && slowest < 1_000,
        "/api/status took {slowest} ms at worst over {asked} requests (its database round trip {slowest_ping} ms)"
    );
}
