//! A crawl run in this process into a store of its own, as the command line runs one
//! ([`app::crawl::run_local`]): written, judged and ended in the store, and cancelled by
//! its stop signal with the pages done kept.

use std::time::Duration;

use app::crawl::{run_local, CrawlEnd, CrawlOptions, LocalCrawl};
use crawl::{Limits, Scope, ScopeConfig};
use test_support::{Pages, ResponseTemplate};

use crate::support::{open, page};

/// A local crawl of `url`, at most `max_pages` pages, without sitemaps.
fn local(url: &str, max_pages: u32) -> LocalCrawl {
    let start = app::validate_url(url).expect("url");
    let config = ScopeConfig { max_pages, ..ScopeConfig::default() };
    let scope = Scope::new(start.as_str(), config).expect("scope");
    let options = CrawlOptions { sitemaps: false, ..CrawlOptions::default() };
    LocalCrawl { start, scope, limits: Limits::default(), options, on_progress: None }
}

/// A fresh store in `dir`.
fn scratch(dir: &tempfile::TempDir) -> store::Store {
    store::Store::open(dir.path().join("crawl.db")).expect("store")
}

#[tokio::test]
async fn a_local_crawl_is_written_judged_and_ended_in_its_store() {
    let t = open(4, 8);
    let site = Pages::start(vec![
        ("/", page("Home", &["/a", "/b"])),
        ("/a", page("A", &["/", "/b"])),
        ("/b", page("B", &["/"])),
    ])
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = scratch(&dir);
    let run = run_local(&t.app.fetcher, &store, local(&site.url("/"), 100), std::future::pending())
        .await
        .expect("the crawl runs");
    assert_eq!(run.summary.end, CrawlEnd::Completed);
    assert_eq!(run.summary.progress.done, 3);
    assert!(run.judged.score.is_some(), "three pages audited make a site score");
    let (pages, next) = store.crawl_pages(&run.crawl_id, None, 100).expect("pages");
    assert_eq!(next, None);
    let mut seen: Vec<(String, u32)> = pages.into_iter().map(|p| (p.url, p.inlinks)).collect();
    seen.sort();
    // Ending the crawl in the store counted each page's inlinks.
    assert_eq!(seen, [(site.url("/"), 2), (site.url("/a"), 1), (site.url("/b"), 2)]);
    let crawl = store.get_crawl(&run.crawl_id).expect("the crawl");
    assert!(crawl.finished_at.is_some(), "ended in the store");
}

#[tokio::test]
async fn the_stop_signal_cancels_and_the_pages_done_are_kept() {
    let t = open(4, 8);
    // An endless site, each page slow and linking to the next: only the stop ends it.
    let site = Pages::serve(|request| {
        let n: u64 = request.url.path().trim_start_matches("/p").parse().unwrap_or(0);
        ResponseTemplate::new(200)
            .set_body_raw(page(&format!("Page {n}"), &[&format!("/p{}", n + 1)]), "text/html")
            .set_delay(Duration::from_millis(50))
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = scratch(&dir);
    let (tell, stopped) = tokio::sync::oneshot::channel::<()>();
    let run = tokio::spawn({
        let (fetcher, store) = (t.app.fetcher.clone(), store.clone());
        let crawl = local(&site.url("/"), 10_000);
        async move {
            run_local(&fetcher, &store, crawl, async {
                let _ = stopped.await;
            })
            .await
        }
    });
    // Some pages first (within a minute), then the signal.
    for _ in 0..3000 {
        if site.requests().await.iter().any(|r| r.url.path() == "/p3") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tell.send(()).expect("the crawl listens");
    let run = run.await.expect("no panic").expect("the crawl ends");
    assert_eq!(run.summary.end, CrawlEnd::Cancelled);
    assert!(run.summary.progress.done >= 3, "{:?}", run.summary.progress);
    let (pages, _) = store.crawl_pages(&run.crawl_id, None, 100).expect("pages");
    assert!(pages.iter().any(|p| p.url == site.url("/") && p.state == "done"), "the pages done are kept");
    assert!(store.get_crawl(&run.crawl_id).expect("the crawl").finished_at.is_some());
}
