use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct NofollowOnlyInlinks;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "nofollow-only-inlinks",
    name: "Indexable pages are reached by a followed internal link",
    severity: Severity::Warning,
    threshold: "an indexable page other than the start URL is linked from crawled pages, but every one of those \
                links carries rel nofollow, ugc or sponsored or sits on a page whose robots directives say nofollow",
    why: "A nofollow link asks search engines not to follow it nor pass it link value: a page reached only \
          through such links is discovered only by its sitemap, if at all, and gets none of the site's internal \
          link value, although the site wants it indexed.",
    fail_example: "/offers is linked only by <a href=\"/offers\" rel=\"nofollow\"> and listed in the sitemap",
    pass_example: "at least one page links to /offers without nofollow (a menu, a listing)",
    reference: "https://developers.google.com/search/docs/crawling-indexing/qualify-outbound-links",
    phrases: &[],
    excluded: &[],
    glossary: &["nofollow", "internal-linking"],
};

impl SiteRule for NofollowOnlyInlinks {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn skipped_in_list_mode(&self) -> Option<&'static str> {
        Some("it reads every page's links to each page, and a list-mode crawl fetches only the list's pages")
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            // The crawl follows no nofollow link, so such a page is fetched only when a sitemap,
            // a redirect or a canonical names it. A noindex or canonicalised page linked with
            // nofollow is consistent (the site hides it), so only indexable pages are judged; a
            // page linked from none is `orphan-page`'s.
            if page.depth == Some(0) || !page.indexable() {
                return Ok(());
            }
            let all = site.inlink_count(&page.url)?;
            if all > 0 && site.followed_inlink_count(&page.url)? == 0 {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: site.first_inlink(&page.url)?,
                    detail: if all == 1 {
                        "linked from 1 page, with nofollow".to_string()
                    } else {
                        format!("linked from {all} pages, all with nofollow")
                    },
                });
            }
            Ok(())
        })
    }
}
