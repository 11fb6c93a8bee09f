//! A stored crawl as the wire shows it: conversions that depend on nothing but the store's
//! rows and the crawl's summary, so that the views, the exports and the crawl service can
//! each use them without depending on one another.

use super::summary::StoredSummary;

/// What names a custom extractor's column in the pages export and member in the pages
/// listing (docs/API.md, "Custom extraction"): `extract:<name>`.
pub const EXTRACT_COLUMN_PREFIX: &str = "extract:";

/// The wire name of an issue's kind: `site` or `page`.
pub fn kind_name(k: store::IssueKind) -> &'static str {
    match k {
        store::IssueKind::Site => "site",
        store::IssueKind::Page => "page",
    }
}

/// A stored crawl on the wire, with its issue summary.
pub fn wire_crawl(crawl: &store::Crawl, issues: &[store::IssueCount]) -> api::crawls::Crawl {
    let p = crawl.progress;
    api::crawls::Crawl {
        id: crawl.id.clone(),
        url: crawl.url.clone(),
        state: crawl.state.as_str().to_string(),
        max_pages: crawl.max_pages,
        max_pages_cut: None,
        progress: api::crawls::CrawlProgress {
            pages_done: p.pages_done,
            pages_queued: p.pages_queued,
            pages_failed: p.pages_failed,
            pages_skipped: p.pages_skipped,
        },
        created_at: crawl.created_at,
        started_at: crawl.started_at,
        finished_at: crawl.finished_at,
        site_score: crawl.site_score,
        error: crawl.error.clone(),
        time_limited: time_limited(crawl),
        error_pauses: error_pauses(crawl),
        paused: paused(crawl),
        stopped_for_errors: StoredSummary::of(crawl).and_then(|s| s.stopped_for_errors),
        links_not_queued: StoredSummary::of(crawl).map_or(0, |s| s.links_not_queued),
        links_to_unrecorded_urls: StoredSummary::of(crawl).map_or(0, |s| s.links_to_unrecorded_urls),
        external_links: StoredSummary::of(crawl).and_then(|s| s.external_links).map(|e| api::crawls::ExternalLinks {
            budget: e.budget,
            checked: e.checked,
            broken: e.broken_count,
            not_checked_budget: e.not_checked_budget,
            not_checked_refused: e.not_checked_refused,
            not_checked_timed_out: e.not_checked_timed_out,
            not_checked_stopped: e.not_checked_stopped,
            not_checked_unreachable: e.not_checked_unreachable,
        }),
        list_mode: list_mode(&crawl.options_json),
        site_rules_skipped: StoredSummary::of(crawl).map(|s| s.site_rules_skipped).unwrap_or_default(),
        pages_pruned_at: crawl.pages_pruned_at,
        issues: issues
            .iter()
            .map(|c| api::crawls::CrawlIssueCount {
                id: c.rule_id.clone(),
                kind: kind_name(c.kind).to_string(),
                severity: c.severity.clone(),
                count: c.count,
            })
            .collect(),
        report_url: format!("/crawls/{}", crawl.id),
        pages_url: format!("/api/v1/crawls/{}/pages", crawl.id),
    }
}

/// The names of the extractors of a crawl whose stored options are `options_json`
/// (`store::Crawl::options_json`: its request's `extract`), in order; none for a crawl
/// without extractors.
pub fn extractor_names(options_json: &str) -> Vec<String> {
    serde_json::from_str::<serde_json::Value>(options_json)
        .ok()
        .and_then(|o| {
            o["request"]["extract"]
                .as_array()
                .map(|all| all.iter().filter_map(|e| e["name"].as_str().map(str::to_string)).collect())
        })
        .unwrap_or_default()
}

/// Whether a crawl's stored options (`store::Crawl::options_json`) ask for a list-mode crawl:
/// a request with `urls` (docs/RULES.md, "List mode").
pub fn list_mode(options_json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(options_json)
        .ok()
        .and_then(|o| o["request"]["urls"].as_array().map(|urls| !urls.is_empty()))
        .unwrap_or(false)
}

/// Whether the time limit ended `crawl`, as its summary records it (`false` while it runs).
pub fn time_limited(crawl: &store::Crawl) -> bool {
    StoredSummary::of(crawl).is_some_and(|s| s.time_limited)
}

/// The pauses for errors `crawl` took: counted on its row as they happen (every run
/// together), or as its summary recorded them at its end for a crawl ended before the row
/// counted them.
pub fn error_pauses(crawl: &store::Crawl) -> u32 {
    StoredSummary::of(crawl).map_or(0, |s| s.error_pauses).max(crawl.error_pauses)
}

/// The pause for errors under way of `crawl`, as its row keeps it; `None` unless it is
/// `running` (a crawl ended during a pause is no longer paused).
pub fn paused(crawl: &store::Crawl) -> Option<api::crawls::CrawlPause> {
    let pause = crawl.pause.as_ref().filter(|_| crawl.state == store::CrawlState::Running)?;
    Some(api::crawls::CrawlPause {
        reason: pause.reason.clone(),
        since: pause.paused_at,
        resumes_at: pause.resumes_at,
        pauses: crawl.error_pauses,
        max_pauses: super::runner::MAX_ERROR_PAUSES,
    })
}
