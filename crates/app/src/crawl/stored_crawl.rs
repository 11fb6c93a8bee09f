//! A crawl kept in a store (docs/ARCHITECTURE.md, "Site crawl"): the sink that writes each
//! page as it comes ([`StoreSink`], the command line's; the service's adds its cancel checks)
//! and the end of a crawl judged over the store ([`judge`]): the site rules and the site
//! score read the crawl a batch of rows at a time, so memory does not grow with its pages.

use std::time::Duration;

use audit_core::Audit;
use crawl::{check_site, site_score_of, CrawledPage, CrawledSite, SiteRuleResult, SiteScore, SiteTotals};

use super::runner::{CrawlSink, Progress, ProgressFn};
use crate::AppError;

/// The failed page rules of an audit as the store keeps them: rule id, severity, message and
/// the elements the finding points at, one row per page rule that fails (so at most the rule
/// table's length a page). The message is the finding's title within the audit result's bound
/// (`audit_core::bound::MAX_RESULT_TEXT_BYTES`, as an audit of the page would store it); the
/// elements are the first 50 and how many in all, as the audit lists them (docs/API.md, "Site
/// crawl"), within [`PAGE_LOCATIONS_BYTES`] for the whole page (a row's own bound,
/// `store::MAX_ISSUE_LOCATIONS_BYTES`, is applied by the store): past it a finding keeps its
/// `total` and lists fewer elements.
pub fn failed_rule_rows(audit: Option<&Audit>) -> Vec<store::FailedRule> {
    failed_rule_rows_within(audit, PAGE_LOCATIONS_BYTES)
}

/// [`failed_rule_rows`] with `budget` bytes of locations for the page.
fn failed_rule_rows_within(audit: Option<&Audit>, budget: usize) -> Vec<store::FailedRule> {
    let mut left = budget;
    audit
        .map(|a| {
            a.failures()
                .into_iter()
                .map(|(rule, finding)| {
                    let mut title = finding.title.clone();
                    audit_core::bound::cut_text(
                        &mut title,
                        audit_core::bound::MAX_RESULT_TEXT_BYTES,
                        &mut Default::default(),
                    );
                    let mut items = Vec::new();
                    for location in &finding.locations {
                        let Ok(item) = serde_json::to_value(location) else { continue };
                        let bytes = item.to_string().len();
                        if bytes > left {
                            left = 0;
                            break;
                        }
                        left -= bytes;
                        items.push(item);
                    }
                    store::FailedRule {
                        rule_id: rule.id.to_string(),
                        severity: rule.severity.as_str().to_string(),
                        detail: title,
                        locations: (!finding.locations.is_empty())
                            .then_some(store::IssueLocations { total: finding.locations_total, items }),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Bytes of the elements a page's findings point at that a crawl stores for one page (their
/// JSON): 3.75 MiB for an anonymous crawl of 30 pages (docs/SECURITY.md, "The bytes one caller
/// can add"). A real page's findings need a few KiB; a page of thousands of images without alt
/// text lists its first elements and counts the rest.
pub const PAGE_LOCATIONS_BYTES: usize = 128 * 1024;

/// Bytes of site findings a crawl stores per URL it fetched (each finding counted as its URL,
/// the page linking to it, its detail within `store::MAX_ISSUE_DETAIL_BYTES` and
/// [`ISSUE_ROW_BYTES`] for the rest of its row): 1.875 MiB for an anonymous crawl of 30
/// pages. Each rule keeps at most `crawl::MAX_FINDINGS_PER_RULE` findings, but 26 rules of
/// 10,000 findings of long URLs and details would store gigabytes for 30 pages; past this
/// budget a rule's findings are counted (its `findings` total, `truncated`), not stored. A
/// site of real pages stores a few hundred bytes a finding, so the budget cuts only sites
/// with thousands of findings a page (docs/SECURITY.md, "The bytes one caller can add").
pub const SITE_FINDING_BYTES_PER_PAGE: usize = 64 * 1024;

/// What a stored finding's row is counted for besides its URL, linking page and detail: the
/// crawl id, rule id, kind, severity and row id, rounded up.
pub const ISSUE_ROW_BYTES: usize = 128;

/// The bytes a site finding's row is counted for.
fn finding_bytes(f: &crawl::SiteFinding) -> usize {
    f.url.len()
        + f.linked_from.as_ref().map_or(0, String::len)
        + f.detail.len().min(store::MAX_ISSUE_DETAIL_BYTES)
        + ISSUE_ROW_BYTES
}

/// Keeps the site rules' findings within `budget` bytes in all ([`finding_bytes`]), shared
/// among the rules: the rules that need least get all they need, the others an equal share of
/// what is left, each its first findings in its order. A rule cut is `truncated`; its totals
/// still count every finding. Answers the findings left out.
pub fn keep_site_findings_within(results: &mut [SiteRuleResult], budget: usize) -> usize {
    let needs: Vec<usize> = results.iter().map(|r| r.findings.iter().map(finding_bytes).sum()).collect();
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by_key(|&i| needs[i]);
    let (mut left, mut dropped) = (budget, 0);
    for (k, &i) in order.iter().enumerate() {
        let share = left / (order.len() - k);
        let r = &mut results[i];
        let (mut used, mut keep) = (0, 0);
        for f in &r.findings {
            let len = finding_bytes(f);
            if used + len > share {
                break;
            }
            used += len;
            keep += 1;
        }
        if keep < r.findings.len() {
            dropped += r.findings.len() - keep;
            r.findings.truncate(keep);
            r.truncated = true;
        }
        left -= used;
    }
    dropped
}

/// The site findings' budget of a crawl that fetched `crawled` URLs
/// ([`SITE_FINDING_BYTES_PER_PAGE`] each; one page's worth when it fetched none, for the
/// findings about its sitemaps).
pub fn site_finding_budget(crawled: u64) -> usize {
    usize::try_from(crawled.max(1)).unwrap_or(usize::MAX).saturating_mul(SITE_FINDING_BYTES_PER_PAGE)
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

    fn paused(&mut self, why: &str, pause: Duration) {
        write_pause(&self.writer, why, pause);
    }

    fn resumed(&mut self) {
        write_resume(&self.writer);
    }
}

/// Writes a pause for errors of `pause` from now, for `why`, on the crawl's row (in the open
/// batch), so the crawl object shows it on every replica while it lasts (docs/API.md, "Site
/// crawl", "Politeness"). A write that fails only leaves the pause unshown: the crawl goes
/// on, and its end says how many pauses it took.
pub(super) fn write_pause(writer: &store::CrawlWriter, why: &str, pause: Duration) {
    let now = time::OffsetDateTime::now_utc();
    let (since, until) = (vocab::Timestamp::from(now), vocab::Timestamp::from(now + pause));
    if let Err(e) = writer.pause(why, since, until) {
        tracing::warn!(crawl = %writer.crawl_id(), error = %e, "the crawl's pause not written");
    }
}

/// Clears the pause [`write_pause`] wrote: the crawl goes on.
pub(super) fn write_resume(writer: &store::CrawlWriter) {
    if let Err(e) = writer.resume() {
        tracing::warn!(crawl = %writer.crawl_id(), error = %e, "the end of the crawl's pause not written");
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
    // The writer's cache the crawl filled is not what the rules read through: given back
    // first, with what the allocator holds freed, it is not held under the rules' own memory.
    store.release_writer_cache()?;
    crate::memory::release();
    let site = store
        .crawl_site(crawl_id, summary.sitemaps_read)?
        .with_sitemap_problems(summary.sitemap_problems.clone())
        .with_near_duplicate_threshold(summary.near_duplicate_threshold)
        .with_not_found_probe(summary.not_found_probe.clone())
        .with_external_links(summary.external_links.clone())
        .with_edge_probes(summary.edge_probes.clone())
        .with_list_mode(summary.list_mode);
    let mut results = check_site(&site).map_err(store::Error::from_site)?;
    let totals = site.totals().map_err(store::Error::from_site)?;
    // Scored on every finding kept by the rules; what is stored is then cut to the budget.
    let score = site_score_of(&totals, &results);
    keep_site_findings_within(&mut results, site_finding_budget(totals.crawled));
    Ok(Judged { results, totals, score })
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::Severity;
    use crawl::SiteFinding;

    fn rule(id: &'static str, n: usize, detail_bytes: usize) -> SiteRuleResult {
        let findings = (0..n)
            .map(|i| SiteFinding {
                url: format!("https://example.com/{i:04}"),
                linked_from: None,
                detail: "d".repeat(detail_bytes),
            })
            .collect();
        SiteRuleResult::of(id, Severity::Warning, findings)
    }

    #[test]
    fn site_findings_are_stored_within_the_budget_and_the_rest_counted() {
        // A small rule fits whole; the two large ones share what is left equally.
        let mut results = vec![rule("large-a", 1_000, 1_000), rule("small", 3, 10), rule("large-b", 1_000, 1_000)];
        let budget = 100 * 1024;
        let needs: usize = results[1].findings.iter().map(finding_bytes).sum();
        let dropped = keep_site_findings_within(&mut results, budget);
        let kept: usize = results.iter().flat_map(|r| &r.findings).map(finding_bytes).sum();
        assert!(kept <= budget, "{kept}");
        assert_eq!(results[1].findings.len(), 3, "a rule within its share keeps every finding");
        assert!(!results[1].truncated);
        let each = (budget - needs) / 2 / finding_bytes(&results[0].findings[0]);
        for r in [&results[0], &results[2]] {
            assert!(r.truncated && r.total_findings == 1_000, "the totals still count every finding");
            assert!(r.findings.len() + 1 >= each && r.findings.len() <= each, "{} of {each}", r.findings.len());
            assert_eq!(r.findings[0].url, "https://example.com/0000", "the first ones, in the rule's order");
        }
        assert_eq!(dropped, 2_000 - results[0].findings.len() - results[2].findings.len());
        // Within the budget, nothing is cut.
        let mut results = vec![rule("a", 10, 10)];
        assert_eq!(keep_site_findings_within(&mut results, site_finding_budget(1)), 0);
        assert!(!results[0].truncated);
    }

    #[test]
    fn a_stored_page_finding_is_the_title_within_the_results_bound() {
        let title = "t".repeat(100_000);
        let html = format!("<html><head><title>{title}</title></head><body></body></html>");
        let audit =
            audit_core::audit(audit_core::Page::parse("https://example.com/", html.as_bytes(), Default::default()));
        let rows = failed_rule_rows(Some(&audit));
        assert!(!rows.is_empty());
        for row in rows {
            assert!(row.detail.len() <= audit_core::bound::MAX_RESULT_TEXT_BYTES, "{}", row.detail.len());
        }
    }

    /// A page's findings keep their locations within the page's budget, in the order of the
    /// findings, each finding keeping its true total when fewer are listed.
    #[test]
    fn a_pages_stored_locations_are_within_the_page_budget() {
        let images: String = (0..200).map(|i| format!("<img src=/{i}.png class=c{i} width=1 height=1>\n")).collect();
        let html = format!("<html><head><title>t</title></head><body>{images}</body></html>");
        let audit =
            audit_core::audit(audit_core::Page::parse("https://example.com/", html.as_bytes(), Default::default()));
        let size = |rows: &[store::FailedRule]| -> usize {
            rows.iter()
                .filter_map(|r| r.locations.as_ref())
                .flat_map(|l| l.items.iter())
                .map(|i| i.to_string().len())
                .sum()
        };
        let whole = failed_rule_rows(Some(&audit));
        let alt = |rows: &[store::FailedRule]| {
            rows.iter().find_map(|r| r.locations.clone().filter(|l| l.total == 200)).expect("the 200 images")
        };
        assert_eq!(alt(&whole).items.len(), 50, "the whole budget keeps the audit's first 50");
        let budget = size(&whole) / 2;
        let cut = failed_rule_rows_within(Some(&audit), budget);
        assert!(size(&cut) <= budget, "{} > {budget}", size(&cut));
        assert!(size(&cut) > 0);
        assert!(alt(&cut).items.len() < 50, "fewer listed, the total kept");
        assert_eq!(cut.len(), whole.len(), "every failing rule keeps its row");
    }
}
