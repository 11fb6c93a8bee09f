//! The one comparison of two audits. Regression detection (`detect_regressions`),
//! competitor comparison (`compare_competitors`), the workflow's compare step and the
//! monitor's alert rules all read their differences from [`Comparison`], whether the audits
//! are fresh or stored: a rule "fails" on a page when the result recommends fixing it, and
//! "passes" when its check says `pass` (not applicable is neither).

use std::collections::BTreeSet;

use audit_core::{AuditResult, CheckStatus};

/// What differs between audit `a` (the baseline, or the site) and audit `b` (the current
/// page, or the competitor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Score percentage of `a` and of `b`.
    pub scores: (u32, u32),
    /// Rules that fail on `b` and did not fail on `a` (passed or did not apply), in rule
    /// id order.
    pub failing_only_in_b: Vec<String>,
    /// Rules that failed on `a` and pass on `b`, in rule id order.
    pub fixed_in_b: Vec<String>,
    /// Rules that fail on `a` and not on `b` (pass or do not apply), in rule id order.
    pub failing_only_in_a: Vec<String>,
}

impl Comparison {
    /// Compares two results by rule id (not by position: stored results of other ruleset
    /// versions line up too).
    pub fn of(a: &AuditResult, b: &AuditResult) -> Comparison {
        let (fa, fb) = (failing(a), failing(b));
        let pb = passing(b);
        Comparison {
            scores: (a.score.percentage, b.score.percentage),
            failing_only_in_b: fb.difference(&fa).map(|s| s.to_string()).collect(),
            fixed_in_b: fa.intersection(&pb).map(|s| s.to_string()).collect(),
            failing_only_in_a: fa.difference(&fb).map(|s| s.to_string()).collect(),
        }
    }

    /// `b`'s score minus `a`'s.
    pub fn score_delta(&self) -> i64 {
        i64::from(self.scores.1) - i64::from(self.scores.0)
    }

    /// Whether `b` is worse than `a`: a rule newly failing, or a lower score.
    pub fn regressed(&self) -> bool {
        !self.failing_only_in_b.is_empty() || self.scores.1 < self.scores.0
    }
}

/// Ids of the rules a result recommends fixing.
fn failing(r: &AuditResult) -> BTreeSet<&str> {
    r.recommendations.iter().map(|x| x.id.as_str()).filter(|id| !id.is_empty()).collect()
}

/// Ids of the rules whose check passed.
fn passing(r: &AuditResult) -> BTreeSet<&str> {
    r.checks.iter().filter(|c| c.status == CheckStatus::Pass).map(|c| c.id.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::rules::content::TitleMissing;
    use audit_core::Rule;

    fn audit(html: &str, status: u16) -> AuditResult {
        let http = audit_core::HttpFacts::new().with_status(status);
        audit_core::audit(audit_core::Page::parse("https://e.example/", html.as_bytes(), http))
            .to_result("2026-01-01T00:00:00.000Z")
    }

    #[test]
    fn a_lost_title_is_a_regression_and_finding_it_again_a_fix() {
        let good = audit("<html lang=en><title>Handmade oak tables and chairs</title><h1>Oak</h1></html>", 200);
        let bad = audit("<html lang=en><h1>Oak</h1></html>", 200);
        let c = Comparison::of(&good, &bad);
        assert!(c.failing_only_in_b.contains(&TitleMissing.meta().id.to_string()));
        assert!(c.regressed());
        assert!(c.score_delta() < 0);
        let back = Comparison::of(&bad, &good);
        assert!(back.fixed_in_b.contains(&TitleMissing.meta().id.to_string()));
        assert_eq!(back.failing_only_in_a, c.failing_only_in_b);
        assert!(!back.regressed());
    }

    #[test]
    fn the_same_page_has_no_differences() {
        let a = audit("<title>Oak</title>", 200);
        let c = Comparison::of(&a, &a);
        assert!(c.failing_only_in_b.is_empty() && c.fixed_in_b.is_empty() && c.failing_only_in_a.is_empty());
        assert_eq!(c.score_delta(), 0);
    }
}
