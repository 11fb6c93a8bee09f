//! `internal-redirect`: Internal links point at final URLs.
//!
//! - **What it checks:** fails when a link to a URL of the site answers a redirect (3xx).
//! - **Why it matters:** Each redirect costs a request and crawl budget, and slows the visitor; linking to the final URL avoids it.
//! - **Fails:** /a links to /old, which answers 301 to /new
//! - **Passes:** links point straight at /new

use super::prelude::*;

/// See the module documentation.
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
};

impl SiteRule for InternalRedirect {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.internal_links(&mut |from, target| {
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
