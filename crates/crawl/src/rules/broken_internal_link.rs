use std::collections::HashMap;

use audit_core::fix::{Difficulty, FixCtx, FixKind, FixTemplate};

use super::prelude::*;
use super::Reads;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct BrokenInternalLink;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "broken-internal-link",
    name: "Internal links reach a page",
    severity: Severity::Critical,
    threshold: "a link to a URL of the site answers 4xx or 5xx, cannot be fetched, or redirects (through up to 10 redirects) to a URL that does; so does where a page's refresh (meta or `Refresh` header) sends browsers, which the crawl follows (the finding says it is a refresh)",
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
        Ok(Some(Box::new(BrokenTargets { site, chains: HashMap::new(), pass: Reads::InternalLinks })))
    }
}

/// The internal links' pass, then the pages' for their refresh targets.
struct BrokenTargets<'s> {
    site: &'s dyn CrawledSite,
    /// The verdict on each redirecting URL, found once however many pages link to it.
    chains: HashMap<String, Option<String>>,
    pass: Reads,
}

impl BrokenTargets<'_> {
    /// How `target` is broken, or `None`.
    fn verdict(&mut self, target: &Answer) -> SiteResult<Option<String>> {
        if target.redirect_to.is_none() {
            return Ok(broken(target).then(|| answer(target)));
        }
        if let Some(known) = self.chains.get(&target.url) {
            return Ok(known.clone());
        }
        let verdict = broken_chain(self.site, target)?;
        self.chains.insert(target.url.clone(), verdict.clone());
        Ok(verdict)
    }
}

impl Scan for BrokenTargets<'_> {
    fn reads(&self) -> Reads {
        self.pass
    }

    fn link(&mut self, from: &str, target: &Answer, out: &mut Findings) -> SiteResult<()> {
        if let Some(detail) = self.verdict(target)? {
            out.push(SiteFinding { url: target.url.clone(), linked_from: Some(from.to_string()), detail });
        }
        Ok(())
    }

    /// A page's refresh target (fetched by the crawl from a page that answered 2xx; no link,
    /// so not in the links' pass).
    fn page(&mut self, page: &CrawledPage, out: &mut Findings) -> SiteResult<()> {
        let Some(to) = page.refresh.as_deref().filter(|to| *to != page.url) else { return Ok(()) };
        let Some(target) = self.site.answer(to)? else { return Ok(()) };
        if let Some(detail) = self.verdict(&target)? {
            out.push(SiteFinding {
                url: target.url.clone(),
                linked_from: Some(page.url.clone()),
                detail: format!("{detail} (where the page's refresh sends browsers)"),
            });
        }
        Ok(())
    }

    fn end(&mut self, _: &mut Findings) -> SiteResult<Next> {
        if self.pass == Reads::InternalLinks {
            self.pass = Reads::Pages;
            return Ok(Next::ReadAgain);
        }
        Ok(Next::Done)
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
