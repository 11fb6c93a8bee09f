use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalToBadUrl;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "canonical-to-bad-url",
    name: "Canonicals name pages that answer",
    severity: Severity::Critical,
    threshold: "a page's canonical names another URL of the site that answers other than 200 and other than a \
                redirect (a redirect is `canonical-to-redirect`'s), or cannot be fetched",
    why: "Search engines ignore a canonical that points at an error or a redirect, and may index the wrong URL.",
    fail_example: "/a names /gone as its canonical, and /gone answers 404",
    pass_example: "canonicals name the page itself or a page answering 200",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &[],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl SiteRule for CanonicalToBadUrl {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let Some(canonical) = page.canonical.as_deref().filter(|c| *c != page.url) else { return Ok(()) };
            let Some(target) = site.answer(canonical)? else { return Ok(()) };
            if target.status != Some(200) && !matches!(target.status, Some(300..=399)) {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("canonical {canonical}: {}", answer(&target)),
                });
            }
            Ok(())
        })
    }
}
