//! A crawl kept in a store (docs/ARCHITECTURE.md, "Site crawl"): the sink that writes each
//! page as it comes ([`StoreSink`], the command line's; the service's adds its cancel checks)
//! and the end of a crawl judged over the store ([`judge`]): the site rules and the site
//! score read the crawl a batch of rows at a time, so memory does not grow with its pages.

use audit_core::Audit;
use crawl::{check_site, site_score_of, CrawledPage, CrawledSite, SiteRuleResult, SiteScore, SiteTotals};

use super::runner::{CrawlSink, Progress, ProgressFn};
use crate::AppError;

/// The failed page rules of an audit as the store keeps them: rule id, severity, message and
/// the elements the finding points at (the first 50 and how many in all, as the audit lists
/// them; docs/API.md, "Site crawl").
pub fn failed_rule_rows(audit: Option<&Audit>) -> Vec<store::FailedRule> {
    audit
        .map(|a| {
            a.failures()
                .into_iter()
                .map(|(rule, finding)| store::FailedRule {
                    rule_id: rule.id.to_string(),
                    severity: rule.severity.as_str().to_string(),
                    detail: finding.title.clone(),
                    locations: (!finding.locations.is_empty()).then(|| store::IssueLocations {
                        total: finding.locations_total,
                        items: finding.locations.iter().filter_map(|l| serde_json::to_value(l).ok()).collect(),
                    }),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A [`CrawlSink`] writing every page, its links and failed page rules, and every sitemap
/// URL to its crawl as they come, in the batch of the crawl's frontier
/// ([`store::CrawlFrontier::writer`]).
pub struct StoreSink {
    /// Where the pages go.
    pub writer: store::CrawlWriter,
    /// Told each progress report.
    pub on_progress: Option<ProgressFn>,
}

impl CrawlSink for StoreSink {
    fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), AppError> {
        Ok(self.writer.record_page(page, &failed_rule_rows(audit))?)
    }

    fn sitemap_url(&mut self, url: &str) -> Result<(), AppError> {
        Ok(self.writer.add_sitemap_urls(&[url.to_string()])?)
    }

    fn progress(&mut self, progress: &Progress) {
        if let Some(f) = &mut self.on_progress {
            f(progress);
        }
    }
}

impl std::fmt::Debug for StoreSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreSink").field("crawl_id", &self.writer.crawl_id()).finish_non_exhaustive()
    }
}

/// What the end of a crawl reads of the whole crawl.
#[derive(Debug, Clone)]
pub struct Judged {
    /// Every site rule's result, in table order.
    pub results: Vec<SiteRuleResult>,
    /// The counts over the pages.
    pub totals: SiteTotals,
    /// The site score (`None`: no page audited).
    pub score: Option<SiteScore>,
}

impl Judged {
    /// The site rules' findings as the store keeps them (kind `site`).
    pub fn site_issues(&self) -> Vec<store::CrawlIssue> {
        self.results
            .iter()
            .flat_map(|r| {
                r.findings.iter().map(move |f| store::CrawlIssue {
                    kind: store::IssueKind::Site,
                    rule_id: r.id.to_string(),
                    severity: r.severity.as_str().to_string(),
                    url: f.url.clone(),
                    linked_from: f.linked_from.clone(),
                    detail: f.detail.clone(),
                    locations: None,
                })
            })
            .collect()
    }
}

/// Runs the site rules and the site score over crawl `crawl_id` in `store`, with what the
/// run's `summary` kept of the sitemaps (blocks: call it on the blocking pool from async
/// code).
///
/// # Errors
/// The store's.
pub fn judge(store: &store::Store, crawl_id: &str, summary: &super::CrawlSummary) -> store::Result<Judged> {
    let site = store
        .crawl_site(crawl_id, summary.sitemaps_read)?
        .with_sitemap_problems(summary.sitemap_problems.clone())
        .with_near_duplicate_threshold(summary.near_duplicate_threshold)
        .with_not_found_probe(summary.not_found_probe.clone());
    let results = check_site(&site).map_err(store::Error::from_site)?;
    let totals = site.totals().map_err(store::Error::from_site)?;
    let score = site_score_of(&totals, &results);
    Ok(Judged { results, totals, score })
}
