//! `seo-audit crawl URL`: a site crawl on the command line (docs/API.md, "Site crawl",
//! "Command line"). The crawl is kept in a temporary SQLite store (a directory removed when
//! the command ends), as the service keeps its crawls: the frontier, the pages and their
//! links are written as they come, the site rules read them back a batch at a time, and the
//! report is printed from the store, so memory does not grow with the pages crawled
//! (docs/PERFORMANCE.md, "Site crawl"). There is no tier cap. The output: the site score,
//! the site and page issues with their affected URLs, and the pages table, as text, JSON or
//! CSV; [`ReportSource`] yields its parts.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use app::crawl::{CrawlEnd, CrawlOptions, CrawlSummary, Judged, LocalCrawl, LocalCrawlError, LocalRun, Progress};
use app::ErrorCode;
use audit_core::Severity;
use crawl::{Limits, Scope, ScopeConfig};
use fetch::Fetcher;
use serde::ser::{Error as _, SerializeSeq};
use serde::{Serialize, Serializer};
use store::Store;

use crate::audit_cmd::{AuditSettingFlags, EXIT_BELOW_MIN_SCORE, EXIT_OK};
use crate::cli_error::{fail, CliError, Code};
use crate::table::{Align, Table};
use crate::{baseline, Global};

/// Affected URLs the text report lists per issue; the JSON lists them all.
const TEXT_URLS_PER_ISSUE: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable report: site score, issues with affected URLs, the pages table.
    Text,
    /// The whole report as one JSON document.
    Json,
    /// The pages table (or with `--table issues` the findings) as CSV (RFC 4180), one row
    /// each: the columns of the REST export (docs/API.md, "Exports").
    Csv,
    /// An XLSX workbook with the sheets `pages` and `issues` (needs `--output`; a FILE
    /// ending in `.xlsx` chooses it).
    Xlsx,
    /// SARIF 2.1.0 for code scanning: one result per failed page rule per page, and one
    /// per site-rule finding.
    Sarif,
    /// JUnit XML for test reports: a test suite of the site rules, then one per audited
    /// page with a test case per page rule.
    Junit,
}

/// The rows of a CSV export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportTable {
    /// One row per URL.
    Pages,
    /// One row per finding.
    Issues,
}

impl From<ExportTable> for app::crawl::export::Table {
    fn from(t: ExportTable) -> Self {
        match t {
            ExportTable::Pages => app::crawl::export::Table::Pages,
            ExportTable::Issues => app::crawl::export::Table::Issues,
        }
    }
}

/// The user agent profiles of `--user-agent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UserAgentArg {
    /// SeoAuditBot, obeying robots.txt's `SeoAuditBot` group.
    Default,
    /// Google's smartphone crawler's user agent, obeying the `Googlebot` group.
    Smartphone,
}

impl From<UserAgentArg> for crawl::CrawlerProfile {
    fn from(a: UserAgentArg) -> Self {
        match a {
            UserAgentArg::Default => crawl::CrawlerProfile::SeoAuditBot,
            UserAgentArg::Smartphone => crawl::CrawlerProfile::Smartphone,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct CrawlArgs {
    /// The start URL (http or https); the crawl stays on its site. With --list it may be left
    /// out: the list's first URL is then the start.
    #[arg(required_unless_present = "list")]
    pub url: Option<String>,
    /// List mode (docs/RULES.md, "List mode"): crawl the start URL and the URLs of FILE, one a
    /// line (empty lines and lines starting with `#` left out), or those of the sitemap at an
    /// http(s) URL given instead (and of the sitemaps it indexes), and no other: their links
    /// are recorded, not followed, no sitemap is read, and the site rules that need the whole
    /// site are skipped. Every URL must be on the start URL's site, and they must be no more
    /// than --max-pages with the start URL (else exit 2, nothing crawled).
    #[arg(long, value_name = "FILE|SITEMAP-URL", conflicts_with_all = ["no_sitemaps", "sitemaps"])]
    pub list: Option<String>,
    /// Custom extraction (docs/API.md, "Custom extraction"): a value of every HTML page, as
    /// the column `extract:NAME` of the pages table and exports. `NAME=css:SELECTOR` (the
    /// first match's text), `NAME=css:SELECTOR@ATTRIBUTE`, `NAME=css-all:SELECTOR[@ATTRIBUTE]`
    /// (every match, joined by ` | `) or `NAME=regex:PATTERN` (its first capture group);
    /// repeatable, at most 10. A bad one exits 2 before anything is fetched.
    #[arg(long = "extract", value_name = "NAME=css:SELECTOR|NAME=regex:PATTERN")]
    pub extract: Vec<String>,
    /// The most URLs fetched (the start URL, redirects and failures count).
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_pages: u32,
    /// The deepest click depth followed (the start URL is depth 0).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Crawl only URLs this regular expression matches, matched against the path and query
    /// from its start (`/blog`, `/(en|fr)/`, `.*\.html$`); repeatable, at most 20 (any one
    /// matching is enough). The start URL is always crawled.
    #[arg(long, value_name = "REGEX")]
    pub include: Vec<String>,
    /// Never fetch URLs this regular expression matches (as --include's: `.*\?`, `/tag/`);
    /// repeatable, at most 20. They are counted as skipped, with the pattern.
    #[arg(long, value_name = "REGEX")]
    pub exclude: Vec<String>,
    /// Remove this query parameter from every URL found before it is compared with those
    /// known: a name (`sessionid`), a prefix ending in `*` (`utm_*`), or `*` for every
    /// parameter; repeatable, at most 50.
    #[arg(long = "strip-param", value_name = "NAME")]
    pub strip_params: Vec<String>,
    /// The output format (default: text, or xlsx when --output names a `.xlsx` file).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Which rows `--format csv` writes: `pages` (one per URL) or `issues` (one per finding).
    #[arg(long, value_enum, value_name = "TABLE")]
    pub table: Option<ExportTable>,
    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Exit with status 1 when the site score is under N, 0 to 100 (for CI pipelines).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: Option<u32>,
    /// A previous `--format json` output of `seo-audit crawl`: each finding is marked new,
    /// unchanged or resolved against it (docs/API.md, "Command line audits for CI").
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<std::path::PathBuf>,
    /// Exit with status 1 when a finding is new against --baseline (beside --min-score).
    #[arg(long, value_enum, value_name = "WHAT", requires = "baseline")]
    pub fail_on: Option<crate::baseline::FailOn>,
    /// Requests in flight per host at most (politeness; a robots.txt Crawl-delay makes it 1).
    #[arg(long, value_name = "N", default_value_t = crawl::DEFAULT_MAX_IN_FLIGHT, value_parser = parse_in_flight)]
    pub max_in_flight: usize,
    /// Stop starting fetches after this many seconds and report what was crawled.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    pub time_limit: u64,
    /// Do not read the site's sitemaps.
    #[arg(long)]
    pub no_sitemaps: bool,
    /// Read this sitemap too, beside /sitemap.xml and those robots.txt names (a URL on the
    /// crawled site; repeatable).
    #[arg(long = "sitemap", value_name = "URL", conflicts_with = "no_sitemaps")]
    pub sitemaps: Vec<String>,
    /// The similarity in percent (50-100) from which near-duplicate-content reports two
    /// pages.
    #[arg(long, value_name = "PERCENT", default_value_t = crawl::NEAR_DUPLICATE_SIMILARITY,
          value_parser = clap::value_parser!(u32).range(50..=100))]
    pub near_duplicate_threshold: u32,
    /// Render every HTML page in headless Chromium and audit the rendered DOM (docs/API.md,
    /// "Rendered audits").
    #[arg(long)]
    pub render: bool,
    /// Do not check the links to other sites (broken-external-link).
    #[arg(long)]
    pub no_external: bool,
    /// The most external URLs checked (each once, HEAD then GET where HEAD is refused); the
    /// others are counted as not checked.
    #[arg(long, value_name = "N", default_value_t = crawl::DEFAULT_EXTERNAL_BUDGET, conflicts_with = "no_external")]
    pub external_budget: u64,
    /// Send this request header, `'Name: value'`, to the crawled site's host (a staging
    /// site); repeatable. It goes with every page, robots.txt and sitemap request to that
    /// host, never to another host (not a redirect's target elsewhere, not a link check),
    /// and is never printed. Host, Content-Length, hop-by-hop headers, Accept-Encoding,
    /// User-Agent and Cookie are refused; at most 20 headers, cookies and basic auth
    /// together, 8 KiB in all.
    #[arg(long = "header", value_name = "'NAME: VALUE'")]
    pub headers: Vec<String>,
    /// Send this cookie, `name=value`, to the crawled site's host, as --header is sent;
    /// repeatable.
    #[arg(long = "cookie", value_name = "NAME=VALUE")]
    pub cookies: Vec<String>,
    /// HTTP basic auth for the crawled site's host, `user:password`, sent as --header is.
    /// Other users of the machine may see a command line: the environment variable
    /// SEO_AUDIT_BASIC_AUTH gives it unseen.
    #[arg(long, value_name = "USER:PASSWORD", env = "SEO_AUDIT_BASIC_AUTH", hide_env_values = true)]
    pub basic_auth: Option<String>,
    /// Who the crawl says it is: `default` sends `SeoAuditBot/<version> (+<bot page>)` and
    /// obeys robots.txt's `SeoAuditBot` group; `smartphone` sends Google's smartphone
    /// crawler's user agent (Android, Chrome, `Googlebot/2.1`) and obeys the `Googlebot`
    /// group. Either falls back to the `*` group (docs/API.md, "User agent").
    #[arg(long, value_enum, value_name = "PROFILE", default_value = "default")]
    pub user_agent: UserAgentArg,
    /// Do not obey the crawled site's robots.txt `Disallow` rules (for a site you run, such
    /// as a staging site that disallows everything); its `Crawl-delay` is still honoured.
    /// The report says so. Only the command line can do this.
    #[arg(long)]
    pub ignore_robots: bool,
    /// Keep the crawl in this SQLite file (created when missing) instead of a temporary
    /// store, and keep the file when the command ends. When the file holds a crawl of the
    /// same start URL that did not end (the command was killed), the crawl resumes from it:
    /// the pages done are kept and not fetched again. One command at a time on a file.
    #[arg(long, value_name = "FILE")]
    pub store: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub settings: AuditSettingFlags,
}

/// The URLs a command-line crawl of `max_pages` pages records at most: the engine's bound
/// ([`crawl::DEFAULT_MAX_KNOWN_URLS`]), or twice `max_pages` when that is more, so that a
/// crawl asked for a million pages can find them (there is no tier cap here; the service
/// keeps its own bound, `app::crawl::known_urls`). Links to further URLs are counted in
/// `links_not_queued`.
pub fn known_urls(max_pages: u32) -> u64 {
    (u64::from(max_pages) * 2).max(crawl::DEFAULT_MAX_KNOWN_URLS)
}

/// The staging site's headers of `--header`, `--cookie` and `--basic-auth`, checked as the
/// service checks them; `None` when none is given. A refusal names the flag and the
/// header, never a value.
fn site_headers(args: &CrawlArgs) -> Result<Option<fetch::SiteHeaders>, String> {
    let mut headers = Vec::with_capacity(args.headers.len());
    for given in &args.headers {
        match given.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() => headers.push((name.trim(), value.trim())),
            _ => return Err("--header: a header is given as 'Name: value'".to_string()),
        }
    }
    let basic_auth = match args.basic_auth.as_deref().map(|b| b.split_once(':')) {
        None => None,
        Some(Some((user, password))) => Some((user, password)),
        Some(None) => return Err("--basic-auth: give user:password".to_string()),
    };
    app::crawl::site_headers(headers, args.cookies.iter().map(String::as_str), basic_auth).map_err(|e| {
        let parameter = e.details().and_then(|d| d["parameter"].as_str().map(str::to_string));
        let flag = match parameter.as_deref() {
            Some("cookies") => "--cookie",
            Some("basic_auth") => "--basic-auth",
            _ => "--header",
        };
        format!("{flag}: {}", e.message())
    })
}

fn parse_in_flight(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err("a number from 1 to 256".to_string()),
    }
}

/// The report of a crawl, as `--format json` prints it: its pages and the URLs of its page
/// issues are read from the store as it is written.
#[derive(Serialize)]
pub struct Report<'a> {
    ok: bool,
    crawl: CrawlReport<'a>,
}

#[derive(Serialize)]
struct CrawlReport<'a> {
    url: String,
    /// The ruleset the pages were judged with (what a later `--baseline` run compares).
    ruleset_version: &'static str,
    /// `completed`, `cancelled` or `failed`.
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    time_limited: bool,
    /// Times the crawl paused because the site's recent answers were mostly errors.
    error_pauses: u32,
    /// Why the crawl ended early: the site's answers were still mostly errors after its
    /// pauses (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_for_errors: Option<String>,
    /// `None` when no page was audited.
    site_score: Option<u32>,
    mean_page_score: Option<f64>,
    site_penalty: Option<f64>,
    progress: ProgressReport,
    sitemaps_read: bool,
    /// Present and true for a `--list` crawl (docs/RULES.md, "List mode").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    list_mode: bool,
    /// The site rules a `--list` crawl skipped because they need the whole site.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    site_rules_skipped: Vec<String>,
    /// Who the crawl said it was, and whether robots.txt was obeyed.
    robots: RobotsReport,
    /// How the links to other sites were checked (absent with `--no-external`).
    #[serde(skip_serializing_if = "Option::is_none")]
    external_links: Option<crawl::ExternalLinks>,
    issues: Vec<Issue<'a>>,
    pages: Pages<'a>,
}

/// The crawl's user agent profile and how robots.txt was treated.
#[derive(Debug, Serialize)]
struct RobotsReport {
    /// `default` or `smartphone` (`--user-agent`).
    user_agent: &'static str,
    /// The robots.txt product token whose group was obeyed.
    obeyed_for: &'static str,
    /// Whether `--ignore-robots` turned its `Disallow` rules off.
    ignored: bool,
}

#[derive(Debug, Serialize)]
struct ProgressReport {
    pages_done: u64,
    /// Always 0: the crawl has ended (see `pages_unfetched`).
    pages_queued: u64,
    /// URLs in scope the crawl found and never fetched: those left when `--max-pages` (or
    /// the time limit, or a cancel) ended it.
    pages_unfetched: u64,
    /// Whether `--max-pages` ended the crawl with URLs left to fetch.
    max_pages_reached: bool,
    pages_failed: u64,
    pages_skipped: u64,
    pages_audited: u64,
    /// Requests the edge check made after the crawl's end, beside the pages, robots.txt and
    /// sitemaps (`ai-crawlers-blocked-at-edge`; 20 at most).
    edge_requests: u32,
    seconds: f64,
    pages_per_second: f64,
}

#[derive(Serialize)]
struct Issue<'a> {
    id: String,
    /// `site` (a site rule) or `page` (a page rule failed on these pages).
    kind: &'static str,
    severity: Severity,
    /// Distinct URLs affected, all of them.
    count: usize,
    /// Findings, all of them (a site rule's finding is a URL and the page linking to it, so
    /// a URL may have several).
    findings: u64,
    /// Whether `urls` lists fewer findings than `findings` (a site rule's bound).
    truncated: bool,
    urls: Urls<'a>,
}

/// The affected URLs of an issue: a site rule's findings (bounded, in memory), or the pages
/// a page rule failed on, read from the store.
enum Urls<'a> {
    Listed(Vec<Affected>),
    Stored(&'a ReportSource, String),
}

impl Urls<'_> {
    /// The first `n` affected URLs, each once with how many findings name it (the pages
    /// linking to it, for a link rule): the first finding stands for the others.
    fn first_urls(&self, n: usize) -> Result<Vec<(Affected, usize)>, store::Error> {
        match self {
            Urls::Listed(all) => {
                // Findings come sorted by URL: a URL's findings are together.
                let mut out: Vec<(Affected, usize)> = Vec::new();
                for a in all {
                    let full = out.len() == n;
                    match out.last_mut() {
                        Some((last, k)) if last.url == a.url => *k += 1,
                        _ if full => break,
                        _ => out.push((a.clone(), 1)),
                    }
                }
                Ok(out)
            }
            Urls::Stored(..) => Ok(self.first(n)?.into_iter().map(|a| (a, 1)).collect()),
        }
    }

    /// The first `n`.
    fn first(&self, n: usize) -> Result<Vec<Affected>, store::Error> {
        match self {
            Urls::Listed(all) => Ok(all.iter().take(n).cloned().collect()),
            Urls::Stored(source, rule) => {
                let (issues, _) = source.store.crawl_issues(&source.crawl_id, rule, None, n)?;
                Ok(issues.into_iter().map(Affected::of_page).collect())
            }
        }
    }
}

impl Serialize for Urls<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Urls::Listed(all) => all.serialize(serializer),
            Urls::Stored(source, rule) => {
                let mut seq = serializer.serialize_seq(None)?;
                let mut after = None;
                loop {
                    let (issues, next) = source
                        .store
                        .crawl_issues(&source.crawl_id, rule, after, store::CRAWL_SITE_BATCH)
                        .map_err(S::Error::custom)?;
                    for i in issues {
                        seq.serialize_element(&Affected::of_page(i))?;
                    }
                    match next {
                        Some(n) => after = Some(n),
                        None => return seq.end(),
                    }
                }
            }
        }
    }
}

#[derive(Debug, Clone, Serialize)]
struct Affected {
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    linked_from: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    detail: String,
    /// The elements a page rule's finding points at on the page, as an audit lists them
    /// (docs/API.md, "Site crawl").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<serde_json::Value>,
    /// How many elements in all (`locations` lists the first of them).
    #[serde(skip_serializing_if = "is_zero")]
    locations_total: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Affected {
    /// The affected URL of a site rule's finding (it points at no element).
    fn of_site(url: String, linked_from: Option<String>, detail: String) -> Affected {
        Affected { url, linked_from, detail, locations: Vec::new(), locations_total: 0 }
    }

    /// The page of a page rule's finding, with the elements it points at.
    fn of_page(issue: store::CrawlIssue) -> Affected {
        let (locations, locations_total) = issue.locations.map_or((Vec::new(), 0), |l| (l.items, l.total));
        Affected { url: issue.url, linked_from: None, detail: String::new(), locations, locations_total }
    }

    /// The first element's `:line:col`, or nothing when it points at none.
    fn at(&self) -> String {
        self.locations
            .first()
            .and_then(|l| Some(format!(":{}:{}", l["line"].as_u64()?, l["column"].as_u64()?)))
            .unwrap_or_default()
    }
}

/// What the CI formats show of a failed page rule on a page.
#[derive(Debug, Default)]
struct FindingDetail {
    title: String,
    locations: Vec<audit_core::Location>,
}

/// A row of the text and CI reports' pages.
#[derive(Debug)]
struct PageRow {
    url: String,
    /// `done` (answered), `failed` (no answer) or `skipped` (never fetched).
    state: String,
    status_code: Option<u16>,
    depth: Option<u32>,
    inlinks: u32,
    score: Option<u32>,
    title: Option<String>,
    failed_rules: Vec<String>,
    redirect_to: Option<String>,
    /// Why it failed or was skipped.
    reason: Option<String>,
}

/// The pages table, read from the store as it is serialized.
struct Pages<'a>(&'a ReportSource);

impl Serialize for Pages<'_> {
    /// Each row has the members of the REST export's pages (the export's columns).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use app::crawl::export::{crawl_extractor_names, each_page, row_json, ExportError, PAGE_COLUMNS};
        let names = crawl_extractor_names(&self.0.store, &self.0.crawl_id).map_err(S::Error::custom)?;
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        let read = each_page(&self.0.store, &self.0.crawl_id, &|| false, |p| {
            seq.serialize_element(&row_json(PAGE_COLUMNS, &names, p)).map_err(|e| {
                let message = e.to_string();
                failed = Some(e);
                ExportError::Io(std::io::Error::other(message))
            })
        });
        if let Some(e) = failed {
            return Err(e);
        }
        read.map_err(S::Error::custom)?;
        seq.end()
    }
}

/// The crawl of this command in its temporary store (removed when this is dropped): where
/// the crawl writes, and what the report is read from. Its methods yield the report's
/// parts, for any output format.
pub struct ReportSource {
    store: Store,
    crawl_id: String,
    /// Dropped last: the directory of the store's file, unless it is the user's (`--store`).
    _dir: Option<tempfile::TempDir>,
}

impl ReportSource {
    /// The store of `--store FILE`, opened (created and migrated when new) as the service
    /// opens its database: it outlives the command, so its commits are kept through a power
    /// loss, and a crawl killed with the process resumes from it.
    fn kept(path: &std::path::Path) -> Result<Store, String> {
        Store::open_with(path, store::StoreOptions::default()).map_err(|e| e.to_string())
    }

    /// A temporary store, empty, and its directory (removed when it is dropped).
    fn scratch() -> Result<(Store, tempfile::TempDir), String> {
        let dir = tempfile::Builder::new().prefix("seo-audit-crawl-").tempdir().map_err(|e| e.to_string())?;
        // A scratch store: it goes when the command ends, so its commits need not survive a
        // power loss (no syncs).
        let options = store::StoreOptions { durable: false, ..store::StoreOptions::default() };
        let store = Store::open_with(dir.path().join("crawl.db"), options).map_err(|e| e.to_string())?;
        Ok((store, dir))
    }

    /// The page rules that failed on some page: `(rule id, severity, pages)`.
    fn page_issues(&self) -> Result<Vec<(String, Severity, usize)>, store::Error> {
        let counts = self.store.crawl_issue_counts(&self.crawl_id)?;
        Ok(counts
            .into_iter()
            .filter(|c| c.kind == store::IssueKind::Page)
            .map(|c| {
                let severity = [Severity::Critical, Severity::Warning, Severity::Notice]
                    .into_iter()
                    .find(|s| s.as_str() == c.severity)
                    .unwrap_or(Severity::Notice);
                (c.rule_id, severity, usize::try_from(c.count).unwrap_or(usize::MAX))
            })
            .collect())
    }

    /// The title of each failed page rule's finding (the store keeps it as the finding's
    /// detail) and the elements it points at, by `(page URL, rule id)`.
    fn finding_details(&self) -> Result<std::collections::HashMap<(String, String), FindingDetail>, store::Error> {
        let mut titles = std::collections::HashMap::new();
        for count in self.store.crawl_issue_counts(&self.crawl_id)? {
            if count.kind != store::IssueKind::Page {
                continue;
            }
            let mut after = None;
            loop {
                let (issues, next) =
                    self.store.crawl_issues(&self.crawl_id, &count.rule_id, after, store::CRAWL_SITE_BATCH)?;
                for issue in issues.into_iter().filter(|i| i.kind == store::IssueKind::Page) {
                    // An element the store cannot read as a location is left out rather than
                    // shown at line 0.
                    let locations = issue
                        .locations
                        .map(|l| l.items.into_iter().filter_map(|v| serde_json::from_value(v).ok()).collect())
                        .unwrap_or_default();
                    titles.insert((issue.url, issue.rule_id), FindingDetail { title: issue.detail, locations });
                }
                match next {
                    Some(n) => after = Some(n),
                    None => break,
                }
            }
        }
        Ok(titles)
    }

    /// Each URL the crawl fetched or skipped, in crawl order, as a row of the pages table;
    /// store errors become `E` by `error`.
    fn each_page<E>(
        &self,
        error: impl Fn(store::Error) -> E,
        mut f: impl FnMut(PageRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut after = None;
        loop {
            let (pages, next) =
                self.store.crawl_pages(&self.crawl_id, after, store::CRAWL_SITE_BATCH).map_err(&error)?;
            for p in pages {
                f(PageRow {
                    url: p.url,
                    state: p.state,
                    status_code: p.status_code,
                    depth: p.depth,
                    inlinks: p.inlinks,
                    score: p.score,
                    title: p.title,
                    failed_rules: p.failed_rules,
                    redirect_to: p.redirect_to,
                    reason: p.reason,
                })?;
            }
            match next {
                Some(n) => after = Some(n),
                None => return Ok(()),
            }
        }
    }
}

/// The URLs `--list` names: the lines of a file (trimmed; empty lines and `#` comments left
/// out), or the page URLs of the sitemap at an http(s) URL (and of the sitemaps it indexes,
/// within the engine's sitemap bounds), fetched through the fetcher and its address guard.
///
/// # Errors
/// What to print: a file that cannot be read, a sitemap that cannot be read or lists no URL.
async fn read_list(fetcher: &Fetcher, source: &str) -> Result<Vec<String>, String> {
    if !(source.starts_with("http://") || source.starts_with("https://")) {
        let text = std::fs::read_to_string(source).map_err(|e| format!("--list {source}: {e}"))?;
        let urls: Vec<String> =
            text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect();
        if urls.is_empty() {
            return Err(format!("--list {source}: the file lists no URL"));
        }
        return Ok(urls);
    }
    let url = crawl::normalize(source).map_err(|e| format!("--list {source}: {e}"))?;
    let limits = crawl::SitemapLimits::default();
    let max_bytes = limits.max_bytes;
    let mut sitemaps = crawl::Sitemaps::only(&url, limits);
    let mut urls = Vec::new();
    let mut first_error = None;
    while let Some(next) = sitemaps.next_url().map(str::to_string) {
        let (status, body) = match url::Url::parse(&next) {
            Ok(u) => match fetcher.fetch_text(&u, max_bytes).await {
                Ok(page) => (Some(page.status), page.body.to_vec()),
                Err(e) => {
                    first_error.get_or_insert_with(|| format!("{next}: {e}"));
                    (None, Vec::new())
                }
            },
            Err(_) => (None, Vec::new()),
        };
        let read = sitemaps.record(&next, status, &body);
        if let Some(error) = read.error {
            first_error.get_or_insert_with(|| format!("{next}: {error}"));
        }
        urls.extend(read.urls);
    }
    if urls.is_empty() {
        let why = first_error.unwrap_or_else(|| "it lists no URL of its site".to_string());
        return Err(format!("--list {source}: the sitemap gives no URL to crawl ({why})"));
    }
    Ok(urls)
}

/// The `--list` URLs checked against the crawl's `scope` and `max_pages`, as the service
/// checks a crawl's `urls` (`app::crawl::check_list`): normalised, on the site, each once.
///
/// # Errors
/// What to print, naming the line's URL or the limit.
fn checked_list(list: &[String], scope: &Scope, max_pages: u32) -> Result<Vec<String>, String> {
    let request = app::crawl::CrawlRequest {
        max_pages: Some(max_pages),
        urls: list.to_vec(),
        ..app::crawl::CrawlRequest::of(scope.start().clone())
    };
    app::crawl::check_list(&request, scope, max_pages).map_err(|e| format!("--list: {}", e.message()))
}

/// Runs the subcommand and returns the process exit status: as `audit`'s, and
/// [`crate::cli_error::EXIT_FAILED`] for a crawl that ends `failed` (its report is printed still).
pub async fn run(args: CrawlArgs, global: &Global) -> u8 {
    let config = match global.load_config_with(&args.settings) {
        Ok(c) => c,
        Err(e) => return CliError::new(ErrorCode::InvalidRequest, format!("The settings are not valid: {e}")).report(),
    };
    // A bad pattern fails before anything is fetched.
    for (list, patterns) in [("include", &args.include), ("exclude", &args.exclude)] {
        if let Err(e) = crawl::UrlPatterns::new(list, patterns) {
            return fail(Code::InvalidParameter, format!("--{list}: {e}"));
        }
    }
    if let Err(e) = crawl::StripParams::new(&args.strip_params) {
        return fail(Code::InvalidParameter, format!("--strip-param: {e}"));
    }
    let mut specs = Vec::with_capacity(args.extract.len());
    for flag in &args.extract {
        match crawl::ExtractorSpec::parse_flag(flag) {
            Ok(spec) => specs.push(spec),
            Err(e) => return fail(Code::InvalidParameter, format!("--extract: {e}")),
        }
    }
    let extractors = match crawl::Extractors::new(&specs) {
        Ok(x) if x.is_empty() => None,
        Ok(x) => Some(std::sync::Arc::new(x)),
        Err(e) => return fail(Code::InvalidParameter, format!("--extract: {e}")),
    };
    let site_headers = match site_headers(&args) {
        Ok(h) => h,
        Err(message) => return fail(Code::InvalidParameter, message),
    };
    if args.render && site_headers.is_some() {
        let message = "--render: not with --header, --cookie or --basic-auth (the browser would fetch the pages \
                       without them)";
        return fail(Code::InvalidParameter, message.to_string());
    }
    // The output is settled before the crawl: a wrong combination or a file that cannot be
    // made fails at once, not after minutes of crawling.
    let format = match (args.format, &args.output) {
        (Some(f), _) => f,
        (None, Some(path)) if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xlsx")) => Format::Xlsx,
        _ => Format::Text,
    };
    if format == Format::Xlsx && args.output.is_none() {
        return fail(Code::InvalidParameter, "--format xlsx: needs --output FILE (a workbook is no text)".to_string());
    }
    if args.table.is_some() && format != Format::Csv {
        return fail(Code::InvalidParameter, "--table: only with --format csv".to_string());
    }
    let file = match args.output.as_deref().map(std::fs::File::create).transpose() {
        Ok(f) => f,
        Err(e) => {
            let path = args.output.as_deref().unwrap_or_else(|| std::path::Path::new("")).display();
            return fail(Code::InvalidParameter, format!("--output {path}: {e}"));
        }
    };
    // A baseline that cannot be read fails before the crawl, not after it.
    let baseline = match args.baseline.as_deref().map(|p| baseline::read(p, baseline::Command::Crawl)).transpose() {
        Ok(b) => b,
        Err(e) => return e.report(),
    };
    let fetcher = match Fetcher::new(config.fetch_config()) {
        Ok(f) => f,
        Err(e) => return fail(e.error_code(), e.to_string()),
    };
    let profile = crawl::CrawlerProfile::from(args.user_agent);
    let fetcher = match fetcher.with_user_agent(profile.user_agent()) {
        Ok(f) => f,
        Err(e) => return fail(e.error_code(), e.to_string()),
    };
    // A staging site's headers go with every request to the start URL's host, and only
    // there; the link checks of the crawl drop them (`Fetcher::for_site`).
    let for_site = |fetcher: &Fetcher, url: &str| match (&site_headers, app::validate_url(url)) {
        (Some(headers), Ok(start)) => Ok(fetcher.for_site(&start, headers.clone())),
        (Some(_), Err(e)) => Err(fail(e.error_code(), e.to_string())),
        (None, _) => Ok(fetcher.clone()),
    };
    let renderer = if args.render {
        match app::Renderer::new(config.render_config(), fetcher.clone()) {
            Ok(r) => Some(r),
            Err(e) => {
                let e = app::AppError::from(e);
                return fail(e.error_code(), format!("{} ({})", e.message(), e.log_detail().unwrap_or_default()));
            }
        }
    } else {
        None
    };
    // The list of a list-mode crawl is read before anything is crawled; its first URL is the
    // start when no start URL is given.
    // A list read from the site (a sitemap) carries the site's headers when the start URL
    // is given.
    let list_fetcher = match args.url.as_deref().map(|url| for_site(&fetcher, url)).transpose() {
        Ok(f) => f.unwrap_or_else(|| fetcher.clone()),
        Err(status) => return status,
    };
    let list = match &args.list {
        Some(source) => match read_list(&list_fetcher, source).await {
            Ok(list) => Some(list),
            Err(message) => return fail(Code::InvalidParameter, message),
        },
        None => None,
    };
    let Some(start_url) = args.url.clone().or_else(|| list.as_ref().and_then(|l| l.first().cloned())) else {
        return fail(Code::InvalidParameter, "--list: the list names no URL".to_string());
    };
    let fetcher = match for_site(&fetcher, &start_url) {
        Ok(f) => f,
        Err(status) => return status,
    };
    if args.ignore_robots {
        eprintln!("warning: --ignore-robots: the robots.txt Disallow rules of {start_url} are not obeyed");
    }
    // The start URL is checked as an audit checks its URL, before anything is crawled; the
    // page it got is the crawl's start page (fetched once).
    let start_page = match app::crawl::check_start(&fetcher, &start_url).await {
        Ok(page) => page,
        Err(e) => return fail(e.error_code(), e.message()),
    };
    let start = start_page.url().clone();
    let scope_config = ScopeConfig {
        max_pages: args.max_pages,
        max_depth: args.max_depth,
        include: args.include.clone(),
        exclude: args.exclude.clone(),
        strip_params: args.strip_params.clone(),
    };
    let scope = match Scope::new(start.as_str(), scope_config) {
        Ok(s) => s,
        Err(crawl::UrlError::Pattern(e)) => return fail(Code::InvalidParameter, format!("--{}: {e}", e.list)),
        Err(e) => return fail(ErrorCode::InvalidUrl, e.to_string()),
    };
    // A named sitemap off the site would be ignored as robots.txt's are: say so instead.
    let mut named_sitemaps = Vec::with_capacity(args.sitemaps.len());
    for named in &args.sitemaps {
        match crawl::normalize(named) {
            Ok(url) if scope.same_site(&url) => named_sitemaps.push(url.to_string()),
            Ok(_) => return fail(Code::InvalidParameter, format!("--sitemap {named}: not on the crawled site")),
            Err(e) => return fail(Code::InvalidParameter, format!("--sitemap {named}: {e}")),
        }
    }
    // Each URL of the list on the site, each once, and no more than --max-pages with the start
    // URL: a list is crawled whole or not at all.
    let list = match list {
        Some(list) => match checked_list(&list, &scope, args.max_pages) {
            Ok(list) => Some(list),
            Err(message) => return fail(Code::InvalidParameter, message),
        },
        None => None,
    };
    let limits = Limits {
        max_in_flight: args.max_in_flight,
        max_known_urls: known_urls(args.max_pages),
        profile,
        ignore_robots: args.ignore_robots,
    };
    let options = CrawlOptions {
        named_sitemaps,
        near_duplicate_threshold: args.near_duplicate_threshold,
        limits: app::pipeline::AnalysisLimits::cpu_ms(config.analysis_cpu_ms),
        time_limit: Duration::from_secs(args.time_limit),
        sitemaps: !args.no_sitemaps,
        renderer,
        external_links: (!args.no_external).then(|| app::crawl::ExternalChecks::with_budget(args.external_budget)),
        list,
        extractors,
        start_page: Some(start_page),
        ..CrawlOptions::default()
    };
    let (store, dir) = match &args.store {
        Some(path) => match ReportSource::kept(path) {
            Ok(store) => (store, None),
            Err(e) => return fail(Code::InvalidParameter, format!("--store {}: {e}", path.display())),
        },
        None => match ReportSource::scratch() {
            Ok((store, dir)) => (store, Some(dir)),
            Err(e) => return fail(ErrorCode::Internal, format!("cannot open the crawl's temporary store: {e}")),
        },
    };
    let bar = progress_bar();
    let on_progress: Option<app::crawl::ProgressFn> = bar.clone().map(|bar| {
        Box::new(move |p: &Progress| {
            bar.set_message(progress_line(p));
            bar.tick();
        }) as app::crawl::ProgressFn
    });
    let crawl = LocalCrawl { start: start.clone(), scope, limits, options, on_progress };
    // Ctrl-C (SIGINT) or SIGTERM, the signal that stops the service, cancels: no fetch
    // starts after it, the pages done are reported, and the temporary store is removed on
    // the way out.
    let ran = app::crawl::run_local(&fetcher, &store, crawl, server::shutdown_signal()).await;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let LocalRun { crawl_id, summary, judged } = match ran {
        Ok(r) => r,
        Err(LocalCrawlError::Create(e)) => {
            return fail(ErrorCode::Internal, format!("cannot open the crawl's temporary store: {e}"))
        }
        Err(LocalCrawlError::Run(e)) => return fail(e.error_code(), e.message()),
        Err(LocalCrawlError::ReadBack(e)) => {
            return fail(ErrorCode::Internal, format!("cannot read the crawl back: {e}"))
        }
    };
    let source = ReportSource { store, crawl_id: crawl_id.into_string(), _dir: dir };
    let report = match report(start.as_str(), args.max_pages, &summary, &judged, &source) {
        Ok(mut r) => {
            r.crawl.robots = RobotsReport {
                user_agent: profile.name(),
                obeyed_for: profile.robots_token(),
                ignored: args.ignore_robots,
            };
            r
        }
        Err(e) => return fail(ErrorCode::Internal, format!("cannot read the crawl back: {e}")),
    };
    // With a baseline, this run's findings are read from its JSON report, as the baseline's
    // are: the whole report is then held in memory once, beside the baseline.
    let mut marked = None;
    if let (Some(b), Some(path)) = (baseline, &args.baseline) {
        let mut value = match serde_json::to_value(&report) {
            Ok(v) => v,
            Err(e) => return fail(ErrorCode::Internal, format!("cannot read the crawl back: {e}")),
        };
        let current = baseline::report_of(&value, baseline::Command::Crawl);
        let marks = baseline::Marks::new(path, baseline::Command::Crawl, current, b);
        for note in &marks.notes {
            eprintln!("note: {note}");
        }
        // The crawl's own change against the baseline's crawl (score, pages, statuses), for the
        // text report; the baseline was read and checked above, so this reads it once more.
        let change = std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
            .map(|before| change_text(&before, &value));
        marks.mark_crawl(&mut value);
        marked = Some((marks, value, change));
    }
    let marks = marked.as_ref().map(|(m, _, _)| m);
    let change = marked.as_ref().and_then(|(_, _, c)| c.as_deref());
    let mut out: std::io::BufWriter<Box<dyn Write>> = std::io::BufWriter::new(match file {
        Some(f) => Box::new(f),
        None => Box::new(std::io::stdout().lock()),
    });
    let written = match format {
        Format::Json => match &marked {
            Some((_, value, _)) => serde_json::to_writer_pretty(&mut out, value),
            None => serde_json::to_writer_pretty(&mut out, &report),
        }
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n")),
        Format::Text => text(&report.crawl, &source, &mut out)
            .and_then(|()| marks.map_or(Ok(()), |m| out.write_all(m.text().as_bytes())))
            .and_then(|()| change.map_or(Ok(()), |c| out.write_all(c.as_bytes()))),
        Format::Csv => {
            let table = args.table.map_or(app::crawl::export::Table::Pages, Into::into);
            app::crawl::export::write_csv(&source.store, &source.crawl_id, table, &|| false, &mut out)
                .map_err(export_io)
        }
        Format::Xlsx => app::crawl::export::xlsx(&source.store, &source.crawl_id, &|| false)
            .map_err(export_io)
            .and_then(|book| out.write_all(&book)),
        Format::Sarif => ci_report(&report.crawl, &source, |failures| {
            serde_json::to_writer_pretty(&mut out, &crate::ci_formats::crawl_sarif(failures, marks))
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        }),
        Format::Junit => ci_report(&report.crawl, &source, |failures| {
            out.write_all(crate::ci_formats::crawl_junit(failures, &server::now_rfc3339(), marks).as_bytes())
        }),
    }
    .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail(ErrorCode::Internal, format!("cannot write the report: {e}"));
        }
    }
    if let CrawlEnd::Failed { reason } = &summary.end {
        return fail(Code::CrawlFailed, reason.clone());
    }
    let new = args.fail_on == Some(baseline::FailOn::New) && marks.is_some_and(baseline::Marks::has_new);
    match (args.min_score, report.crawl.site_score) {
        (Some(min), Some(score)) if score < min => EXIT_BELOW_MIN_SCORE,
        (Some(_), None) => EXIT_BELOW_MIN_SCORE,
        _ if new => EXIT_BELOW_MIN_SCORE,
        _ => EXIT_OK,
    }
}

/// A progress bar on stderr when it is a terminal (pages done, queued and the rate).
fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    let style = indicatif::ProgressStyle::with_template("{spinner} crawling: {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

fn progress_line(p: &Progress) -> String {
    let paused = match (p.paused_for_errors, p.resumes_in) {
        (true, Some(left)) => {
            format!("; paused, going on in {} s: the site answers mostly errors", left.as_secs().max(1))
        }
        (true, None) => "; paused: the site answers mostly errors".to_string(),
        (false, _) => String::new(),
    };
    format!(
        "{} done, {} queued, {} failed, {} skipped, {:.1} pages/s{paused}",
        p.done, p.queued, p.failed, p.skipped, p.pages_per_second,
    )
}

/// Builds the report: the site rules' findings and the site score, the page rules'
/// failures by rule, and the pages table (the last two read from `source` as written).
fn report<'a>(
    start: &str,
    max_pages: u32,
    summary: &CrawlSummary,
    judged: &Judged,
    source: &'a ReportSource,
) -> Result<Report<'a>, store::Error> {
    let mut issues: Vec<Issue<'a>> = judged
        .results
        .iter()
        .filter(|r| !r.findings.is_empty())
        .map(|r| Issue {
            id: r.id.to_string(),
            kind: "site",
            severity: r.severity,
            count: r.affected(),
            findings: r.total_findings,
            truncated: r.truncated,
            urls: Urls::Listed(
                r.findings
                    .iter()
                    .map(|f| Affected::of_site(f.url.clone(), f.linked_from.clone(), f.detail.clone()))
                    .collect(),
            ),
        })
        .collect();
    let mut page_issues: Vec<Issue<'a>> = source
        .page_issues()?
        .into_iter()
        .map(|(id, severity, count)| Issue {
            urls: Urls::Stored(source, id.clone()),
            id,
            kind: "page",
            severity,
            count,
            findings: count as u64,
            truncated: false,
        })
        .collect();
    page_issues.sort_by(|a, b| {
        (a.severity, std::cmp::Reverse(a.count), &a.id).cmp(&(b.severity, std::cmp::Reverse(b.count), &b.id))
    });
    issues.sort_by_key(|i| i.severity);
    issues.extend(page_issues);

    let score = judged.score.as_ref();
    let (state, reason) = match &summary.end {
        CrawlEnd::Completed => ("completed", None),
        CrawlEnd::Cancelled => ("cancelled", None),
        CrawlEnd::Failed { reason } => ("failed", Some(reason.clone())),
    };
    let p = &summary.progress;
    Ok(Report {
        ok: !matches!(summary.end, CrawlEnd::Failed { .. }),
        crawl: CrawlReport {
            url: start.to_string(),
            ruleset_version: audit_core::RULESET_VERSION,
            state,
            reason,
            time_limited: summary.time_limited,
            error_pauses: summary.error_pauses,
            stopped_for_errors: summary.stopped_for_errors.clone(),
            site_score: score.map(|s| s.score),
            mean_page_score: score.map(|s| (s.mean_page_score * 10.0).round() / 10.0),
            site_penalty: score.map(|s| (s.penalty * 10.0).round() / 10.0),
            progress: ProgressReport {
                pages_done: p.done,
                pages_queued: 0,
                pages_unfetched: p.queued,
                max_pages_reached: p.queued > 0 && p.done + p.failed >= u64::from(max_pages),
                pages_failed: p.failed,
                pages_skipped: p.skipped,
                pages_audited: summary.pages_audited,
                edge_requests: summary.edge_requests,
                seconds: (p.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                pages_per_second: (p.pages_per_second * 10.0).round() / 10.0,
            },
            sitemaps_read: summary.sitemaps_read,
            list_mode: summary.list_mode,
            site_rules_skipped: app::crawl::summary::skipped_rules(&judged.results),
            robots: RobotsReport {
                user_agent: crawl::CrawlerProfile::default().name(),
                obeyed_for: crawl::CrawlerProfile::default().robots_token(),
                ignored: false,
            },
            external_links: summary.external_links.clone(),
            issues,
            pages: Pages(source),
        },
    })
}

/// The report as the CI formats read it (the audited pages with their failed rules, read
/// from the store, and the site rules' findings), given to `write`. The CI formats list every
/// failed rule of every page, so their output, and this list, grow with the pages.
fn ci_report(
    r: &CrawlReport<'_>,
    source: &ReportSource,
    write: impl FnOnce(&crate::ci_formats::CrawlFailures<'_>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use crate::ci_formats::{CrawlFailures, CrawlPage, PageFailure, SiteHit, SiteIssue};
    let mut audited: Vec<(String, u32, Vec<String>)> = Vec::new();
    source.each_page(store_io, |row| {
        if let Some(score) = row.score {
            audited.push((row.url, score, row.failed_rules));
        }
        Ok(())
    })?;
    let details = source.finding_details().map_err(store_io)?;
    let none = FindingDetail::default();
    let site = r
        .issues
        .iter()
        .filter(|i| i.kind == "site")
        .map(|i| {
            let findings = match &i.urls {
                Urls::Listed(all) => all
                    .iter()
                    .map(|a| SiteHit { url: &a.url, linked_from: a.linked_from.as_deref(), detail: &a.detail })
                    .collect(),
                Urls::Stored(..) => Vec::new(),
            };
            SiteIssue { id: &i.id, findings }
        })
        .collect();
    let failures = CrawlFailures {
        url: &r.url,
        site_score: r.site_score,
        pages: audited
            .iter()
            .map(|(url, score, failed)| CrawlPage {
                url,
                score: *score,
                failed: failed
                    .iter()
                    .map(|id| {
                        let detail = details.get(&(url.clone(), id.clone())).unwrap_or(&none);
                        PageFailure { id, title: &detail.title, locations: &detail.locations }
                    })
                    .collect(),
            })
            .collect(),
        site,
    };
    write(&failures)
}

fn export_io(e: app::crawl::export::ExportError) -> std::io::Error {
    match e {
        app::crawl::export::ExportError::Io(e) => e,
        other => std::io::Error::other(other.to_string()),
    }
}

fn store_io(e: store::Error) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// The readable report, written to `out`: the issues from `r`, then the pages table, read
/// from the store twice (once for the columns' widths, once to write it).
/// The text report's line on the external links: how many were checked and found broken,
/// and every one not checked, by why (none is left out silently).
fn external_line(e: &crawl::ExternalLinks) -> String {
    let mut line = format!("External links: {} URLs checked, {} broken", e.checked, e.broken_count);
    let reasons = [
        (e.not_checked_budget, format!("past the budget of {}", e.budget)),
        (e.not_checked_refused, "refused by the address guard".to_string()),
        (e.not_checked_timed_out, "out of time".to_string()),
        (e.not_checked_stopped, "the crawl stopped first".to_string()),
        (e.not_checked_unreachable, "no other site answered (is this machine offline?)".to_string()),
    ];
    let not: Vec<String> = reasons.iter().filter(|(n, _)| *n > 0).map(|(n, why)| format!("{n} {why}")).collect();
    if !not.is_empty() {
        line.push_str(&format!("; not checked: {}", not.join(", ")));
    }
    line
}

fn text(r: &CrawlReport<'_>, source: &ReportSource, out: &mut impl Write) -> std::io::Result<()> {
    let score = r.site_score.map_or_else(|| "-".to_string(), |s| format!("{s}/100"));
    writeln!(out, "Site score {score}  ({})  {}", r.state, r.url)?;
    if let Some(reason) = &r.reason {
        writeln!(out, "Reason: {reason}")?;
    }
    if r.robots.ignored {
        writeln!(out, "robots.txt IGNORED (--ignore-robots): its Disallow rules were not obeyed")?;
    }
    if r.robots.user_agent != crawl::CrawlerProfile::default().name() {
        writeln!(out, "User agent: {} (robots.txt obeyed for {})", r.robots.user_agent, r.robots.obeyed_for)?;
    }
    let p = &r.progress;
    writeln!(
        out,
        "{} done, {} failed, {} skipped, {} audited in {:.1} s ({:.1} pages/s){}",
        p.pages_done,
        p.pages_failed,
        p.pages_skipped,
        p.pages_audited,
        p.seconds,
        p.pages_per_second,
        if r.time_limited { "; stopped at the time limit" } else { "" }
    )?;
    if let Some(why) = &r.stopped_for_errors {
        writeln!(out, "Stopped early, the site answering mostly errors: {why}")?;
    } else if r.error_pauses > 0 {
        writeln!(out, "Paused {} times, the site answering mostly errors", r.error_pauses)?;
    }
    if p.max_pages_reached {
        writeln!(out, "Stopped at --max-pages: {} URLs found were left unfetched", p.pages_unfetched)?;
    } else if p.pages_unfetched > 0 {
        writeln!(out, "{} URLs found were left unfetched", p.pages_unfetched)?;
    }
    if let Some(e) = &r.external_links {
        writeln!(out, "{}", external_line(e))?;
    }
    if r.list_mode {
        writeln!(
            out,
            "List mode: the listed URLs only; site rules that need the whole site skipped: {}",
            r.site_rules_skipped.join(", ")
        )?;
    }
    for (kind, heading) in [("site", "Site issues"), ("page", "Page issues")] {
        let issues: Vec<&Issue<'_>> = r.issues.iter().filter(|i| i.kind == kind).collect();
        if issues.is_empty() {
            writeln!(out, "\n{heading}: none")?;
        } else {
            writeln!(out, "\n{heading}:")?;
        }
        for issue in issues {
            writeln!(
                out,
                "  [{}] {} ({} URL{})",
                issue.severity,
                issue.id,
                issue.count,
                if issue.count == 1 { "" } else { "s" }
            )?;
            // One line per affected URL, however many pages link to it.
            let shown = issue.urls.first_urls(TEXT_URLS_PER_ISSUE).map_err(store_io)?;
            for (a, n) in &shown {
                let mut line = format!("    {}{}", a.url, a.at());
                if !a.detail.is_empty() {
                    line.push_str(&format!("  {}", a.detail));
                }
                match (&a.linked_from, n) {
                    (Some(from), 1) => line.push_str(&format!("  (linked from {from})")),
                    (Some(from), n) => line.push_str(&format!("  (linked from {from} and {} more pages)", n - 1)),
                    (None, _) => {}
                }
                writeln!(out, "{line}")?;
            }
            if issue.count > shown.len() {
                writeln!(out, "    ... and {} more URLs", issue.count - shown.len())?;
            }
            if issue.truncated {
                writeln!(
                    out,
                    "    ({} findings in all; the report lists the first {})",
                    issue.findings,
                    crawl::MAX_FINDINGS_PER_RULE
                )?;
            }
        }
    }
    writeln!(out, "\nPages:")?;
    let header = [
        ("STATUS", Align::Right),
        ("DEPTH", Align::Right),
        ("INLINKS", Align::Right),
        ("SCORE", Align::Right),
        ("URL", Align::Left),
        ("NOTE", Align::Left),
    ];
    let cells = |p: PageRow| -> Vec<String> {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        let note = match (p.state.as_str(), &p.redirect_to, &p.reason) {
            (_, Some(to), _) => format!("-> {to}"),
            ("skipped", _, Some(why)) => format!("skipped: {why}"),
            (_, _, Some(why)) => why.clone(),
            _ => p.title.clone().unwrap_or_default(),
        };
        vec![
            opt(p.status_code.map(|s| s.to_string())),
            opt(p.depth.map(|d| d.to_string())),
            p.inlinks.to_string(),
            opt(p.score.map(|s| s.to_string())),
            p.url,
            note,
        ]
    };
    let mut table = Table::new(&header);
    source.each_page(store_io, |p| {
        table.measure(&cells(p));
        Ok(())
    })?;
    out.write_all(table.header_line().as_bytes())?;
    source.each_page(store_io, |p| out.write_all(table.line(&cells(p)).as_bytes()))
}

/// URLs the text report lists per kind of page change; the rest are counted.
const TEXT_CHANGES_LISTED: usize = 10;

/// The text report's section on how the crawl differs from the baseline's crawl (two
/// `--format json` reports, `before` the baseline): the site score change, the URLs fetched
/// by only one of them (pages added and gone) and those whose HTTP status changed, each list
/// with its total and its first [`TEXT_CHANGES_LISTED`] in URL order. The findings' own
/// changes are the baseline marks' section.
fn change_text(before: &serde_json::Value, after: &serde_json::Value) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    // A URL fetched (answered or failed), with its status; skipped URLs were never fetched.
    let fetched = |report: &serde_json::Value| -> BTreeMap<String, Option<u64>> {
        report["crawl"]["pages"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter(|r| r["state"] != "skipped")
                    .filter_map(|r| Some((r["url"].as_str()?.to_string(), r["status_code"].as_u64())))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old, new) = (fetched(before), fetched(after));
    let added: Vec<&String> = new.keys().filter(|u| !old.contains_key(*u)).collect();
    let gone: Vec<&String> = old.keys().filter(|u| !new.contains_key(*u)).collect();
    let status = |s: Option<u64>| s.map_or_else(|| "no answer".to_string(), |s| s.to_string());
    let changed: Vec<String> = new
        .iter()
        .filter_map(|(url, now)| match old.get(url) {
            Some(was) if was != now => Some(format!("{url}  {} -> {}", status(*was), status(*now))),
            _ => None,
        })
        .collect();
    let mut out = String::from("\nChange since the baseline's crawl:\n");
    let score = |r: &serde_json::Value| r["crawl"]["site_score"].as_i64();
    match (score(before), score(after)) {
        (Some(b), Some(a)) => {
            let _ = writeln!(out, "  site score {b} -> {a} ({:+})", a - b);
        }
        (b, a) => {
            let shown = |s: Option<i64>| s.map_or_else(|| "-".to_string(), |s| s.to_string());
            let _ = writeln!(out, "  site score {} -> {}", shown(b), shown(a));
        }
    }
    for (heading, lines) in [
        ("pages added", added.iter().map(|u| u.to_string()).collect::<Vec<_>>()),
        ("pages gone", gone.iter().map(|u| u.to_string()).collect()),
        ("status changes", changed),
    ] {
        let _ = writeln!(out, "  {heading}: {}", lines.len());
        for line in lines.iter().take(TEXT_CHANGES_LISTED) {
            let _ = writeln!(out, "    {line}");
        }
        if lines.len() > TEXT_CHANGES_LISTED {
            let _ = writeln!(out, "    ... and {} more", lines.len() - TEXT_CHANGES_LISTED);
        }
    }
    out
}
