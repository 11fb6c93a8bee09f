//! The site score (docs/RULES.md, "Site score").

use audit_core::Severity;
use serde::Serialize;

use crate::rules::{SiteRuleResult, SiteTotals};

/// The most a failing site rule costs, by severity.
pub const SEVERITY_PENALTY: [(Severity, f64); 3] =
    [(Severity::Critical, 15.0), (Severity::Warning, 8.0), (Severity::Notice, 3.0)];

/// The share of its penalty a failing rule costs however few URLs it affects.
pub const MIN_PENALTY_SHARE: f64 = 0.25;

/// A site score and how it was reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteScore {
    /// 0-100.
    pub score: u32,
    /// The mean of the page scores.
    pub mean_page_score: f64,
    /// The sum of the penalties.
    pub penalty: f64,
    /// Each failing rule's penalty, in table order.
    pub penalties: Vec<(&'static str, f64)>,
}

fn severity_penalty(severity: Severity) -> f64 {
    SEVERITY_PENALTY.iter().find(|(s, _)| *s == severity).map_or(0.0, |(_, p)| *p)
}

/// The site score: the mean of the page scores (the HTML pages audited) less a penalty for
/// each failing site rule, rounded and kept within 0-100. A rule's penalty is its
/// severity's [`SEVERITY_PENALTY`] times `0.25 + 0.75 × min(1, affected / crawled)`, where
/// `affected` counts the distinct URLs of its findings and `crawled` the URLs the crawl
/// fetched. `None` when no page was audited.
pub fn site_score(
    page_scores: impl IntoIterator<Item = u32>,
    crawled: usize,
    results: &[SiteRuleResult],
) -> Option<SiteScore> {
    let (sum, n) = page_scores.into_iter().fold((0u64, 0u64), |(s, n), v| (s + u64::from(v.min(100)), n + 1));
    let totals = SiteTotals { crawled: crawled as u64, scored: n, score_sum: sum, answered: false };
    site_score_of(&totals, results)
}

/// [`site_score`] from a site's totals ([`CrawledSite::totals`](crate::CrawledSite::totals)).
pub fn site_score_of(totals: &SiteTotals, results: &[SiteRuleResult]) -> Option<SiteScore> {
    let (sum, n, crawled) = (totals.score_sum, totals.scored, totals.crawled);
    if n == 0 {
        return None;
    }
    let mean = sum as f64 / n as f64;
    let crawled = crawled.max(1) as f64;
    let penalties: Vec<(&'static str, f64)> = results
        .iter()
        .filter(|r| !r.findings.is_empty())
        .map(|r| {
            let share = (r.affected() as f64 / crawled).min(1.0);
            (r.id, severity_penalty(r.severity) * (MIN_PENALTY_SHARE + (1.0 - MIN_PENALTY_SHARE) * share))
        })
        .collect();
    let penalty: f64 = penalties.iter().map(|(_, p)| p).sum();
    let score = (mean - penalty).round().clamp(0.0, 100.0) as u32;
    Some(SiteScore { score, mean_page_score: mean, penalty, penalties })
}

/// The worked example of docs/RULES.md: 40 URLs crawled, 38 pages audited with a mean
/// score of 82.5; broken internal links to 2 URLs, 6 pages sharing titles, 10 deep pages.
pub(crate) fn worked_example() -> (Vec<u32>, usize, Vec<SiteRuleResult>) {
    use crate::rules::{broken_internal_link, deep_page, duplicate_title, orphan_page, SiteFinding, SiteRule};
    let findings = |n: usize| {
        (0..n)
            .map(|i| SiteFinding { url: format!("https://example.com/{i}"), linked_from: None, detail: String::new() })
            .collect()
    };
    let scores: Vec<u32> = (0..38).map(|i| if i % 2 == 0 { 80 } else { 85 }).collect();
    let results = vec![
        SiteRuleResult::of(broken_internal_link::BrokenInternalLink.meta().id, Severity::Critical, findings(2)),
        SiteRuleResult::of(duplicate_title::DuplicateTitle.meta().id, Severity::Warning, findings(6)),
        SiteRuleResult::of(deep_page::DeepPage.meta().id, Severity::Notice, findings(10)),
        SiteRuleResult::of(orphan_page::OrphanPage.meta().id, Severity::Warning, Vec::new()),
    ];
    (scores, 40, results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::SiteFinding;

    fn result(severity: Severity, urls: &[&str]) -> SiteRuleResult {
        let findings =
            urls.iter().map(|u| SiteFinding { url: u.to_string(), linked_from: None, detail: String::new() }).collect();
        SiteRuleResult::of("r", severity, findings)
    }

    #[test]
    fn the_worked_example() {
        let (scores, crawled, results) = worked_example();
        let s = site_score(scores, crawled, &results).unwrap();
        assert_eq!(s.mean_page_score, 82.5);
        assert_eq!(s.penalties.len(), 3);
        assert!((s.penalties[0].1 - 4.3125).abs() < 1e-9);
        assert!((s.penalties[1].1 - 2.9).abs() < 1e-9);
        assert!((s.penalties[2].1 - 1.3125).abs() < 1e-9);
        assert!((s.penalty - 8.525).abs() < 1e-9);
        assert_eq!(s.score, 74);
    }

    #[test]
    fn table() {
        // No page audited: no score.
        assert_eq!(site_score([], 3, &[]), None);
        // No site rule fails: the mean, rounded.
        assert_eq!(site_score([90, 91], 2, &[]).unwrap().score, 91);
        // One critical finding on one of 10 URLs: 15 × (0.25 + 0.075) = 4.875.
        assert_eq!(site_score([100; 10], 10, &[result(Severity::Critical, &["a"])]).unwrap().score, 95);
        // The same URL twice counts once.
        assert_eq!(site_score([100; 10], 10, &[result(Severity::Critical, &["a", "a"])]).unwrap().score, 95);
        // Every URL affected: the whole penalty.
        assert_eq!(site_score([100], 1, &[result(Severity::Warning, &["a"])]).unwrap().score, 92);
        assert_eq!(site_score([100], 1, &[result(Severity::Notice, &["a", "b"])]).unwrap().score, 97);
        // A rule whose findings were cut at the cap counts every URL it found: 10 of 10.
        let cut = SiteRuleResult { total_urls: 10, truncated: true, ..result(Severity::Warning, &["a"]) };
        assert_eq!(site_score([100; 10], 10, &[cut]).unwrap().score, 92);
        // Never below 0.
        let all: Vec<_> = (0..12).map(|_| result(Severity::Critical, &["a"])).collect();
        assert_eq!(site_score([10], 1, &all).unwrap().score, 0);
    }
}
