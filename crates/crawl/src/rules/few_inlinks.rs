use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct FewInlinks;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "few-inlinks",
    name: "Indexable pages have more than one internal link",
    severity: Severity::Notice,
    threshold: "an indexable page other than the start URL is linked from a single crawled page",
    why: "Internal links tell search engines which pages matter and pass link value; a page one link away from \
          being an orphan is crawled less and ranks weaker.",
    fail_example: "/spare is linked from /products only",
    pass_example: "every page is linked from two or more pages (a menu, a listing, related links)",
    reference: "https://developers.google.com/search/docs/crawling-indexing/links-crawlable",
    phrases: &[],
    excluded: &[],
    glossary: &["internal-linking"],
};

impl SiteRule for FewInlinks {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("it counts every page's links to each page, and a list-mode crawl fetches only the list's pages")
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            // A page linked from none is `orphan-page`'s (or reached by a redirect only).
            if page.depth != Some(0) && page.indexable() && site.inlink_count(&page.url)? == 1 {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: site.first_inlink(&page.url)?,
                    detail: "linked from a single page".to_string(),
                });
            }
            Ok(())
        })
    }
}
