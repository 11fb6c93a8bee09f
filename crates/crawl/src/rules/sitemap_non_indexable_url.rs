use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct SitemapNonIndexableUrl;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "sitemap-non-indexable-url",
    name: "Sitemaps list indexable pages only",
    severity: Severity::Warning,
    threshold: "a URL a sitemap lists answers other than 200, redirects, cannot be fetched, is noindex, has a canonical naming another URL, or is kept out by robots.txt",
    why: "A sitemap should list the canonical, indexable URLs only; errors, redirects, noindex pages, canonicalised duplicates and URLs robots.txt forbids waste crawl budget, send search engines contradicting signals and erode their trust in the file.",
    fail_example: "sitemap.xml lists /old, which answers 301, and /print/desk, whose canonical is /desk",
    pass_example: "every sitemap URL answers 200, may be indexed and crawled, and is its own canonical",
    reference: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap",
    phrases: &[],
    excluded: &[],
    glossary: &["xml-sitemap"],
};

impl SiteRule for SitemapNonIndexableUrl {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("a list-mode crawl reads no sitemap")
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        Ok(Some(Box::new(Pass { site })))
    }
}

/// The pages, then the URLs robots.txt kept out.
struct Pass<'s> {
    site: &'s dyn CrawledSite,
}

impl Scan for Pass<'_> {
    fn page(&mut self, p: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        let site = self.site;
        // The pages are streamed and the sitemap asked only about those that are not
        // indexable: most pages are, and a store answers `in_sitemap` with one query.
        let detail = if p.status != Some(200) {
            answer(&p.answer())
        } else if p.noindex {
            "noindex".to_string()
        } else if let Some(canonical) = p.canonical.as_deref().filter(|c| *c != p.url) {
            format!("canonical is {canonical}")
        } else {
            return Ok(());
        };
        if site.in_sitemap(&p.url)? {
            out.push(SiteFinding { url: p.url.clone(), linked_from: None, detail });
        }
        Ok(())
    }

    fn end(&mut self, out: &mut Findings) -> SiteResult<Next> {
        let site = self.site;
        // A URL robots.txt keeps out is never fetched: it is among the skipped ones.
        site.robots_blocked(&mut |url, reason| {
            if site.in_sitemap(url)? {
                out.push(SiteFinding {
                    url: url.to_string(),
                    linked_from: None,
                    detail: format!("skipped for {reason}"),
                });
            }
            Ok(())
        })?;
        Ok(Next::Done)
    }
}
