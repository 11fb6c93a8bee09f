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

/// A crawl of `start` that a killed run of the command line (`dead`) left `running` in
/// `store`, with `queued` (URL, depth, source) in its frontier; its frontier, as the dead run
/// drove it, for the test to go on.
fn left_running(
    store: &store::Store,
    start: String,
    dead: &str,
    queued: &[(String, u32, crawl::Source)],
) -> (vocab::CrawlId, store::CrawlFrontier) {
    use crawl::FrontierStore;
    let new = store::NewCrawl { user_id: None, url: start, options_json: "{}".into(), max_pages: 100 };
    let until = time::OffsetDateTime::now_utc() + time::Duration::days(365);
    let left = store.create_crawl(new, dead, until).expect("crawl");
    assert!(store.start_crawl(&left.id).expect("start"));
    let mut frontier = store.driving_crawl(&left.id, dead);
    for (url, depth, source) in queued {
        let entry = crawl::Entry {
            url: url.clone(),
            depth: Some(*depth),
            found_from: None,
            source: *source,
            state: crawl::State::Queued,
            status: None,
            reason: None,
        };
        frontier.insert(entry).expect("queued");
    }
    (left.id, frontier)
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
    // Each page's inlinks, counted as the pages were recorded.
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

/// The answers of the "other site" of the external link tests: HEAD refused (405) on
/// `/no-head*`, where GET answers; `/moved` redirects to `/gone`; `/ok*` answer 200; the rest
/// 404.
fn other_site(request: &test_support::wiremock::Request) -> ResponseTemplate {
    let head = request.method.as_str() == "HEAD";
    match request.url.path() {
        p if p.starts_with("/no-head") && head => ResponseTemplate::new(405),
        "/no-head-ok" => ResponseTemplate::new(200).set_body_raw("<p>fine</p>", "text/html"),
        "/moved" => ResponseTemplate::new(301).insert_header("location", "/gone"),
        "/moved-ok" => ResponseTemplate::new(308).insert_header("location", "/ok"),
        p if p.starts_with("/ok") => ResponseTemplate::new(200),
        _ => ResponseTemplate::new(404),
    }
}

/// `broken-external-link` over a real crawl: each external URL checked once (HEAD, then GET
/// where HEAD answers 405), a redirect to a 404 reported with its chain on every linking
/// page, a redirect to a page reported by `external-link-redirect` with its chain, and a link
/// to an inner address refused by the guard, never fetched, counted as not checked; without
/// the checks nothing of the other site is requested.
#[tokio::test]
async fn external_links_are_checked_once_through_the_guard() {
    let t = open(4, 8);
    let other = Pages::serve(other_site).await;
    let o = |p: &str| format!("http://127.0.0.1:{}{p}", other.addr().port());
    let (ok, gone, no_head_ok, no_head_gone, moved, moved_ok) =
        (o("/ok"), o("/gone"), o("/no-head-ok"), o("/no-head-gone"), o("/moved"), o("/moved-ok"));
    let inner = "http://10.0.0.1/admin";
    let site = Pages::start(vec![
        ("/", page("Home", &["/a", &ok, &gone, &no_head_ok, inner])),
        ("/a", page("A", &["/", &gone, &no_head_gone, &moved, &moved_ok])),
    ])
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = scratch(&dir);
    let mut crawl = local(&site.url("/"), 100);
    crawl.options.external_links = Some(app::crawl::ExternalChecks::with_budget(100));
    let run = run_local(&t.app.fetcher, &store, crawl, std::future::pending()).await.expect("the crawl runs");
    let e = run.summary.external_links.clone().expect("external links checked");
    assert_eq!((e.checked, e.broken_count), (6, 3), "{e:?}");
    assert_eq!((e.not_checked_refused, e.not_checked_budget, e.not_checked_timed_out), (1, 0, 0), "{e:?}");
    // Each URL once, however many pages link to it; GET only where HEAD was refused.
    let requests = other.requests().await;
    let asked = |path: &str, method: &str| {
        requests.iter().filter(|r| r.url.path() == path && r.method.as_str() == method).count()
    };
    assert_eq!((asked("/gone", "HEAD"), asked("/gone", "GET")), (2, 0), "once itself, once after /moved");
    assert_eq!((asked("/ok", "HEAD"), asked("/ok", "GET")), (2, 0), "once itself, once after /moved-ok");
    assert_eq!((asked("/no-head-ok", "HEAD"), asked("/no-head-ok", "GET")), (1, 1));
    assert_eq!((asked("/no-head-gone", "HEAD"), asked("/no-head-gone", "GET")), (1, 1));
    let result = run.judged.results.iter().find(|r| r.id == "broken-external-link").expect("the rule ran");
    let found: Vec<(String, Option<String>, String)> =
        result.findings.iter().map(|f| (f.url.clone(), f.linked_from.clone(), f.detail.clone())).collect();
    let (home, a) = (Some(site.url("/")), Some(site.url("/a")));
    let mut expected = vec![
        (gone.clone(), home.clone(), "HTTP 404".to_string()),
        (gone.clone(), a.clone(), "HTTP 404".to_string()),
        (no_head_gone.clone(), a.clone(), "HTTP 404".to_string()),
        (moved.clone(), a.clone(), format!("HTTP 301 to {gone}, HTTP 404")),
    ];
    expected.sort();
    assert_eq!(found, expected);
    // Stored with the crawl's site issues, as every site rule's findings.
    let stored = store.crawl_issues(&run.crawl_id, "broken-external-link", None, 100).expect("issues").0;
    assert_eq!(stored.len(), 4);
    // A redirect that ends on a page is no broken link: it is the other rule's, once per
    // linking page.
    let redirected = run.judged.results.iter().find(|r| r.id == "external-link-redirect").expect("the rule ran");
    let found: Vec<(String, Option<String>, String)> =
        redirected.findings.iter().map(|f| (f.url.clone(), f.linked_from.clone(), f.detail.clone())).collect();
    assert_eq!(found, [(moved_ok.clone(), a.clone(), format!("HTTP 308 to {ok}, HTTP 200"))]);

    // The budget: the first 2 distinct external URLs in crawl order are checked, the other
    // 5 counted; with no checks at all, nothing of the other site is asked.
    let before = other.requests().await.len();
    let mut crawl = local(&site.url("/"), 100);
    crawl.options.external_links = Some(app::crawl::ExternalChecks::with_budget(2));
    let run = run_local(&t.app.fetcher, &store, crawl, std::future::pending()).await.expect("the crawl runs");
    let e = run.summary.external_links.expect("external links checked");
    assert_eq!((e.checked, e.not_checked_budget), (2, 5), "{e:?}");
    assert_eq!(other.requests().await.len() - before, 2);
    let before = other.requests().await.len();
    let run = run_local(&t.app.fetcher, &store, local(&site.url("/"), 100), std::future::pending())
        .await
        .expect("the crawl runs");
    assert!(run.summary.external_links.is_none());
    assert_eq!(other.requests().await.len(), before, "no check without external_links");
}

/// The command line's start: `check_start` fetches the start page (redirects followed) and
/// the crawl takes what it got, so each hop of the start is asked for once.
#[tokio::test]
async fn a_local_crawl_takes_its_start_page_from_the_start_check() {
    let t = open(4, 8);
    let site = crate::crawl::redirecting_start().await;
    let start_page = app::crawl::check_start(&t.app.fetcher, &site.url("/")).await.expect("an HTML start page");
    assert_eq!(start_page.url().as_str(), site.url("/"));
    let mut crawl = local(&site.url("/"), 100);
    crawl.options.start_page = Some(start_page);
    let dir = tempfile::tempdir().expect("tempdir");
    let run = run_local(&t.app.fetcher, &scratch(&dir), crawl, std::future::pending()).await.expect("the crawl runs");
    assert_eq!((run.summary.end, run.summary.progress.done), (CrawlEnd::Completed, 3));
    assert_eq!((site.hits("/").await, site.hits("/home").await, site.hits("/a").await), (1, 1, 1));
}

/// A crawl a killed run of the command line left in its store (`--store FILE`): its start
/// page was being fetched under that run's claim, one link queued. The next run of the same
/// start URL resumes it (the same crawl, one resume counted): the page the dead run held is
/// queued again and fetched, each page once; a crawl that ended is not resumed, a new one
/// is made beside it.
#[tokio::test]
async fn a_crawl_a_killed_run_left_in_its_store_is_resumed() {
    use crawl::{FrontierStore, Source};
    let t = open(4, 8);
    let site = Pages::start(vec![
        ("/", page("Home", &["/a", "/b"])),
        ("/a", page("A", &["/", "/b"])),
        ("/b", page("B", &["/"])),
    ])
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = scratch(&dir);
    let queued = [(site.url("/"), 0, Source::Start), (site.url("/a"), 1, Source::Link)];
    let (left_id, mut frontier) = left_running(&store, site.url("/"), "command-line/a-run-killed-before", &queued);
    let claimed = frontier.claim(1, false).expect("claim");
    assert_eq!(claimed.len(), 1, "the start page is being fetched by the dead run");
    drop(frontier);

    let run = run_local(&t.app.fetcher, &store, local(&site.url("/"), 100), std::future::pending())
        .await
        .expect("the crawl runs");
    assert_eq!(run.crawl_id, left_id, "the crawl left running is resumed");
    assert_eq!((run.summary.end, run.summary.progress.done), (CrawlEnd::Completed, 3));
    // The crawler's own fetches (the edge check after the crawl fetches pages again as a
    // browser and as AI crawlers).
    let requests = site.requests().await;
    let fetched = |path: &str| {
        requests
            .iter()
            .filter(|r| r.url.path() == path)
            .filter(|r| {
                r.headers.get("user-agent").and_then(|v| v.to_str().ok()).is_some_and(|ua| ua.contains("SeoAuditBot"))
            })
            .count()
    };
    assert_eq!((fetched("/"), fetched("/a"), fetched("/b")), (1, 1, 1));
    let crawl = store.get_crawl(&left_id).expect("the crawl");
    assert_eq!((crawl.resumes, crawl.progress.pages_done, crawl.progress.pages_queued), (1, 3, 0));
    assert!(crawl.finished_at.is_some(), "ended in the store");

    let again = run_local(&t.app.fetcher, &store, local(&site.url("/"), 100), std::future::pending())
        .await
        .expect("the crawl runs");
    assert_ne!(again.crawl_id, left_id, "an ended crawl is not resumed");
    assert_eq!(store.get_crawl(&left_id).expect("the crawl").resumes, 1);
}

/// A crawl killed after its last page was recorded, during its site rules: every page is
/// done in its store and nothing is left to fetch. The next run resumes it, fetches no page,
/// and ends it completed with the pages the dead run recorded judged, not failed for want of
/// an answer in this run (seen on the million-page run, killed during its site rules).
#[tokio::test]
async fn a_crawl_killed_after_its_last_page_resumes_to_completed() {
    use crawl::{CrawledPage, FrontierStore, Source, State};
    let t = open(4, 8);
    let site = Pages::start(vec![("/", page("Home", &["/a"])), ("/a", page("A", &["/"]))]).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = scratch(&dir);
    let queued = [(site.url("/"), 0, Source::Start), (site.url("/a"), 1, Source::Link)];
    let dead = "command-line/a-run-killed-in-its-site-rules";
    let (left_id, mut frontier) = left_running(&store, site.url("/"), dead, &queued);
    for mut entry in frontier.claim(2, false).expect("claim") {
        let record = CrawledPage {
            url: entry.url.clone(),
            depth: entry.depth,
            status: Some(200),
            html: true,
            title: Some(format!("Page {}", entry.url)),
            score: Some(80),
            ..CrawledPage::default()
        };
        store.record_crawl_page(&left_id, &record, &[]).expect("recorded");
        entry.state = State::Done;
        entry.status = Some(200);
        frontier.update(&entry).expect("done");
    }
    drop(frontier);

    let run = run_local(&t.app.fetcher, &store, local(&site.url("/"), 100), std::future::pending())
        .await
        .expect("the crawl runs");
    assert_eq!(run.crawl_id, left_id, "the crawl left running is resumed");
    assert_eq!((run.summary.end, run.summary.progress.done), (CrawlEnd::Completed, 2));
    assert!(run.judged.score.is_some(), "the pages the dead run recorded are judged");
    let crawler_fetches = site
        .requests()
        .await
        .iter()
        .filter(|r| r.url.path() == "/" || r.url.path() == "/a")
        .filter(|r| {
            r.headers.get("user-agent").and_then(|v| v.to_str().ok()).is_some_and(|ua| ua.contains("SeoAuditBot"))
        })
        .count();
    assert_eq!(crawler_fetches, 0, "no page is fetched again");
    let crawl = store.get_crawl(&left_id).expect("the crawl");
    assert_eq!(crawl.state, store::CrawlState::Completed);
    assert!(crawl.finished_at.is_some(), "ended in the store");
}
