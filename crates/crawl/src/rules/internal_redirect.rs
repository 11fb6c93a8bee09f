use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct InternalRedirect;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "internal-redirect",
    name: "Internal links point at final URLs",
    severity: Severity::Warning,
    threshold: "a link to a URL of the site answers a redirect (3xx)",
    why: "Each redirect costs a request and crawl budget, and slows the visitor; linking to the final URL avoids it.",
    fail_example: "/a links to /old, which answers 301 to /new",
    pass_example: "links point straight at /new",
    reference: "https://developers.google.com/search/docs/crawling-indexing/301-redirects",
    phrases: &[],
    excluded: &[],
    glossary: &["301-redirect", "internal-linking"],
};

impl SiteRule for InternalRedirect {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, _: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_link(|from: &str, target: &Answer, out: &mut Findings| {
            if matches!(target.status, Some(300..=399)) {
                out.push(SiteFinding {
                    url: target.url.clone(),
                    linked_from: Some(from.to_string()),
                    detail: answer(target),
                });
            }
            Ok(())
        })
    }
}
