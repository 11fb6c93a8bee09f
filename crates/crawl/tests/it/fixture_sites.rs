//! The fixture sites of the site rules (`fixtures/sites/crawl-<rule>-{fail,pass}`, see
//! sites.rs), crawled end to end without a network into records in memory. The store's tests
//! include this file too (`#[path]`), to run the rules over the same crawls in a database.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use audit_core::{audit, HttpFacts, Page};
use crawl::{
    not_found_probe_path, robots_from_answer, CrawledPage, EdgeAnswer, EdgeProbe, Entry, ExternalBudget, ExternalLinks,
    ExternalOutcome, Frontier, Limits, MemoryStore, NotChecked, NotFoundProbe, Outcome, Scope, ScopeConfig,
    SitemapLimits, SitemapProblem, Sitemaps, State, Work, ROBOTS_REASON_PREFIX, USER_AGENT_TOKEN,
};

pub const ORIGIN: &str = "http://site.test";

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites")
}

enum Answer {
    Body(u16, Vec<u8>, bool),
    Redirect(u16, String),
}

/// The file-system fetcher of one fixture site.
struct Site {
    dir: PathBuf,
    redirects: Vec<(String, u16, String)>,
    /// `_edge` lines (`/path-prefix STATUS Bot`): what the site's edge answers that AI
    /// crawler on those paths instead of the page.
    edge: Vec<(String, u16, String)>,
    fetched: Vec<String>,
}

impl Site {
    fn new(dir: PathBuf) -> Site {
        let redirects = std::fs::read_to_string(dir.join("_redirects"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                Some((f.next()?.to_string(), f.next()?.parse().ok()?, f.next()?.to_string()))
            })
            .collect();
        let edge = std::fs::read_to_string(dir.join("_edge"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                Some((f.next()?.to_string(), f.next()?.parse().ok()?, f.next()?.to_string()))
            })
            .collect();
        Site { dir, redirects, edge, fetched: Vec::new() }
    }

    fn get(&mut self, url: &str) -> Answer {
        let parsed = url::Url::parse(url).unwrap();
        let host = parsed.host_str().unwrap();
        assert!(host == "site.test" || host == "www.site.test", "fetched another site: {url}");
        self.fetched.push(url.to_string());
        let path = parsed.path();
        if let Some((_, status, to)) = self.redirects.iter().find(|(from, _, _)| from == path) {
            return Answer::Redirect(*status, to.clone());
        }
        let file = match path {
            "/" => "index.html".to_string(),
            p if p.ends_with('/') => format!("{}index.html", &p[1..]),
            p if Path::new(p).extension().is_some() => p[1..].to_string(),
            p => format!("{}.html", &p[1..]),
        };
        match std::fs::read(self.dir.join(&file)) {
            Ok(body) if !file.starts_with('_') => Answer::Body(200, body, file.ends_with(".html")),
            // A site's own answer to an unknown page: `_404.html` with a 404, or `_unknown.html`
            // with a 200 (a site without real 404s).
            _ if !file.ends_with(".html") => Answer::Body(404, b"not found".to_vec(), false),
            _ => match (std::fs::read(self.dir.join("_404.html")), std::fs::read(self.dir.join("_unknown.html"))) {
                (Ok(body), _) => Answer::Body(404, body, true),
                (_, Ok(body)) => Answer::Body(200, body, true),
                _ => Answer::Body(404, b"not found".to_vec(), false),
            },
        }
    }
}

impl Site {
    /// `url` as the edge check fetches it after the crawl: as a browser (`bot` `None`) or
    /// as an AI crawler, which `_edge` may turn away. Not counted in [`Site::fetched`], the
    /// crawl's own fetches.
    fn get_as(&mut self, url: &str, bot: Option<&str>) -> EdgeAnswer {
        let path = url::Url::parse(url).unwrap().path().to_string();
        if let Some((_, status, _)) =
            self.edge.iter().find(|(prefix, _, b)| path.starts_with(prefix.as_str()) && Some(b.as_str()) == bot)
        {
            return EdgeAnswer::of(*status, &[], Some("text/plain"), b"Forbidden");
        }
        let answer = self.get(url);
        self.fetched.pop();
        match answer {
            Answer::Body(status, body, html) => {
                EdgeAnswer::of(status, &[], Some(if html { "text/html" } else { "text/plain" }), &body)
            }
            Answer::Redirect(status, _) => EdgeAnswer::of(status, &[], None, b""),
        }
    }
}

pub struct Crawl {
    pub pages: Vec<CrawledPage>,
    pub sitemap_urls: BTreeSet<String>,
    pub sitemaps_read: bool,
    pub sitemap_problems: Vec<SitemapProblem>,
    pub frontier: Frontier<MemoryStore>,
    pub fetched: Vec<String>,
    /// How the site answered the never-existing URL fetched at the start.
    pub not_found_probe: NotFoundProbe,
    /// The external links as checked ([`check_external`]).
    pub external_links: ExternalLinks,
    /// What the AI crawlers got of the crawl's sample of pages, checked after its end.
    pub edge_probes: Vec<EdgeProbe>,
}

impl Crawl {
    /// The frontier's entries skipped for robots.txt.
    pub fn robots_skipped(&mut self) -> Vec<Entry> {
        let entries = self.frontier.store().entries();
        entries
            .into_iter()
            .filter(|e| {
                e.state == State::Skipped && e.reason.as_deref().is_some_and(|r| r.starts_with(ROBOTS_REASON_PREFIX))
            })
            .collect()
    }

    /// [`Crawl::robots_skipped`] as the site rules read them: URL and reason.
    pub fn robots_blocked(&mut self) -> Vec<(String, String)> {
        self.robots_skipped().into_iter().map(|e| (e.url, e.reason.unwrap_or_default())).collect()
    }
}

/// The random part of the fixture crawls' never-existing URL (fixed, so that `_expect` can
/// name it).
pub const PROBE_RANDOM: u64 = 0x5eed;

/// Fetches the never-existing URL as the application's runner does at a crawl's start.
fn probe(site: &mut Site, scope: &Scope) -> NotFoundProbe {
    let url = format!("{ORIGIN}{}", not_found_probe_path(PROBE_RANDOM));
    let record = match site.get(&url) {
        Answer::Body(status, body, true) => {
            let page = Page::parse(&url, &body, HttpFacts::new().with_status(status));
            CrawledPage::from_page(&url, None, &page, scope, None)
        }
        Answer::Body(status, _, false) => CrawledPage::answered(&url, None, status, None),
        Answer::Redirect(status, to) => CrawledPage::answered(&url, None, status, Some(to)),
    };
    NotFoundProbe::of(&record)
}

/// Crawls a fixture site the way the application's runner does, one fetch at a time.
pub fn crawl(name: &str) -> Crawl {
    crawl_with(name, Limits::default().max_in_flight, None)
}

/// Crawls a fixture site with up to `in_flight` requests at once. Without `seed`, the
/// answers come in the order the work was handed out, and new work is asked for once all
/// of it is done; with one, new work is asked for after every answer and the next answer is
/// any request in flight, picked by a small generator from `seed`: the orders a real
/// network gives, reproducibly.
pub fn crawl_with(name: &str, in_flight: usize, seed: Option<u64>) -> Crawl {
    let mut site = Site::new(fixtures().join(name));
    let scope = Scope::new(&format!("{ORIGIN}/"), ScopeConfig { max_pages: 100, ..ScopeConfig::default() }).unwrap();
    let limits = Limits { max_in_flight: in_flight, ..Limits::default() };
    let mut frontier = Frontier::resume(MemoryStore::new(), scope.clone(), limits).unwrap();
    let not_found_probe = probe(&mut site, &scope);
    let mut sitemaps = Sitemaps::new(scope.start(), SitemapLimits::default());
    let mut sitemap_urls = BTreeSet::new();
    let mut sitemap_problems = Vec::new();
    let mut pages = Vec::new();
    let mut robots_seen = Vec::new();
    let mut pending: Vec<Work> = Vec::new();
    let mut state = seed.unwrap_or(0);
    loop {
        if pending.is_empty() || seed.is_some() {
            pending.extend(frontier.next_work().unwrap());
        }
        if pending.is_empty() {
            assert!(frontier.is_finished().unwrap(), "{name}: no work while the crawl is not finished");
            break;
        }
        let next = match seed {
            None => 0,
            Some(_) => {
                // A linear congruential generator (Knuth's MMIX constants).
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 33) as usize % pending.len()
            }
        };
        match pending.remove(next) {
            Work::Robots { url } => {
                let robots = match site.get(&url) {
                    Answer::Body(status, body, _) => robots_from_answer(Some(status), &body),
                    Answer::Redirect(..) => robots_from_answer(Some(404), b""),
                };
                robots_seen.push(robots.clone());
                for sitemap in frontier.set_robots(&url, robots) {
                    sitemap_problems.extend(sitemaps.add_source(&sitemap));
                }
                // Sitemaps are read once robots.txt named them.
                while let Some(next) = sitemaps.next_url().map(str::to_string) {
                    let read = match site.get(&next) {
                        Answer::Body(status, body, _) => sitemaps.record(&next, Some(status), &body),
                        Answer::Redirect(status, _) => sitemaps.record(&next, Some(status), b""),
                    };
                    for u in read.urls {
                        frontier.add_sitemap_url(&u).unwrap();
                        sitemap_urls.insert(u);
                    }
                    sitemap_problems.extend(read.problems);
                }
            }
            Work::Fetch(entry) => {
                assert!(
                    robots_seen.iter().all(|r| r.is_allowed(USER_AGENT_TOKEN, &entry.url)),
                    "{name}: handed out a disallowed URL {}",
                    entry.url
                );
                let record = match site.get(&entry.url) {
                    Answer::Redirect(status, to) => {
                        let to = frontier.record(entry.clone(), Outcome::Redirected { status, location: Some(&to) });
                        CrawledPage::answered(&entry.url, entry.depth, status, to.unwrap())
                    }
                    Answer::Body(status, body, true) => {
                        let page = Page::parse(&entry.url, &body, HttpFacts::new().with_status(status));
                        let score = audit(page.clone()).score().percentage;
                        let record = CrawledPage::from_page(&entry.url, entry.depth, &page, &scope, Some(score));
                        frontier.record(entry.clone(), Outcome::Answered(&record)).unwrap();
                        record
                    }
                    Answer::Body(status, _, false) => {
                        let record = CrawledPage::answered(&entry.url, entry.depth, status, None);
                        frontier.record(entry.clone(), Outcome::Answered(&record)).unwrap();
                        record
                    }
                };
                pages.push(record);
            }
        }
    }
    let external_links = check_external(&fixtures().join(name), &pages);
    // The edge check after the crawl, as the application's runner makes it (its robots.txt
    // is the site's one origin's).
    let robots = robots_seen.last().cloned().unwrap_or_else(|| robots_from_answer(Some(404), b""));
    let edge_probes = pages
        .iter()
        .filter(|p| EdgeProbe::samples(p))
        .take(crawl::MAX_EDGE_SAMPLE)
        .map(|p| {
            let path = url::Url::parse(&p.url).unwrap().path().to_string();
            let bots = EdgeProbe::bots(&robots, &path);
            let browser = site.get_as(&p.url, None);
            let answers = bots.iter().map(|b| (*b, site.get_as(&p.url, Some(b.bot)))).collect();
            EdgeProbe::judge(p.url.clone(), browser, answers)
        })
        .collect();
    Crawl {
        external_links,
        pages,
        sitemap_urls,
        sitemaps_read: sitemaps.any_read(),
        sitemap_problems,
        frontier,
        fetched: site.fetched,
        not_found_probe,
        edge_probes,
    }
}

/// The external URLs the fixture crawls check at most: small, so that a fixture site can
/// spend it.
pub const FIXTURE_EXTERNAL_BUDGET: u64 = 8;

/// Checks the external links of `pages` as the application's runner does (each URL once, in
/// crawl order, within [`FIXTURE_EXTERNAL_BUDGET`]), with the answers of the fixture's
/// `_external` file: `URL STATUS [REDIRECT_STATUS REDIRECT_TO]...` (the last answer first,
/// then the redirects on the way), `URL fail MESSAGE`, `URL refused` or `URL timeout`. A URL
/// the file does not name answers 200.
fn check_external(dir: &Path, pages: &[CrawledPage]) -> ExternalLinks {
    let answers = std::fs::read_to_string(dir.join("_external")).unwrap_or_default();
    let answer = |url: &str| -> ExternalOutcome {
        let Some(line) = answers.lines().find(|l| l.split_whitespace().next() == Some(url)) else {
            return ExternalOutcome::Answered { status: 200, redirects: Vec::new() };
        };
        let fields: Vec<&str> = line.split_whitespace().skip(1).collect();
        match fields[0] {
            "fail" => ExternalOutcome::Failed { error: fields[1..].join(" ") },
            "refused" => ExternalOutcome::NotChecked(NotChecked::Refused),
            "timeout" => ExternalOutcome::NotChecked(NotChecked::TimedOut),
            status => ExternalOutcome::Answered {
                status: status.parse().unwrap(),
                redirects: fields[1..].chunks(2).map(|c| (c[0].parse().unwrap(), c[1].to_string())).collect(),
            },
        }
    };
    let mut budget = ExternalBudget::new(FIXTURE_EXTERNAL_BUDGET);
    let mut links = ExternalLinks::new(FIXTURE_EXTERNAL_BUDGET);
    for page in pages {
        for link in page.outlinks.iter().filter(|l| !l.internal) {
            if budget.offer(&link.url) {
                links.record(&link.url, answer(&link.url));
            }
        }
    }
    links.count_not_checked(NotChecked::Budget, budget.over_budget());
    links.settle();
    links
}
