//! The frontier benchmark (docs/PERFORMANCE.md, "A frontier of a million URLs"): a crawl
//! whose pages each link to 40 URLs never seen before (and to 10 it knows already) fills
//! its frontier in the store to URLS queued URLs, most never fetched, as a site with more
//! URLs than the crawl's `max_pages` does. It drives the store's frontier as the crawl
//! runner does (`Store::driving_crawl`: claims of 16 URLs, each claimed page's links queued
//! and the page marked done, 64 pages a transaction) and prints, for each 100,000 URLs
//! queued, what a queued link and a claim cost then and the process's RSS: flat costs mean
//! the statements read indexes, not the growing queue.
//!
//! ```sh
//! cargo run --release -p store --example frontier_bench -- 1000000          # SQLite, as `seo-audit crawl`
//! cargo run --release -p store --example frontier_bench -- 1000000 postgres # SEO_AUDIT_PG_URL, or a temporary server
//! ```
//!
//! SQLite is a file in a temporary directory opened as the command line opens its crawl's
//! store (no syncs); PostgreSQL is the database of `SEO_AUDIT_PG_URL` (a crawl is added to
//! it and left there) or, without it, a fresh database of a temporary server
//! (`test_support::TempPostgres`, which needs PostgreSQL's binaries installed).

use std::time::{Duration, Instant};

use crawl::{Entry, FrontierStore, Source, State};
use store::{NewCrawl, Store, StoreOptions};
use test_support::rss_mib;

/// New URLs a claimed page links to.
const NEW_LINKS: u64 = 40;
/// Links of a claimed page to URLs the crawl knows already: queued again, they meet the
/// primary key's conflict (and the frontier lowers their depth when the link is shorter).
const KNOWN_LINKS: u64 = 10;
/// URLs claimed at once (the crawl's requests in flight).
const CLAIM: usize = 16;
/// Claims per transaction (64 pages, as the crawl runner's batches).
const CLAIMS_PER_BATCH: usize = 4;
/// URLs queued between two lines of the report.
const WINDOW: u64 = 100_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let urls: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let postgres = args.get(1).map(String::as_str) == Some("postgres");
    // Kept until the end: the temporary directory or server of the store.
    let (store, _keep) = open(postgres);
    println!("store            {}", store.describe());
    let new =
        NewCrawl { user_id: None, url: "https://site.example/".into(), options_json: "{}".into(), max_pages: u32::MAX };
    let until = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    let crawl = store.create_crawl(new, "bench", until).expect("crawl row");
    store.start_crawl(&crawl.id).expect("start");
    let mut frontier = store.driving_crawl(&crawl.id, "bench");
    let url = |n: u64| format!("https://site.example/p/{n}");
    let entry = |url: String, depth: u32, from: Option<String>, source: Source| Entry {
        url,
        depth: Some(depth),
        found_from: from,
        source,
        state: State::Queued,
        status: None,
        reason: None,
    };
    frontier.insert(entry("https://site.example/".into(), 0, None, Source::Start)).expect("start URL");

    let started = Instant::now();
    let (mut queued, mut pages, mut next) = (1u64, 0u64, 1u64);
    let (mut window, mut next_report) = (Window::default(), WINDOW);
    let mut lines: Vec<Window> = Vec::new();
    println!("window  queued     pages   link_us  claim_us  commit_ms  rss_mib  seconds");
    'crawl: while queued < urls {
        frontier.begin().expect("begin");
        for _ in 0..CLAIMS_PER_BATCH {
            let t = Instant::now();
            let claimed = frontier.claim(CLAIM, false).expect("claim");
            window.claim += t.elapsed();
            window.claims += 1;
            if claimed.is_empty() {
                break;
            }
            for mut page in claimed {
                let depth = page.depth.unwrap_or(0) + 1;
                let t = Instant::now();
                for _ in 0..NEW_LINKS {
                    frontier.insert(entry(url(next), depth, Some(page.url.clone()), Source::Link)).expect("queue");
                    next += 1;
                }
                for k in 0..KNOWN_LINKS {
                    // A URL queued before this page's own links (the frontier queues a known
                    // URL again only to lower its depth).
                    let known = url((next * 7_919 + k * 104_729) % (next - NEW_LINKS));
                    if !frontier
                        .insert(entry(known.clone(), depth, Some(page.url.clone()), Source::Link))
                        .expect("queue")
                    {
                        frontier.promote(&known, depth, Some(&page.url), Source::Link).expect("promote");
                    }
                }
                window.link += t.elapsed();
                window.links += NEW_LINKS + KNOWN_LINKS;
                page.state = State::Done;
                page.status = Some(200);
                frontier.update(&page).expect("done");
                pages += 1;
                queued += NEW_LINKS;
            }
        }
        let t = Instant::now();
        frontier.commit().expect("commit");
        window.commit += t.elapsed();
        window.batches += 1;
        if queued >= next_report || queued >= urls {
            next_report = (queued / WINDOW + 1) * WINDOW;
            window.queued = queued;
            window.pages = pages;
            window.rss = rss_mib().0;
            window.seconds = started.elapsed().as_secs_f64();
            window.print(lines.len() + 1);
            lines.push(std::mem::take(&mut window));
            if queued >= urls {
                break 'crawl;
            }
        }
    }
    let (rss, peak) = rss_mib();
    println!(
        "queued           {queued} URLs, {pages} pages claimed and done, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let (Some(first), Some(last)) = (lines.first(), lines.last()) {
        println!(
            "first vs last    a link {:.1} / {:.1} us, a claim of {CLAIM} {:.1} / {:.1} us, a batch's commit {:.2} / {:.2} ms",
            first.link_us(),
            last.link_us(),
            first.claim_us(),
            last.claim_us(),
            first.commit_ms(),
            last.commit_ms()
        );
    }
    println!("rss_mib          {rss:.1}, peak {peak:.1}");
    // The counts a frontier reads once when it starts (a resumed crawl): one pass over the
    // crawl's part of the queue index.
    let t = Instant::now();
    let counts = store.crawl_frontier(&crawl.id, "reader").counts().expect("counts");
    println!(
        "counts           {} queued, {} done, read in {:.1} ms",
        counts.queued,
        counts.done,
        t.elapsed().as_secs_f64() * 1000.0
    );
    if let Some(path) = store.path() {
        let bytes: u64 = ["", "-wal"]
            .iter()
            .filter_map(|suffix| std::fs::metadata(format!("{}{suffix}", path.display())).ok())
            .map(|m| m.len())
            .sum();
        println!("store_bytes      {bytes} ({:.0} bytes a URL)", bytes as f64 / queued as f64);
    }
}

/// What one report line sums up.
#[derive(Default)]
struct Window {
    link: Duration,
    links: u64,
    claim: Duration,
    claims: u64,
    commit: Duration,
    batches: u64,
    queued: u64,
    pages: u64,
    rss: f64,
    seconds: f64,
}

impl Window {
    fn link_us(&self) -> f64 {
        self.link.as_secs_f64() * 1e6 / self.links.max(1) as f64
    }

    fn claim_us(&self) -> f64 {
        self.claim.as_secs_f64() * 1e6 / self.claims.max(1) as f64
    }

    fn commit_ms(&self) -> f64 {
        self.commit.as_secs_f64() * 1e3 / self.batches.max(1) as f64
    }

    fn print(&self, n: usize) {
        println!(
            "{n:>6}  {:>9}  {:>6}  {:>8.1}  {:>8.1}  {:>9.2}  {:>7.1}  {:>7.1}",
            self.queued,
            self.pages,
            self.link_us(),
            self.claim_us(),
            self.commit_ms(),
            self.rss,
            self.seconds
        );
    }
}

/// What keeps the benchmark's store alive: its temporary directory or server.
enum Keep {
    Dir(#[allow(dead_code)] tempfile::TempDir),
    Server(#[allow(dead_code)] test_support::TempPostgres),
    Nothing,
}

fn open(postgres: bool) -> (Store, Keep) {
    if !postgres {
        let dir = tempfile::tempdir().expect("temp dir");
        // As `seo-audit crawl` opens its crawl's store.
        let options = StoreOptions { durable: false, ..StoreOptions::default() };
        let store = Store::open_with(dir.path().join("frontier.db"), options).expect("store");
        return (store, Keep::Dir(dir));
    }
    if let Ok(url) = std::env::var("SEO_AUDIT_PG_URL") {
        return (Store::connect(&url).expect("SEO_AUDIT_PG_URL"), Keep::Nothing);
    }
    let server = test_support::TempPostgres::start().expect("PostgreSQL's binaries (or SEO_AUDIT_PG_URL)");
    let store = Store::connect(&server.fresh_database()).expect("temporary database");
    (store, Keep::Server(server))
}
