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
            let Some(first) = page.redirect_to.clone() else { return Ok(()) };
            let linked_from = site.first_inlink(&page.url)?;
            if linked_from.is_none() && site.redirected_to(&page.url)? {
                return Ok(());
            }
            let mut chain: Vec<String> = vec![page.url.clone(), first];
            let mut cut = false;
            loop {
                let last = chain.last().map(String::as_str).unwrap_or_default();
                let Some(next) = site.answer(last)?.and_then(|a| a.redirect_to) else { break };
                // Cut before the loop test, at the hop where `redirect-loop` stops looking: a
                // loop closing further on is reported here ("and more"), not by neither.
                if chain.len() > MAX_HOPS {
                    cut = true;
                    break;
                }
                if chain.contains(&next) {
                    // A loop is `redirect-loop`'s.
                    return Ok(());
                }
                chain.push(next);
            }
            if chain.len() > 2 {
                let hops = chain.len() - 1;
                let more = if cut { " and more" } else { "" };
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from,
                    detail: format!("{hops} hops{more}: {}", chain.join(" to ")),
                });
            }
            Ok(())
        })
    }
}
