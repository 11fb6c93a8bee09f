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

/// The worker named on a local crawl's lease and page claims.
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
/// score) and ends it in the store, which counts each page's inlinks. The crawl is
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
    let created = store.create_crawl(new, WORKER, until).map_err(LocalCrawlError::Create)?;
    store.start_crawl(&created.id).map_err(LocalCrawlError::Create)?;
    let cancel = Arc::clone(&options.cancel);
    let stopper = tokio::spawn(async move {
        stop.await;
        cancel.store(true, Ordering::Relaxed);
    });
    // The process is the crawl's only worker: its frontier keeps the counts in memory.
    let frontier = store.driving_crawl(&created.id, WORKER);
    let sink = StoreSink { writer: frontier.writer(), on_progress };
    let crawled = runner::run(fetcher, frontier, scope, limits, sink, options).await;
    stopper.abort();
    let summary = crawled.map_err(LocalCrawlError::Run)?.summary;
    let judged = judge(store, &created.id, &summary).map_err(LocalCrawlError::ReadBack)?;
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
    store.finish_crawl(&created.id, WORKER, &end).map_err(LocalCrawlError::ReadBack)?;
    Ok(LocalRun { crawl_id: created.id, summary, judged })
}
