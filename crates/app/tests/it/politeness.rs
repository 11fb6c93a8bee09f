//! Politeness across crawls and replicas (docs/API.md, "Site crawl", "Politeness"): at most
//! 4 requests in flight to one host from every crawl together (in memory on SQLite, in the
//! database on PostgreSQL, where three applications on one database stand for three
//! replicas), a `429` answer's `Retry-After` honoured and its page fetched again, and a crawl
//! of a site answering mostly errors paused, then ended with its reason after a bounded
//! number of requests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use app::crawl::{run_local, CrawlEnd, CrawlOptions, CrawlRequest, Crawls, LocalCrawl};
use crawl::{Limits, Scope, ScopeConfig};
use test_support::{html, status, Reply, ThreadServer};

use crate::support::{open, open_on, page, TestApp};

/// Pages of the busy site besides its home page.
const PAGES: usize = 30;

/// A site whose every answer takes a while (so that requests overlap), of a home page
/// linking to [`PAGES`] pages that each link to a few others.
fn busy_site() -> ThreadServer {
    ThreadServer::start(|request| {
        std::thread::sleep(Duration::from_millis(40));
        if request.path == "/robots.txt" {
            return Some(status(404));
        }
        let n: usize = request.path.trim_start_matches("/p").parse().unwrap_or(0);
        let links: Vec<String> = if request.path == "/" {
            (0..PAGES).map(|i| format!("/p{i}")).collect()
        } else {
            (1..4).map(|d| format!("/p{}", (n + d) % PAGES)).collect()
        };
        let links: Vec<&str> = links.iter().map(String::as_str).collect();
        Some(html(&page(&format!("Page {}", request.path), &links)))
    })
}

fn request(url: &str) -> CrawlRequest {
    let url = app::validate_url(url).expect("a loopback URL the fixture allows");
    CrawlRequest { sitemaps: false, external_links: false, ..CrawlRequest::of(url) }
}

/// Starts a crawl of `url` on `crawls` for an anonymous caller from `ip`.
async fn start(t: &TestApp, crawls: &Crawls, ip: &str, url: &str) -> vocab::CrawlId {
    let payer = t.anonymous(ip, 100);
    crawls.start_for(&payer, request(url)).await.expect("started").crawl.id
}

/// Waits (at most two minutes) until crawl `id` has ended.
async fn ended(crawls: &Crawls, id: &app::CrawlId) -> store::Crawl {
    for _ in 0..1200 {
        let crawl = crawls.owned(None, id).await.expect("the crawl of this caller");
        if crawl.finished_at.is_some() {
            return crawl;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("crawl {id} did not end within two minutes");
}

#[tokio::test]
async fn two_crawls_of_one_host_keep_four_requests_in_flight() {
    let t = open(8, 16);
    let site = busy_site();
    let crawls = Crawls::new(t.app.clone());
    let first = start(&t, &crawls, "198.51.100.1", &site.url("/")).await;
    let second = start(&t, &crawls, "198.51.100.2", &site.url("/")).await;
    for id in [first, second] {
        let crawl = ended(&crawls, &id).await;
        assert_eq!(crawl.state, store::CrawlState::Completed, "{:?}", crawl.error);
        assert_eq!(crawl.progress.pages_done, u64::from(app::crawl::ANONYMOUS_MAX_PAGES));
    }
    let max = site.max_in_flight();
    eprintln!("two crawls of one host on SQLite: at most {max} requests in flight");
    // Each crawl alone may have 4 in flight: together they share those 4.
    assert!(max <= 4, "{max} requests in flight to one host");
    assert!(max >= 3, "the crawls did overlap ({max} in flight at most)");
}

#[tokio::test]
async fn three_replicas_on_postgres_keep_four_requests_in_flight_to_one_host() {
    let Some(pg) = test_support::TempPostgres::shared() else {
        eprintln!("no PostgreSQL on this machine: skipped");
        return;
    };
    let url = pg.fresh_database();
    let site = busy_site();
    // The PostgreSQL client blocks: the applications are opened (and dropped) off the
    // async threads.
    let replicas: Vec<TestApp> = tokio::task::spawn_blocking(move || {
        (0..3)
            .map(|_| {
                let dir = tempfile::tempdir().expect("temporary directory");
                open_on(dir, store::Database::Postgres(url.clone()), 8, 16)
            })
            .collect()
    })
    .await
    .expect("three replicas open");
    let engines: Vec<Crawls> = replicas.iter().map(|t| Crawls::new(t.app.clone()).with_caps(8, 8)).collect();
    let mut started = Vec::new();
    for (r, (t, crawls)) in replicas.iter().zip(&engines).enumerate() {
        for c in 0..2 {
            started.push((r, start(t, crawls, &format!("198.51.100.{}", 10 * r + c + 1), &site.url("/")).await));
        }
    }
    for (r, id) in &started {
        let crawl = ended(&engines[*r], id).await;
        assert_eq!(crawl.state, store::CrawlState::Completed, "{:?}", crawl.error);
        assert!(crawl.progress.pages_done > 0);
    }
    let max = site.max_in_flight();
    eprintln!("six crawls of one host on three replicas (PostgreSQL): at most {max} requests in flight");
    assert!(max <= 4, "{max} requests in flight to one host");
    assert!(max >= 3, "the crawls did overlap ({max} in flight at most)");
    // Every slot was given back.
    let store = replicas[0].app.store.clone();
    let held = tokio::task::spawn_blocking(move || {
        // Releases run in the background: give them a moment.
        for _ in 0..50 {
            if store.host_slots_held("127.0.0.1", 0).expect("slots") == 0 {
                return 0;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        store.host_slots_held("127.0.0.1", 0).expect("slots")
    })
    .await
    .expect("slots read");
    assert_eq!(held, 0, "slots left held after every crawl ended");
    drop(engines);
    tokio::task::spawn_blocking(move || drop(replicas)).await.expect("replicas closed");
}

/// A local crawl of `url` (at most `max_pages` pages, no sitemaps) into a scratch store.
fn local(url: &str, max_pages: u32) -> LocalCrawl {
    let start = app::validate_url(url).expect("url");
    let scope = Scope::new(start.as_str(), ScopeConfig { max_pages, ..ScopeConfig::default() }).expect("scope");
    let options = CrawlOptions { sitemaps: false, ..CrawlOptions::default() };
    LocalCrawl { start, scope, limits: Limits::default(), options, on_progress: None }
}

fn with_header(reply: Reply, name: &str, value: &str) -> Reply {
    match reply {
        Reply::Full { status, mut headers, body } => {
            headers.push((name.to_string(), value.to_string()));
            Reply::Full { status, headers, body }
        }
        other => other,
    }
}

#[tokio::test]
async fn a_page_answering_429_with_retry_after_is_fetched_again_and_audited() {
    let t = open(4, 8);
    let asked = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&asked);
    let site = ThreadServer::start(move |request| match request.path.as_str() {
        "/" => Some(html(&page("Home", &["/busy"]))),
        "/busy" if count.fetch_add(1, Ordering::SeqCst) == 0 => Some(with_header(status(429), "Retry-After", "1")),
        "/busy" => Some(html(&page("Busy", &["/"]))),
        _ => Some(status(404)),
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store::Store::open(dir.path().join("crawl.db")).expect("store");
    let run =
        run_local(&t.app.fetcher, &store, local(&site.url("/"), 10), std::future::pending()).await.expect("crawled");
    assert_eq!(run.summary.end, CrawlEnd::Completed);
    assert_eq!(run.summary.error_pauses, 0);
    let (pages, _) = store.crawl_pages(&run.crawl_id, None, 10).expect("pages");
    let busy = pages.iter().find(|p| p.url == site.url("/busy")).expect("the busy page listed");
    assert_eq!(busy.status_code, Some(200), "{busy:?}");
    assert!(busy.score.is_some(), "the page was audited: {busy:?}");
    // The crawl's own requests (the edge check after it asks again as a browser and as AI
    // crawlers).
    let ours = |r: &test_support::Recorded| r.header("user-agent").is_some_and(|ua| ua.contains("SeoAuditBot"));
    let tries: Vec<_> = site.requests().into_iter().filter(|r| r.path == "/busy" && ours(r)).collect();
    assert_eq!(tries.len(), 2, "asked once more after the 429");
    let waited = tries[1].at.duration_since(tries[0].at);
    assert!(waited >= Duration::from_millis(900), "the Retry-After of 1 s was honoured ({waited:?})");
}

#[tokio::test]
async fn a_site_answering_503_to_everything_pauses_the_crawl_then_ends_it_with_the_reason() {
    let t = open(4, 8);
    // The home page answers; every page it links to answers 503, asking for a second.
    let site = ThreadServer::start(|request| match request.path.as_str() {
        "/" => {
            let links: Vec<String> = (0..100).map(|i| format!("/p{i}")).collect();
            let links: Vec<&str> = links.iter().map(String::as_str).collect();
            Some(html(&page("Home", &links)))
        }
        "/robots.txt" => Some(status(404)),
        _ => Some(with_header(status(503), "Retry-After", "1")),
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store::Store::open(dir.path().join("crawl.db")).expect("store");
    let run =
        run_local(&t.app.fetcher, &store, local(&site.url("/"), 200), std::future::pending()).await.expect("crawled");
    let summary = &run.summary;
    assert_eq!(summary.end, CrawlEnd::Completed, "the home page answered: {summary:?}");
    assert_eq!(summary.error_pauses, app::crawl::runner::MAX_ERROR_PAUSES);
    let why = summary.stopped_for_errors.as_deref().expect("a stated reason");
    assert!(why.contains("answers were errors") && why.contains("after 2 pauses"), "{why}");
    // Far fewer than the 100 pages, each asked for 3 times at most: the crawl stopped.
    let asked = site.requests().into_iter().filter(|r| r.path.starts_with("/p")).count();
    eprintln!("503 to everything: {asked} page requests before the crawl stopped");
    assert!(asked <= 60, "{asked} requests to a site answering only errors");
    assert!(summary.progress.queued > 50, "most pages were left unfetched: {summary:?}");
}
