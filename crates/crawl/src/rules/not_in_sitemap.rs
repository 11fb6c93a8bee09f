use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct NotInSitemap;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "not-in-sitemap",
    name: "Indexable pages are in the sitemap",
    severity: Severity::Notice,
    threshold: "the site has a sitemap and an indexable crawled page is not in it",
    why: "The sitemap tells search engines which URLs matter; a page missing from it may be found late or not at all.",
    fail_example: "/new-product is linked and indexable, but sitemap.xml does not list it",
    pass_example: "sitemap.xml lists every indexable page (or the site has no sitemap)",
    reference: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/overview",
    phrases: &[],
    excluded: &[],
    glossary: &["xml-sitemap"],
};

impl SiteRule for NotInSitemap {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("a list-mode crawl reads no sitemap")
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        let sitemaps_read = site.sitemaps_read();
        each_page(move |p: &CrawledPage, out: &mut Findings| {
            if sitemaps_read && p.indexable() && !site.in_sitemap(&p.url)? {
                out.push(SiteFinding {
                    url: p.url.clone(),
                    linked_from: site.first_inlink(&p.url)?,
                    detail: "indexable, not in the sitemaps".to_string(),
                });
            }
            Ok(())
        })
    }
}
