//! Site crawls in the store (docs/API.md, "Site crawl"): the crawl engine's frontier over
//! the database, pages, links, sitemap URLs and issues, and the leases that let several
//! replicas share a crawl with each page fetched once.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Barrier};

use crawl::{
    CrawledPage, CrawledSite, Entry, Frontier, FrontierStore, Limits, Outcome, Outlink, Scope, ScopeConfig, Source,
    State, Work,
};
use store::{
    CrawlEnd, CrawlIssue, CrawlState, FailedRule, IssueKind, IssueLocations, NewCrawl, NewWebhook, Store, Tier,
};
use time::OffsetDateTime;

use crate::backend::{both, fresh};

fn new_crawl(user_id: Option<vocab::UserId>, max_pages: u32) -> NewCrawl {
    NewCrawl { user_id, url: "https://site.test/".into(), options_json: "{}".into(), max_pages }
}

fn lease() -> OffsetDateTime {
    OffsetDateTime::now_utc() + time::Duration::seconds(60)
}

/// A failed page rule that points at no element.
fn failed_rule(rule_id: &str, severity: &str, detail: &str) -> FailedRule {
    FailedRule { rule_id: rule_id.into(), severity: severity.into(), detail: detail.into(), locations: None }
}

fn page(url: &str, links: &[&str]) -> CrawledPage {
    let outlinks = links
        .iter()
        .map(|l| Outlink {
            url: l.to_string(),
            anchor: format!("to {l}"),
            internal: true,
            nofollow: false,
            follow: true,
        })
        .collect();
    CrawledPage {
        url: url.to_string(),
        status: Some(200),
        html: true,
        title: Some("Same title".into()),
        outlinks,
        score: Some(80),
        ..CrawledPage::default()
    }
}

/// What the test site answers: `/` links to /a, /b and /gone; /a and /b link home.
fn answer(url: &str) -> Option<CrawledPage> {
    match url {
        "https://site.test/" => {
            Some(page(url, &["https://site.test/a", "https://site.test/b", "https://site.test/gone"]))
        }
        "https://site.test/a" | "https://site.test/b" => Some(page(url, &["https://site.test/"])),
        _ => None,
    }
}

/// Runs the frontier of crawl `id` as `worker` until it is finished (or `stop_after`
/// fetches were recorded), the way the application's runner does, but without a network.
fn drive(store: &Store, id: &str, worker: &str, stop_after: Option<usize>) -> usize {
    let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
    let mut frontier = Frontier::resume(store.crawl_frontier(id, worker), scope.clone(), Limits::default()).unwrap();
    let mut fetched = 0;
    while !frontier.is_finished().unwrap() {
        let work = frontier.next_work().unwrap();
        assert!(!work.is_empty(), "nothing in flight outside this loop");
        for w in work {
            match w {
                Work::Robots { url } => {
                    frontier.set_robots(&url, crawl::robots_from_answer(Some(404), b""));
                    store.add_crawl_sitemap_urls(id, &["https://site.test/a".to_string()]).unwrap();
                }
                Work::Fetch(entry) => {
                    if stop_after == Some(fetched) {
                        return fetched;
                    }
                    let record = answer(&entry.url)
                        .unwrap_or_else(|| CrawledPage::answered(entry.url.clone(), entry.depth, 404, None));
                    let mut record = CrawledPage { depth: entry.depth, ..record };
                    if record.status == Some(404) {
                        record.html = false;
                    }
                    frontier.record(entry, Outcome::Answered(&record)).unwrap();
                    let failed = vec![failed_rule("meta-description", "warning", "missing")];
                    store.record_crawl_page(id, &record, if record.html { &failed } else { &[] }).unwrap();
                    fetched += 1;
                }
            }
        }
    }
    fetched
}

fn finish(store: &Store, id: &str, worker: &str) -> bool {
    let site = store.crawl_site(id, true).unwrap();
    let results = crawl::check_site(&site).unwrap();
    let site_issues = results
        .iter()
        .flat_map(|r| {
            r.findings.iter().map(move |f| CrawlIssue {
                kind: IssueKind::Site,
                rule_id: r.id.to_string(),
                severity: r.severity.as_str().to_string(),
                url: f.url.clone(),
                linked_from: f.linked_from.clone(),
                detail: f.detail.clone(),
                locations: None,
            })
        })
        .collect();
    let score = crawl::site_score_of(&site.totals().unwrap(), &results).map(|s| s.score);
    let end = CrawlEnd {
        state: CrawlState::Completed,
        site_score: score,
        summary_json: None,
        error: None,
        site_issues,
        event: Some(("crawl.completed".into(), serde_json::json!({ "crawl_id": id }))),
    };
    store.finish_crawl(id, worker, &end).unwrap()
}

both! {
    fn a_crawl_runs_on_the_store_and_reads_back(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let user = s.create_user(Tier::Free).unwrap();
        s.create_webhook(NewWebhook {
            user_id: user.id.clone(),
            url: "https://hooks.test/".into(),
            events: vec!["crawl.completed".into()],
        })
        .unwrap();
        let crawl = s.create_crawl(new_crawl(Some(user.id.clone()), 30), "w1", lease()).unwrap();
        assert!(crawl.id.starts_with("cr_") && crawl.id.len() == 25, "{}", crawl.id);
        assert!(crawl.id[3..].chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(crawl.state, CrawlState::Queued);
        assert!(s.start_crawl(&crawl.id).unwrap());

        assert_eq!(drive(s, &crawl.id, "w1", None), 4);
        assert!(finish(s, &crawl.id, "w1"));
        let done = s.get_crawl(&crawl.id).unwrap();
        assert_eq!(done.state, CrawlState::Completed);
        assert!(done.started_at.is_some() && done.finished_at.is_some());
        assert_eq!((done.progress.pages_done, done.progress.pages_queued, done.progress.pages_failed), (4, 0, 0));
        assert!(done.site_score.unwrap() < 80, "site rules cost points: {:?}", done.site_score);
        assert_eq!(s.crawl_lease(&crawl.id).unwrap(), None, "the lease is given up at the end");

        // Pages: in crawl order, two at a time, inlinks counted.
        let (first, next) = s.crawl_pages(&crawl.id, None, 2).unwrap();
        assert_eq!(first.iter().map(|p| p.url.as_str()).collect::<Vec<_>>(), ["https://site.test/", "https://site.test/a"]);
        assert_eq!((first[0].depth, first[0].inlinks, first[0].status_code), (Some(0), 2, Some(200)));
        assert_eq!(first[1].failed_rules, ["meta-description"]);
        let (rest, end) = s.crawl_pages(&crawl.id, next, 2).unwrap();
        assert_eq!(rest.len(), 2);
        assert_eq!(end, None);
        assert_eq!((rest[1].url.as_str(), rest[1].status_code, rest[1].inlinks), ("https://site.test/gone", Some(404), 1));

        // Issues: site rules first; the broken link with the page that links to it.
        let counts = s.crawl_issue_counts(&crawl.id).unwrap();
        let broken = counts.iter().find(|c| c.rule_id == "broken-internal-link").unwrap();
        assert_eq!((broken.kind, broken.count, broken.severity.as_str()), (IssueKind::Site, 1, "critical"));
        assert_eq!(counts[0].kind, IssueKind::Site);
        let page_rule = counts.iter().find(|c| c.rule_id == "meta-description").unwrap();
        assert_eq!((page_rule.kind, page_rule.count), (IssueKind::Page, 3));
        let (findings, _) = s.crawl_issues(&crawl.id, "broken-internal-link", None, 10).unwrap();
        assert_eq!(findings[0].url, "https://site.test/gone");
        assert_eq!(findings[0].linked_from.as_deref(), Some("https://site.test/"));
        assert!(counts.iter().any(|c| c.rule_id == "duplicate-title" && c.count == 3));
        let mut sitemap = BTreeSet::new();
        s.crawl_site(&crawl.id, true).unwrap().sitemap_urls(&mut |u| {
            sitemap.insert(u.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(sitemap, BTreeSet::from(["https://site.test/a".to_string()]));

        // The owner's crawl.completed event went to the outbox with the end.
        assert_eq!(f.raw().int("SELECT COUNT(*) FROM webhook_outbox WHERE event = 'crawl.completed'"), 1);
        assert_eq!(s.list_crawls(&user.id, 10).unwrap().len(), 1);
        // Finishing again (a worker that lost the lease) writes nothing.
        assert!(!finish(s, &crawl.id, "w1"));
        assert!(s.get_crawl("cr_nope").unwrap_err().is_not_found());

        // Each URL recorded once; a page recorded again (fetched and audited twice) counts 2.
        let (all, _) = s.crawl_pages(&crawl.id, None, 10).unwrap();
        assert!(all.iter().all(|p| p.records == 1), "{all:?}");
        s.record_crawl_page(&crawl.id, &page("https://site.test/a", &["/"]), &[]).unwrap();
        let (all, _) = s.crawl_pages(&crawl.id, None, 10).unwrap();
        let records: Vec<(&str, u32)> = all.iter().map(|p| (p.url.as_str(), p.records)).collect();
        assert_eq!(records.iter().find(|(url, _)| *url == "https://site.test/a"), Some(&("https://site.test/a", 2)));
        assert_eq!(records.iter().filter(|(_, n)| *n == 1).count(), all.len() - 1, "{records:?}");
    }
}

both! {
    fn each_page_is_claimed_by_one_of_two_handles(backend) {
        let Some(f) = fresh(backend) else { return };
        let (a, b) = (f.store.clone(), f.open_again());
        let crawl = a.create_crawl(new_crawl(None, 500), "w-a", lease()).unwrap();
        let mut seed = a.crawl_frontier(&crawl.id, "w-a");
        for i in 0..60u32 {
            let entry = crawl::Entry {
                url: format!("https://site.test/{i}"),
                depth: Some(i % 3),
                found_from: None,
                source: crawl::Source::Link,
                state: State::Queued,
                status: None,
                reason: None,
            };
            assert!(seed.insert(entry.clone()).unwrap());
            assert!(!seed.insert(entry).unwrap(), "insert ignores a known URL");
        }
        let start = Arc::new(Barrier::new(6));
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let store = if i % 2 == 0 { a.clone() } else { b.clone() };
                let (start, id) = (start.clone(), crawl.id.clone());
                std::thread::spawn(move || {
                    let mut frontier = store.crawl_frontier(&id, &format!("w{i}"));
                    start.wait();
                    let mut mine = Vec::new();
                    loop {
                        let batch = frontier.claim(4, true).unwrap();
                        if batch.is_empty() {
                            return mine;
                        }
                        assert!(batch.len() <= 4, "a claim takes its limit at most");
                        // Shallowest first within a batch.
                        assert!(batch.windows(2).all(|w| w[0].depth <= w[1].depth));
                        mine.extend(batch.into_iter().map(|e| e.url));
                    }
                })
            })
            .collect();
        let all: Vec<String> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
        let distinct: HashSet<&String> = all.iter().collect();
        assert_eq!((all.len(), distinct.len()), (60, 60), "{backend:?}: each page claimed once");
        let c = seed.counts().unwrap();
        assert_eq!((c.queued, c.fetching), (0, 60));
    }
}

both! {
    fn expired_claims_are_requeued_and_the_crawl_resumes(backend) {
        let Some(f) = fresh(backend) else { return };
        let (a, b) = (f.store.clone(), f.open_again());
        let crawl = a.create_crawl(new_crawl(None, 30), "w-a", lease()).unwrap();
        a.start_crawl(&crawl.id).unwrap();
        let started = a.get_crawl(&crawl.id).unwrap().started_at;
        assert!(started.is_some());
        // Replica A fetches the start page, then dies with its three links claimed.
        assert_eq!(drive(&a, &crawl.id, "w-a", Some(1)), 1);
        let c = a.crawl_frontier(&crawl.id, "w-a").counts().unwrap();
        assert_eq!((c.done, c.fetching, c.queued), (1, 3, 0));

        // B sees A's claims and leaves them while A's lease runs.
        let mut fb = b.crawl_frontier(&crawl.id, "w-b");
        assert_eq!(fb.requeue_fetching().unwrap(), 0);
        assert!(b.adopt_crawls("w-b", Some(OffsetDateTime::now_utc()), lease()).unwrap().is_empty());
        // A's lease runs out: B adopts the crawl, and A's claims go back to the queue.
        let later = OffsetDateTime::now_utc() + time::Duration::minutes(5);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(b.adopt_crawls("w-b", Some(later), lease()).unwrap(), std::slice::from_ref(&crawl.id));
        assert!(!a.renew_crawl_lease(&crawl.id, "w-a", lease()).unwrap(), "A lost the lease");
        // B starts it again: its start time, which its time limit counts from, stays the first.
        assert!(b.start_crawl(&crawl.id).unwrap());
        assert_eq!(b.get_crawl(&crawl.id).unwrap().started_at, started, "{backend:?}");
        assert_eq!(fb.requeue_fetching().unwrap(), 3);
        let c = fb.counts().unwrap();
        assert_eq!((c.done, c.fetching, c.queued), (1, 0, 3));

        // B resumes from the frontier: the start page is not fetched again.
        assert_eq!(drive(&b, &crawl.id, "w-b", None), 3);
        assert!(!finish(&a, &crawl.id, "w-a"), "A no longer holds the crawl");
        assert!(finish(&b, &crawl.id, "w-b"));
        let done = b.get_crawl(&crawl.id).unwrap();
        assert_eq!((done.state, done.resumes, done.progress.pages_done), (CrawlState::Completed, 1, 4));
    }
}

both! {
    fn a_cancelled_crawl_keeps_its_pages(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        drive(s, &crawl.id, "w", Some(2));
        let cancelled = s.cancel_crawl(&crawl.id).unwrap();
        assert_eq!(cancelled.state, CrawlState::Cancelled);
        assert!(!s.renew_crawl_lease(&crawl.id, "w", lease()).unwrap(), "the runner is told to stop");
        assert!(!s.start_crawl(&crawl.id).unwrap());
        // The runner ends it with what it has: still cancelled, scored, pages kept.
        assert!(finish(s, &crawl.id, "w"));
        let ended = s.get_crawl(&crawl.id).unwrap();
        assert_eq!(ended.state, CrawlState::Cancelled);
        assert_eq!(ended.progress.pages_done, 2);
        assert!(ended.site_score.is_some());
        // Cancelling again changes nothing; an ended crawl is not adopted.
        assert_eq!(s.cancel_crawl(&crawl.id).unwrap().finished_at, ended.finished_at);
        assert!(s.adopt_crawls("x", None, lease()).unwrap().is_empty());
    }
}

both! {
    fn the_newest_public_completed_crawl_of_a_host(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let owner = s.create_user(Tier::Free).unwrap().id;
        let make = |user: Option<vocab::UserId>, url: &str| {
            let new = NewCrawl { user_id: user, url: url.into(), options_json: "{}".into(), max_pages: 30 };
            let crawl = s.create_crawl(new, "w", lease()).unwrap();
            assert!(s.start_crawl(&crawl.id).unwrap());
            crawl.id
        };
        let hosts = |h: &[&str]| h.iter().map(|h| (*h).to_string()).collect::<Vec<_>>();
        // Running, not completed: not shown.
        let running = make(None, "https://site.test/");
        assert_eq!(s.newest_public_crawl(&hosts(&["site.test"])).unwrap(), None);
        assert!(finish(s, &running, "w"));
        let first = s.newest_public_crawl(&hosts(&["site.test", "www.site.test"])).unwrap().unwrap();
        assert_eq!(first.id, running);
        // A newer crawl made with a key stays private; a newer public one of the www. form
        // is the newest; a host that merely starts alike is another host.
        let keyed = make(Some(owner), "https://site.test/a");
        assert!(finish(s, &keyed, "w"));
        std::thread::sleep(std::time::Duration::from_millis(5));
        let www = make(None, "http://www.site.test/");
        assert!(finish(s, &www, "w"));
        let longer = make(None, "https://site.test.example/");
        assert!(finish(s, &longer, "w"));
        assert_eq!(s.newest_public_crawl(&hosts(&["site.test"])).unwrap().unwrap().id, running);
        assert_eq!(s.newest_public_crawl(&hosts(&["site.test", "www.site.test"])).unwrap().unwrap().id, www);
        assert_eq!(s.newest_public_crawl(&hosts(&["other.test"])).unwrap(), None);
    }
}

both! {
    fn a_batch_commits_the_frontier_and_the_pages_together_or_not_at_all(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();

        // A batch dropped before its commit (the process died, or the sink failed): the
        // start page is neither done nor recorded, and is fetched again.
        let mut frontier = Frontier::resume(s.driving_crawl(&crawl.id, "w"), scope.clone(), Limits::default()).unwrap();
        frontier.set_robots("https://site.test/robots.txt", crawl::robots_from_answer(Some(404), b""));
        let writer = frontier.store().writer();
        frontier.store().begin().unwrap();
        let Work::Fetch(entry) = frontier.next_work().unwrap().remove(0) else { panic!("a fetch") };
        let home = answer(&entry.url).unwrap();
        frontier.record(entry, Outcome::Answered(&home)).unwrap();
        writer.record_page(&home, &[]).unwrap();
        // Inside the batch the frontier sees its own writes; another connection does not.
        assert_eq!(frontier.counts().unwrap().done, 1);
        assert_eq!(s.get_crawl(&crawl.id).unwrap().progress.pages_done, 0, "{backend:?}: not committed");
        drop(frontier);
        let c = s.get_crawl(&crawl.id).unwrap().progress;
        assert_eq!((c.pages_done, c.pages_queued), (0, 1), "{backend:?}: rolled back");
        assert!(s.crawl_pages(&crawl.id, None, 10).unwrap().0.is_empty());

        // The same, committed: both are there.
        let mut frontier = Frontier::resume(s.driving_crawl(&crawl.id, "w"), scope, Limits::default()).unwrap();
        frontier.set_robots("https://site.test/robots.txt", crawl::robots_from_answer(Some(404), b""));
        let writer = frontier.store().writer();
        frontier.store().begin().unwrap();
        let Work::Fetch(entry) = frontier.next_work().unwrap().remove(0) else { panic!("a fetch") };
        frontier.record(entry, Outcome::Answered(&home)).unwrap();
        writer.record_page(&home, &[]).unwrap();
        frontier.store().commit().unwrap();
        let c = s.get_crawl(&crawl.id).unwrap().progress;
        assert_eq!((c.pages_done, c.pages_queued), (1, 3), "{backend:?}");
        let (pages, _) = s.crawl_pages(&crawl.id, None, 10).unwrap();
        assert_eq!(pages.iter().map(|p| (p.url.as_str(), p.records)).collect::<Vec<_>>(), [("https://site.test/", 1)]);
    }
}

both! {
    /// Among the pages of one level that link a queued URL, the least URL (byte order, as the
    /// in-memory frontier compares: `/B` before `/a`, which a language's collation would
    /// reverse) names its parent, whichever came first; a shorter path still wins over any,
    /// and a redirect on the URL's own level renames nothing.
    fn a_queued_url_is_found_from_the_least_page_of_its_level(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        let mut store = s.driving_crawl(&crawl.id, "w");
        let url = "https://site.test/t";
        let from = |path: &str| Some(format!("https://site.test/{path}"));
        let entry = Entry {
            url: url.to_string(),
            depth: Some(2),
            found_from: from("y"),
            source: Source::Link,
            state: State::Queued,
            status: None,
            reason: None,
        };
        assert!(store.insert(entry).unwrap());
        let parent = |store: &mut _| {
            let e: Entry = FrontierStore::get(store, url).unwrap().unwrap();
            (e.depth, e.found_from)
        };
        for (depth, page, source, want) in [
            (2, "m", Source::Link, (Some(2), from("m"))),
            (2, "z", Source::Link, (Some(2), from("m"))),
            (2, "a", Source::Link, (Some(2), from("a"))),
            (2, "B", Source::Link, (Some(2), from("B"))),
            (3, "A", Source::Link, (Some(2), from("B"))),
            (1, "zz", Source::Redirect, (Some(1), from("zz"))),
            (2, "A", Source::Link, (Some(1), from("zz"))),
            // A redirect on the URL's own level renames nothing (its level is being fetched);
            // a link from the level above does.
            (1, "c", Source::Redirect, (Some(1), from("zz"))),
            (1, "d", Source::Link, (Some(1), from("d"))),
        ] {
            store.promote(url, depth, from(page).as_deref(), source).unwrap();
            assert_eq!(parent(&mut store), want, "{backend:?}: after /{page} at depth {depth}");
        }
    }
}

both! {
    fn the_driving_frontier_keeps_the_counts_the_database_has(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        let scope = Scope::new("https://site.test/", ScopeConfig::default()).unwrap();
        let mut frontier = Frontier::resume(s.driving_crawl(&crawl.id, "w"), scope, Limits::default()).unwrap();
        // A sitemap URL first (no depth), then reached by a link: promoted.
        frontier.add_sitemap_url("https://site.test/a").unwrap();
        frontier.add_sitemap_url("https://site.test/elsewhere").unwrap();
        let mut steps = 0;
        while !frontier.is_finished().unwrap() {
            frontier.store().begin().unwrap();
            for work in frontier.next_work().unwrap() {
                match work {
                    Work::Robots { url } => {
                        let robots = crawl::robots_from_answer(Some(200), b"User-agent: *\nDisallow: /b");
                        frontier.set_robots(&url, robots);
                    }
                    Work::Fetch(entry) => {
                        let record = answer(&entry.url)
                            .unwrap_or_else(|| CrawledPage::answered(entry.url.clone(), entry.depth, 404, None));
                        frontier.record(entry, Outcome::Answered(&record)).unwrap();
                    }
                }
            }
            frontier.store().commit().unwrap();
            // After every step, what the frontier keeps is what a fresh count reads.
            let kept = frontier.counts().unwrap();
            let read = s.crawl_frontier(&crawl.id, "reader").counts().unwrap();
            assert_eq!(kept, read, "{backend:?}: step {steps}");
            steps += 1;
            assert!(steps < 20, "the crawl ends");
        }
        let c = frontier.counts().unwrap();
        // /, /a, /gone and /elsewhere fetched; /b disallowed.
        assert_eq!((c.done, c.skipped, c.queued, c.fetching), (4, 1, 0, 0), "{backend:?}: {c:?}");
    }
}

both! {
    /// The page a finding names as linking to a URL (`first_inlink`: deep-page, few-inlinks,
    /// not-in-sitemap...) is the one nearest the start, then the least URL, in whatever
    /// order the pages were recorded: two crawls of a site name the same page.
    fn the_first_inlink_is_the_nearest_page_then_the_least_url_in_any_order(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let at = |path: &str, depth: Option<u32>| {
            let mut p = page(&format!("https://site.test/{path}"), &["https://site.test/t"]);
            p.depth = depth;
            p
        };
        let pages = [at("z", Some(1)), at("b", Some(2)), at("a", Some(1)), at("B", Some(1)), at("0", None)];
        for order in [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [1, 4, 0, 3, 2]] {
            let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
            s.start_crawl(&crawl.id).unwrap();
            s.record_crawl_page(&crawl.id, &page("https://site.test/t", &[]), &[]).unwrap();
            for i in order {
                s.record_crawl_page(&crawl.id, &pages[i], &[]).unwrap();
            }
            let site = s.crawl_site(&crawl.id, true).unwrap();
            assert_eq!(
                site.first_inlink("https://site.test/t").unwrap().as_deref(),
                Some("https://site.test/B"),
                "{backend:?}: {order:?}"
            );
        }
    }
}

both! {
    fn a_page_recorded_again_counts_its_links_once(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w", lease()).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        drive(s, &crawl.id, "w", None);
        let inlinks = |url: &str| {
            let (pages, _) = s.crawl_pages(&crawl.id, None, 10).unwrap();
            pages.into_iter().find(|p| p.url == url).map(|p| p.inlinks)
        };
        assert_eq!(inlinks("https://site.test/"), Some(2), "{backend:?}: from /a and /b");
        assert_eq!(inlinks("https://site.test/a"), Some(1));
        let site = s.crawl_site(&crawl.id, true).unwrap();
        assert_eq!(site.first_inlink("https://site.test/").unwrap().as_deref(), Some("https://site.test/a"));

        // /a recorded again (a restart), now linking to /b (twice) instead of home.
        let again = page("https://site.test/a", &["https://site.test/b", "https://site.test/b", "https://site.test/a"]);
        s.record_crawl_page(&crawl.id, &again, &[]).unwrap();
        assert_eq!(inlinks("https://site.test/"), Some(1), "{backend:?}: /a no longer links home");
        assert_eq!(inlinks("https://site.test/b"), Some(2), "{backend:?}: home and /a, each once");
        assert_eq!(inlinks("https://site.test/a"), Some(1), "{backend:?}: a link to itself is none");
        assert_eq!(site.inlink_count("https://site.test/b").unwrap(), 2);
        assert_eq!(site.followed_inlink_count("https://site.test/b").unwrap(), 2);

        // /a recorded once more with its links to /b nofollow: still an inlink, no longer a
        // followed one (nofollow-only-inlinks); then as before, for the pairs below.
        let mut nofollow = again.clone();
        for link in &mut nofollow.outlinks {
            link.nofollow = true;
            link.follow = false;
        }
        s.record_crawl_page(&crawl.id, &nofollow, &[]).unwrap();
        assert_eq!(site.inlink_count("https://site.test/b").unwrap(), 2, "{backend:?}");
        assert_eq!(site.followed_inlink_count("https://site.test/b").unwrap(), 1, "{backend:?}: home's link only");
        s.record_crawl_page(&crawl.id, &again, &[]).unwrap();
        assert_eq!(site.followed_inlink_count("https://site.test/b").unwrap(), 2, "{backend:?}");
        let mut links = Vec::new();
        site.internal_links(&mut |from, to| {
            links.push((from.to_string(), to.url.clone()));
            Ok(())
        })
        .unwrap();
        links.sort();
        assert_eq!(
            links,
            [
                ("https://site.test/".to_string(), "https://site.test/a".to_string()),
                ("https://site.test/".to_string(), "https://site.test/b".to_string()),
                ("https://site.test/".to_string(), "https://site.test/gone".to_string()),
                ("https://site.test/a".to_string(), "https://site.test/b".to_string()),
                ("https://site.test/b".to_string(), "https://site.test/".to_string()),
            ],
            "{backend:?}: each pair once"
        );
    }
}

both! {
    fn queued_crawls_start_in_order_within_the_caps(backend) {
        let Some(f) = fresh(backend) else { return };
        let (a, b) = (f.store.clone(), f.open_again());
        // The requester is named in the options here ("a" or "b"); a key's crawl by its owner.
        let requester = |user: Option<&str>, options: &str| user.map_or_else(|| options.to_string(), str::to_string);
        let caps = store::CrawlCaps { running: 3, per_requester: 2 };
        let queue = |who: &str| {
            let new = NewCrawl { user_id: None, url: "https://site.test/".into(), options_json: who.into(), max_pages: 30 };
            a.queue_crawl(new).unwrap().id
        };
        // a1 a2 a3 b1 b2, made in that order.
        let ids: Vec<vocab::CrawlId> = ["a", "a", "a", "b", "b"].iter().map(|w| queue(w)).collect();
        assert_eq!(a.get_crawl(&ids[0]).unwrap().state, CrawlState::Queued);
        assert!(a.crawl_lease(&ids[0]).unwrap().is_none(), "a queued crawl has no lease");
        // A queued crawl is not adopted as an interrupted one.
        assert!(a.adopt_crawls("w", None, lease()).unwrap().is_empty());

        // "a" may run two: a3 waits, and b1 (after it) starts; then the total of 3 is reached.
        let started = a.start_queued_crawls("w-a", lease(), caps, &requester).unwrap();
        assert_eq!(started, vec![ids[0].clone(), ids[1].clone(), ids[3].clone()]);
        for id in &started {
            let c = a.get_crawl(id).unwrap();
            assert_eq!(c.state, CrawlState::Running);
            assert!(c.started_at.is_some());
            assert_eq!(a.crawl_lease(id).unwrap().unwrap().0, "w-a");
        }
        // Another replica finds nothing to start while they run.
        assert!(b.start_queued_crawls("w-b", lease(), caps, &requester).unwrap().is_empty());
        assert_eq!(a.get_crawl(&ids[2]).unwrap().state, CrawlState::Queued);

        // a1 ends: a3 is next in order (b2 would put "b" at 2, but a3 came first).
        assert!(finish(&a, &ids[0], "w-a"));
        assert_eq!(b.start_queued_crawls("w-b", lease(), caps, &requester).unwrap(), vec![ids[2].clone()]);
        // A cancelled queued crawl never starts.
        a.cancel_crawl(&ids[4]).unwrap();
        assert!(finish(&a, &ids[1], "w-a"));
        assert!(a.start_queued_crawls("w-a", lease(), caps, &requester).unwrap().is_empty());
        assert_eq!(a.get_crawl(&ids[4]).unwrap().state, CrawlState::Cancelled);
    }
}

both! {
    fn retention_deletes_old_audits_and_crawls_and_keeps_the_newest(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let raw = f.raw();
        let owner = s.create_user(Tier::Free).unwrap().id;
        let audit = |user: Option<&str>| {
            let mut new = store::NewAudit::new("https://a.test/", "https://a.test/", 50, "1", "{}");
            new.user_id = user.map(Into::into);
            s.insert_audit(new).unwrap().id
        };
        let ended = |user: Option<&str>| {
            let crawl = s.queue_crawl(new_crawl(user.map(Into::into), 30)).unwrap();
            drive(s, &crawl.id, "w", Some(1));
            s.cancel_crawl(&crawl.id).unwrap();
            crawl.id
        };
        let age = |table: &str, id: &str, days: i64| {
            let at = store::format_rfc3339(OffsetDateTime::now_utc() - time::Duration::days(days));
            raw.exec(&format!("UPDATE {table} SET created_at = '{at}' WHERE id = '{id}'"));
        };
        let (old_anonymous, new_anonymous, old_keyed) = (audit(None), audit(None), audit(Some(&owner)));
        age("audits", &old_anonymous, 10);
        age("audits", &old_keyed, 10);
        // Anonymous crawls: one too old, then three of which two are kept by count.
        let too_old = ended(None);
        age("crawls", &too_old, 10);
        let anonymous: Vec<vocab::CrawlId> = (0..3).map(|_| ended(None)).collect();
        for (i, id) in anonymous.iter().enumerate() {
            age("crawls", id, 3 - i as i64);
        }
        let keyed: Vec<vocab::CrawlId> = (0..3).map(|_| ended(Some(&owner))).collect();
        for (i, id) in keyed.iter().enumerate() {
            age("crawls", id, 3 - i as i64);
        }
        // A crawl that has not ended is never deleted, however old.
        let running = s.queue_crawl(new_crawl(None, 30)).unwrap().id;
        age("crawls", &running, 100);
        let pages_before = raw.count("crawl_pages");
        assert!(pages_before > 0);

        let day = time::Duration::days(1);
        let policy = store::Retention {
            anonymous_audit_age: 5 * day,
            keyed_audit_age: 30 * day,
            anonymous_crawl_age: 5 * day,
            keyed_crawl_age: 30 * day,
            anonymous_crawls: 2,
            keyed_crawls_per_owner: 1,
            crawl_pages_age: 1000 * day,
        };
        let pruned = s.prune(&policy, OffsetDateTime::now_utc()).unwrap();
        assert_eq!((pruned.audits, pruned.crawls), (1, 4), "{pruned:?}");
        assert!(s.get_audit(&old_anonymous).is_err());
        assert!(s.get_audit(&new_anonymous).is_ok() && s.get_audit(&old_keyed).is_ok());
        let gone = |id: &str| s.get_crawl(id).is_err();
        assert!(gone(&too_old) && gone(&anonymous[0]) && !gone(&anonymous[1]) && !gone(&anonymous[2]));
        assert!(gone(&keyed[0]) && gone(&keyed[1]) && !gone(&keyed[2]), "the owner's newest is kept");
        assert!(!gone(&running));
        let left: i64 = raw.int(&format!(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_pages WHERE crawl_id IN ('{}', '{}')",
            too_old, keyed[0]
        ));
        assert_eq!(left, 0, "a crawl's pages go with it");
        assert_eq!(s.prune(&policy, OffsetDateTime::now_utc()).unwrap(), store::Pruned::default(), "nothing more");
    }
}

both! {
    fn retention_prunes_old_ended_crawls_pages_and_keeps_the_crawl(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let raw = f.raw();
        let ended = || {
            let crawl = s.queue_crawl(new_crawl(None, 30)).unwrap();
            drive(s, &crawl.id, "w", None);
            s.cancel_crawl(&crawl.id).unwrap();
            crawl.id
        };
        let ended_days_ago = |id: &str, days: i64| {
            let at = store::format_rfc3339(OffsetDateTime::now_utc() - time::Duration::days(days));
            raw.exec(&format!("UPDATE crawls SET finished_at = '{at}' WHERE id = '{id}'"));
        };
        let rows = |table: &str, id: &str| -> i64 {
            raw.int(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table} WHERE crawl_id = '{id}'"))
        };
        let (old, recent) = (ended(), ended());
        ended_days_ago(&old, 40);
        ended_days_ago(&recent, 10);
        // A crawl that has not ended keeps its pages, however old.
        let running = s.queue_crawl(new_crawl(None, 30)).unwrap().id;
        drive(s, &running, "w", Some(1));
        raw.exec(&format!("UPDATE crawls SET created_at = '2000-01-01T00:00:00Z' WHERE id = '{running}'"));
        let before = s.get_crawl(&old).unwrap();
        let issues_before = s.crawl_issue_counts(&old).unwrap();
        assert!(before.progress.pages_done > 1 && !issues_before.is_empty(), "{before:?}");
        assert!(rows("crawl_inlinks", &old) > 0 && rows("crawl_sitemap_urls", &old) > 0);
        let recent_pages = rows("crawl_pages", &recent);
        let running_pages = rows("crawl_pages", &running);

        let day = time::Duration::days(1);
        let policy = store::Retention {
            anonymous_audit_age: 1000 * day,
            keyed_audit_age: 1000 * day,
            anonymous_crawl_age: 1000 * day,
            keyed_crawl_age: 1000 * day,
            anonymous_crawls: 100,
            keyed_crawls_per_owner: 100,
            crawl_pages_age: 30 * day,
        };
        let pruned = s.prune(&policy, OffsetDateTime::now_utc()).unwrap();
        assert_eq!(pruned, store::Pruned { crawl_pages: 1, ..store::Pruned::default() });

        // The old crawl answers as before, its counts and issues kept, and says its pages went.
        let after = s.get_crawl(&old).unwrap();
        assert!(after.pages_pruned_at.is_some(), "{after:?}");
        assert_eq!(after.progress, before.progress);
        assert_eq!((after.state, after.summary_json.clone()), (before.state, before.summary_json.clone()));
        assert_eq!(s.crawl_issue_counts(&old).unwrap(), issues_before);
        for table in ["crawl_pages", "crawl_inlinks", "crawl_sitemap_urls"] {
            assert_eq!(rows(table, &old), 0, "{table}");
        }
        assert!(s.crawl_pages(&old, None, 100).unwrap().0.is_empty());
        // The others keep theirs.
        assert_eq!(rows("crawl_pages", &recent), recent_pages);
        assert_eq!(rows("crawl_pages", &running), running_pages);
        assert!(s.get_crawl(&recent).unwrap().pages_pruned_at.is_none());
        assert_eq!(s.prune(&policy, OffsetDateTime::now_utc()).unwrap(), store::Pruned::default(), "nothing more");
    }
}

both! {
    fn an_owners_crawls_are_listed_newest_first_by_state_and_site(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let owner = s.create_user(Tier::Free).unwrap().id;
        let other = s.create_user(Tier::Free).unwrap().id;
        let made = |user: &str, url: &str| {
            let new = NewCrawl { user_id: Some(user.into()), url: url.into(), options_json: "{}".into(), max_pages: 5 };
            s.create_crawl(new, "w", lease()).unwrap().id
        };
        let a = made(&owner, "https://site.test/");
        let b = made(&owner, "https://site.test:8443/shop/");
        let c = made(&owner, "http://other.test/");
        // Not a prefix match: `site.test.evil` is another host.
        let d = made(&owner, "https://site.test.evil/");
        made(&other, "https://site.test/");
        s.cancel_crawl(&c).unwrap();

        let list = |filter: &store::CrawlFilter, limit: usize| -> Vec<vocab::CrawlId> {
            s.list_user_crawls(&owner, filter, limit).unwrap().into_iter().map(|c| c.id).collect()
        };
        let all = list(&store::CrawlFilter::default(), 10);
        assert_eq!(all.len(), 4, "another owner's crawl is not listed");
        // Newest first: created in the order a, b, c, d (ties of the same millisecond go by id).
        let crawls = s.list_user_crawls(&owner, &store::CrawlFilter::default(), 10).unwrap();
        assert!(crawls.windows(2).all(|w| (&w[0].created_at, &w[0].id) > (&w[1].created_at, &w[1].id)));

        let cancelled = store::CrawlFilter { state: Some(CrawlState::Cancelled), ..Default::default() };
        assert_eq!(list(&cancelled, 10), [c]);
        let site = |site: &str| store::CrawlFilter { site: Some(site.into()), ..Default::default() };
        let mut on_site = list(&site("site.test"), 10);
        on_site.sort();
        let mut expected = vec![a.clone(), b.clone()];
        expected.sort();
        assert_eq!(on_site, expected, "a host matches every port of it");
        assert_eq!(list(&site("site.test:8443"), 10), std::slice::from_ref(&b));
        assert_eq!(list(&site("site.test.evil"), 10), [d]);
        assert!(list(&site("nowhere.test"), 10).is_empty());

        // Two at a time, each crawl once, in the order of the whole listing.
        let (mut paged, mut before) = (Vec::new(), None);
        loop {
            let filter = store::CrawlFilter { before: before.clone(), ..Default::default() };
            let page = s.list_user_crawls(&owner, &filter, 2).unwrap();
            if page.is_empty() {
                break;
            }
            let last = page.last().unwrap();
            before = Some((last.created_at, last.id.clone()));
            paged.extend(page.into_iter().map(|c| c.id));
        }
        assert_eq!(paged, all);
    }
}

both! {
    fn a_comparison_reads_each_fetched_page_and_each_distinct_finding(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w1", lease()).unwrap();
        assert!(s.start_crawl(&crawl.id).unwrap());
        drive(s, &crawl.id, "w1", None);
        assert!(finish(s, &crawl.id, "w1"));
        // A page recorded twice (fetched and audited again) is one page with one finding each.
        s.record_crawl_page(&crawl.id, &page("https://site.test/a", &["/"]), &[]).unwrap();

        let facts = s.crawl_page_facts(&crawl.id).unwrap();
        let seen: Vec<(&str, Option<u16>, bool)> =
            facts.iter().map(|p| (p.url.as_str(), p.status, p.indexable)).collect();
        assert_eq!(
            seen,
            [
                ("https://site.test/", Some(200), true),
                ("https://site.test/a", Some(200), true),
                ("https://site.test/b", Some(200), true),
                ("https://site.test/gone", Some(404), false),
            ]
        );
        let findings = s.crawl_finding_urls(&crawl.id).unwrap();
        let broken = ("broken-internal-link".to_string(), IssueKind::Site, "critical".to_string(), "https://site.test/gone".to_string());
        assert!(findings.contains(&broken), "{findings:?}");
        let mut distinct = findings.clone();
        distinct.dedup();
        assert_eq!(distinct, findings, "each finding once, in rule and URL order");
        assert!(findings.windows(2).all(|w| (&w[0].0, &w[0].3) <= (&w[1].0, &w[1].3)));
    }
}

both! {
    /// `crawl_inlinks` gets a row only for a URL the crawl recorded (fetched, queued, skipped
    /// or from a sitemap): links to other URLs (other sites, URLs left out of the frontier)
    /// are counted by the frontier that commits them, not kept, so a page of thousands of
    /// distinct links adds no more inlinks rows than URLs the crawl keeps (docs/API.md,
    /// "What a crawl keeps"). The inlinks the site rules read stay those of every recorded page.
    fn inlinks_are_kept_for_recorded_urls_and_the_rest_counted(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let raw = f.raw();
        let id = s.queue_crawl(new_crawl(None, 30)).unwrap().id;
        drive(s, &id, "w", None);
        let inlinks = |url: &str| s.crawl_site(&id, true).unwrap().inlink_count(url).unwrap();
        assert_eq!((inlinks("https://site.test/a"), inlinks("https://site.test/")), (1, 2));
        let rows = || raw.int(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_inlinks WHERE crawl_id = '{id}'"));
        let before = rows();
        // A page recorded in a frontier's batch: two links to recorded URLs, 200 to URLs the
        // crawl never recorded.
        let mut links = vec!["https://site.test/a".to_string(), "https://site.test/gone".to_string()];
        links.extend((0..200).map(|i| format!("https://elsewhere.test/{i}")));
        let links: Vec<&str> = links.iter().map(String::as_str).collect();
        let mut frontier = s.crawl_frontier(&id, "w");
        frontier.begin().unwrap();
        frontier.writer().record_page(&page("https://site.test/b", &links), &[]).unwrap();
        frontier.commit().unwrap();
        assert_eq!(frontier.links_not_counted(), 200);
        assert_eq!(rows(), before, "no row for a URL the crawl did not record");
        assert_eq!(inlinks("https://site.test/a"), 2, "a recorded URL's inlink is counted");
        assert_eq!(inlinks("https://elsewhere.test/0"), 0);
        assert_eq!(
            raw.int(&format!(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_inlinks i WHERE crawl_id = '{id}' AND NOT EXISTS \
                 (SELECT 1 FROM crawl_pages p WHERE p.crawl_id = i.crawl_id AND p.url = i.url)"
            )),
            0
        );
        // The same frontier knows the URLs it inserts or claims without looking them up: a
        // URL queued in a batch and a page linking to it in the same batch count its inlink;
        // a URL queued by another frontier is looked up and counted too; one never recorded
        // is still counted as not kept.
        let entry = |url: &str| crawl::Entry {
            url: url.to_string(),
            depth: Some(2),
            found_from: Some("https://site.test/b".into()),
            source: crawl::Source::Link,
            state: State::Queued,
            status: None,
            reason: None,
        };
        let mut other = s.crawl_frontier(&id, "w2");
        assert!(other.insert(entry("https://site.test/queued-elsewhere")).unwrap());
        frontier.begin().unwrap();
        assert!(frontier.insert(entry("https://site.test/new")).unwrap());
        let links = ["https://site.test/new", "https://site.test/queued-elsewhere", "https://elsewhere.test/x"];
        frontier.writer().record_page(&page("https://site.test/c", &links), &[]).unwrap();
        frontier.commit().unwrap();
        assert_eq!(frontier.links_not_counted(), 201);
        assert_eq!((inlinks("https://site.test/new"), inlinks("https://site.test/queued-elsewhere")), (1, 1));
        assert_eq!(rows(), before + 2, "one row for each newly linked recorded URL");
    }
}

both! {
    /// A finding's detail is kept within `MAX_ISSUE_DETAIL_BYTES`, cut at a character
    /// boundary with a visible `…`; a detail at the bound is kept whole.
    fn a_findings_detail_is_kept_within_its_bound(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w1", lease()).unwrap();
        assert!(s.start_crawl(&crawl.id).unwrap());
        let at_bound = "d".repeat(store::MAX_ISSUE_DETAIL_BYTES);
        // Two-byte characters, so the cut must step back to a boundary.
        let past = "é".repeat(store::MAX_ISSUE_DETAIL_BYTES);
        let failed = [failed_rule("x-at-bound", "notice", &at_bound), failed_rule("x-past", "notice", &past)];
        s.record_crawl_page(&crawl.id, &page("https://site.test/a", &["/"]), &failed).unwrap();
        let (kept, _) = s.crawl_issues(&crawl.id, "x-at-bound", None, 10).unwrap();
        assert_eq!(kept[0].detail, at_bound);
        let (cut, _) = s.crawl_issues(&crawl.id, "x-past", None, 10).unwrap();
        let detail = &cut[0].detail;
        assert!(detail.len() <= store::MAX_ISSUE_DETAIL_BYTES, "{}", detail.len());
        assert!(detail.ends_with('…') && past.starts_with(detail.trim_end_matches('…')));
    }
}

both! {
    /// A failed page rule's elements come back as written, with their total; a finding
    /// without elements has none; and elements past `MAX_ISSUE_LOCATIONS_BYTES` are left out
    /// from the end while the total still counts them all.
    fn a_findings_locations_are_kept_within_their_bound(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let crawl = s.create_crawl(new_crawl(None, 30), "w1", lease()).unwrap();
        assert!(s.start_crawl(&crawl.id).unwrap());
        let item = |i: usize, snippet: &str| {
            serde_json::json!({ "line": i + 1, "column": 3, "selector": format!("img:nth-of-type({})", i + 1), "snippet": snippet })
        };
        let small = IssueLocations { total: 120, items: (0..2).map(|i| item(i, "<img src=a.png>")).collect() };
        // 50 snippets of 200 three-byte characters: about 30 KiB, past the bound.
        let wide = "€".repeat(200);
        let big = IssueLocations { total: 50, items: (0..50).map(|i| item(i, &wide)).collect() };
        let failed = [
            FailedRule { locations: Some(small.clone()), ..failed_rule("img-alt", "warning", "2 images without alt") },
            FailedRule { locations: Some(big.clone()), ..failed_rule("x-big", "notice", "many") },
            failed_rule("x-none", "notice", "none"),
        ];
        s.record_crawl_page(&crawl.id, &page("https://site.test/a", &["/"]), &failed).unwrap();
        let (kept, _) = s.crawl_issues(&crawl.id, "img-alt", None, 10).unwrap();
        assert_eq!(kept[0].locations.as_ref(), Some(&small));
        let (none, _) = s.crawl_issues(&crawl.id, "x-none", None, 10).unwrap();
        assert_eq!(none[0].locations, None);
        let (cut, _) = s.crawl_issues(&crawl.id, "x-big", None, 10).unwrap();
        let cut = cut[0].locations.clone().unwrap();
        assert_eq!(cut.total, 50);
        assert!(!cut.items.is_empty() && cut.items.len() < 50, "{} items", cut.items.len());
        assert_eq!(cut.items[..], big.items[..cut.items.len()]);
        assert!(serde_json::to_string(&cut).unwrap().len() <= store::MAX_ISSUE_LOCATIONS_BYTES);
    }
}

both! {
    fn a_crawl_reads_its_times_in_every_form_a_row_may_hold(backend) {
        let Some(f) = fresh(backend) else { return };
        let s = &f.store;
        let raw = f.raw();
        let id = s.queue_crawl(new_crawl(None, 5)).unwrap().id;
        // What the store writes (every row the service made), another RFC 3339 text, the
        // text of SQLite's `datetime('now')` and of PostgreSQL's `now()`: each is read as the
        // instant it names, in the one format; text that is no time reads as the epoch
        // rather than failing the read of the whole row.
        for (stored, read) in [
            ("2025-01-02T03:04:05.678Z", "2025-01-02T03:04:05.678Z"),
            ("2025-01-02T04:04:05+01:00", "2025-01-02T03:04:05.000Z"),
            ("2025-01-02 03:04:05", "2025-01-02T03:04:05.000Z"),
            ("2025-01-02 03:04:05.678901+00", "2025-01-02T03:04:05.678Z"),
            ("not a time", "1970-01-01T00:00:00.000Z"),
        ] {
            raw.exec(&format!(
                "UPDATE crawls SET created_at = '{stored}', started_at = '{stored}', finished_at = '{stored}', \
                 pages_pruned_at = '{stored}' WHERE id = '{id}'"
            ));
            let crawl = s.get_crawl(&id).unwrap();
            let times = [Some(crawl.created_at), crawl.started_at, crawl.finished_at, crawl.pages_pruned_at];
            assert_eq!(times.map(|t| t.map(|t| t.to_string())), [(); 4].map(|()| Some(read.to_string())), "{stored:?}");
        }
        // A new crawl's times are written in the one format.
        let fresh_crawl = s.get_crawl(&s.queue_crawl(new_crawl(None, 5)).unwrap().id).unwrap();
        let stored = raw.text(&format!("SELECT created_at FROM crawls WHERE id = '{}'", fresh_crawl.id));
        assert_eq!(stored, Some(fresh_crawl.created_at.to_string()));
    }
}
