//! [`Observer`]: what the application tells whoever watches it run (the service's Prometheus
//! metrics, docs/ARCHITECTURE.md "Metrics"). The application knows no metrics library: it
//! calls these methods at the points worth counting, and the default, [`NoObserver`], does
//! nothing. Every method is called on the path it measures, so an implementation must be
//! cheap (an atomic add, a histogram sample) and never block.

use std::time::Duration;

/// A phase of one audit (the one audit path, module `audit`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Phase {
    /// The page and its robots.txt fetched.
    Fetch,
    /// Parse, page facts and rules (on the blocking pool, within the page's budget).
    Analysis,
    /// The result stored (the audit writer's group commit).
    Store,
}

impl Phase {
    /// Every phase, in the order an audit passes them.
    pub const ALL: &'static [Phase] = <Phase as strum::VariantArray>::VARIANTS;

    /// The phase's name as a metric label.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How an audit that got a slot ended: `ok`, `budget_exhausted` (audited as far as the
/// analysis budget let it parse), `too_many_nodes` (the parser's structural limit),
/// `analysis_stopped` (another parser limit), or the
/// error code it failed with (`blocked_target`, `not_html`, `target_timeout`, ...; a bounded
/// set of `&'static str`, never a URL).
pub type Outcome = &'static str;

/// Outcomes other than an error code.
pub const AUDIT_OUTCOMES: [Outcome; 4] = ["ok", "budget_exhausted", "too_many_nodes", "analysis_stopped"];

/// Every outcome of a webhook delivery attempt ([`Observer::webhook_attempt`]).
pub const WEBHOOK_OUTCOMES: [&str; 6] = ["delivered", "retry", "failed", "superseded", "gone", "unrecorded"];

/// Receives the application's events worth counting. Every method defaults to nothing.
pub trait Observer: std::fmt::Debug + Send + Sync {
    /// One phase of an audit took `took`.
    fn audit_phase(&self, _phase: Phase, _took: Duration) {}
    /// An audit that had a slot ended with `outcome`.
    fn audit_done(&self, _outcome: Outcome) {}
    /// A store call ([`crate::App::db`]) took `took`, waiting for the blocking pool included.
    fn db_call(&self, _took: Duration) {}
    /// A webhook delivery attempt ended: `delivered`, `retry` (failed, tried again later),
    /// `failed` (given up), `superseded` (another worker took the row over), `gone` (its
    /// subscription was deleted meanwhile) or `unrecorded` (its outcome could not be written).
    fn webhook_attempt(&self, _outcome: &'static str) {}
    /// A monitor check ran (an audit of a monitored page, whatever its result).
    fn monitor_run(&self) {}
    /// A workflow step ran (whatever its result).
    fn workflow_step(&self) {}
    /// A crawl fetched a URL, with one of [`CRAWL_PAGE_OUTCOMES`].
    fn crawl_page(&self, _outcome: &'static str) {}
    /// This process started (`+1`) or stopped (`-1`) driving a crawl.
    fn crawl_running(&self, _delta: i64) {}
    /// The rate limiter refused a request of an identity of this tier (`anonymous`, `free`
    /// or `pro`).
    fn rate_limited(&self, _tier: &'static str) {}
}

/// What a crawl's fetch of one URL gave: `audited` (an HTML page that answered 2xx, audited
/// by the page rules), `redirected` (3xx), `error_status` (4xx or 5xx), `not_html` (2xx but
/// no HTML) or `failed` (no answer: unreachable, blocked by the address guard, timed out).
pub const CRAWL_PAGE_OUTCOMES: &[&str] = &["audited", "redirected", "error_status", "not_html", "failed"];

/// The [`CRAWL_PAGE_OUTCOMES`] entry of a crawled URL.
pub fn crawl_page_outcome(page: &crawl::CrawledPage, audited: bool) -> &'static str {
    match page.status {
        None => "failed",
        Some(300..=399) => "redirected",
        Some(400..) => "error_status",
        Some(_) if audited => "audited",
        Some(_) => "not_html",
    }
}

/// The observer that counts nothing (metrics off).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// The outcome of an audit whose analysis ran: how far its parse went.
pub fn analysed_outcome(audit: &audit_core::Audit) -> Outcome {
    match audit.page.analysis.stopped {
        None => "ok",
        // The CPU budget ran out, in the parse or in the work after it.
        Some(audit_core::Stop::Budget | audit_core::Stop::AfterParse) => "budget_exhausted",
        Some(audit_core::Stop::Nodes) => "too_many_nodes",
        // A limit added to the parser later.
        Some(_) => "analysis_stopped",
    }
}

#[cfg(test)]
mod name_tests {
    use super::Phase;

    #[test]
    fn phases_round_trip_by_their_labels() {
        let names: Vec<&str> = Phase::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(names, ["fetch", "analysis", "store"]);
        for &p in Phase::ALL {
            assert_eq!(p.as_str().parse::<Phase>().ok(), Some(p));
        }
    }
}
