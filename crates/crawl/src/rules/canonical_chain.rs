use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalChain;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "canonical-chain",
    name: "Canonicals name the final page",
    severity: Severity::Warning,
    threshold: "a page's canonical names another page of the site that answers 200 (HTML) and names any other URL \
                as its own canonical, the first page included (two pages naming each other)",
    why: "Search engines may not follow a chain of canonicals; the signals meant for one page are split or lost, and \
          the wrong URL may be indexed.",
    fail_example: "/a names /b as its canonical, and /b names /c",
    pass_example: "/a and /b both name /c, which names itself",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &[],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl SiteRule for CanonicalChain {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let Some(canonical) = page.canonical.as_deref().filter(|c| *c != page.url) else { return Ok(()) };
            let Some(target) = site.page(canonical)?.filter(|t| t.status == Some(200) && t.html) else {
                return Ok(());
            };
            if let Some(next) = target.canonical.as_deref().filter(|c| *c != target.url) {
                // Two pages naming each other are a chain too: neither is the final page.
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("canonical {canonical}, whose canonical is {next}"),
                });
            }
            Ok(())
        })
    }
}
