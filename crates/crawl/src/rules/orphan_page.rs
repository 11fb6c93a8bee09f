use audit_core::fix::{attr, Difficulty, FixCtx, FixKind, FixTemplate};

use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct OrphanPage;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "orphan-page",
    name: "Sitemap pages are linked",
    severity: Severity::Warning,
    threshold: "a crawled page listed in a sitemap answers 2xx and is linked from no other crawled page (a redirect \
                to it counts as a link); a sitemap URL that answers an error or a redirect is \
                `sitemap-non-indexable-url`'s, not an orphan page to link",
    why: "A page nothing links to gets no link value and is found by crawlers only through the sitemap, if at all.",
    fail_example: "/lonely is in sitemap.xml, and no page links to it",
    pass_example: "every sitemap page is linked from some page",
    reference: "https://developers.google.com/search/docs/crawling-indexing/links-crawlable",
    phrases: &["orphan page", "orphan url"],
    excluded: &[],
    glossary: &["internal-linking"],
};

impl SiteRule for OrphanPage {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("it needs every page's links to each page, and a list-mode crawl fetches only the list's pages")
    }

    /// A link to the page, to place on a related page of the site.
    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!(
                "<a href=\"{}\">{}</a>",
                attr(&c.url_or_todo()),
                attr(&c.topic_or_todo("words that say what the page is about"))
            ),
            "Link to this page from a related page of the site (a category, a hub, an article on the same topic), \
             so that crawlers and visitors reach it without the sitemap.",
        )
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |p: &CrawledPage, out: &mut Findings| {
            // A URL that a crawled page redirects to is reached through that page's links.
            // A sitemap URL that answers 404 or redirects is not a page to link to (the fix
            // would link a broken URL): `sitemap-non-indexable-url` reports it.
            if p.depth != Some(0)
                && p.status.is_some_and(|s| (200..300).contains(&s))
                && site.in_sitemap(&p.url)?
                && site.inlink_count(&p.url)? == 0
                && !site.redirected_to(&p.url)?
            {
                out.push(SiteFinding {
                    url: p.url.clone(),
                    linked_from: None,
                    detail: "in a sitemap, linked from no crawled page".to_string(),
                });
            }
            Ok(())
        })
    }
}
