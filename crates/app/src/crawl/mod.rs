//! Site crawls (docs/API.md, "Site crawl"): the runner that drives the crawl engine with
//! the fetcher and the audit pipeline.

pub mod pacer;
pub mod runner;
mod stored_crawl;

pub use pacer::HostPacer;
pub use runner::{
    blocking_threads, check_start, failed_rules, run, CrawlEnd, CrawlOptions, CrawlSink, CrawlSummary, Crawled,
    ExternalChecks, MemorySink, Progress, ProgressFn, DEFAULT_TIME_LIMIT, SLOT_PATIENCE,
};
pub use stored_crawl::{
    failed_rule_rows, judge, keep_site_findings_within, site_finding_budget, Judged, StoreSink, ISSUE_ROW_BYTES,
    SITE_FINDING_BYTES_PER_PAGE,
};

pub mod change;
pub mod compare;
pub mod export;
pub mod list;
mod local;
pub mod request;
pub mod schedules;
mod service;
pub mod share;
pub mod start_page;
pub mod summary;
pub mod table;
pub mod views;
mod wire;

pub use local::{run_local, LocalCrawl, LocalCrawlError, LocalRun};
pub use request::{
    argument_refusal, check_extractors, check_list, check_named_sitemaps, check_patterns, check_strip_params,
    extractor_specs, from_tool, parse_start, pattern_refusal, site_header_refusal, site_headers, CrawlRequest,
    MAX_NAMED_SITEMAPS,
};
pub use schedules::{parse_schedule, Schedules};
pub use service::{
    external_budget, issue_summary, parse_limit, tier_max_pages, Crawls, Export, IssuePage, MaxPages, Started,
    ANONYMOUS_MAX_PAGES, DEFAULT_EXTERNAL_BUDGET, DEFAULT_MAX_RUNNING, DEFAULT_MAX_RUNNING_PER_CALLER,
    DEFAULT_PAGE_LIMIT, FREE_MAX_PAGES, MAX_PAGE_LIMIT, PRO_MAX_PAGES, QUEUED_URLS_PER_PAGE, SITEMAP_URLS_PER_PAGE,
};
pub use start_page::{StartPage, StartPages};

/// The stored crawl records the use cases answer with.
pub mod stored {
    pub use store::{Crawl, CrawlIssue, CrawlPage, CrawlProgress, CrawlSchedule, CrawlState, IssueCount, IssueKind};
}
