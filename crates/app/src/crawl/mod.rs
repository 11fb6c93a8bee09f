//! Site crawls (docs/API.md, "Site crawl"): the runner that drives the crawl engine with
//! the fetcher and the audit pipeline.

pub mod runner;

pub use runner::{
    blocking_threads, check_start, failed_rules, run, CrawlEnd, CrawlOptions, CrawlSink, CrawlSummary, Crawled,
    MemorySink, Progress, DEFAULT_TIME_LIMIT, SLOT_PATIENCE,
};
