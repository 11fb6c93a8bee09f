//! What a finished crawl records of its run beside its score and issues
//! (`store::Crawl::summary_json`), typed: written when the crawl ends, read by the views.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a finished crawl records of its run beside its score (`store::Crawl::summary_json`).
/// Every field has a default, so summaries written by older versions still read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredSummary {
    /// Whether the time limit ended the crawl.
    pub time_limited: bool,
    /// Times the crawl paused because the site's recent answers were mostly errors
    /// (docs/API.md, "Site crawl", "Politeness").
    pub error_pauses: u32,
    /// Why the crawl ended early, when the site's answers were still mostly errors after
    /// its pauses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_for_errors: Option<String>,
    /// Whether the crawl read the site's sitemaps.
    pub sitemaps_read: bool,
    /// Pages audited.
    pub pages_audited: u64,
    /// Links to URLs the crawl left out because it had recorded its bound of URLs
    /// ([`super::QUEUED_URLS_PER_PAGE`] per page of `max_pages`), counted by the run that
    /// ended the crawl (docs/API.md, "Site crawl").
    pub links_not_queued: u64,
    /// Links from the crawl's pages to URLs it did not record, which get no inlinks row
    /// (`store::CrawlFrontier::links_not_counted`), counted by the run that ended the crawl.
    pub links_to_unrecorded_urls: u64,
    /// How the links to other sites were checked (`None`: not checked), counted by the run
    /// that ended the crawl.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_links: Option<crawl::ExternalLinks>,
    /// The mean of the pages' scores, when the crawl was scored.
    pub mean_page_score: Option<f64>,
    /// What the site-wide issues took off that mean, when the crawl was scored.
    pub penalty: Option<f64>,
    /// Each site rule with findings, by id: how many it found in all. The store keeps at
    /// most `crawl::MAX_FINDINGS_PER_RULE` findings of a rule; these are the true totals the
    /// views show (docs/RULES.md, "Site rules": no silent cut).
    pub site_rules: BTreeMap<String, SiteRuleTotals>,
    /// The site rules a list-mode crawl skipped because they need the whole site
    /// (docs/RULES.md, "List mode"), in table order; empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub site_rules_skipped: Vec<String>,
}

/// How many findings a site rule had in all ([`StoredSummary::site_rules`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SiteRuleTotals {
    /// Distinct affected URLs.
    pub urls: u64,
    /// Findings.
    pub findings: u64,
    /// Whether fewer findings were stored than found.
    pub truncated: bool,
}

impl SiteRuleTotals {
    /// The totals of the site rules with findings in `results`, by id.
    pub fn of(results: &[crawl::SiteRuleResult]) -> BTreeMap<String, SiteRuleTotals> {
        results
            .iter()
            .filter(|r| r.total_findings > 0)
            .map(|r| {
                let totals = SiteRuleTotals { urls: r.total_urls, findings: r.total_findings, truncated: r.truncated };
                (r.id.to_string(), totals)
            })
            .collect()
    }
}

/// The ids of the site rules `results` skipped ([`crawl::SiteRuleResult::skipped`]), in order.
pub fn skipped_rules(results: &[crawl::SiteRuleResult]) -> Vec<String> {
    results.iter().filter(|r| r.skipped).map(|r| r.id.to_string()).collect()
}

impl StoredSummary {
    /// The summary of `crawl`: `None` while it runs. A summary that does not read (a bug or
    /// a damaged database) is logged and reads as `None`.
    pub fn of(crawl: &store::Crawl) -> Option<StoredSummary> {
        let json = crawl.summary_json.as_deref()?;
        serde_json::from_str(json)
            .map_err(|e| tracing::error!(crawl = %crawl.id, error = %e, "stored crawl summary does not parse"))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{SiteRuleTotals, StoredSummary};

    #[test]
    fn a_crawl_summary_keeps_its_names_and_old_rows_still_read() {
        let written = StoredSummary {
            time_limited: true,
            error_pauses: 1,
            stopped_for_errors: None,
            sitemaps_read: false,
            pages_audited: 3,
            links_not_queued: 7,
            links_to_unrecorded_urls: 40,
            external_links: None,
            mean_page_score: Some(81.5),
            penalty: None,
            site_rules: BTreeMap::from([(
                "a-site-rule".to_string(),
                SiteRuleTotals { urls: 825, findings: 12_000, truncated: true },
            )]),
            site_rules_skipped: Vec::new(),
        };
        assert_eq!(
            serde_json::to_string(&written).expect("json"),
            r#"{"time_limited":true,"error_pauses":1,"sitemaps_read":false,"pages_audited":3,"links_not_queued":7,"links_to_unrecorded_urls":40,"mean_page_score":81.5,"penalty":null,"site_rules":{"a-site-rule":{"urls":825,"findings":12000,"truncated":true}}}"#
        );
        let old: StoredSummary = serde_json::from_str(r#"{"time_limited":true}"#).expect("an older row reads");
        assert_eq!(old, StoredSummary { time_limited: true, ..StoredSummary::default() });
    }
}
