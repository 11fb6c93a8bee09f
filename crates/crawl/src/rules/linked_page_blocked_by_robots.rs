use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct LinkedPageBlockedByRobots;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "linked-page-blocked-by-robots",
    name: "Linked pages may be crawled",
    severity: Severity::Notice,
    threshold: "a crawled page links to a URL of the site that the site's robots.txt keeps crawlers from (or that an \
                unreachable robots.txt keeps out)",
    why: "Search engines cannot read a blocked page, yet may index its URL from the links alone, without a title or \
          description; the links' value ends there.",
    fail_example: "/a links to /private/offer, and robots.txt has `Disallow: /private`",
    pass_example: "no crawled page links to a URL robots.txt disallows",
    reference: "https://developers.google.com/search/docs/crawling-indexing/robots/intro",
    phrases: &[],
    excluded: &[],
    glossary: &["robots-txt", "internal-linking"],
};

impl SiteRule for LinkedPageBlockedByRobots {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn check(&self, site: &dyn CrawledSite, out: &mut Findings) -> SiteResult<()> {
        site.robots_blocked(&mut |url, reason| {
            // A URL named only by a sitemap, a canonical or a redirect is no linked page.
            let Some(from) = site.first_inlink(url)? else { return Ok(()) };
            let n = site.inlink_count(url)?;
            let pages = if n == 1 { "1 page".to_string() } else { format!("{n} pages") };
            out.push(SiteFinding {
                url: url.to_string(),
                linked_from: Some(from),
                detail: format!("skipped for {reason}; linked from {pages}"),
            });
            Ok(())
        })
    }
}
