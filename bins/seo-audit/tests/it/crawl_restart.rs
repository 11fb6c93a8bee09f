//! A crawl survives a kill (docs/API.md, "Site crawl": persisted and resumable): the real
//! binary is SIGKILLed mid-crawl, with pages done and pages in flight, started again on the
//! same data directory, and the crawl completes from its frontier: every page is recorded
//! (fetched and audited) exactly once, as the store's per-page record count shows, and the
//! pages fetched after the restart are exactly those not recorded before the kill.

use std::collections::HashMap;
use std::io::BufReader;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use test_support::Gate;

use crate::common;
use common::{bin, eventually, kill, listening_addr, request};

/// Pages linked from the home page.
pub(crate) const PAGES: usize = 40;
/// Pages answered before the gate opens: `/p0` to `/p9` (and `/`).
pub(crate) const OPEN_PAGES: usize = 10;

/// The site: `/` links to `/p0` ... `/p39`; `/pN` for N ≥ [`OPEN_PAGES`] waits until `gate`
/// opens. Every request's path is counted in the returned map.
pub(crate) fn site(gate: Gate) -> (u16, Arc<Mutex<HashMap<String, usize>>>) {
    site_on("127.0.0.1", gate)
}

/// [`site`] on loopback address `ip`.
pub(crate) fn site_on(ip: &str, gate: Gate) -> (u16, Arc<Mutex<HashMap<String, usize>>>) {
    let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let log = hits.clone();
    let site = test_support::ThreadServer::start_on(ip, move |request| {
        let path = request.path.as_str();
        // The crawl's own fetches are counted; the edge check's after the crawl's end (as a
        // browser and as AI crawlers, `ai-crawlers-blocked-at-edge`) fetch no page for it.
        let ours =
            request.headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("user-agent") && v.starts_with("SeoAuditBot/"));
        if ours {
            *log.lock().unwrap().entry(path.to_string()).or_default() += 1;
        }
        let page: Option<usize> = path.strip_prefix("/p").and_then(|n| n.parse().ok());
        let body = match (path, page) {
            ("/", _) => {
                let links: String = (0..PAGES).map(|i| format!("<a href=\"/p{i}\">Page {i}</a> ")).collect();
                format!("<!doctype html><html lang=en><head><title>Home of the test site</title></head><body><h1>Home</h1><p>{links}</p></body></html>")
            }
            (_, Some(n)) if n < PAGES => {
                if n >= OPEN_PAGES {
                    gate.wait();
                }
                format!("<!doctype html><html lang=en><head><title>Page number {n} of the site</title></head><body><h1>Page {n}</h1><p><a href=\"/\">Home</a></p></body></html>")
            }
            _ => return Some(test_support::status(404)),
        };
        Some(test_support::html(&body))
    });
    (site.port(), hits)
}

fn serve(data: &Path) -> (Child, String) {
    let mut child = bin(data)
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .env("SEO_AUDIT_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
    (child, addr)
}

#[test]
fn a_crawl_killed_mid_way_completes_after_the_restart_with_every_page_audited_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin(dir.path()).args(["keys", "create", "--name", "crawler"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let gate = Gate::new();
    let (port, hits) = site(gate.clone());
    let home = format!("http://127.0.0.1:{port}/");

    let (child, addr) = serve(dir.path());
    let (status, started) =
        request(&addr, &key, "POST", "/api/v1/crawls", Some(&json!({ "url": home, "sitemaps": false })));
    assert_eq!(status, 202, "{started}");
    let id = started["crawl"]["id"].as_str().unwrap().to_string();

    // The home page and the open pages are done; four held pages are in flight: kill now.
    let db = store::Store::open(dir.path().join(store::DB_FILE_NAME)).unwrap();
    eventually("the open pages", Duration::from_secs(30), || {
        let crawl = db.get_crawl(&id).unwrap();
        (crawl.progress.pages_done == 1 + OPEN_PAGES as u64).then_some(())
    });
    let held_in_flight = eventually("held pages in flight", Duration::from_secs(30), || {
        let h = hits.lock().unwrap();
        let n = (OPEN_PAGES..PAGES).filter(|i| h.contains_key(&format!("/p{i}"))).count();
        (n > 0).then_some(n)
    });
    kill(child);
    let before = db.get_crawl(&id).unwrap();
    assert_eq!(before.state, store::CrawlState::Running);
    assert_eq!(before.progress.pages_done, 1 + OPEN_PAGES as u64);
    // What was recorded before the kill, and what the site had answered or held by then.
    let path_of = |url: &str| url.strip_prefix(&home[..home.len() - 1]).unwrap().to_string();
    let (rows, _) = db.crawl_pages(&id, None, 500).unwrap();
    let recorded_before: std::collections::BTreeSet<String> =
        rows.iter().filter(|p| p.records > 0).map(|p| path_of(&p.url)).collect();
    assert_eq!(recorded_before.len(), 1 + OPEN_PAGES, "{rows:?}");
    assert!(rows.iter().all(|p| p.records <= 1), "{rows:?}");
    let hits_before = hits.lock().unwrap().clone();

    // Started again: the crawl resumes from its frontier and completes.
    gate.open();
    let (child, _) = serve(dir.path());
    let done = eventually("the crawl's end", Duration::from_secs(60), || {
        let crawl = db.get_crawl(&id).unwrap();
        crawl.state.is_terminal().then_some(crawl)
    });
    kill(child);
    assert_eq!(done.state, store::CrawlState::Completed, "{done:?}");
    assert_eq!((done.progress.pages_done, done.progress.pages_failed), (1 + PAGES as u64, 0), "{done:?}");
    assert_eq!(done.resumes, 1);
    assert!(done.site_score.is_some());

    // Every page audited once: one row each, each with its score and its page-rule results,
    // and each recorded exactly once (a page fetched and audited again would count 2).
    let (pages, next) = db.crawl_pages(&id, None, 500).unwrap();
    assert_eq!(next, None);
    assert_eq!(pages.len(), 1 + PAGES);
    assert!(pages.iter().all(|p| p.state == "done" && p.score.is_some()), "{pages:?}");
    let records: Vec<(&str, u32)> =
        pages.iter().filter(|p| p.records != 1).map(|p| (p.url.as_str(), p.records)).collect();
    assert!(records.is_empty(), "pages not recorded exactly once: {records:?}");
    let hits = hits.lock().unwrap().clone();
    // The pages fetched after the restart are exactly those not recorded before the kill,
    // each once.
    let fetched_after: std::collections::BTreeMap<String, usize> = hits
        .iter()
        .filter(|(path, _)| *path == "/" || path.starts_with("/p"))
        .map(|(path, n)| (path.clone(), n - hits_before.get(path).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let all: std::collections::BTreeSet<String> = pages.iter().map(|p| path_of(&p.url)).collect();
    let expected: std::collections::BTreeMap<String, usize> =
        all.difference(&recorded_before).map(|path| (path.clone(), 1)).collect();
    assert_eq!(fetched_after, expected, "recorded before the kill: {recorded_before:?}");
    // The home page: fetched once, by the start's check, whose page the crawl took; never
    // again after the restart.
    assert_eq!(hits.get("/"), Some(&1), "{hits:?}");
    for i in 0..PAGES {
        let n = hits.get(&format!("/p{i}")).copied().unwrap_or(0);
        if i < OPEN_PAGES {
            assert_eq!(n, 1, "/p{i} was done before the kill: not fetched again ({hits:?})");
        } else {
            assert!((1..=2).contains(&n), "/p{i} fetched {n} times ({hits:?})");
        }
    }
    let twice = (0..PAGES).filter(|i| hits.get(&format!("/p{i}")) == Some(&2)).count();
    assert!(twice <= held_in_flight.max(4), "only the pages in flight are fetched again: {hits:?}");
}
