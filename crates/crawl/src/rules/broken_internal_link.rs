use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct BrokenInternalLink;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "broken-internal-link",
    name: "Internal links reach a page",
    severity: Severity::Critical,
    threshold: "a link to a URL of the site answers 4xx or 5xx, or cannot be fetched",
    why: "Visitors and crawlers who follow the link reach an error page, and the link's value is lost.",
    fail_example: "/a links to /gone, which answers 404",
    pass_example: "every internal link answers 200, or redirects to a page that does",
    reference: "https://developers.google.com/search/docs/crawling-indexing/http-network-errors",
    phrases: &[],
    excluded: &[],
    glossary: &["http-status-code", "internal-linking"],
};

impl SiteRule for BrokenInternalLink {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.internal_links(&mut |from, target| {
            let broken = match target.status {
                Some(s) => s >= 400,
                None => target.error.is_some(),
            };
            if broken {
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
