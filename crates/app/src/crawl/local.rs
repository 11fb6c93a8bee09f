//! A crawl run in this process to its end, into a store of the caller's: the command line's
//! `seo-audit crawl` (docs/API.md, "Command line"). It is written to the store as the
//! service's crawls are (the frontier, the pages and their links as they come), judged
//! over the store (the site rules read it a batch of rows at a time) and ended there, so
//! what it holds in memory does not grow with the pages (docs/PERFORMANCE.md, "Site
//! crawl"). The service's crawls run under a lease in the background ([`super::Crawls`]);
//! this one is the process's own for as long as it runs, with no lease to renew and no
//! tier cap.

use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crawl::{Limits, Scope};
use fetch::Fetcher;

use super::runner::{self, CrawlOptions, CrawlSummary, ProgressFn};
use super::stored_crawl::{judge, Judged, StoreSink};
use crate::AppError;

/// The worker named on a local crawl's lease and page claims, followed by a name of the run
/// alone (`command-line/UUID`): a run that resumes a crawl a killed run left in its store
/// puts back in the queue the pages that run was fetching, as claims of another worker.
const WORKER: &str = "command-line";

/// A local crawl as asked for: its start URL as [`super::check_start`] checked it, its
/// scope, the engine's limits and the runner's options (with the start page that check
/// fetched, [`CrawlOptions::start_page`], so that the crawl does not fetch it again).
pub struct LocalCrawl {
    /// The start URL, checked.
    pub start: url::Url,
    /// Where the crawl may go (its `max_pages` is the crawl's).
    pub scope: Scope,
    /// The engine's limits.
    pub limits: Limits,
    /// The runner's options; their `cancel` flag is set when the crawl's stop signal
    /// comes (see [`run_local`]).
    pub options: CrawlOptions,
    /// Told each progress report.
    pub on_progress: Option<ProgressFn>,
}

/// A local crawl ended: its id in the store (what its report is read from), the runner's
/// summary and the judgement of the whole crawl.
#[derive(Debug)]
pub struct LocalRun {
    /// The crawl's id in the store.
    pub crawl_id: vocab::CrawlId,
    /// How it went.
    pub summary: CrawlSummary,
    /// The site rules' results and the site score.
    pub judged: Judged,
}

/// Why a local crawl did not run to its end.
#[derive(Debug)]
pub enum LocalCrawlError {
    /// The crawl could not be created in the store.
    Create(store::Error),
    /// The runner stopped (the store or the sink failed, or a task of the runner
    /// panicked).
    Run(AppError),
    /// The crawl ran, but could not be judged or ended over the store.
    ReadBack(store::Error),
}

/// Runs a crawl of `crawl.start` into `store` to its end: creates it (running, under a
/// lease this process holds for as long as it runs), drives it, judges it (site rules, site
/// score) and ends it in the store, which counts each page's inlinks. When the store holds
/// a crawl of the same start URL that a run before this one left running (the command
/// line's `--store FILE`, the process killed), that crawl is resumed instead, from its
/// frontier: its pages done are kept and not fetched again, those it was fetching are
/// fetched again (docs/API.md, "Command line"). The crawl is
/// cancelled when `stop` resolves (the command line gives it the shutdown signal, SIGINT or
/// SIGTERM): no fetch starts after it, and the pages done are judged and kept, as when the
/// service cancels a crawl; the end is then `cancelled`.
///
/// # Errors
/// [`LocalCrawlError`]: a crawl that ends `failed` (its start page did not answer) is not
/// an error, its summary says so.
pub async fn run_local(
    fetcher: &Fetcher,
    store: &store::Store,
    crawl: LocalCrawl,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<LocalRun, LocalCrawlError> {
    let LocalCrawl { start, scope, limits, options, on_progress } = crawl;
    let max_pages = scope.config().max_pages;
    // The extractors' names are kept as the service keeps a crawl's request, so that the
    // exports read their columns alike (`super::export::extractor_names`).
    let names = options.extractors.as_ref().map(|x| x.names()).unwrap_or_default();
    let extract: Vec<serde_json::Value> = names.iter().map(|name| serde_json::json!({ "name": name })).collect();
    let options_json = serde_json::json!({ "request": { "extract": extract } }).to_string();
    let new = store::NewCrawl { user_id: None, url: start.to_string(), options_json, max_pages };
    // The lease is this process's for as long as it runs.
    let until = time::OffsetDateTime::now_utc() + time::Duration::days(365);
    let worker = format!("{WORKER}/{}", uuid::Uuid::new_v4());
    let crawl_id: vocab::CrawlId = match resumable(store, &start, &worker, until).map_err(LocalCrawlError::Create)? {
        Some(id) => id.into(),
        None => {
            let created = store.create_crawl(new, &worker, until).map_err(LocalCrawlError::Create)?;
            store.start_crawl(&created.id).map_err(LocalCrawlError::Create)?;
            created.id
        }
    };
    let cancel = Arc::clone(&options.cancel);
    let stopper = tokio::spawn(async move {
        stop.await;
        cancel.store(true, Ordering::Relaxed);
    });
    // The process is the crawl's only worker: its frontier keeps the counts in memory.
    let frontier = store.driving_crawl(&crawl_id, &worker);
    let sink = StoreSink { writer: frontier.writer(), on_progress };
    let crawled = runner::run(fetcher, frontier, scope, limits, sink, options).await;
    stopper.abort();
    let summary = crawled.map_err(LocalCrawlError::Run)?.summary;
    let judged = judge(store, &crawl_id, &summary).map_err(LocalCrawlError::ReadBack)?;
    // The report says how the crawl ended (from the summary); the store's record of it is
    // only read back for that report, so it is ended as the command line always ended it.
    let end = store::CrawlEnd {
        state: store::CrawlState::Completed,
        site_score: judged.score.as_ref().map(|s| s.score),
        summary_json: None,
        error: None,
        site_issues: judged.site_issues(),
        event: None,
    };
    store.finish_crawl(&crawl_id, &worker, &end).map_err(LocalCrawlError::ReadBack)?;
    Ok(LocalRun { crawl_id, summary, judged })
}

/// The crawl of `start` a run of the command line left `running` in `store` (it was
/// killed before its end), taken over by `worker` until `until`: `None` when there is none.
/// Taking it counts a resume (after [`store::CRAWL_MAX_RESUMES`] the crawl is `failed`
/// instead, as the service's are). Crawls of other start URLs left there are let go again,
/// for a run of theirs to resume. A store is one command's at a time: a second command
/// running on the same file would take over the first's crawl.
fn resumable(
    store: &store::Store,
    start: &url::Url,
    worker: &str,
    until: time::OffsetDateTime,
) -> Result<Option<String>, store::Error> {
    let mut found = None;
    for id in store.adopt_crawls(worker, None, until)? {
        if found.is_none() && store.get_crawl(&id)?.url == start.as_str() {
            found = Some(id);
        } else {
            store.release_crawl(&id, worker)?;
        }
    }
    Ok(found)
}
