//! The audit pipeline: fetch a page and its robots.txt, turn them into page facts, run the
//! rules. Shared by the REST endpoints, the agent tools, the badge's background audits and
//! the command line, so every way in audits a page the same way.

use ai_visibility::Robots;
use audit_core::rendering::{self, BlockedRequest, Browser};
use audit_core::{Audit, HttpFacts, Page, Rendering, RobotsTxtFact};
use fetch::{FetchedPage, Fetcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::OwnedSemaphorePermit;
use url::Url;

use crate::homed::Homed;
use crate::observe::{Observer, Phase};
use crate::AppError;

/// The user agent whose robots.txt verdict the crawlability rule reports: a search crawler,
/// falling back to the `*` group by the matcher's own rules.
pub const SEARCH_CRAWLER: &str = "Googlebot";

/// A fetched and audited page.
#[derive(Debug)]
pub struct PageAudit {
    /// The audit of the page, freed on the analysis thread that made it ([`Homed`]).
    pub audit: Homed<Audit>,
    /// What the site's robots.txt says ([`site_robots_shared`]), for engines that need more
    /// than the crawlability verdict, such as AI-bot access.
    pub robots_txt: Option<Arc<Robots>>,
    /// For a rendered audit, the served HTML against the rendered DOM (`audit` is then the
    /// audit of the rendered DOM; docs/API.md, "Rendered audits").
    pub rendering: Option<Rendering>,
}

/// Fetches `url` and its site's robots.txt concurrently and audits the page. The CPU-bound
/// part (parse, facts, rules) runs on the blocking pool so it never stalls the reactor, within
/// `limits` (see [`analyse`]).
///
/// `slot` is the audit slot the caller was admitted with: it moves into the analysis and is
/// given back when the analysis ends, not when the caller stops waiting, so the analyses
/// running at once never outnumber the slots. If the caller goes away (a client that hangs
/// up drops this future), the analysis is told to stop and ends within a few milliseconds.
pub async fn audit_url(
    fetcher: &Fetcher,
    url: &Url,
    slot: Option<OwnedSemaphorePermit>,
    limits: AnalysisLimits,
) -> Result<PageAudit, AppError> {
    audit_url_observed(fetcher, url, slot, limits, &crate::observe::NoObserver).await
}

/// [`audit_url`], telling `observer` how long the fetch and the analysis took (the time an
/// analysis waits for a core counts as analysis).
pub async fn audit_url_observed(
    fetcher: &Fetcher,
    url: &Url,
    slot: Option<OwnedSemaphorePermit>,
    limits: AnalysisLimits,
    observer: &dyn Observer,
) -> Result<PageAudit, AppError> {
    audit_page(fetcher, None, url, slot, limits, observer).await
}

/// [`audit_url_observed`], and with a place in a render pool (`renderer`) a rendered audit
/// (docs/API.md, "Rendered audits"): the served page and its robots.txt are fetched as
/// always, then the page (at its URL after redirects) is rendered; the analysis parses both
/// documents, audits the rendered DOM with the served response's HTTP facts and the
/// browser's final URL (after client-side navigation; relative links and canonicals resolve
/// against it), and compares the two ([`audit_core::rendering::compare`]). The render counts
/// as part of the fetch phase.
///
/// # Errors
/// What the fetch met, or what the render met ([`AppError::from`] a
/// [`render::RenderError`]).
pub async fn audit_page(
    fetcher: &Fetcher,
    renderer: Option<render::Reservation>,
    url: &Url,
    slot: Option<OwnedSemaphorePermit>,
    limits: AnalysisLimits,
    observer: &dyn Observer,
) -> Result<PageAudit, AppError> {
    let started = Instant::now();
    let fetched = fetch_with_robots(fetcher, url).await;
    let fetched = match (fetched, renderer) {
        (Ok((page, robots)), Some(renderer)) => match renderer.render(&page.final_url).await {
            Ok(rendered) => Ok((page, robots, Some(rendered))),
            Err(e) => Err(AppError::from(e)),
        },
        (Ok((page, robots)), None) => Ok((page, robots, None)),
        (Err(e), _) => Err(AppError::from(e)),
    };
    let fetched_at = Instant::now();
    observer.audit_phase(Phase::Fetch, fetched_at - started);
    let (page, robots, rendered) = fetched?;
    let requested = url.to_string();
    let (audit, robots, rendering) = analyse_blocking(slot, limits, move |budget| {
        let robots = site_robots_shared(robots);
        let http = http_facts(&requested, &page, robots.as_deref());
        let large = page.body.len() > crate::memory::LARGE_PAGE_BYTES;
        let analysed = match rendered {
            None => {
                (Homed::here(audit_core::audit(Page::parse_within(&requested, &page.body, http, budget))), robots, None)
            }
            Some(rendered) => {
                let served = Page::parse_within(&requested, &page.body, http.clone(), budget);
                let dom_http = rendered_http(http, &requested, &rendered.final_url);
                let dom = Page::parse_within(&requested, rendered.html.as_bytes(), dom_http, budget);
                let rendering = rendering::compare(&served, &dom, browser_facts(rendered));
                (Homed::here(audit_core::audit(dom)), robots, Some(rendering))
            }
        };
        if large {
            // A page of megabytes freed its body and document here, tens of megabytes the
            // allocator would keep for a while: given back as the crawl does after such a
            // page (docs/SCALING.md, "Large pages").
            drop(page);
            crate::memory::release();
        }
        analysed
    })
    .await?;
    observer.audit_phase(Phase::Analysis, fetched_at.elapsed());
    Ok(PageAudit { audit, robots_txt: robots, rendering })
}

/// The HTTP facts of a rendered DOM: the served response's, with the browser's final URL
/// (after client-side navigation, `history.pushState` included) as the page's final URL, so
/// its relative links and canonical resolve as the browser resolved them. A final URL that
/// is not http(s) (none should be) leaves the served one.
pub fn rendered_http(http: HttpFacts, requested: &str, rendered_final_url: &str) -> HttpFacts {
    match Url::parse(rendered_final_url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.as_str() != requested => {
            http.with_final_url(u.to_string())
        }
        _ => http,
    }
}

/// What the browser reported about a render, in the engine's terms.
fn browser_facts(rendered: render::Rendered) -> Browser {
    Browser {
        final_url: rendered.final_url,
        timed_out: rendered.timed_out,
        elapsed_ms: u64::try_from(rendered.elapsed.as_millis()).unwrap_or(u64::MAX),
        requests: rendered.requests,
        blocked: rendered.blocked.into_iter().map(|b| BlockedRequest { url: b.url, reason: b.reason }).collect(),
    }
}

/// Runs `analysis` on one of the analysis threads with the page budget of `limits`, holding
/// `slot` (if any) until it ends. Dropping the returned future (the caller went away) tells
/// the budget to stop, so the analysis ends within a few milliseconds and frees its slot; a
/// page still waiting for a thread then is never analysed. Every parse of a fetched page in
/// the service goes through here.
///
/// # Errors
/// The analysis panicked ([`AppError::Internal`]).
pub async fn analyse_blocking<T, F>(
    slot: Option<OwnedSemaphorePermit>,
    limits: AnalysisLimits,
    analysis: F,
) -> Result<T, AppError>
where
    T: Send + 'static,
    F: FnOnce(&dyn audit_core::Budget) -> T + Send + 'static,
{
    let cancel = CancelOnDrop::default();
    let cancelled = cancel.0.clone();
    let (done, answer) = tokio::sync::oneshot::channel();
    AnalysisPool::get().run(Box::new(move || {
        if cancelled.load(Ordering::Relaxed) {
            return;
        }
        let budget = CpuBudget::start(limits, &cancelled);
        let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| analysis(&budget)));
        // The slot goes back before the caller hears: given back after, a client that sent
        // its next audit as soon as it had the answer could find the slot still taken
        // (`overloaded` with one slot, seen under a loaded test run).
        drop(slot);
        match analysed {
            Ok(value) => drop(done.send(value)),
            Err(_) => tracing::error!("an analysis panicked"),
        }
    }));
    let result = answer.await.map_err(|_| AppError::internal("analysis task failed"));
    drop(cancel);
    result
}

/// An analysis waiting for a thread.
type Job = Box<dyn FnOnce() + Send>;

/// One thread per core, each taking the next waiting page as soon as it finishes one: at
/// most that many analyses run at once, each to its end, instead of every admitted audit's
/// parse sharing the cores in time slices (64 parses interleaved on 2 cores spent their time
/// in context switches and cache misses). The threads wait for work, not the work for a
/// thread: a semaphore in front of the runtime's blocking pool left a core idle between two
/// analyses while the next one was woken, handed to a runtime worker and then to a blocking
/// thread (about 13% of the machine under the load run; docs/PERFORMANCE.md, "The service:
/// audits per second over HTTP").
/// Fetching, storing and answering do not come here: they wait on the network and disk.
struct AnalysisPool {
    jobs: std::sync::mpsc::Sender<Job>,
}

impl AnalysisPool {
    fn get() -> &'static AnalysisPool {
        static POOL: std::sync::OnceLock<AnalysisPool> = std::sync::OnceLock::new();
        POOL.get_or_init(|| {
            let (jobs, waiting) = std::sync::mpsc::channel::<Job>();
            let waiting = Arc::new(std::sync::Mutex::new(waiting));
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            for n in 0..threads {
                let waiting = Arc::clone(&waiting);
                let spawned = std::thread::Builder::new().name(format!("analysis-{n}")).spawn(move || {
                    // What its audits are made of is freed here (crate::homed).
                    let home = crate::homed::Home::here();
                    loop {
                        home.go_idle();
                        // The lock is held only while waiting for the next page, never during one.
                        let next = waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv();
                        match next {
                            Ok(job) => {
                                home.start_work();
                                job();
                            }
                            Err(_) => return,
                        }
                    }
                });
                if let Err(e) = spawned {
                    tracing::error!(error = %e, "an analysis thread did not start");
                }
            }
            AnalysisPool { jobs }
        })
    }

    /// Queues `job` for the next free analysis thread. Should no thread have started, the
    /// job runs on a thread of its own rather than never.
    fn run(&self, job: Job) {
        if let Err(std::sync::mpsc::SendError(job)) = self.jobs.send(job) {
            drop(std::thread::spawn(job));
        }
    }
}

/// CPU time one page's analysis (parse, facts, rules) may take by default (the
/// `analysis_cpu_ms` setting).
pub const DEFAULT_ANALYSIS_CPU: Duration = Duration::from_secs(2);

/// How much one analysis may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisLimits {
    /// CPU time of the analysing thread for the whole analysis; `None`: no time limit (the
    /// parser's structural limits still hold).
    pub cpu: Option<Duration>,
}

impl AnalysisLimits {
    /// A CPU budget of `ms` milliseconds; 0 means none (the `analysis_cpu_ms` setting).
    pub fn cpu_ms(ms: u64) -> AnalysisLimits {
        AnalysisLimits { cpu: (ms > 0).then(|| Duration::from_millis(ms)) }
    }
}

/// Share of the CPU budget the parser may use; facts, rules and the result take the rest.
/// On the generated hostile pages the work after a cut parse grows with the tree the parser
/// left: a page of `<p><b id=…>` (every reopened `<b>` an element with an id, which the
/// structured-data walk and element locations both record) took 600 ms after a parse cut at
/// 70% on a loaded machine, past the budget; 60% leaves 800 ms (docs/SECURITY.md).
const PARSE_SHARE_PERCENT: u32 = 60;

/// Share of the CPU budget, counted from the start of the analysis, by which the work after
/// the parse (the walk over the tree that reads elements and records their locations, and the
/// structured-data reader) must have ended; facts, rules and the result take the rest. That
/// work grows with the tree the parser left, so it is checked every
/// [`audit_core::limits::WALK_CHECK_EVERY_NODES`] nodes rather than trusted to be small; a page
/// cut there is reported as the parse cut is (docs/API.md "Analysis limits").
const AFTER_PARSE_SHARE_PERCENT: u32 = 80;

/// Sets its flag when dropped: the analysis of a request that went away stops.
#[derive(Debug, Default)]
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The analysis budget of one page: the analysing thread's CPU time against a deadline, and
/// the caller's cancellation.
struct CpuBudget<'a> {
    /// When the parse must stop.
    deadline: Option<Duration>,
    /// When the work after the parse must stop.
    after_parse_deadline: Option<Duration>,
    cancelled: &'a AtomicBool,
    /// The thread's CPU time and the wall clock when the budget started.
    cpu_at_start: Duration,
    wall_at_start: std::time::Instant,
}

impl<'a> CpuBudget<'a> {
    /// A budget that starts now, on the calling thread.
    fn start(limits: AnalysisLimits, cancelled: &'a AtomicBool) -> CpuBudget<'a> {
        let now = thread_cpu_time();
        let share = |percent: u32| limits.cpu.map(|cpu| now + cpu * percent / 100);
        CpuBudget {
            deadline: share(PARSE_SHARE_PERCENT),
            after_parse_deadline: share(AFTER_PARSE_SHARE_PERCENT),
            cancelled,
            cpu_at_start: now,
            wall_at_start: std::time::Instant::now(),
        }
    }

    /// Whether the thread's CPU time has reached `deadline`. A thread uses at most one
    /// second of CPU a second, so its CPU time is at most its time at the start plus the wall
    /// clock since: while that bound is short of the deadline (nearly always: a page takes
    /// about a millisecond, the budget is seconds), the thread's own clock is not read. That
    /// clock is a system call (`CLOCK_THREAD_CPUTIME_ID` has no vDSO path), the wall clock is
    /// not, and the parse asks every 4 KB of input and every 512 tokens: 1.2% of a crawl's CPU
    /// went to reading it (docs/PERFORMANCE.md, "Site crawl").
    fn past(&self, deadline: Option<Duration>) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| self.cpu_at_start + self.wall_at_start.elapsed() >= d && thread_cpu_time() >= d)
    }
}

impl audit_core::Budget for CpuBudget<'_> {
    fn exhausted(&self) -> bool {
        self.past(self.deadline)
    }

    fn after_parse_exhausted(&self) -> bool {
        self.past(self.after_parse_deadline)
    }
}

/// CPU time the calling thread has used: unlike wall-clock time, it does not run while the
/// thread waits for a core, so a busy machine does not cut pages short.
pub fn thread_cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
    }
    #[cfg(not(unix))]
    {
        // No per-thread clock: wall-clock time since the first call, an upper bound of it.
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }
}

/// Parses and audits a page on the calling thread within `limits`: the parser stops when
/// [`PARSE_SHARE_PERCENT`] of the CPU budget is used or `cancelled` is set, the walk over the
/// parsed tree and the structured-data reader when [`AFTER_PARSE_SHARE_PERCENT`] is, and the
/// page is audited as far as it was read (the `html-too-complex` finding says so).
pub fn analyse(url: &str, html: &[u8], http: HttpFacts, limits: AnalysisLimits, cancelled: &AtomicBool) -> Audit {
    let budget = CpuBudget::start(limits, cancelled);
    audit_core::audit(Page::parse_within(url, html, http, &budget))
}

/// Fetches `url` and its site's robots.txt concurrently. A robots.txt governs only its own
/// scheme, host and port (RFC 9309 §2.3), so after a redirect to another origin the final
/// origin's file is fetched too (the fetcher caches it per origin) and decides. See
/// [`site_robots`] for what each answer means.
///
/// # Errors
/// The page could not be fetched.
pub async fn fetch_with_robots(fetcher: &Fetcher, url: &Url) -> Result<(FetchedPage, RobotsAnswer), fetch::Error> {
    let (page, robots) = tokio::join!(fetcher.fetch_page(url), fetcher.fetch_robots_txt(url));
    let page = page?;
    let robots =
        if page.final_url.origin() == url.origin() { robots } else { fetcher.fetch_robots_txt(&page.final_url).await };
    Ok((page, robots))
}

/// The answer to a robots.txt request, not yet read. Reading it is CPU work that grows with
/// the file (up to the fetcher's 500 KiB text limit: about 13 ms for a file of that size made
/// of one-line groups), so it is read by [`site_robots_shared`] on an analysis thread or by
/// [`site_robots_off_worker`], never on an async worker.
pub type RobotsAnswer = Result<Option<FetchedPage>, fetch::Error>;

/// [`site_robots_shared`] on the blocking pool, for a caller on an async worker that has no
/// analysis thread of its own to read it on (a monitor's check). A reader that failed is
/// taken as a file that could not be read: a complete disallow, the careful side.
pub async fn site_robots_off_worker(answer: RobotsAnswer) -> Option<Arc<Robots>> {
    tokio::task::spawn_blocking(move || site_robots_shared(answer))
        .await
        .unwrap_or_else(|_| Some(Arc::new(Robots::unreachable("robots.txt reader failed"))))
}

/// [`site_robots`] for an audit: a 2xx file's reading is shared with the other audits of its
/// site while the fetcher keeps its bytes (`robots_memo`: the fetcher caches the bytes, not
/// what they say, and github.com's 31 KB take 0.56 ms to read, about what the audit of a page
/// takes).
pub fn site_robots_shared(answer: RobotsAnswer) -> Option<Arc<Robots>> {
    match answer {
        Ok(Some(r)) if (200..300).contains(&r.status) => Some(crate::robots_memo::read(r.final_url.as_str(), &r.body)),
        other => site_robots(other).map(Arc::new),
    }
}

/// What the answer to a robots.txt request means (RFC 9309 §2.3.1): a 2xx body is parsed;
/// a server error (5xx) or no answer at all (DNS, connection or TLS failure, timeout) is
/// [`Robots::unreachable`], a complete disallow; anything else (4xx, redirects past the
/// limit, a file over the size limit, an address the guard refuses) is `None`: no
/// robots.txt, everything allowed.
pub fn site_robots(answer: RobotsAnswer) -> Option<Robots> {
    match answer {
        Ok(Some(r)) if (200..300).contains(&r.status) => Some(Robots::parse(&r.body)),
        Ok(Some(r)) if r.status >= 500 => Some(Robots::unreachable(format!("HTTP {}", r.status))),
        Ok(_) => None,
        Err(e) if e.is_no_answer() => Some(Robots::unreachable(e.code())),
        Err(_) => None,
    }
}

/// Audits HTML that is already at hand (a local file, or a page fetched elsewhere), on the
/// calling thread, within `limits`.
pub fn audit_html(url: &str, html: &[u8], http: HttpFacts, limits: AnalysisLimits) -> Audit {
    analyse(url, html, http, limits, &AtomicBool::new(false))
}

/// What the HTTP exchange tells the rules.
pub fn http_facts(requested: &str, page: &FetchedPage, robots: Option<&Robots>) -> HttpFacts {
    let final_url = page.final_url.to_string();
    let mut http = HttpFacts::new()
        .with_status(page.status)
        .with_redirects(page.redirect_chain.iter().map(|h| h.url.to_string()))
        .with_ttfb_ms(page.ttfb_ms)
        .with_load_time_ms(page.total_ms);
    if final_url != requested {
        http = http.with_final_url(final_url.clone());
    }
    if let Some(r) = robots {
        let v = r.verdict(SEARCH_CRAWLER, &final_url);
        let mut fact =
            RobotsTxtFact::new(v.allowed, v.matched_rule).with_problems(r.shared_problems(), r.problems_total());
        if r.unreachable_reason().is_some() {
            fact = fact.unread();
        }
        http = http.with_robots_txt(fact);
    }
    // The fetcher's headers as they are (names lower-case already, order kept).
    http.headers = page.headers.clone();
    http
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::Budget as _;

    #[test]
    fn the_work_after_the_parse_has_a_share_of_its_own() {
        let cancelled = AtomicBool::new(false);
        // A budget whose parse share is spent and whose after-parse share is not: the parse
        // stops, the walk goes on.
        let now = thread_cpu_time();
        let budget = CpuBudget {
            deadline: Some(now),
            after_parse_deadline: Some(now + Duration::from_secs(3600)),
            cancelled: &cancelled,
            cpu_at_start: now,
            wall_at_start: std::time::Instant::now(),
        };
        assert!(budget.exhausted());
        assert!(!budget.after_parse_exhausted());
        // Both shares are counted from the start, the later one last.
        let started = CpuBudget::start(AnalysisLimits::cpu_ms(2_000), &cancelled);
        let (parse, after) = (started.deadline.unwrap(), started.after_parse_deadline.unwrap());
        assert_eq!(
            after - parse,
            Duration::from_millis(2_000 * u64::from(AFTER_PARSE_SHARE_PERCENT - PARSE_SHARE_PERCENT) / 100)
        );
        // A caller that went away stops both.
        cancelled.store(true, Ordering::Relaxed);
        assert!(budget.after_parse_exhausted());
        // No CPU limit: only cancellation stops the work.
        let unlimited = CpuBudget::start(AnalysisLimits::cpu_ms(0), &cancelled);
        assert_eq!((unlimited.deadline, unlimited.after_parse_deadline), (None, None));
    }

    /// The budget counts the thread's CPU time, not the wall clock: a thread that waits
    /// (here, sleeps) past the deadline's wall time has not spent its budget, one that
    /// computes past it has. The wall clock only spares reading the thread's clock while
    /// the deadline cannot have been reached.
    #[test]
    fn the_budget_is_the_threads_cpu_time_read_only_when_it_may_be_spent() {
        let cancelled = AtomicBool::new(false);
        let budget = CpuBudget::start(AnalysisLimits::cpu_ms(100), &cancelled);
        assert!(!budget.exhausted(), "nothing spent yet");
        std::thread::sleep(Duration::from_millis(150));
        assert!(!budget.exhausted(), "waiting spends no CPU");
        let spin = std::time::Instant::now();
        let mut x = 0u64;
        while !budget.exhausted() {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            assert!(spin.elapsed() < Duration::from_secs(30), "the budget never ran out");
        }
        // Spent by computing: at least the parse's share of the 100 ms.
        let spent = thread_cpu_time() - budget.cpu_at_start;
        assert!(spent >= Duration::from_millis(u64::from(PARSE_SHARE_PERCENT)), "{spent:?}");
    }

    #[test]
    fn a_rendered_dom_resolves_links_against_the_browsers_address() {
        const SERVED: &str = "https://shop.example/app.html";
        let dom = br#"<html><head><title>t</title><link rel="canonical" href="./"></head>
            <body><a href="large.html">large</a></body></html>"#;
        let http = rendered_http(HttpFacts::new().with_status(200), SERVED, "https://shop.example/kettles/");
        let page = Page::parse(SERVED, dom, http);
        assert_eq!(page.final_url, "https://shop.example/kettles/");
        assert_eq!(page.canonical(), "https://shop.example/kettles/");
        assert_eq!(page.links[0].url.as_deref(), Some("https://shop.example/kettles/large.html"));
        // The same address, or one that is not http(s), leaves the served facts.
        for same in [SERVED, "about:blank", "not a url"] {
            let http = rendered_http(HttpFacts::new().with_status(200), SERVED, same);
            assert_eq!(http.final_url, None, "{same}");
        }
    }
}
