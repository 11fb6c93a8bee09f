use std::collections::HashMap;

use audit_core::fix::{Difficulty, FixCtx, FixKind, FixTemplate};

use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct BrokenInternalLink;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "broken-internal-link",
    name: "Internal links reach a page",
    severity: Severity::Critical,
    threshold: "a link to a URL of the site answers 4xx or 5xx, cannot be fetched, or redirects (through up to 10 redirects) to a URL that does",
    why: "Visitors and crawlers who follow the link reach an error page, and the link's value is lost.",
    fail_example: "/a links to /gone, which answers 404; /b links to /moved, which answers 301 to /gone",
    pass_example: "every internal link answers 200, or redirects to a page that does",
    reference: "https://developers.google.com/search/docs/crawling-indexing/http-network-errors",
    phrases: &["broken internal link", "internal link 404", "dead internal link"],
    excluded: &[],
    glossary: &["http-status-code", "internal-linking"],
};

impl SiteRule for BrokenInternalLink {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    /// A permanent redirect from the broken address (the finding's URL) to the page that
    /// replaced it, which the site's owner alone knows.
    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let path = if c.known_url { c.url.path().to_string() } else { "TODO: path of the broken link".to_string() };
        let to = "TODO: address of the page that replaced it";
        FixTemplate::some(
            FixKind::ServerConfig,
            Difficulty::Medium,
            format!("# nginx\nlocation = {path} {{\n    return 301 {to};\n}}\n\n# Apache\nRedirect 301 {path} {to}"),
            "Change the links to this address so that they point at a page that answers 200; where the page moved, \
             this redirect also keeps the links of other sites working.",
        )
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        // The verdict on each redirecting URL, found once however many pages link to it.
        let mut chains: HashMap<String, Option<String>> = HashMap::new();
        each_link(move |from: &str, target: &Answer, out: &mut Findings| {
            let detail = if target.redirect_to.is_some() {
                match chains.get(&target.url) {
                    Some(known) => known.clone(),
                    None => {
                        let verdict = broken_chain(site, target)?;
                        chains.insert(target.url.clone(), verdict.clone());
                        verdict
                    }
                }
            } else {
                broken(target).then(|| answer(target))
            };
            if let Some(detail) = detail {
                out.push(SiteFinding { url: target.url.clone(), linked_from: Some(from.to_string()), detail });
            }
            Ok(())
        })
    }
}

/// The redirects followed at most from a link's target: more is a loop or a chain no
/// visitor waits for (`redirect-loop` reports loops).
const MAX_HOPS: usize = 10;

fn broken(target: &Answer) -> bool {
    match target.status {
        Some(s) => s >= 400,
        None => target.error.is_some(),
    }
}

/// Where a redirecting URL ends: the chain (`HTTP 301 to /b, HTTP 404`) when the last URL
/// the crawl fetched answers an error; `None` when it ends on a page, leaves the crawl (a
/// URL not fetched: another site, or skipped) or loops.
fn broken_chain(site: &dyn CrawledSite, first: &Answer) -> SiteResult<Option<String>> {
    let mut steps = vec![answer(first)];
    let mut seen = vec![first.url.clone()];
    let mut next = first.redirect_to.clone();
    while let Some(url) = next {
        if seen.contains(&url) || seen.len() > MAX_HOPS {
            return Ok(None);
        }
        let Some(hop) = site.answer(&url)? else {
            return Ok(None);
        };
        if broken(&hop) {
            steps.push(answer(&hop));
            return Ok(Some(steps.join(", ")));
        }
        if hop.redirect_to.is_some() {
            steps.push(answer(&hop));
        }
        seen.push(url);
        next = hop.redirect_to;
    }
    Ok(None)
}
