use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct SitemapBadUrl;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "sitemap-bad-url",
    name: "Sitemaps list indexable pages only",
    severity: Severity::Warning,
    threshold: "a URL a sitemap lists answers other than 200, redirects, cannot be fetched or is noindex",
    why: "A sitemap should list the canonical, indexable URLs only; errors and redirects in it waste crawl budget and erode search engines' trust in the file.",
    fail_example: "sitemap.xml lists /old, which answers 301",
    pass_example: "every sitemap URL answers 200 and may be indexed",
    reference: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap",
    phrases: &[],
    excluded: &[],
    glossary: &["xml-sitemap"],
};

impl SiteRule for SitemapBadUrl {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.sitemap_urls(&mut |url| {
            let Some(p) = site.answer(url)? else { return Ok(()) };
            let detail = if p.status != Some(200) {
                answer(&p)
            } else if p.noindex {
                "noindex".to_string()
            } else {
                return Ok(());
            };
            out.push(SiteFinding { url: p.url.clone(), linked_from: None, detail });
            Ok(())
        })
    }
}
