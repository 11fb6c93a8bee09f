use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct InternalRedirectChain;

/// The hops a chain is followed for at most: enough to name any chain worth reporting, and
/// a bound on the lookups a single URL costs.
const MAX_HOPS: usize = 20;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "internal-redirect-chain",
    name: "Redirects reach their target in one hop",
    severity: Severity::Warning,
    threshold: "a URL of the site redirects to another URL that redirects again (two hops or more before an answer \
                that is not a redirect), for the first URL of each chain and for each URL along it that a crawled \
                page links to",
    why: "Every hop costs a request; search engines follow a few hops only and may give up before the final page, \
          which then loses the links' signals.",
    fail_example: "/a links to /old, which answers 301 to /older, which answers 301 to /new",
    pass_example: "/old answers 301 straight to /new",
    reference: "https://developers.google.com/search/docs/crawling-indexing/301-redirects",
    phrases: &[],
    excluded: &[],
    glossary: &[audit_core::rules::technical::RedirectChain::ID, "internal-linking"],
};

impl SiteRule for InternalRedirectChain {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            // A chain is reported at its head, a URL no crawled page redirects to, and at each
            // URL along it that a page links to: a link to the middle of a chain costs the
            // hops from there. A URL in the middle that nothing links to is the head's.
            let Some(first) = page.redirect_to.as_deref() else { return Ok(()) };
            let linked_from = site.first_inlink(&page.url)?;
            if linked_from.is_none() && site.redirected_to(&page.url)? {
                return Ok(());
            }
            // Cut at the hop where `redirect-loop` stops looking: a loop closing further on
            // is reported here ("and more"), not by neither.
            let (chain, more) = match follow_redirects(site, &page.url, first, MAX_HOPS)? {
                RedirectPath::Ends(chain) => (chain, ""),
                RedirectPath::Cut(chain) => (chain, " and more"),
                // A loop is `redirect-loop`'s.
                RedirectPath::Loops(_) => return Ok(()),
            };
            if chain.len() > 2 {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from,
                    detail: format!("{} hops{more}: {}", chain.len() - 1, chain.join(" to ")),
                });
            }
            Ok(())
        })
    }
}
