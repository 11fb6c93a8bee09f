use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct RedirectLoop;

/// The hops followed from a URL at most: the redirects browsers follow before they give up
/// (Chromium's 20), and a bound on the look-ups one URL costs, so that a site of long chains
/// costs its rules no more than 20 look-ups a redirecting URL. A loop closing further on is
/// not told from a chain that long, which `internal-redirect-chain` reports ("20 hops and
/// more") at its head and at each of its URLs a page links to.
const MAX_HOPS: usize = 20;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "redirect-loop",
    name: "No redirect leads back to itself",
    severity: Severity::Critical,
    threshold: "following the redirects from a URL of the site comes back to a URL already on the way, within 20 \
                hops: the URLs of the loop and every URL whose redirects lead into it",
    why: "A redirect loop never reaches a page: browsers show an error and search engines drop the URL.",
    fail_example: "/a redirects to /b, which redirects to /a",
    pass_example: "every redirect chain ends on a page",
    reference: "https://developers.google.com/search/docs/crawling-indexing/301-redirects",
    phrases: &[],
    excluded: &[],
    glossary: &["301-redirect", audit_core::rules::technical::RedirectChain::ID],
};

impl SiteRule for RedirectLoop {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            let Some(first) = page.redirect_to.as_deref() else { return Ok(()) };
            if let RedirectPath::Loops(chain) = follow_redirects(site, &page.url, first, MAX_HOPS)? {
                // The URLs of the loop and those leading into it: none reaches a page, and a
                // link to any of them is a link to an error.
                let into = if chain.last() == Some(&page.url) { "" } else { "leads into a loop: " };
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: site.first_inlink(&page.url)?,
                    detail: format!("{into}{}", chain.join(" to ")),
                });
            }
            Ok(())
        })
    }
}
