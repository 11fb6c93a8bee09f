//! The crawl runner: drives the crawl engine ([`crawl::Frontier`], [`crawl::Sitemaps`]) with
//! the project's one network client and the audit pipeline's analysis (docs/API.md, "Site
//! crawl").
//!
//! - Every fetch goes through the [`Fetcher`] and its address guard, one hop at a time
//!   ([`Fetcher::fetch_hop`]): a redirect is recorded and its target queued by the frontier
//!   when it is on the site, recorded only when it is not; a target on the site the guard
//!   refuses fails with the guard's reason and is listed as failed, and a target on another
//!   site the guard refuses by its URL (an inner address) is listed as skipped with the
//!   guard's reason ([`crawl::Frontier::record_refused`]); neither is ever requested.
//! - Every HTML page that answers 2xx is audited as a single audit is
//!   ([`crate::pipeline::analyse_blocking`]: the analysis threads, the CPU budget of
//!   [`CrawlOptions::limits`], the same HTTP facts with the site's robots.txt verdict). The
//!   page's crawl record ([`CrawledPage::from_page`]) is built on the frontier thread, off
//!   the analysis threads, which are for parsing and auditing (docs/PERFORMANCE.md,
//!   "Site crawl").
//! - Politeness: the frontier bounds the crawl's own requests in flight ([`crawl::Limits`]);
//!   the [`HostPacer`] of [`CrawlOptions::pacer`] bounds those of every crawl of the
//!   process (or of every replica, on PostgreSQL) to one host, spaces their starts by the
//!   robots.txt `Crawl-delay`, and holds the host back after a `429` or `503`, whose page is
//!   asked for again up to [`pacer::MAX_RETRIES`] times. A crawl whose recent answers are
//!   mostly errors ([`ErrorWindow`]) pauses, and after [`MAX_ERROR_PAUSES`] pauses ends,
//!   saying why ([`CrawlSummary::stopped_for_errors`]).
//! - It ends on its own (nothing left, or `max_pages`), at the time limit
//!   ([`CrawlOptions::time_limit`], with what it has), when cancelled
//!   ([`CrawlOptions::cancel`] or [`CrawlSink::cancelled`]; the pages done are kept), and as
//!   [`CrawlEnd::Failed`] when no page answered 2xx.
//!
//! The frontier's store and the sink may block (a database): they are called only on one
//! thread of the blocking pool, which hands fetch jobs to async tasks over a channel and
//! reads their results from another. The runner is generic over where the state lives:
//! [`crawl::MemoryStore`] for the command line, a database-backed store for the service.

use std::collections::VecDeque;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use ai_visibility::Robots;
use audit_core::{Audit, Page};
use crawl::{
    robots_from_answer, CrawledPage, Entry, Frontier, FrontierStore, Limits, Outcome, Scope, SitemapLimits, Sitemaps,
    State, Work,
};
use fetch::{AddressGuard, FetchedPage, Fetcher};
use serde::Serialize;
use url::Url;

use super::pacer::{self, HostPacer};
use super::start_page::StartPage;
use crate::homed::Homed;
use crate::pipeline::{analyse_blocking, http_facts, AnalysisLimits};
use crate::{AppError, AuditSlots};

/// How long a crawl runs at most by default; it then ends with what it has.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(30 * 60);

/// How often [`CrawlSink::progress`] is told, at most, by default.
pub const DEFAULT_PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How a crawl runs.
#[derive(Debug, Clone)]
pub struct CrawlOptions {
    /// What one page's analysis may cost (the service's `analysis_cpu_ms`).
    pub limits: AnalysisLimits,
    /// The crawl's time limit ([`DEFAULT_TIME_LIMIT`]): no fetch starts after it, and the
    /// crawl ends with the pages done.
    pub time_limit: Duration,
    /// Whether sitemaps are read (`Sitemap:` lines of robots.txt and `/sitemap.xml`).
    pub sitemaps: bool,
    /// The bounds of sitemap reading.
    pub sitemap_limits: SitemapLimits,
    /// Sitemaps named by the caller (the command line's `--sitemap`), read as those
    /// robots.txt names are; only those on the crawled site.
    pub named_sitemaps: Vec<String>,
    /// The similarity in percent from which `near-duplicate-content` reports two pages
    /// (`crawl::NEAR_DUPLICATE_THRESHOLDS`; default `crawl::NEAR_DUPLICATE_SIMILARITY`).
    pub near_duplicate_threshold: u32,
    /// Set by the caller to cancel: no fetch starts after it, the pages done are kept.
    pub cancel: Arc<AtomicBool>,
    /// How often [`CrawlSink::progress`] is told, at most.
    pub progress_every: Duration,
    /// The service's audit slots: each page's analysis then takes a place as background
    /// work does (admitted while the queue is less than half full, waiting up to
    /// [`SLOT_PATIENCE`]), so a crawl never takes the places of clients who wait. `None`
    /// (the command line): the analysis threads alone bound it.
    pub slots: Option<Arc<AuditSlots>>,
    /// Rendered crawl (docs/API.md, "Rendered audits"): each HTML page that answered 2xx is
    /// rendered by this pool and its rendered DOM audited; `None`: the served HTML.
    pub renderer: Option<render::Renderer>,
    /// How the external links of the crawled pages are checked, for `broken-external-link`
    /// ([`ExternalChecks`]); `None` (the default, and `--no-external`): not at all.
    pub external_links: Option<ExternalChecks>,
    /// The pacing of hosts this crawl shares with the others of the process or of every
    /// replica (the service's); `None` (the command line): a pacer of this crawl alone,
    /// with its [`Limits::max_in_flight`] per host.
    pub pacer: Option<HostPacer>,
    /// List mode (docs/RULES.md, "List mode"): the URLs fetched beside the start URL, and no
    /// other ([`crawl::Frontier::add_listed_url`]): links are recorded, not followed, and no
    /// sitemap is read. `None` (the default): the crawl follows the site's links.
    pub list: Option<Vec<String>>,
    /// Custom extraction (docs/API.md, "Custom extraction"): each HTML page's values, kept
    /// in its record ([`CrawledPage::extracted`]); `None` (the default): none.
    pub extractors: Option<Arc<crawl::Extractors>>,
    /// The start page as the start check fetched it ([`check_start`]): the crawl takes its
    /// answers for the start URL and the redirects on the way instead of asking again.
    /// `None`: every URL is fetched.
    pub start_page: Option<StartPage>,
}

/// The answers a crawl's error rate is judged over: the last this many.
pub const ERROR_WINDOW: usize = 20;

/// Answers the window holds at least before it is judged.
pub const ERROR_WINDOW_MIN: usize = 10;

/// How long a crawl whose recent answers are mostly errors pauses when no answer gave a
/// `Retry-After` (otherwise the longest of those, at most [`pacer::MAX_BACKOFF`]).
pub const ERROR_PAUSE: Duration = Duration::from_secs(30);

/// Pauses for errors a crawl takes at most: when its answers are mostly errors once more
/// after them, it ends ([`CrawlSummary::stopped_for_errors`]).
pub const MAX_ERROR_PAUSES: u32 = 2;

/// The last [`ERROR_WINDOW`] answers of a crawl's pages, each an error or not: a `5xx`, a
/// `429` or no answer at all (a time out, a refused connection) is an error; a page asked
/// for again after a `429` or `503` counts each answer.
#[derive(Debug, Default)]
pub struct ErrorWindow {
    recent: VecDeque<bool>,
    longest_wait: Option<Duration>,
}

impl ErrorWindow {
    /// Adds an answer.
    pub fn push(&mut self, error: bool) {
        if self.recent.len() == ERROR_WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(error);
    }

    /// Notes that an answer asked (or a back-off chose) to wait `wait` before asking again.
    pub fn asked_to_wait(&mut self, wait: Duration) {
        self.longest_wait = Some(self.longest_wait.map_or(wait, |w| w.max(wait)));
    }

    /// `(errors, answers)` when more than half of at least [`ERROR_WINDOW_MIN`] answers are
    /// errors.
    pub fn tripped(&self) -> Option<(usize, usize)> {
        let (errors, answers) = (self.recent.iter().filter(|e| **e).count(), self.recent.len());
        (answers >= ERROR_WINDOW_MIN && errors * 2 > answers).then_some((errors, answers))
    }

    /// How long to pause: the longest wait asked for since the last pause, or
    /// [`ERROR_PAUSE`].
    pub fn pause(&self) -> Duration {
        self.longest_wait.unwrap_or(ERROR_PAUSE).min(pacer::MAX_BACKOFF)
    }

    /// Starts again empty (after a pause).
    pub fn clear(&mut self) {
        self.recent.clear();
        self.longest_wait = None;
    }
}

/// How a crawl checks its pages' links to other sites (docs/RULES.md,
/// `broken-external-link`): each distinct external URL once, in the order the crawl finds
/// them, the first `budget` of them (the others counted), with [`Fetcher::check_link`]
/// (HEAD, then GET where HEAD is refused; the address guard on every hop), at most
/// [`crawl::EXTERNAL_PER_HOST`] at once on one host and [`crawl::EXTERNAL_IN_FLIGHT`] in all,
/// alongside the crawl's own fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExternalChecks {
    /// External URLs checked at most.
    pub budget: u64,
    /// How long one URL's check may take (redirects and a GET after HEAD included).
    pub timeout: Duration,
}

impl ExternalChecks {
    /// `budget` URLs at most, each within [`crawl::DEFAULT_EXTERNAL_TIMEOUT_SECS`].
    pub fn with_budget(budget: u64) -> ExternalChecks {
        ExternalChecks { budget, timeout: Duration::from_secs(crawl::DEFAULT_EXTERNAL_TIMEOUT_SECS) }
    }
}

/// How long a crawled page waits for an audit slot ([`CrawlOptions::slots`]) before it is
/// recorded as failed (`overloaded`).
pub const SLOT_PATIENCE: Duration = Duration::from_secs(600);

impl Default for CrawlOptions {
    fn default() -> CrawlOptions {
        CrawlOptions {
            limits: AnalysisLimits { cpu: None },
            time_limit: DEFAULT_TIME_LIMIT,
            sitemaps: true,
            sitemap_limits: SitemapLimits::default(),
            named_sitemaps: Vec::new(),
            near_duplicate_threshold: crawl::NEAR_DUPLICATE_SIMILARITY,
            cancel: Arc::default(),
            progress_every: DEFAULT_PROGRESS_EVERY,
            slots: None,
            renderer: None,
            external_links: None,
            pacer: None,
            list: None,
            extractors: None,
            start_page: None,
        }
    }
}

/// Where a crawl's progress stands.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Progress {
    /// URLs fetched that answered (any status).
    pub done: u64,
    /// URLs waiting to be fetched or being fetched.
    pub queued: u64,
    /// URLs whose fetch failed (no answer, refused by the address guard, too large...).
    pub failed: u64,
    /// URLs never fetched (robots.txt, outside the scope).
    pub skipped: u64,
    /// URLs fetched (done and failed) per second since the start.
    pub pages_per_second: f64,
    /// Time since the start.
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
    /// Whether the crawl is pausing now because the site's recent answers were mostly
    /// errors ([`ErrorWindow`]).
    pub paused_for_errors: bool,
    /// While it pauses for errors: how long until it goes on.
    #[serde(skip)]
    pub resumes_in: Option<Duration>,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// What receives a crawl's results as they come. Called on one thread of the blocking pool
/// only, so an implementation may block (write to a database).
pub trait CrawlSink: Send {
    /// A URL was fetched: its record (with its links) and, for an HTML page that answered
    /// 2xx, its audit by the page rules.
    ///
    /// # Errors
    /// The crawl stops with this error.
    fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), AppError>;

    /// A page URL a sitemap lists (each once).
    ///
    /// # Errors
    /// The crawl stops with this error.
    fn sitemap_url(&mut self, url: &str) -> Result<(), AppError>;

    /// How far the crawl is (at most every [`CrawlOptions::progress_every`], and once at
    /// the end).
    fn progress(&mut self, progress: &Progress) {
        let _ = progress;
    }

    /// Whether the crawl should stop (asked between results); the pages done are kept.
    fn cancelled(&mut self) -> bool {
        false
    }

    /// The crawl pauses for `pause` because its recent answers were mostly errors
    /// (`why`, in words; [`ErrorWindow`]).
    fn paused(&mut self, why: &str, pause: Duration) {
        let _ = (why, pause);
    }

    /// The pause [`CrawlSink::paused`] told of is over: the crawl goes on. Not told when the
    /// crawl ends during the pause (cancelled, out of time): its end says so.
    fn resumed(&mut self) {}
}

/// How a crawl ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CrawlEnd {
    /// Nothing left to fetch, `max_pages` reached, or the time limit (see
    /// [`CrawlSummary::time_limited`]).
    Completed,
    /// Cancelled; the pages done are kept.
    Cancelled,
    /// No page answered 2xx: the site answers only errors, or nothing at all.
    Failed {
        /// Why, as shown to the user (the start URL's error or status).
        reason: String,
    },
}

/// What a finished crawl reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrawlSummary {
    /// How it ended.
    #[serde(flatten)]
    pub end: CrawlEnd,
    /// Whether the time limit ended it.
    pub time_limited: bool,
    /// The frontier's counts at the end.
    pub progress: Progress,
    /// Whether any sitemap was read (the `not-in-sitemap` rule applies only then).
    pub sitemaps_read: bool,
    /// HTML pages audited.
    pub pages_audited: u64,
    /// Links to URLs left out because the frontier held its bound of URLs
    /// ([`crawl::Limits::max_known_urls`]; [`crawl::Frontier::links_not_queued`]).
    pub links_not_queued: u64,
    /// The problems of the site's sitemaps, for `sitemap-error` (at most
    /// [`MAX_SITEMAP_PROBLEMS`], the last of them saying how many more there were).
    #[serde(skip)]
    pub sitemap_problems: Vec<crawl::SitemapProblem>,
    /// [`CrawlOptions::near_duplicate_threshold`], for the judging.
    #[serde(skip)]
    pub near_duplicate_threshold: u32,
    /// How the site answered the never-existing URL fetched at the start, for `soft-404`
    /// ([`probe_not_found`]; `None`: the start URL gave no such URL). Made again when a crawl
    /// resumes, as the sitemaps are read again, so it is kept in no table.
    #[serde(skip)]
    pub not_found_probe: Option<crawl::NotFoundProbe>,
    /// The external links as checked, for `broken-external-link` and the summary's counts
    /// (`None`: not checked, [`CrawlOptions::external_links`]). Like the probe, made by the
    /// run that ends the crawl: a resumed crawl checks the links of the pages it fetches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_links: Option<crawl::ExternalLinks>,
    /// The pages of this run checked for edge blocking, in crawl order, for
    /// `ai-crawlers-blocked-at-edge` ([`probe_edge`]): at most [`crawl::MAX_EDGE_SAMPLE`]
    /// HTML pages that answered 200 and are not `noindex`. Like the never-existing URL's
    /// answer, made by each run and kept in no table.
    #[serde(skip)]
    pub edge_probes: Vec<crawl::EdgeProbe>,
    /// The requests the edge check made after the crawl's end (at most
    /// [`MAX_EDGE_REQUESTS`]), beside the pages, robots.txt and sitemaps the crawl fetched.
    pub edge_requests: u32,
    /// Times the crawl paused because its recent answers were mostly errors
    /// ([`ErrorWindow`]).
    pub error_pauses: u32,
    /// Why the crawl ended early, when its answers were still mostly errors after
    /// [`MAX_ERROR_PAUSES`] pauses (the pages done are kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_for_errors: Option<String>,
    /// Whether it was a list-mode crawl ([`CrawlOptions::list`]): the site rules that need
    /// the whole site are then skipped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub list_mode: bool,
}

/// The requests of the edge check at most: the browser's and each crawler's of
/// [`crawl::EDGE_PROBE_BOTS`], for each page of the sample.
pub const MAX_EDGE_REQUESTS: u32 = (crawl::MAX_EDGE_SAMPLE * (1 + crawl::EDGE_PROBE_BOTS.len())) as u32;

/// The time the edge check may take at most, all its requests together.
const EDGE_PROBE_BUDGET: Duration = Duration::from_secs(20);

/// Sitemap problems a crawl keeps at most: its sitemaps are bounded in number
/// (`crawl::SitemapLimits`), but one file may have a relative `<loc>` on every line.
pub const MAX_SITEMAP_PROBLEMS: usize = 1_000;

/// Adds `found` to `kept`, keeping at most [`MAX_SITEMAP_PROBLEMS`]: the last one kept then
/// counts those left out, so that none is dropped silently.
fn keep_sitemap_problems(kept: &mut Vec<crawl::SitemapProblem>, left_out: &mut u64, found: Vec<crawl::SitemapProblem>) {
    for problem in found {
        if kept.len() < MAX_SITEMAP_PROBLEMS - 1 {
            kept.push(problem);
        } else {
            *left_out += 1;
        }
    }
}

/// A finished crawl: its summary, and the frontier's store and the sink given back.
#[derive(Debug)]
pub struct Crawled<S, K> {
    /// The summary.
    pub summary: CrawlSummary,
    /// The frontier's store.
    pub store: S,
    /// The sink.
    pub sink: K,
}

/// Checks a crawl's start URL as an audit would, before any crawl is created: the URL
/// rules, the address guard, and that it answers an HTML page (redirects followed). The page
/// fetched is the crawl's start page ([`CrawlOptions::start_page`]): it is fetched once.
///
/// # Errors
/// The audit's errors: `invalid_url`, `blocked_target`, `not_html`, `unreachable`...
pub async fn check_start(fetcher: &Fetcher, url: &str) -> Result<StartPage, AppError> {
    let url = fetch::validate_url(url)?;
    check_start_page(fetcher, &url).await
}

/// [`check_start`] of a URL validated already: that it answers an HTML page.
///
/// # Errors
/// As [`check_start`], `invalid_url` aside.
pub async fn check_start_page(fetcher: &Fetcher, url: &Url) -> Result<StartPage, AppError> {
    StartPage::fetch(fetcher, url).await
}

/// Results recorded in one batch of the frontier's store at most
/// ([`crawl::FrontierStore::begin`]). The time bounds below end a batch first on a busy
/// crawl (about 1,100 results a second on two cores take [`MAX_HOLD_TIME`] to reach it); this
/// bounds what one batch can hold whatever the pages' size.
const MAX_BATCH: usize = 1024;

/// How long a batch takes results in before it is committed, however many are ready: an
/// SQLite batch holds the writer's turn, and the other writes of the service (a crawl
/// queued, an audit stored, the quota counted) wait in line behind it. Sixty-four results of
/// pages as large as a record keeps (1 MiB each) took seconds to write; a batch now ends
/// after the first result that finds this spent, and the next one waits its turn behind
/// the writers that came meanwhile (docs/ARCHITECTURE.md, "Site crawl: the site rules over
/// the store").
const MAX_BATCH_TIME: Duration = Duration::from_millis(200);

/// How long a batch goes on taking results, ready or awaited, while no other writer waits
/// for the turn ([`FrontierStore::may_hold_batch`]: on SQLite only; the command line's own
/// store always). A writer that comes meanwhile ends the batch at the next result or within
/// [`HOLD_SLICE`], as before. Pages of a site link across it, so the inlinks' rows a batch
/// touches are shared by more of its pages the longer it runs: batches of 200 ms (64 results)
/// upserted a linked URL about three times as often a page at 10,000 pages as at 2,000, and
/// the crawl fell from 0.53 to 0.46 of the engine; with this bound it keeps 0.53–0.54
/// (docs/PERFORMANCE.md, "Site crawl"). A crash loses at most this much work, fetched again
/// when the crawl resumes.
const MAX_HOLD_TIME: Duration = Duration::from_millis(1000);

/// How long the frontier thread waits for a result at a time while it keeps its batch open
/// ([`wait_in_batch`]): a writer that comes meanwhile waits about this long at most before
/// the batch is committed and the turn is its.
const HOLD_SLICE: Duration = Duration::from_millis(2);

/// Waits for the next result with the open batch kept open, while the store allows it
/// ([`FrontierStore::may_hold_batch`]: on SQLite, while no other writer waits for the turn),
/// the batch has room and time left (`MAX_BATCH`, `MAX_HOLD_TIME`) and `stopping` says
/// nothing (a cancel or the time limit, noticed within a slice); `None` when it stops
/// waiting without one (the caller then commits and waits as before). On a busy crawl
/// results come every few milliseconds, so a batch takes in tens of them instead of the one
/// or two ready at once, and what they all touch (the inlinks' rows spread over their table,
/// the queue index) is written once per commit (docs/PERFORMANCE.md, "Site crawl"). A crawl
/// holds the batch while nobody else wants to write: its atomicity is unchanged (a crash
/// keeps all of a batch or none of it), only its size grows.
fn wait_in_batch<S: FrontierStore>(
    store: &mut S,
    done: &Receiver<Done>,
    batched: usize,
    opened: Instant,
    stopping: impl Fn() -> bool,
) -> Result<Option<Done>, AppError> {
    while batched < MAX_BATCH && store.may_hold_batch() && !stopping() {
        let left = MAX_HOLD_TIME.saturating_sub(opened.elapsed());
        if left.is_zero() {
            break;
        }
        match done.recv_timeout(left.min(HOLD_SLICE)) {
            Ok(result) => return Ok(Some(result)),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(AppError::internal("the crawl's fetch side stopped")),
        }
    }
    Ok(None)
}

/// The blocking threads a runtime that runs crawls needs: the frontier thread, one for the
/// rest (name resolution), and one per core for the store calls of the pages analysed at
/// once (the analyses themselves run on their own threads). A command that only
/// crawls caps its runtime's blocking pool at this (`Builder::max_blocking_threads`): with
/// the default cap of 512 the pool grows to a dozen threads whose allocator caches each keep
/// freed memory, and the peak RSS of a 2,000-page crawl went from about 90 MiB to 130-170 MiB
/// (docs/PERFORMANCE.md, "Site crawl").
pub fn blocking_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) + 2
}

/// A job handed from the frontier thread to the async side.
enum Job {
    Robots { url: String },
    Sitemap { url: String, delay: Option<Duration> },
    Page { entry: Entry, delay: Option<Duration>, robots: Option<Arc<Robots>> },
}

/// What a job gave.
enum Done {
    /// The robots.txt as the crawl obeys it, and as the audit's crawlability rule reads it.
    Robots {
        url: String,
        crawl: Robots,
        // Boxed: two parsed files inline made this variant far larger than the others.
        audit: Option<Arc<Robots>>,
    },
    Sitemap {
        url: String,
        status: Option<u16>,
        body: bytes::Bytes,
    },
    Page {
        entry: Entry,
        fetched: Fetched,
        tally: Tally,
    },
}

/// Each extractor's name and value on a page ([`crawl::Extractors::extract`]).
type Extracted = Vec<(String, Option<String>)>;

/// A fetch of a page.
enum Fetched {
    /// The page's score, its audit (its page without the visible text and the decoded
    /// document: [`crawl::TextFacts::take`]; freed on the analysis thread that made it,
    /// [`crate::homed`]), its extracted values and the facts of its text.
    Html(Box<(u32, Homed<Audit>, Extracted, crawl::TextFacts)>),
    Other {
        status: u16,
    },
    Redirected {
        status: u16,
        location: Option<String>,
    },
    Failed {
        reason: String,
        no_answer: bool,
    },
}

impl Fetched {
    /// Whether the last answer counts as an error in the [`ErrorWindow`].
    fn is_error(&self) -> bool {
        match self {
            Fetched::Other { status } => *status >= 500 || *status == 429,
            Fetched::Failed { no_answer, .. } => *no_answer,
            Fetched::Html(_) | Fetched::Redirected { .. } => false,
        }
    }
}

/// What a page's fetch met before its last answer: the `429` and `503` answers it was
/// asked for again after, and the longest wait they asked for.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    retried: u32,
    longest_wait: Option<Duration>,
}

/// Runs a crawl of `scope` over the frontier kept in `store` (resumed from it: a store that
/// holds a crawl already continues it), with `limits` for politeness, until it ends (see
/// the module documentation). The store and the sink are given back.
///
/// # Errors
/// The store or the sink failed (the crawl stops there; what was written stays), or a task
/// of the runner panicked.
pub async fn run<S, K>(
    fetcher: &Fetcher,
    store: S,
    scope: Scope,
    limits: Limits,
    sink: K,
    mut options: CrawlOptions,
) -> Result<Crawled<S, K>, AppError>
where
    S: FrontierStore + Send + 'static,
    S::Error: Display,
    AppError: From<S::Error>,
    K: CrawlSink + 'static,
{
    let (jobs_tx, mut jobs_rx) = tokio::sync::mpsc::unbounded_channel::<Job>();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<Done>();
    let analysis = options.limits;
    let slots = options.slots.clone();
    let renderer = options.renderer.clone();
    let extractors = options.extractors.clone();
    let sitemap_max = options.sitemap_limits.max_bytes;
    let guard = fetcher.guard().clone();
    let (external_tx, external_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let checker = options.external_links.map(|checks| {
        let stop = (Arc::clone(&options.cancel), Instant::now() + options.time_limit);
        // A staging site's headers are the site's alone: its links to other sites are
        // checked without them.
        tokio::spawn(check_external(fetcher.without_site(), checks, external_rx, stop))
    });
    let external = options.external_links.map(|checks| (crawl::ExternalBudget::new(checks.budget), external_tx));
    let pacer = options.pacer.clone().unwrap_or_else(|| HostPacer::local_with(limits.max_in_flight));
    // Retries after a 429 or 503 stop once the crawl is cancelled or out of time.
    let stop = (Arc::clone(&options.cancel), Instant::now() + options.time_limit);
    // The answers the start check got, each taken by the first page job for its URL.
    let mut handed = options.start_page.take().map(StartPage::hops).unwrap_or_default();
    // A crawl resumed with no time left, or cancelled already, fetches nothing at all.
    let not_found_probe = if options.time_limit.is_zero() || options.cancel.load(Ordering::Relaxed) {
        None
    } else {
        probe_not_found(fetcher, &pacer, &scope, analysis, &limits).await
    };
    let token = limits.profile.robots_token();
    let driver = tokio::task::spawn_blocking(move || {
        drive(store, scope, limits, sink, options, &guard, &jobs_tx, &done_rx, external)
    });
    let mut tasks = tokio::task::JoinSet::new();
    while let Some(job) = jobs_rx.recv().await {
        let (fetcher, done, slots, renderer) = (fetcher.clone(), done_tx.clone(), slots.clone(), renderer.clone());
        let (pacer, stop) = (pacer.clone(), stop.clone());
        let extractors = extractors.clone();
        let fetched = match &job {
            Job::Page { entry, .. } if !handed.is_empty() => handed.remove(&entry.url),
            _ => None,
        };
        tasks.spawn(async move {
            let stopped = move || stop.0.load(Ordering::Relaxed) || Instant::now() >= stop.1;
            let paced = Paced { pacer: &pacer, stopped: &stopped };
            let page_work =
                PageWork { limits: analysis, slots: slots.as_deref(), renderer: renderer.as_ref(), extractors };
            let result = execute(&fetcher, &paced, job, fetched, page_work, sitemap_max).await;
            // The frontier thread stopped (an error): nobody waits for this any more.
            let _ = done.send(result);
        });
        while let Some(joined) = tasks.try_join_next() {
            if let Err(e) = joined {
                if e.is_panic() {
                    tracing::error!(error = %e, "a crawl fetch task panicked");
                }
            }
        }
    }
    drop(done_tx);
    let mut crawled = driver.await.map_err(|e| AppError::internal(format!("crawl runner failed: {e}")))??;
    crawled.summary.not_found_probe = not_found_probe;
    if let Some(checker) = checker {
        let over_budget = crawled.summary.external_links.as_ref().map_or(0, |e| e.not_checked_budget);
        let mut checked =
            checker.await.map_err(|e| AppError::internal(format!("the external link checks failed: {e}")))?;
        checked.count_not_checked(crawl::NotChecked::Budget, over_budget);
        checked.settle();
        crawled.summary.external_links = Some(checked);
    }
    // The sample was taken by the frontier thread; a cancelled crawl checks none of it.
    let sample = std::mem::take(&mut crawled.summary.edge_probes);
    if !sample.is_empty() && !matches!(crawled.summary.end, CrawlEnd::Cancelled) {
        let (probes, requests) = probe_edge(fetcher, &pacer, sample, token).await;
        crawled.summary.edge_probes = probes;
        crawled.summary.edge_requests = requests;
    }
    Ok(crawled)
}

/// Checks the external URLs the frontier thread sends (each once, within the budget: it
/// chose them) as [`ExternalChecks`] says, until the crawl ends and every check started has
/// ended; a URL that comes once the crawl was cancelled or ran out of time is counted as not
/// checked (`stopped`).
async fn check_external(
    fetcher: Fetcher,
    checks: ExternalChecks,
    mut urls: tokio::sync::mpsc::UnboundedReceiver<String>,
    (cancel, deadline): (Arc<AtomicBool>, Instant),
) -> crawl::ExternalLinks {
    let mut links = crawl::ExternalLinks::new(checks.budget);
    let all = Arc::new(tokio::sync::Semaphore::new(crawl::EXTERNAL_IN_FLIGHT));
    let mut hosts: std::collections::HashMap<String, Arc<tokio::sync::Semaphore>> = Default::default();
    let mut tasks = tokio::task::JoinSet::new();
    let stopped = {
        let cancel = Arc::clone(&cancel);
        move || cancel.load(Ordering::Relaxed) || Instant::now() >= deadline
    };
    let record = |links: &mut crawl::ExternalLinks, joined: Result<(String, crawl::ExternalOutcome), _>| match joined {
        Ok((url, outcome)) => links.record(&url, outcome),
        Err(e) => {
            tracing::error!(error = %e, "an external link check panicked");
            links.count_not_checked(crawl::NotChecked::Stopped, 1);
        }
    };
    while let Some(url) = urls.recv().await {
        while let Some(joined) = tasks.try_join_next() {
            record(&mut links, joined);
        }
        if stopped() {
            links.count_not_checked(crawl::NotChecked::Stopped, 1);
            continue;
        }
        let host = Url::parse(&url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).unwrap_or_default();
        let per_host = Arc::clone(
            hosts.entry(host).or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(crawl::EXTERNAL_PER_HOST))),
        );
        let (all, fetcher, stopped) = (Arc::clone(&all), fetcher.clone(), stopped.clone());
        tasks.spawn(async move {
            // The host's place first, then one of all: a check waiting for its busy host
            // holds no place another host's check could use.
            let _host = per_host.acquire_owned().await;
            let _place = all.acquire_owned().await;
            if stopped() {
                return (url, crawl::ExternalOutcome::NotChecked(crawl::NotChecked::Stopped));
            }
            let outcome = check_one(&fetcher, &url, checks.timeout).await;
            (url, outcome)
        });
    }
    while let Some(joined) = tasks.join_next().await {
        record(&mut links, joined);
    }
    links
}

/// How one external URL answered ([`Fetcher::check_link`]): a refusal of the address guard
/// and a time out are no answer of the site's, so they are counted as not checked, never
/// reported as broken.
async fn check_one(fetcher: &Fetcher, url: &str, timeout: Duration) -> crawl::ExternalOutcome {
    let Ok(parsed) = Url::parse(url) else {
        return crawl::ExternalOutcome::Failed { error: "not a URL".to_string() };
    };
    match fetcher.check_link(&parsed, timeout).await {
        Ok(answer) => {
            // Each redirect's status and the URL it led to: the next hop's, or the last.
            let targets = answer.redirect_chain.iter().skip(1).map(|h| h.url.to_string());
            let targets = targets.chain(std::iter::once(answer.final_url.to_string()));
            let redirects = answer.redirect_chain.iter().map(|h| h.status).zip(targets).collect();
            crawl::ExternalOutcome::Answered { status: answer.status, redirects }
        }
        Err(e) if e.is_blocked() => crawl::ExternalOutcome::NotChecked(crawl::NotChecked::Refused),
        Err(e) if e.is_timeout() => crawl::ExternalOutcome::NotChecked(crawl::NotChecked::TimedOut),
        Err(e) => crawl::ExternalOutcome::Failed { error: e.to_string() },
    }
}

/// Fetches, once at a crawl's start, a URL of the start's site that never existed
/// ([`crawl::not_found_probe_path`] with 64 random bits), through the fetcher and its address
/// guard as every fetch of the crawl, and keeps how it answered and the content signature
/// of its page: what the site's own "not found" page looks like, for `soft-404`
/// (docs/RULES.md, "Site rules"). A failed fetch is kept as such (no status): the rule then
/// compares nothing.
async fn probe_not_found(
    fetcher: &Fetcher,
    pacer: &HostPacer,
    scope: &Scope,
    limits: AnalysisLimits,
    robots_limits: &Limits,
) -> Option<crawl::NotFoundProbe> {
    let token = robots_limits.profile.robots_token();
    let random = uuid::Uuid::new_v4().as_u64_pair().0;
    let url = scope.start().join(&crawl::not_found_probe_path(random)).ok()?;
    let requested = url.to_string();
    // The URL is one of the site's like any other: fetched only where its robots.txt lets
    // our crawler in, and not at all under a `Crawl-delay` (the frontier spaces the crawl's
    // fetches from its own first one; this one would come before, unspaced). The service
    // caches robots.txt answers (`fetch.robots_cache_ttl_s`, 60 s by default), so the
    // frontier's own read of it is no second request there; with the cache off it is one
    // more request. Without the probe, soft-404 reads titles and headings only.
    let answer = {
        let _place = pacer.acquire(&url, None).await;
        fetcher.fetch_robots_txt(&url).await
    };
    let robots = match answer {
        Ok(Some(page)) => read_robots(page).await,
        Ok(None) => Arc::new(Robots::parse(b"")),
        Err(_) => return None,
    };
    if !(robots_limits.ignore_robots || robots.is_allowed(token, url.path()))
        || robots.crawl_delay(token).is_some_and(|d| d.is_finite() && d > 0.0)
    {
        return None;
    }
    let answer = {
        let _place = pacer.acquire(&url, None).await;
        fetcher.fetch_hop(&url).await
    };
    let page = match answer {
        Ok(page) => page,
        Err(_) => return Some(crawl::NotFoundProbe { url: requested, status: None, content_signature: None }),
    };
    let status = page.status;
    let html = page.content_type.as_deref().is_none_or(is_html_type);
    let content_signature = if html && !(300..400).contains(&status) {
        let at = requested.clone();
        // Parsed as a crawled page is (the same text, boilerplate left out), so that its
        // signature compares with theirs; on the analysis threads, within their budget.
        analyse_blocking(None, limits, move |budget| {
            let http = http_facts(&at, &page, None);
            let parsed = Page::parse_within(&at, &page.body, http, budget);
            crawl::content_signature(&parsed.visible_text, &parsed.boilerplate)
        })
        .await
        .ok()
        .flatten()
    } else {
        None
    };
    Some(crawl::NotFoundProbe { url: requested, status: Some(status), content_signature })
}

/// Fetches each page of `sample` (given with no verdicts) again, once the crawl has ended, as
/// a browser and as each crawler of [`crawl::EDGE_PROBE_BOTS`] that robots.txt lets in, one
/// request at a time, through the fetcher and its address guard, within
/// [`EDGE_PROBE_BUDGET`]; and keeps, per page, the crawlers the AI-readiness check's
/// comparison ([`ai_visibility::edge_blocking`]) finds turned away. A `Disallow` is the
/// site's choice, not an edge block, so a crawler kept out is not fetched; nothing is
/// fetched under a `Crawl-delay` for our crawler, as for the never-existing URL. Pages the
/// budget leaves out are not kept (the rule then says nothing of them). Gives the probes
/// and the requests made.
async fn probe_edge(
    fetcher: &Fetcher,
    pacer: &HostPacer,
    sample: Vec<crawl::EdgeProbe>,
    token: &str,
) -> (Vec<crawl::EdgeProbe>, u32) {
    use ai_visibility::{Answer, BROWSER_USER_AGENT};
    // The `Accept` of a browser: an edge that serves markdown or JSON on request answers
    // each fetch the same HTML page.
    const HTML_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let deadline = Instant::now() + EDGE_PROBE_BUDGET;
    let max = fetcher.config().max_body_bytes;
    let mut requests = 0u32;
    let mut robots_of: std::collections::HashMap<String, Option<Arc<Robots>>> = Default::default();
    let mut probes = Vec::with_capacity(sample.len());
    for probe in sample {
        let Ok(url) = Url::parse(&probe.url) else { continue };
        let origin = url.origin().ascii_serialization();
        if !robots_of.contains_key(&origin) {
            // A robots.txt that cannot be read leaves the crawlers' permission unknown: the
            // origin's pages are not checked.
            let answer = {
                let _place = pacer.acquire(&url, None).await;
                fetcher.fetch_robots_txt(&url).await
            };
            let robots = match answer {
                Ok(Some(page)) => Some(read_robots(page).await),
                Ok(None) => Some(Arc::new(Robots::parse(b""))),
                Err(_) => None,
            };
            robots_of.insert(origin.clone(), robots);
        }
        let Some(robots) = robots_of.get(&origin).and_then(Option::as_ref) else { continue };
        if robots.crawl_delay(token).is_some_and(|d| d.is_finite() && d > 0.0) {
            continue;
        }
        let bots = crawl::EdgeProbe::bots(robots, url.path());
        if bots.is_empty() {
            continue;
        }
        let mut answers = Vec::with_capacity(bots.len() + 1);
        for agent in std::iter::once(BROWSER_USER_AGENT).chain(bots.iter().map(|b| b.user_agent)) {
            let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else { break };
            requests += 1;
            let fetched = async {
                let _place = pacer.acquire(&url, None).await;
                fetcher.fetch_text_as(&url, max, Some(agent), Some(HTML_ACCEPT)).await
            };
            let answer = match tokio::time::timeout(left, fetched).await {
                Ok(Ok(a)) => Answer::of(a.status, &a.headers, a.content_type.as_deref(), &a.body),
                Ok(Err(e)) => Answer::failed(e.to_string()),
                Err(_) => Answer::failed("the check's time budget ran out"),
            };
            answers.push(answer);
        }
        // A page the budget cut short is not judged: a missing answer is no evidence.
        if answers.len() < bots.len() + 1 {
            break;
        }
        let mut answers = answers.into_iter();
        let browser = answers.next().unwrap_or_default();
        probes.push(crawl::EdgeProbe::judge(probe.url, browser, bots.into_iter().zip(answers).collect()));
    }
    (probes, requests)
}

/// The frontier thread: hands out work, records results, tells the sink.
#[allow(clippy::too_many_arguments)]
fn drive<S, K>(
    store: S,
    scope: Scope,
    limits: Limits,
    mut sink: K,
    mut options: CrawlOptions,
    guard: &AddressGuard,
    jobs: &tokio::sync::mpsc::UnboundedSender<Job>,
    done: &Receiver<Done>,
    mut external: Option<(crawl::ExternalBudget, tokio::sync::mpsc::UnboundedSender<String>)>,
) -> Result<Crawled<S, K>, AppError>
where
    S: FrontierStore,
    S::Error: Display,
    AppError: From<S::Error>,
    K: CrawlSink,
{
    // The store's own error is kept (not flattened to text): the service tells a database
    // that went away, after which the crawl is resumed, from a failure of the crawl.
    let store_error = |e: S::Error| AppError::from(e);
    let started = Instant::now();
    let deadline = started + options.time_limit;
    let mut frontier = Frontier::resume(store, scope.clone(), limits).map_err(store_error)?;
    // Pages an earlier run of this crawl recorded (it was stopped and is resumed here): the
    // crawl has answers even when this run fetches none (one killed during its site rules,
    // after its last page, resumes with nothing left to fetch).
    let done_before = frontier.counts().map_err(store_error)?.done;
    // A list-mode crawl queues its list (again when it resumes: a URL known is left alone)
    // and reads no sitemap: its pages are the list's.
    let list_mode = options.list.is_some();
    for url in options.list.take().unwrap_or_default() {
        frontier.add_listed_url(&url).map_err(store_error)?;
    }
    if list_mode {
        options.sitemaps = false;
    }
    let mut sitemaps = Sitemaps::new(scope.start(), options.sitemap_limits.clone());
    for named in &options.named_sitemaps {
        // Full URLs (`check_named_sitemaps`): no problem to report.
        let _ = sitemaps.add_source(named);
    }
    let mut audit_robots: std::collections::HashMap<String, Option<Arc<Robots>>> = Default::default();
    let mut sitemap_busy = false;
    let mut sitemap_problems = Vec::new();
    let mut sitemap_problems_left_out = 0u64;
    let start_origin = scope.start().origin().ascii_serialization();
    let mut in_flight = 0usize;
    // Of them, robots.txt and sitemap requests.
    let mut other_in_flight = 0usize;
    let mut stop: Option<CrawlEnd> = None;
    let mut time_limited = false;
    let mut errors = ErrorWindow::default();
    let mut error_pauses = 0u32;
    let mut paused_until: Option<Instant> = None;
    let mut stopped_for_errors: Option<String> = None;
    let mut ok_pages = 0u64;
    let mut audited = 0u64;
    let mut first_problem: Option<String> = None;
    let mut edge_sample: Vec<crawl::EdgeProbe> = Vec::new();
    let mut last_progress: Option<Instant> = None;
    let send = |job: Job| jobs.send(job).map_err(|_| AppError::internal("the crawl's fetch side stopped"));
    // Results are recorded in batches (one transaction of a database store): the results
    // ready at once, up to MAX_BATCH and for MAX_BATCH_TIME, with the work handed out after
    // them; a batch is written before the thread waits for the next result, so nothing waits
    // in it, unless the store says nobody else wants to write (`wait_in_batch`).
    let mut batched = 0usize;
    frontier.store().begin().map_err(store_error)?;
    let mut batch_opened = Instant::now();

    loop {
        if stop.is_none() {
            if options.cancel.load(Ordering::Relaxed) || sink.cancelled() {
                stop = Some(CrawlEnd::Cancelled);
            } else if Instant::now() >= deadline {
                stop = Some(CrawlEnd::Completed);
                time_limited = true;
            }
        }
        // A pause for errors hands out nothing until it is over.
        if paused_until.is_some_and(|until| Instant::now() >= until) {
            paused_until = None;
            sink.resumed();
        }
        let paused = paused_until.is_some();
        if stop.is_none() && !paused {
            // Robots.txt files and sitemaps count against the in-flight limit as page fetches
            // do (docs/API.md, "Site crawl"): a sitemap, one at a time, takes a place when
            // there is one, before the pages, once the start host's robots.txt is read (so
            // that its Crawl-delay spaces the sitemaps' fetches too); robots.txt files are
            // read before any page of their host.
            let robots_read = audit_robots.contains_key(&start_origin);
            if robots_read && in_flight < frontier.max_in_flight() {
                if let Some(job) = sitemap_job(&options, &sitemaps, sitemap_busy, frontier.crawl_delay()) {
                    send(job)?;
                    sitemap_busy = true;
                    in_flight += 1;
                    other_in_flight += 1;
                }
            }
            for work in frontier.next_work_beside(other_in_flight).map_err(store_error)? {
                match work {
                    Work::Robots { url } => {
                        send(Job::Robots { url })?;
                        other_in_flight += 1;
                    }
                    Work::Fetch(entry) => {
                        let delay = frontier.crawl_delay();
                        let robots = Url::parse(&entry.url)
                            .ok()
                            .and_then(|u| audit_robots.get(&u.origin().ascii_serialization()).cloned().flatten());
                        send(Job::Page { entry, delay, robots })?;
                    }
                }
                in_flight += 1;
            }
        }
        if in_flight == 0 && stop.is_none() && !paused {
            // Nothing to fetch before the start host's robots.txt (a resumed crawl whose queue
            // is empty): the sitemaps are read anyway, and may queue pages.
            if let Some(job) = sitemap_job(&options, &sitemaps, sitemap_busy, frontier.crawl_delay()) {
                send(job)?;
                sitemap_busy = true;
                in_flight += 1;
                other_in_flight += 1;
            }
        }
        if in_flight == 0 {
            frontier.store().commit().map_err(store_error)?;
            batched = 0;
            if stop.is_some() || frontier.is_finished().map_err(store_error)? {
                break;
            }
            // Paused for errors (checking for a cancel or the time limit meanwhile), or other
            // workers on a shared store hold the host's places: wait for them.
            let wait = paused_until.map_or(Duration::from_millis(50), |until| {
                until.saturating_duration_since(Instant::now()).min(Duration::from_millis(250))
            });
            std::thread::sleep(wait);
            frontier.store().begin().map_err(store_error)?;
            batch_opened = Instant::now();
            continue;
        }
        // A result ready now joins the batch within its time (`MAX_BATCH_TIME`), or for
        // longer while no other writer waits for the turn (`MAX_HOLD_TIME`).
        let open_for = batch_opened.elapsed();
        let ready = if batched < MAX_BATCH
            && (open_for < MAX_BATCH_TIME || (open_for < MAX_HOLD_TIME && frontier.store().may_hold_batch()))
        {
            done.try_recv().ok()
        } else {
            None
        };
        let ready = match ready {
            Some(result) => Some(result),
            None => {
                let stopping = || options.cancel.load(Ordering::Relaxed) || Instant::now() >= deadline;
                wait_in_batch(frontier.store(), done, batched, batch_opened, stopping)?
            }
        };
        let result = match ready {
            Some(result) => Some(result),
            None => {
                frontier.store().commit().map_err(store_error)?;
                batched = 0;
                let wait = options.progress_every.max(Duration::from_millis(10));
                let result = match done.recv_timeout(wait) {
                    Ok(result) => Some(result),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(AppError::internal("the crawl's fetch side stopped"))
                    }
                };
                frontier.store().begin().map_err(store_error)?;
                batch_opened = Instant::now();
                result
            }
        };
        if let Some(result) = result {
            batched += 1;
            in_flight -= 1;
            match result {
                Done::Robots { url, crawl, audit } => {
                    other_in_flight -= 1;
                    if let Ok(u) = Url::parse(&url) {
                        audit_robots.insert(u.origin().ascii_serialization(), audit);
                    }
                    let problems =
                        frontier.set_robots(&url, crawl).iter().filter_map(|s| sitemaps.add_source(s)).collect();
                    keep_sitemap_problems(&mut sitemap_problems, &mut sitemap_problems_left_out, problems);
                }
                Done::Sitemap { url, status, body } => {
                    sitemap_busy = false;
                    other_in_flight -= 1;
                    let mut read = sitemaps.record(&url, status, &body);
                    if let Some(error) = &read.error {
                        tracing::debug!(sitemap = %url, %error, "sitemap not read");
                    }
                    keep_sitemap_problems(
                        &mut sitemap_problems,
                        &mut sitemap_problems_left_out,
                        std::mem::take(&mut read.problems),
                    );
                    for page_url in read.urls {
                        frontier.add_sitemap_url(&page_url).map_err(store_error)?;
                        sink.sitemap_url(&page_url)?;
                    }
                }
                Done::Page { entry, fetched, tally } => {
                    let (url, depth) = (entry.url.clone(), entry.depth);
                    for _ in 0..tally.retried {
                        errors.push(true);
                    }
                    errors.push(fetched.is_error());
                    if let Some(wait) = tally.longest_wait {
                        errors.asked_to_wait(wait);
                    }
                    match fetched {
                        Fetched::Html(analysed) => {
                            let (score, audit, extracted, text) = *analysed;
                            // The page's record is built here, off the analysis threads: the
                            // cores' places are for parsing and auditing.
                            let mut page =
                                CrawledPage::from_page_with(&url, depth, &audit.page, text, &scope, Some(score));
                            page.extracted = extracted;
                            frontier.record(entry, Outcome::Answered(&page)).map_err(store_error)?;
                            ok_pages += u64::from(matches!(page.status, Some(200..=299)));
                            audited += 1;
                            // The first pages fetched, the start page first: those of
                            // the edge check after the crawl (probe_edge).
                            if edge_sample.len() < crawl::MAX_EDGE_SAMPLE && crawl::EdgeProbe::samples(&page) {
                                edge_sample.push(crawl::EdgeProbe { url: page.url.clone(), blocked: Vec::new() });
                            }
                            sink.page(&page, Some(&audit))?;
                            // Its links to other sites, each new one within the budget, go to
                            // the checks (which run beside the crawl's fetches).
                            if let Some((budget, checks)) = external.as_mut() {
                                for link in page.outlinks.iter().filter(|l| !l.internal) {
                                    if budget.offer(&link.url) {
                                        let _ = checks.send(link.url.clone());
                                    }
                                }
                            }
                        }
                        Fetched::Other { status } => {
                            let page = CrawledPage::answered(&url, depth, status, None);
                            frontier.record(entry, Outcome::Answered(&page)).map_err(store_error)?;
                            if (200..300).contains(&status) {
                                ok_pages += 1;
                            } else if first_problem.is_none() {
                                first_problem = Some(format!("{url} answered HTTP {status}"));
                            }
                            sink.page(&page, None)?;
                        }
                        Fetched::Redirected { status, location } => {
                            let outcome = Outcome::Redirected { status, location: location.as_deref() };
                            let to = frontier.record(entry, outcome).map_err(store_error)?;
                            if let Some(reason) = to.as_deref().and_then(|to| refused_elsewhere(guard, &scope, to)) {
                                let to = to.as_deref().unwrap_or_default();
                                frontier.record_refused(to, depth, &url, &reason).map_err(store_error)?;
                            }
                            sink.page(&CrawledPage::answered(&url, depth, status, to), None)?;
                        }
                        Fetched::Failed { reason, .. } => {
                            if first_problem.is_none() {
                                first_problem = Some(format!("{url}: {reason}"));
                            }
                            frontier.record(entry, Outcome::Failed { reason: &reason }).map_err(store_error)?;
                            sink.page(&CrawledPage::failed(&url, depth, reason), None)?;
                        }
                    }
                }
            }
        }
        if stop.is_none() && paused_until.is_none() {
            if let Some((errors_seen, answers)) = errors.tripped() {
                let why = format!("{errors_seen} of the last {answers} answers were errors (5xx, 429 or no answer)");
                if error_pauses >= MAX_ERROR_PAUSES {
                    tracing::warn!(site = %scope.start(), "crawl stopped: {why}, after {error_pauses} pauses");
                    stopped_for_errors = Some(format!("{why}, after {error_pauses} pauses"));
                    stop = Some(CrawlEnd::Completed);
                } else {
                    let pause = errors.pause();
                    error_pauses += 1;
                    tracing::warn!(site = %scope.start(), pause_s = pause.as_secs_f64(), "crawl paused: {why}");
                    sink.paused(&why, pause);
                    paused_until = Some(Instant::now() + pause);
                    errors.clear();
                }
            }
        }
        if last_progress.is_none_or(|at| at.elapsed() >= options.progress_every) {
            last_progress = Some(Instant::now());
            let mut now = progress(&mut frontier, started).map_err(store_error)?;
            now.paused_for_errors = paused_until.is_some();
            now.resumes_in = paused_until.map(|until| until.saturating_duration_since(Instant::now()));
            sink.progress(&now);
        }
    }

    let progress = progress(&mut frontier, started).map_err(store_error)?;
    sink.progress(&progress);
    let end = match stop {
        Some(CrawlEnd::Cancelled) => CrawlEnd::Cancelled,
        _ if ok_pages == 0 && done_before == 0 => {
            let start = frontier.store().get(scope.start().as_str()).map_err(store_error)?;
            let skipped = start.filter(|e| e.state == State::Skipped).and_then(|e| e.reason);
            let reason = stopped_for_errors
                .clone()
                .or(first_problem)
                .or(skipped.map(|r| format!("{} was not fetched: {r}", scope.start())))
                .unwrap_or_else(|| {
                    if time_limited {
                        "the time limit ran out before any page answered".to_string()
                    } else {
                        "no page answered".to_string()
                    }
                });
            CrawlEnd::Failed { reason: format!("the site answered no page: {reason}") }
        }
        _ => CrawlEnd::Completed,
    };
    if sitemap_problems_left_out > 0 {
        sitemap_problems.push(crawl::SitemapProblem {
            sitemap: scope.start().to_string(),
            line: None,
            problem: format!("{sitemap_problems_left_out} more sitemap problems, not listed"),
        });
    }
    let summary = CrawlSummary {
        end,
        time_limited,
        progress,
        sitemaps_read: sitemaps.any_read(),
        pages_audited: audited,
        links_not_queued: frontier.links_not_queued(),
        sitemap_problems,
        near_duplicate_threshold: options.near_duplicate_threshold,
        not_found_probe: None,
        // The URLs past the budget; the checks' own counts are added once they end (`run`).
        external_links: external.map(|(budget, _)| {
            let mut links = crawl::ExternalLinks::default();
            links.not_checked_budget = budget.over_budget();
            links
        }),
        edge_probes: edge_sample,
        edge_requests: 0,
        error_pauses,
        stopped_for_errors,
        list_mode,
    };
    Ok(Crawled { summary, store: frontier.into_store(), sink })
}

fn progress<S: FrontierStore>(frontier: &mut Frontier<S>, started: Instant) -> Result<Progress, S::Error> {
    let c = frontier.counts()?;
    let elapsed = started.elapsed();
    let fetched = (c.done + c.failed) as f64;
    Ok(Progress {
        done: c.done,
        queued: c.queued + c.fetching,
        failed: c.failed,
        skipped: c.skipped,
        pages_per_second: if elapsed.is_zero() { 0.0 } else { fetched / elapsed.as_secs_f64() },
        elapsed,
        paused_for_errors: false,
        resumes_in: None,
    })
}

/// The fetch of the next sitemap, when sitemaps are read and none is being fetched.
fn sitemap_job(options: &CrawlOptions, sitemaps: &Sitemaps, busy: bool, crawl_delay: Option<Duration>) -> Option<Job> {
    if !options.sitemaps || busy {
        return None;
    }
    let url = sitemaps.next_url()?.to_string();
    Some(Job::Sitemap { url, delay: crawl_delay })
}

/// Why the address guard refuses `to`, a redirect's target on another site (which the crawl
/// records and never fetches), judged on the URL alone as before every hop (an inner address
/// literal, a `localhost` name: [`AddressGuard::check_url`]); `None` when it passes or is on
/// the site (a target on the site is fetched, through the guard, like any URL).
fn refused_elsewhere(guard: &AddressGuard, scope: &Scope, to: &str) -> Option<String> {
    let to = Url::parse(to).ok()?;
    if scope.same_site(&to) {
        return None;
    }
    guard.check_url(&to).err().map(|e| format!("{}: {e}", e.code()))
}

/// The politeness a job's requests go through: the shared pacer, and whether the crawl was
/// cancelled or ran out of time (then a page is not asked for again).
struct Paced<'a> {
    pacer: &'a HostPacer,
    stopped: &'a (dyn Fn() -> bool + Send + Sync),
}

/// What a page's analysis uses beside its fetch: the CPU budget, the audit slots, the
/// renderer and the extractors of [`CrawlOptions`].
struct PageWork<'a> {
    limits: AnalysisLimits,
    slots: Option<&'a AuditSlots>,
    renderer: Option<&'a render::Renderer>,
    extractors: Option<Arc<crawl::Extractors>>,
}

/// Does one job on the async side; a page job whose answer the start check got (`fetched`)
/// does not ask for it again.
async fn execute(
    fetcher: &Fetcher,
    paced: &Paced<'_>,
    job: Job,
    fetched: Option<FetchedPage>,
    work: PageWork<'_>,
    sitemap_max: usize,
) -> Done {
    match job {
        Job::Robots { url } => {
            let answer = match Url::parse(&url) {
                Ok(u) => {
                    let _place = paced.pacer.acquire(&u, None).await;
                    fetcher.fetch_robots_txt(&u).await
                }
                Err(_) => Ok(None),
            };
            // Read on the blocking pool: the file's size is the site's choice (docs/SECURITY.md).
            let (crawl, audit) =
                tokio::task::spawn_blocking(move || crawl_and_audit_robots(answer)).await.unwrap_or_else(|e| {
                    // Ours, not the site's: the frontier and the audits alike stay out.
                    tracing::error!(error = %e, "the robots.txt reader failed");
                    let failed = Robots::unreachable("the robots.txt reader failed");
                    (failed.clone(), Some(Arc::new(failed)))
                });
            Done::Robots { url, crawl, audit }
        }
        Job::Sitemap { url, delay } => {
            let (status, body) = match Url::parse(&url) {
                Ok(u) => match async {
                    let _place = paced.pacer.acquire(&u, delay).await;
                    fetcher.fetch_text(&u, sitemap_max).await
                }
                .await
                {
                    Ok(page) => (Some(page.status), page.body),
                    Err(_) => (None, bytes::Bytes::new()),
                },
                Err(_) => (None, bytes::Bytes::new()),
            };
            Done::Sitemap { url, status, body }
        }
        Job::Page { entry, delay, robots } => {
            let mut tally = Tally::default();
            let fetched = fetch_page(fetcher, (paced, delay, &mut tally), &entry, fetched, work, robots).await;
            Done::Page { entry, fetched, tally }
        }
    }
}

/// What a crawl reads from the answer to its robots.txt request: the rules its frontier
/// follows ([`robots_from_answer`]: a file that could not be fetched, as refused or too
/// large, allows everything) and the verdict each page's audit is given
/// ([`crate::pipeline::site_robots_shared`]). A 2xx file is read once, for both and for the
/// crawl's probes of the same file ([`read_robots`]).
fn crawl_and_audit_robots(answer: crate::pipeline::RobotsAnswer) -> (Robots, Option<Arc<Robots>>) {
    let crawl = match &answer {
        Ok(Some(page)) if (200..300).contains(&page.status) => None,
        Ok(Some(page)) => Some(robots_from_answer(Some(page.status), &page.body)),
        Err(e) if e.is_no_answer() => Some(Robots::unreachable(e.code())),
        // No robots.txt to ask, or one the fetch refused (too large, the address
        // guard): no rules, as for a single audit.
        _ => Some(Robots::parse(b"")),
    };
    let audit = crate::pipeline::site_robots_shared(answer);
    match (crawl, audit) {
        (Some(crawl), audit) => (crawl, audit),
        // A 2xx file: its reading, which the frontier owns a copy of.
        (None, Some(audit)) => ((*audit).clone(), Some(audit)),
        (None, None) => (Robots::parse(b""), None),
    }
}

/// [`robots_from_answer`] on the blocking pool, a 2xx file's reading shared through the
/// robots.txt memo with the crawl's own reading of it: reading a robots.txt costs up to about
/// 13 ms for a file at the fetcher's 500 KiB limit, too long to hold an async worker. A
/// reader that failed is taken as a file that could not be read: a complete disallow.
async fn read_robots(page: FetchedPage) -> Arc<Robots> {
    tokio::task::spawn_blocking(move || {
        if (200..300).contains(&page.status) {
            crate::robots_memo::read(page.final_url.as_str(), &page.body)
        } else {
            Arc::new(robots_from_answer(Some(page.status), &page.body))
        }
    })
    .await
    .unwrap_or_else(|e| {
        tracing::error!(error = %e, "the robots.txt reader failed");
        Arc::new(Robots::unreachable("the robots.txt reader failed"))
    })
}

/// Fetches `url` (one hop) in its turn among the requests to its host ([`HostPacer`]),
/// giving the host's place back once answered; a `429` or `503` holds the host back
/// ([`pacer::retry_wait`]) and the page is asked for again, up to [`pacer::MAX_RETRIES`]
/// times while the crawl goes on. The last answer is given, whatever it is; `tally` counts
/// the others.
async fn fetch_politely(
    fetcher: &Fetcher,
    paced: &Paced<'_>,
    delay: Option<Duration>,
    tally: &mut Tally,
    url: &Url,
) -> Result<FetchedPage, fetch::Error> {
    let mut attempt = 0;
    loop {
        let answer = {
            let _place = paced.pacer.acquire(url, delay).await;
            fetcher.fetch_hop(url).await
        };
        match answer {
            Ok(page) if matches!(page.status, 429 | 503) => {
                let wait = pacer::retry_wait(page.header("retry-after"), attempt, SystemTime::now());
                paced.pacer.hold(url, wait).await;
                tally.longest_wait = Some(tally.longest_wait.map_or(wait, |w| w.max(wait)));
                if attempt >= pacer::MAX_RETRIES || (paced.stopped)() {
                    return Ok(page);
                }
                tracing::debug!(%url, status = page.status, wait_s = wait.as_secs_f64(), "asked to slow down");
                tally.retried += 1;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// Fetches one page (one hop, [`fetch_politely`]), unless its answer was `fetched` already
/// (the start check's), and audits it when it is HTML that answered 2xx.
async fn fetch_page(
    fetcher: &Fetcher,
    (paced, delay, tally): (&Paced<'_>, Option<Duration>, &mut Tally),
    entry: &Entry,
    fetched: Option<FetchedPage>,
    work: PageWork<'_>,
    robots: Option<Arc<Robots>>,
) -> Fetched {
    let PageWork { limits, slots, renderer, extractors } = work;
    let Ok(url) = Url::parse(&entry.url) else {
        return Fetched::Failed { reason: "not a URL".to_string(), no_answer: false };
    };
    let page: FetchedPage = match fetched {
        Some(page) => page,
        None => match fetch_politely(fetcher, paced, delay, tally, &url).await {
            Ok(page) => page,
            Err(e) => {
                let no_answer = e.is_no_answer();
                return Fetched::Failed { reason: format!("{}: {e}", e.code()), no_answer };
            }
        },
    };
    let status = page.status;
    if (300..400).contains(&status) {
        if let Some(location) = page.header("location") {
            return Fetched::Redirected { status, location: Some(location.to_string()) };
        }
    }
    let html = page.content_type.as_deref().is_none_or(is_html_type);
    if !(200..300).contains(&status) || !html {
        return Fetched::Other { status };
    }
    // A large page is analysed alone, in the whole process: its analysis holds several
    // copies of its size at once (the decoded document, the parser's tree, the visible text),
    // so two pages of 5 MB analysed side by side double the peak; pages under the bound
    // (nearly every real page) are analysed as before, one per core (docs/SCALING.md, "Large
    // pages"). Taken before an analysis place, so that no place waits on it.
    let large_turn = if page.body.len() > LARGE_PAGE_BYTES {
        match LARGE_PAGE_ANALYSES.acquire().await {
            Ok(permit) => Some(permit),
            Err(_) => return Fetched::Failed { reason: "the large-page gate is closed".to_string(), no_answer: false },
        }
    } else {
        None
    };
    let slot = match slots {
        Some(slots) => match slots.admit_background_within(SLOT_PATIENCE).await {
            Ok(ticket) => match ticket.ready().await {
                Ok(permit) => Some(permit),
                Err(e) => {
                    return Fetched::Failed { reason: format!("{}: {}", e.code(), e.message()), no_answer: false }
                }
            },
            Err(e) => return Fetched::Failed { reason: format!("{}: {}", e.code(), e.message()), no_answer: false },
        },
        None => None,
    };
    // A rendered crawl audits the DOM the browser left, with the served response's HTTP facts.
    let dom = match renderer {
        Some(r) => match r.render(&url).await {
            Ok(rendered) => Some((rendered.html, rendered.final_url)),
            Err(e) => {
                let e = AppError::from(e);
                return Fetched::Failed { reason: format!("{}: {}", e.code(), e.message()), no_answer: false };
            }
        },
        None => None,
    };
    let requested = entry.url.clone();
    let large = large_turn.is_some();
    let analysed = analyse_blocking(slot, limits, move |budget| {
        let http = http_facts(&requested, &page, robots.as_deref());
        let parsed = match &dom {
            // Links of the DOM resolve against the browser's address (docs/API.md, "Rendered audits").
            Some((html, final_url)) => {
                let http = crate::pipeline::rendered_http(http, &requested, final_url);
                Page::parse_within(&requested, html.as_bytes(), http, budget)
            }
            None => Page::parse_within(&requested, &page.body, http, budget),
        };
        // The extractors read the HTML audited: the rendered DOM, or the served page decoded
        // as the audit decoded it.
        let extracted = extractors.as_deref().map_or_else(Vec::new, |x| match &dom {
            Some((html, _)) => x.extract(html),
            None => x.extract(&audit_core::decode(&page.body, page.content_type.as_deref()).0),
        });
        // The response's bytes are not read again once parsed: freed before the rules run.
        drop((page, dom));
        let mut audit = audit_core::audit(parsed);
        let score = audit.score().percentage;
        // The text's facts are taken here and the text and the document freed, on the thread
        // that allocated them: until the frontier thread has written the page's record the
        // audit waits in a channel, and a page of 5 MB would keep two copies of its size
        // there (docs/SCALING.md, "Large pages").
        let text = crawl::TextFacts::take(&mut audit.page);
        if large {
            // Its body, document and text are freed: tens of megabytes the allocator would
            // otherwise keep for a while (docs/SCALING.md, "Large pages").
            crate::memory::release();
        }
        (score, Homed::here(audit), extracted, text)
    })
    .await;
    match analysed {
        Ok(analysed) => Fetched::Html(Box::new(analysed)),
        Err(e) => Fetched::Failed { reason: format!("analysis failed: {e}"), no_answer: false },
    }
}

/// Bytes of a response from which its page is a large one, analysed alone in a crawl
/// ([`LARGE_PAGE_ANALYSES`]) and its freed memory given back ([`crate::memory`]).
pub use crate::memory::LARGE_PAGE_BYTES;

/// One large page ([`LARGE_PAGE_BYTES`]) analysed at a time in the process, whatever the
/// crawls running.
static LARGE_PAGE_ANALYSES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// Whether a `Content-Type` names an HTML document.
fn is_html_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "text/html" || essence == "application/xhtml+xml"
}

/// Failed page rules of an audit: `(rule id, severity)`, worst first.
pub fn failed_rules(audit: &Audit) -> Vec<(&'static str, audit_core::Severity)> {
    audit.failures().into_iter().map(|(rule, _)| (rule.id, rule.severity)).collect()
}

/// What the command line and the tests keep of a crawl: every page in memory, with its
/// failed page rules. The service writes pages to its database instead.
#[derive(Default)]
pub struct MemorySink {
    /// Every URL fetched, in the order the results came.
    pub pages: Vec<CrawledPage>,
    /// For each page of [`MemorySink::pages`], its failed page rules (empty when not
    /// audited).
    pub failed: Vec<Vec<(&'static str, audit_core::Severity)>>,
    /// The page URLs the sitemaps list.
    pub sitemap_urls: std::collections::BTreeSet<String>,
    /// Told each progress report.
    pub on_progress: Option<ProgressFn>,
}

/// A progress callback of [`MemorySink`].
pub type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

impl CrawlSink for MemorySink {
    fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), AppError> {
        self.pages.push(page.clone());
        self.failed.push(audit.map(failed_rules).unwrap_or_default());
        Ok(())
    }

    fn sitemap_url(&mut self, url: &str) -> Result<(), AppError> {
        self.sitemap_urls.insert(url.to_string());
        Ok(())
    }

    fn progress(&mut self, progress: &Progress) {
        if let Some(f) = &mut self.on_progress {
            f(progress);
        }
    }
}

impl std::fmt::Debug for MemorySink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemorySink")
            .field("pages", &self.pages.len())
            .field("sitemap_urls", &self.sitemap_urls.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawl::{Counts, MemoryStore, ScopeConfig, State};

    /// What the crawl's frontier follows and what its audits are told, for every kind of
    /// answer to the robots.txt request (RFC 9309 §2.3.1): a 2xx file read once for both, a
    /// 5xx or no answer a complete disallow for both, anything else (4xx, a redirect the
    /// fetch did not end, no origin to ask, a file too large) no rules for the frontier and
    /// no robots.txt for the audits.
    #[test]
    fn the_crawl_and_its_audits_read_every_robots_answer_alike() {
        let url = Url::parse("https://site.test/robots.txt").unwrap();
        let page = |status: u16| -> crate::pipeline::RobotsAnswer {
            Ok(Some(FetchedPage {
                requested_url: url.clone(),
                final_url: url.clone(),
                status,
                redirect_chain: Vec::new(),
                headers: Vec::new(),
                content_type: Some("text/plain".into()),
                body: bytes::Bytes::from_static(b"User-agent: *\nDisallow: /private\n"),
                ttfb_ms: 0,
                total_ms: 0,
            }))
        };
        let timeout =
            fetch::Error::Timeout { host: "site.test".into(), phase: fetch::TimeoutPhase::Answer, limit_ms: 5000 };
        // What may be fetched: /private, then /.
        type May = (bool, bool);
        // (answer, what the frontier may fetch; what the audits may, or no robots.txt for them)
        let cases: Vec<(&str, crate::pipeline::RobotsAnswer, May, Option<May>)> = vec![
            ("200", page(200), (false, true), Some((false, true))),
            ("404", page(404), (true, true), None),
            ("301", page(301), (true, true), None),
            ("503", page(503), (false, false), Some((false, false))),
            ("no origin", Ok(None), (true, true), None),
            ("no answer", Err(timeout), (false, false), Some((false, false))),
            ("too large", Err(fetch::Error::TooLarge { limit: 500 * 1024 }), (true, true), None),
        ];
        for (name, answer, crawl_may, audit_may) in cases {
            let (crawl, audit) = crawl_and_audit_robots(answer);
            let may = |r: &Robots| (r.is_allowed("SeoAuditBot", "/private"), r.is_allowed("SeoAuditBot", "/"));
            assert_eq!(may(&crawl), crawl_may, "{name}: the frontier");
            assert_eq!(audit.as_deref().map(may), audit_may, "{name}: the audits");
        }
    }

    #[test]
    fn the_error_window_trips_on_more_than_half_errors_among_enough_answers() {
        let mut w = ErrorWindow::default();
        for _ in 0..ERROR_WINDOW_MIN - 1 {
            w.push(true);
        }
        assert_eq!(w.tripped(), None, "too few answers to judge");
        w.push(false);
        assert_eq!(w.tripped(), Some((9, 10)));
        w.clear();
        // Alternating answers: half are errors, which is not more than half.
        for i in 0..30 {
            w.push(i % 2 == 0);
        }
        assert_eq!(w.tripped(), None);
        w.push(true);
        assert_eq!(w.tripped(), None, "10 of the last 20");
        w.push(true);
        assert_eq!(w.tripped(), Some((11, ERROR_WINDOW)), "only the last 20 count");
        assert_eq!(w.pause(), ERROR_PAUSE, "no answer asked for a wait");
        w.asked_to_wait(Duration::from_secs(5));
        w.asked_to_wait(Duration::from_secs(2));
        assert_eq!(w.pause(), Duration::from_secs(5), "the longest wait asked for");
        w.asked_to_wait(Duration::from_secs(600));
        assert_eq!(w.pause(), pacer::MAX_BACKOFF);
    }

    /// Blocks as the PostgreSQL client does: a runtime of its own, which panics on a thread
    /// that drives async tasks. The runner must call the store and the sink elsewhere.
    fn block_like_a_database() {
        tokio::runtime::Builder::new_current_thread().build().expect("runtime").block_on(async {});
    }

    /// A [`MemoryStore`] that blocks on every call.
    struct BlockingStore(MemoryStore);

    impl FrontierStore for BlockingStore {
        type Error = std::convert::Infallible;
        fn get(&mut self, url: &str) -> Result<Option<Entry>, Self::Error> {
            block_like_a_database();
            self.0.get(url)
        }
        fn insert(&mut self, entry: Entry) -> Result<bool, Self::Error> {
            block_like_a_database();
            self.0.insert(entry)
        }
        fn update(&mut self, entry: &Entry) -> Result<(), Self::Error> {
            block_like_a_database();
            self.0.update(entry)
        }
        fn claim(&mut self, limit: usize, unlinked: bool) -> Result<Vec<Entry>, Self::Error> {
            block_like_a_database();
            self.0.claim(limit, unlinked)
        }
        fn counts(&mut self) -> Result<Counts, Self::Error> {
            block_like_a_database();
            self.0.counts()
        }
        fn requeue_fetching(&mut self) -> Result<u64, Self::Error> {
            block_like_a_database();
            self.0.requeue_fetching()
        }
    }

    /// A [`MemorySink`] that blocks on every call.
    #[derive(Default)]
    struct BlockingSink(MemorySink);

    impl CrawlSink for BlockingSink {
        fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), AppError> {
            block_like_a_database();
            self.0.page(page, audit)
        }
        fn sitemap_url(&mut self, url: &str) -> Result<(), AppError> {
            block_like_a_database();
            self.0.sitemap_url(url)
        }
        fn cancelled(&mut self) -> bool {
            block_like_a_database();
            false
        }
    }

    /// A three-page site on 127.0.0.1: `/` links to `/a` and `/gone` (404).
    async fn site() -> std::net::SocketAddr {
        test_support::Pages::serve(|request: &test_support::wiremock::Request| {
            let (status, body) = match request.url.path() {
                "/" => (200, "<title>Home page of the shop</title><a href='/a'>A</a><a href='/gone'>Old</a>"),
                "/a" => (200, "<title>The A page of the shop</title><a href='/'>Home</a>"),
                _ => (404, "<title>Not found</title>"),
            };
            test_support::ResponseTemplate::new(status).set_body_raw(body, "text/html")
        })
        .await
        .leak()
    }

    fn fetcher() -> Fetcher {
        Fetcher::new(fetch::FetchConfig { allow_targets: vec!["127.0.0.1".into()], ..fetch::FetchConfig::default() })
            .expect("fetcher")
    }

    /// The "not found" text of [`catch_all_site`]: enough words for a content signature.
    const NOT_FOUND_TEXT: &str = "We looked everywhere for the address you followed, in every aisle of the shop and \
        in the back room too, and came back with empty hands. The page may have moved when the catalogue was rebuilt \
        last spring, or the link that brought you here may carry a typing mistake. Try the search box, start again \
        from the home page, or write to our staff, who answer every message within two working days.";

    /// A site on 127.0.0.1 whose unknown pages answer `unknown_status` with a "not found"
    /// page; `/` links to `/retired`, a real page that renders that same page with a 200.
    async fn catch_all_site(unknown_status: u16) -> std::net::SocketAddr {
        test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
            let (status, body) = match request.url.path() {
                "/" => (200, "<title>Home page of the shop</title><a href='/retired'>Retired</a>".to_string()),
                "/retired" => (200, format!("<title>Retired offer</title><h1>Sorry</h1><p>{NOT_FOUND_TEXT}</p>")),
                _ => (unknown_status, format!("<title>Oops</title><h1>Sorry</h1><p>{NOT_FOUND_TEXT}</p>")),
            };
            test_support::ResponseTemplate::new(status).set_body_raw(body, "text/html")
        })
        .await
        .leak()
    }

    /// The crawl fetches a never-existing URL of the site at its start and keeps how it
    /// answered; `soft-404` then finds the real page rendering the "not found" page, and the
    /// site without real 404s once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_site_s_own_not_found_page_is_fetched_at_the_start_and_compared() {
        for (unknown, site_reported) in [(200, true), (404, false)] {
            let addr = catch_all_site(unknown).await;
            let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
            let crawled = run(
                &fetcher(),
                MemoryStore::new(),
                scope,
                Limits::default(),
                MemorySink::default(),
                CrawlOptions::default(),
            )
            .await
            .expect("crawl");
            let probe = crawled.summary.not_found_probe.clone().expect("a probe");
            let path = probe.url.strip_prefix(&format!("http://{addr}/seo-audit-404-")).expect("the probe's path");
            assert!(path.len() == 16 && path.chars().all(|c| c.is_ascii_hexdigit()), "{}", probe.url);
            assert_eq!(probe.status, Some(unknown));
            assert!(probe.content_signature.is_some());
            // The probe is no page of the crawl.
            let pages = &crawled.sink.pages;
            assert_eq!(pages.len(), 2, "{pages:?}");
            let sitemap = Default::default();
            let site = crawl::SiteIndex::new(pages, &sitemap, false).with_not_found_probe(Some(probe.clone()));
            let results = crawl::check_site(&site).expect("rules");
            // The rule's id is written in its own file only (.ci/rule_ids.py): found by what it says.
            let soft = results
                .iter()
                .find(|r| r.findings.iter().any(|f| f.detail.contains("similar to the site's own \"not found\" page")))
                .expect("a soft 404 found by its likeness");
            let urls: Vec<&str> = soft.findings.iter().map(|f| f.url.as_str()).collect();
            let retired = format!("http://{addr}/retired");
            let mut expected = vec![retired.as_str()];
            if site_reported {
                expected.push(probe.url.as_str());
            }
            expected.sort_unstable();
            assert_eq!(urls, expected);
        }
    }

    /// A site whose edge answers GPTBot 403 on `/blog/*` and every other visitor the page;
    /// `robots` is its robots.txt. Counts the requests each user agent made of page URLs.
    async fn edge_site(
        blocks: bool,
        robots: &'static str,
    ) -> (std::net::SocketAddr, Arc<std::sync::Mutex<Vec<String>>>) {
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        let addr = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
            let agent = request.headers.get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
            let path = request.url.path().to_owned();
            if path == "/robots.txt" {
                return test_support::ResponseTemplate::new(200).set_body_raw(robots, "text/plain");
            }
            log.lock().expect("lock").push(format!("{path} {agent}"));
            if blocks && path.starts_with("/blog/") && agent.contains("GPTBot") {
                return test_support::ResponseTemplate::new(403).set_body_raw("Forbidden", "text/plain");
            }
            let body = match path.as_str() {
                "/" => {
                    format!("<title>Home of the shop</title><a href='/blog/launch'>Launch</a><p>{NOT_FOUND_TEXT}</p>")
                }
                "/blog/launch" => format!("<title>The launch</title><p>{NOT_FOUND_TEXT}</p>"),
                _ => return test_support::ResponseTemplate::new(404).set_body_raw("<title>Nope</title>", "text/html"),
            };
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        })
        .await
        .leak();
        (addr, seen)
    }

    /// After the crawl, its pages are fetched as a browser and as GPTBot, ClaudeBot and
    /// PerplexityBot; the page the edge turns GPTBot away from is reported with the evidence,
    /// a site that answers all alike is not, and a crawler robots.txt keeps out is not sent.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pages_the_edge_turns_ai_crawlers_away_from_are_found() {
        let cases = [
            (true, "User-agent: *\nAllow: /\n", true),
            (false, "User-agent: *\nAllow: /\n", false),
            (true, "User-agent: GPTBot\nDisallow: /blog/\n", false),
        ];
        for (blocks, robots, reported) in cases {
            let (addr, seen) = edge_site(blocks, robots).await;
            let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
            let crawled = run(
                &fetcher(),
                MemoryStore::new(),
                scope,
                Limits::default(),
                MemorySink::default(),
                CrawlOptions::default(),
            )
            .await
            .expect("crawl");
            let summary = &crawled.summary;
            let home = format!("http://{addr}/");
            let blog = format!("http://{addr}/blog/launch");
            // The start page first, both checked.
            let checked: Vec<&str> = summary.edge_probes.iter().map(|p| p.url.as_str()).collect();
            assert_eq!(checked, [home.as_str(), blog.as_str()], "{robots}");
            // Each page as a browser and three crawlers, less GPTBot on /blog/ where it is kept out.
            let gptbot_kept_out = robots.contains("GPTBot");
            assert_eq!(summary.edge_requests, if gptbot_kept_out { 7 } else { 8 }, "{robots}");
            let log = seen.lock().expect("lock").clone();
            let gptbot_on_blog = log.iter().filter(|l| l.starts_with("/blog/") && l.contains("GPTBot")).count();
            assert_eq!(gptbot_on_blog, usize::from(!gptbot_kept_out), "{log:?}");
            let sitemap = Default::default();
            let site = crawl::SiteIndex::new(&crawled.sink.pages, &sitemap, false)
                .with_edge_probes(summary.edge_probes.clone());
            let results = crawl::check_site(&site).expect("rules");
            // The rule's id is written in its own file only (.ci/rule_ids.py): found by what it says.
            let found: Vec<(&str, &str)> = results
                .iter()
                .flat_map(|r| &r.findings)
                .filter(|f| f.detail.starts_with("AI crawlers turned away at the edge"))
                .map(|f| (f.url.as_str(), f.detail.as_str()))
                .collect();
            if reported {
                assert_eq!(
                    found,
                    [(
                        blog.as_str(),
                        "AI crawlers turned away at the edge: GPTBot: status 403 Forbidden where the browser got 200"
                    )]
                );
            } else {
                assert!(found.is_empty(), "{found:?}");
            }
        }
    }

    /// The never-existing URL is a URL of the site: not fetched where robots.txt keeps our
    /// crawler out of it, nor under a `Crawl-delay` (it would come before the frontier's
    /// spacing starts); the crawl itself goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn robots_txt_keeps_the_never_existing_url_unfetched() {
        use std::sync::atomic::AtomicUsize;
        for robots in ["User-agent: *\nDisallow: /seo-audit-404-\n", "User-agent: *\nCrawl-delay: 0.1\n"] {
            let probes = Arc::new(AtomicUsize::new(0));
            let seen = probes.clone();
            let addr = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
                let path = request.url.path();
                if path.starts_with("/seo-audit-404-") {
                    seen.fetch_add(1, Ordering::SeqCst);
                }
                let (status, body) = match path {
                    "/robots.txt" => {
                        return test_support::ResponseTemplate::new(200).set_body_raw(robots, "text/plain")
                    }
                    "/" => (200, "<title>Home page of the shop</title><a href='/about'>About</a>"),
                    "/about" => (200, "<title>About the shop</title>"),
                    _ => (404, "<title>Not found</title>"),
                };
                test_support::ResponseTemplate::new(status).set_body_raw(body, "text/html")
            })
            .await
            .leak();
            let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
            let crawled = run(
                &fetcher(),
                MemoryStore::new(),
                scope,
                Limits::default(),
                MemorySink::default(),
                CrawlOptions::default(),
            )
            .await
            .expect("crawl");
            assert_eq!(crawled.summary.not_found_probe, None, "{robots}");
            assert_eq!(probes.load(Ordering::SeqCst), 0, "{robots}");
            assert_eq!(crawled.sink.pages.len(), 2, "{robots}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_blocking_store_and_sink_are_called_off_the_async_workers() {
        let addr = site().await;
        let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
        let crawled = run(
            &fetcher(),
            BlockingStore(MemoryStore::new()),
            scope,
            Limits::default(),
            BlockingSink::default(),
            CrawlOptions::default(),
        )
        .await
        .expect("crawl");
        assert_eq!(crawled.summary.end, CrawlEnd::Completed);
        assert_eq!(crawled.summary.pages_audited, 2);
        let mut urls: Vec<_> = crawled
            .sink
            .0
            .pages
            .iter()
            .map(|p| (p.url.trim_start_matches(&format!("http://{addr}")).to_string(), p.status))
            .collect();
        urls.sort();
        assert_eq!(urls, [("/".into(), Some(200)), ("/a".into(), Some(200)), ("/gone".into(), Some(404))]);
        let home = crawled.sink.0.pages.iter().find(|p| p.depth == Some(0)).expect("the start page");
        assert_eq!(home.outlinks.len(), 2, "its links are given with it");
        assert!(crawled.sink.0.failed.iter().any(|f| !f.is_empty()), "the page rules ran");
        assert_eq!(crawled.summary.progress.done, 3);
    }

    /// Keeps each record and what the audit handed with it holds of the page's text.
    #[derive(Default)]
    struct TextSink {
        pages: Vec<CrawledPage>,
        /// Per audited page: the bytes of visible text and text ranges it still holds, and
        /// whether its elements can still be located (the decoded document).
        kept: Vec<(usize, bool)>,
    }

    impl CrawlSink for TextSink {
        fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), AppError> {
            if let Some(audit) = audit {
                let text = audit.page.visible_text.capacity() + audit.page.boilerplate.capacity();
                let locatable = audit.page.headings.iter().any(|h| audit.page.locate(h.spot).is_some());
                self.kept.push((text, locatable));
            }
            self.pages.push(page.clone());
            Ok(())
        }
        fn sitemap_url(&mut self, _url: &str) -> Result<(), AppError> {
            Ok(())
        }
    }

    /// What waits for the frontier thread after a page's audit holds nothing that grows with
    /// the page's text (docs/SCALING.md, "Large pages"): no visible text and no decoded
    /// document; the record still has the text's hash and signature.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_audited_page_is_handed_on_without_its_text() {
        let words: String = (0..200).map(|i| format!("word{i} ")).collect();
        let body = format!("<title>A long page of the shop</title><h1>Long</h1><nav>Home</nav><p>{words}</p>");
        let addr = test_support::Pages::serve(move |_: &test_support::wiremock::Request| {
            test_support::ResponseTemplate::new(200).set_body_raw(body.clone(), "text/html")
        })
        .await
        .leak();
        let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
        let crawled =
            run(&fetcher(), MemoryStore::new(), scope, Limits::default(), TextSink::default(), CrawlOptions::default())
                .await
                .expect("crawl");
        assert_eq!(crawled.sink.kept, [(0, false)], "the text and the document were freed");
        let page = &crawled.sink.pages[0];
        assert!(page.text_hash.is_some() && page.content_signature.is_some(), "{page:?}");
    }

    /// `shop.test` on 127.0.0.1: `/` links to `/r`, which redirects to `location`; every
    /// request's `Host` and path are kept.
    async fn redirecting_site(location: Arc<std::sync::Mutex<String>>) -> (u16, Arc<std::sync::Mutex<Vec<String>>>) {
        let seen: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
        let log = seen.clone();
        let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
            let host = request.headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or_default();
            log.lock().expect("lock").push(format!("{host}{}", request.url.path()));
            match request.url.path() {
                "/" => test_support::ResponseTemplate::new(200)
                    .set_body_raw("<title>Home page of the shop</title><a href='/r'>R</a>", "text/html"),
                "/r" => test_support::ResponseTemplate::new(302)
                    .insert_header("location", location.lock().expect("lock").as_str()),
                _ => test_support::ResponseTemplate::new(404),
            }
        })
        .await;
        let port = site.leak().port();
        (port, seen)
    }

    /// A redirect to the site's `www.` twin, which is on the site and so followed, but whose
    /// name resolves to an inner address: the fetch is refused by the address guard, and the
    /// URL listed as failed with the guard's reason; nothing reaches the inner address.
    #[tokio::test]
    async fn a_followed_redirect_to_an_inner_address_fails_with_the_guards_reason() {
        // The site's port is known once it listens: the redirect's target is read from a cell.
        let location: Arc<std::sync::Mutex<String>> = Arc::default();
        let (port, seen) = redirecting_site(location.clone()).await;
        let twin = format!("http://www.shop.test:{port}/inner");
        *location.lock().expect("lock") = twin.clone();
        let fetcher = Fetcher::new(fetch::FetchConfig {
            allow_targets: vec![format!("shop.test:{port}")],
            dns_overrides: vec![
                ("shop.test".into(), vec!["127.0.0.1".parse().expect("ip")]),
                ("www.shop.test".into(), vec!["10.11.12.13".parse().expect("ip")]),
            ],
            ..fetch::FetchConfig::default()
        })
        .expect("fetcher");
        let scope = Scope::new(&format!("http://shop.test:{port}/"), ScopeConfig::default()).expect("scope");
        let options = CrawlOptions { sitemaps: false, ..CrawlOptions::default() };
        let crawled = run(&fetcher, MemoryStore::new(), scope, Limits::default(), MemorySink::default(), options)
            .await
            .expect("crawl");
        assert_eq!(crawled.summary.end, CrawlEnd::Completed);
        let entry = crawled.store.entries().into_iter().find(|e| e.url == twin).expect("the twin is listed");
        assert_eq!(entry.state, State::Failed, "{entry:?}");
        let reason = entry.reason.as_deref().unwrap_or_default();
        assert!(reason.starts_with("blocked_target: ") && reason.contains("www.shop.test"), "{reason}");
        assert_eq!(entry.found_from.as_deref(), Some(format!("http://shop.test:{port}/r").as_str()));
        let record = crawled.sink.pages.iter().find(|p| p.url == twin).expect("its record");
        assert_eq!((record.status, record.error.as_deref()), (None, Some(reason)));
        let requests = seen.lock().expect("lock").clone();
        assert!(requests.iter().all(|r| r.starts_with(&format!("shop.test:{port}/"))), "{requests:?}");
    }

    /// A [`MemoryStore`] with batches: notes how many results (entries recorded done or
    /// failed) each committed batch held, and lets the runner hold a batch open across its
    /// waits when `hold` says so.
    struct BatchStore {
        store: MemoryStore,
        hold: bool,
        open: bool,
        recorded: usize,
        /// Results per committed batch, in order.
        batches: Vec<usize>,
        /// When the open batch began.
        opened: Option<Instant>,
        /// How long each committed batch with results was open, in order.
        spans: Vec<Duration>,
        /// Results recorded with no batch open.
        outside: usize,
    }

    impl BatchStore {
        fn new(hold: bool) -> BatchStore {
            BatchStore {
                store: MemoryStore::new(),
                hold,
                open: false,
                recorded: 0,
                batches: Vec::new(),
                opened: None,
                spans: Vec::new(),
                outside: 0,
            }
        }
    }

    impl FrontierStore for BatchStore {
        type Error = std::convert::Infallible;
        fn get(&mut self, url: &str) -> Result<Option<Entry>, Self::Error> {
            self.store.get(url)
        }
        fn insert(&mut self, entry: Entry) -> Result<bool, Self::Error> {
            self.store.insert(entry)
        }
        fn update(&mut self, entry: &Entry) -> Result<(), Self::Error> {
            if matches!(entry.state, State::Done | State::Failed) {
                if self.open {
                    self.recorded += 1;
                } else {
                    self.outside += 1;
                }
            }
            self.store.update(entry)
        }
        fn claim(&mut self, limit: usize, unlinked: bool) -> Result<Vec<Entry>, Self::Error> {
            self.store.claim(limit, unlinked)
        }
        fn counts(&mut self) -> Result<Counts, Self::Error> {
            self.store.counts()
        }
        fn requeue_fetching(&mut self) -> Result<u64, Self::Error> {
            self.store.requeue_fetching()
        }
        fn begin(&mut self) -> Result<(), Self::Error> {
            self.open = true;
            self.opened = Some(Instant::now());
            Ok(())
        }
        fn commit(&mut self) -> Result<(), Self::Error> {
            if self.open && self.recorded > 0 {
                self.batches.push(self.recorded);
                self.spans.extend(self.opened.map(|at| at.elapsed()));
            }
            (self.open, self.recorded, self.opened) = (false, 0, None);
            Ok(())
        }
        fn may_hold_batch(&mut self) -> bool {
            self.hold && self.open
        }
    }

    /// A batch is committed before the runner waits for a result unless the store lets it
    /// hold the batch (`FrontierStore::may_hold_batch`: an SQLite store nobody else waits to
    /// write to); then the results that come while it waits join the open batch, and every
    /// result is still recorded inside a committed batch. One request in flight and pages
    /// answering 10 ms after they are asked for: results never come at once, so without
    /// the hold each batch holds one; with it, the results 10 ms apart share batches, and a
    /// batch goes on taking them past `MAX_BATCH_TIME` (40 results take at least 400 ms):
    /// while nobody else waits to write it may run for `MAX_HOLD_TIME`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn results_that_come_while_the_runner_waits_join_the_batch_only_when_the_store_lets_it_hold_it() {
        let addr = test_support::Pages::serve(|request: &test_support::wiremock::Request| {
            let body = match request.url.path() {
                "/" => (1..40).map(|i| format!("<a href='/p{i}'>Page {i}</a>")).collect::<String>(),
                path => format!("<title>Page {path} of the shop</title><p>Page {path}.</p>"),
            };
            test_support::ResponseTemplate::new(200)
                .set_body_raw(body, "text/html")
                .set_delay(Duration::from_millis(10))
        })
        .await
        .leak();
        for hold in [false, true] {
            let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
            let limits = Limits { max_in_flight: 1, ..Limits::default() };
            let options = CrawlOptions { sitemaps: false, ..CrawlOptions::default() };
            let crawled = run(&fetcher(), BatchStore::new(hold), scope, limits, MemorySink::default(), options)
                .await
                .expect("crawl");
            assert_eq!(crawled.summary.progress.done, 40, "hold {hold}");
            let store = &crawled.store;
            assert!(!store.open && store.outside == 0, "every result in a committed batch (hold {hold})");
            assert_eq!(store.batches.iter().sum::<usize>(), 40, "hold {hold}: {:?}", store.batches);
            let largest = store.batches.iter().copied().max().unwrap_or(0);
            if hold {
                assert!(largest >= 2, "results shared a batch: {:?}", store.batches);
                let longest = store.spans.iter().copied().max().unwrap_or_default();
                assert!(
                    longest > MAX_BATCH_TIME + Duration::from_millis(50),
                    "a held batch took results past MAX_BATCH_TIME: {:?} {:?}",
                    store.batches,
                    store.spans
                );
            } else {
                assert_eq!(largest, 1, "one result a batch: {:?}", store.batches);
            }
        }
    }

    /// A batch held open while nobody else writes stops waiting for results as soon as the
    /// crawl is stopping (a cancel or its time limit, `wait_in_batch`'s `stopping`), instead
    /// of holding on for up to `MAX_HOLD_TIME`: the result that comes later is left for the
    /// runner's loop, which commits and ends.
    #[test]
    fn a_held_batch_stops_waiting_once_the_crawl_is_stopping() {
        let (results, done) = std::sync::mpsc::channel();
        let later = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            let sitemap = Done::Sitemap {
                url: "http://shop.test/sitemap.xml".into(),
                status: Some(404),
                body: bytes::Bytes::new(),
            };
            results.send(sitemap).expect("the runner's end of the channel");
            results
        });
        let mut store = BatchStore::new(true);
        store.begin().expect("begin");
        assert!(store.may_hold_batch());
        let stopping = wait_in_batch(&mut store, &done, 1, Instant::now(), || true).expect("wait");
        assert!(stopping.is_none(), "no wait once the crawl is stopping");
        let waited = wait_in_batch(&mut store, &done, 1, Instant::now(), || false).expect("wait");
        assert!(matches!(waited, Some(Done::Sitemap { .. })), "a crawl going on waits for the result in its batch");
        drop(later.join());
    }

    #[tokio::test]
    async fn a_cancelled_crawl_starts_nothing_more_and_keeps_what_it_has() {
        let addr = site().await;
        let scope = Scope::new(&format!("http://{addr}/"), ScopeConfig::default()).expect("scope");
        let options = CrawlOptions::default();
        options.cancel.store(true, Ordering::Relaxed);
        let crawled = run(&fetcher(), MemoryStore::new(), scope, Limits::default(), MemorySink::default(), options)
            .await
            .expect("crawl");
        assert_eq!(crawled.summary.end, CrawlEnd::Cancelled);
        assert!(crawled.sink.pages.is_empty());
        assert_eq!(crawled.store.entries().len(), 1, "the start URL stays queued for a resume");
    }

    #[tokio::test]
    async fn a_site_that_answers_nothing_fails_with_the_reason() {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr").port()
        };
        let scope = Scope::new(&format!("http://127.0.0.1:{port}/"), ScopeConfig::default()).expect("scope");
        let crawled = run(
            &fetcher(),
            MemoryStore::new(),
            scope,
            Limits::default(),
            MemorySink::default(),
            CrawlOptions::default(),
        )
        .await
        .expect("crawl");
        let CrawlEnd::Failed { reason } = &crawled.summary.end else { panic!("{:?}", crawled.summary) };
        assert!(reason.contains("robots.txt unreachable"), "{reason}");
    }
}
