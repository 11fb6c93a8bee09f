use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalToRedirect;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "canonical-to-redirect",
    name: "Canonicals do not name redirects",
    severity: Severity::Critical,
    threshold: "a page's canonical names another URL of the site that answers a redirect (3xx)",
    why: "A canonical should name the URL to index; one that redirects sends mixed signals, and search engines may \
          ignore it or index the redirect's target without the page's say.",
    fail_example: "/a names /old as its canonical, and /old answers 301 to /new",
    pass_example: "/a names /new, which answers 200",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &[],
    excluded: &[],
    glossary: &["canonical-url", "301-redirect"],
};

impl SiteRule for CanonicalToRedirect {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let Some(canonical) = page.canonical.as_deref().filter(|c| *c != page.url) else { return Ok(()) };
            let Some(target) = site.answer(canonical)? else { return Ok(()) };
            if matches!(target.status, Some(300..=399)) {
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
