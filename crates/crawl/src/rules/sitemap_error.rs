use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct SitemapErrorRule;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "sitemap-error",
    name: "Sitemaps can be read as the protocol writes them",
    severity: Severity::Warning,
    threshold: "a sitemap robots.txt or an index names cannot be fetched or read (not 200, bad gzip, not well-formed XML, not a sitemap, over 50 MiB), or is read despite a fault (a relative `<loc>`, or a relative `Sitemap:` line in robots.txt, a wrong namespace, over 50,000 URLs, an index loop)",
    why: "Search engines skip a sitemap they cannot read, or part of it: the pages it lists lose their way of being found, and nothing says so.",
    fail_example: "robots.txt names /sitemap.xml, which is an index whose `<loc>` is the relative path `pages.xml`",
    pass_example: "every sitemap answers 200 with well-formed XML in the sitemap namespace and full URLs",
    reference: "https://www.sitemaps.org/protocol.html",
    phrases: &[],
    excluded: &[],
    glossary: &["xml-sitemap"],
};

impl SiteRule for SitemapErrorRule {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("a list-mode crawl reads no sitemap")
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.sitemap_problems(&mut |p| {
            let detail = match p.line {
                Some(line) => format!("line {line}: {}", p.problem),
                None => p.problem.clone(),
            };
            out.push(SiteFinding { url: p.sitemap.clone(), linked_from: None, detail });
            Ok(())
        })
    }
}
