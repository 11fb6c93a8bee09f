use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalToNoindex;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "canonical-to-noindex",
    name: "Canonicals do not name noindex pages",
    severity: Severity::Critical,
    threshold: "a page's canonical names another page of the site that answers 200 with a `noindex` robots directive",
    why: "The canonical asks search engines to index the other page, and that page asks them not to: the \
          contradiction may keep both out of the results.",
    fail_example: "/a names /b as its canonical, and /b carries `<meta name=\"robots\" content=\"noindex\">`",
    pass_example: "/a names /b, which may be indexed",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &[],
    excluded: &[],
    glossary: &["canonical-url", "noindex"],
};

impl SiteRule for CanonicalToNoindex {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let Some(canonical) = page.canonical.as_deref().filter(|c| *c != page.url) else { return Ok(()) };
            let Some(target) = site.answer(canonical)? else { return Ok(()) };
            if target.status == Some(200) && target.noindex {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("canonical {canonical} is noindex"),
                });
            }
            Ok(())
        })
    }
}
