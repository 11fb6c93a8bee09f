//! The site rules: what only a crawl can see, one file each. Their table [`SITE_RULES`] is
//! the second static rule table beside the page rules of audit-core; `docs/RULES.md`'s
//! "Site rules" section is generated from it.

mod broken_internal_link;
mod canonical_to_bad_url;
mod deep_page;
mod duplicate_content;
mod duplicate_meta_description;
mod duplicate_title;
mod hreflang_no_return_link;
mod internal_redirect;
mod not_in_sitemap;
mod orphan_page;
pub(crate) mod prelude;
mod redirect_loop;
mod sitemap_bad_url;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use audit_core::Severity;
use serde::Serialize;

use crate::page::{CrawledPage, Outlink};

/// What a site rule is, for the table, the documentation and the reports.
#[derive(Debug, PartialEq, Eq)]
pub struct SiteRuleMeta {
    /// The stable id (`broken-internal-link`).
    pub id: &'static str,
    /// What passing means, as a short title.
    pub name: &'static str,
    /// How serious a finding is (the page rules' scale).
    pub severity: Severity,
    /// When it fails.
    pub threshold: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// A site that fails it.
    pub fail_example: &'static str,
    /// A site that passes it.
    pub pass_example: &'static str,
    /// Further reading.
    pub reference: &'static str,
}

/// One problem a site rule found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SiteFinding {
    /// The affected URL.
    pub url: String,
    /// The page that links to it (or names it), where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked_from: Option<String>,
    /// What is wrong, in a few words (`HTTP 404`, `→ https://…`).
    pub detail: String,
}

/// A rule over the whole crawled site.
pub trait SiteRule: Sync {
    /// The rule's description.
    fn meta(&self) -> &'static SiteRuleMeta;
    /// The findings (none: it passes).
    fn check(&self, site: &SiteIndex<'_>) -> Vec<SiteFinding>;
}

/// Every site rule, in display order (severity of what it finds, then topic).
pub static SITE_RULES: &[&dyn SiteRule] = &[
    &broken_internal_link::BrokenInternalLink,
    &redirect_loop::RedirectLoop,
    &canonical_to_bad_url::CanonicalToBadUrl,
    &internal_redirect::InternalRedirect,
    &duplicate_title::DuplicateTitle,
    &duplicate_content::DuplicateContent,
    &orphan_page::OrphanPage,
    &sitemap_bad_url::SitemapBadUrl,
    &hreflang_no_return_link::HreflangNoReturnLink,
    &duplicate_meta_description::DuplicateMetaDescription,
    &not_in_sitemap::NotInSitemap,
    &deep_page::DeepPage,
];

/// Looks a site rule up by id.
pub fn site_rule_by_id(id: &str) -> Option<&'static SiteRuleMeta> {
    SITE_RULES.iter().map(|r| r.meta()).find(|m| m.id == id)
}

/// The crawled site as the rules read it: the pages' records, indexed once.
#[derive(Debug)]
pub struct SiteIndex<'a> {
    /// Every URL the crawl fetched (answered or failed), in crawl order.
    pub pages: &'a [CrawledPage],
    /// The same, by URL.
    pub by_url: HashMap<&'a str, &'a CrawledPage>,
    /// For each URL, the crawled pages that link to it (other pages only) with the link.
    pub inlinks: HashMap<&'a str, Vec<(&'a CrawledPage, &'a Outlink)>>,
    /// Every page URL the site's sitemaps list (normalised).
    pub sitemap_urls: &'a BTreeSet<String>,
    /// Whether any sitemap was read (`not-in-sitemap` applies only then).
    pub sitemaps_read: bool,
}

impl<'a> SiteIndex<'a> {
    /// Indexes the records.
    pub fn new(pages: &'a [CrawledPage], sitemap_urls: &'a BTreeSet<String>, sitemaps_read: bool) -> SiteIndex<'a> {
        let mut by_url = HashMap::with_capacity(pages.len());
        let mut inlinks: HashMap<&str, Vec<_>> = HashMap::new();
        for page in pages {
            by_url.insert(page.url.as_str(), page);
            for link in &page.outlinks {
                if link.url != page.url {
                    inlinks.entry(link.url.as_str()).or_default().push((page, link));
                }
            }
        }
        SiteIndex { pages, by_url, inlinks, sitemap_urls, sitemaps_read }
    }

    /// The record of `url`, when the crawl fetched it.
    pub fn page(&self, url: &str) -> Option<&'a CrawledPage> {
        self.by_url.get(url).copied()
    }

    /// How many crawled pages link to `url` (each page once).
    pub fn inlink_count(&self, url: &str) -> usize {
        self.inlinks.get(url).map_or(0, Vec::len)
    }
}

/// One site rule's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SiteRuleResult {
    /// The rule id.
    pub id: &'static str,
    /// Its severity.
    pub severity: Severity,
    /// What it found, sorted; empty when it passes.
    pub findings: Vec<SiteFinding>,
}

impl SiteRuleResult {
    /// The distinct affected URLs.
    pub fn affected(&self) -> usize {
        self.findings.iter().map(|f| f.url.as_str()).collect::<BTreeSet<_>>().len()
    }
}

/// Runs every site rule over the crawled pages and the sitemap URL set. Results come in
/// table order, every rule included (passing ones with no findings).
pub fn run_site_rules(
    pages: &[CrawledPage],
    sitemap_urls: &BTreeSet<String>,
    sitemaps_read: bool,
) -> Vec<SiteRuleResult> {
    let site = SiteIndex::new(pages, sitemap_urls, sitemaps_read);
    SITE_RULES
        .iter()
        .map(|rule| {
            let mut findings = rule.check(&site);
            findings.sort();
            findings.dedup();
            SiteRuleResult { id: rule.meta().id, severity: rule.meta().severity, findings }
        })
        .collect()
}

/// Groups indexable pages by a key; the groups of two or more, each page with the others.
pub(crate) fn duplicates<'a>(
    site: &SiteIndex<'a>,
    key: impl Fn(&'a CrawledPage) -> Option<&'a str>,
    what: &str,
) -> Vec<SiteFinding> {
    let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for page in site.pages.iter().filter(|p| p.indexable()) {
        if let Some(k) = key(page) {
            groups.entry(k).or_default().push(page.url.as_str());
        }
    }
    let mut out = Vec::new();
    for urls in groups.values().filter(|g| g.len() > 1) {
        for url in urls {
            let others: Vec<&str> = urls.iter().filter(|u| *u != url).copied().take(3).collect();
            let more = urls.len() - 1 - others.len();
            let mut detail = format!("same {what} as {}", others.join(", "));
            if more > 0 {
                detail.push_str(&format!(" and {more} more"));
            }
            out.push(SiteFinding { url: url.to_string(), linked_from: None, detail });
        }
    }
    out
}

/// `HTTP 404`, `redirects to …` or the fetch error: how a URL answered.
pub(crate) fn answer(page: &CrawledPage) -> String {
    match (page.status, &page.redirect_to, &page.error) {
        (Some(s), Some(to), _) => format!("HTTP {s} to {to}"),
        (Some(s), None, _) => format!("HTTP {s}"),
        (None, _, Some(e)) => format!("not fetched: {e}"),
        (None, _, None) => "not fetched".to_string(),
    }
}
