use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct PaginationBroken;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "pagination-broken",
    name: "Paginated series link both ways",
    severity: Severity::Notice,
    threshold: "a page's <link rel=next> or rel=prev names a URL of the site that answers other than 200, or a \
                page that does not name it back (`rel=prev` for its `rel=next`, `rel=next` for its `rel=prev`)",
    why: "The pagination links tie the pages of a list together for crawlers and other tools; a link to a missing \
          page or one without its reverse breaks the series, and the pages past the break are reached by fewer \
          paths.",
    fail_example: "/list?page=2 names /list?page=3 as next, and /list?page=3 names /list?page=1 as prev",
    pass_example: "each page's next names it as prev, and each page's prev names it as next",
    reference: "https://html.spec.whatwg.org/multipage/links.html#link-type-next",
    phrases: &[],
    excluded: &[],
    glossary: &["crawlable-links"],
};

impl SiteRule for PaginationBroken {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            if page.status != Some(200) || !page.html {
                return Ok(());
            }
            let links = [("next", "prev", &page.next), ("prev", "next", &page.prev)];
            for (rel, reverse, target) in links {
                let Some(target) = target.as_deref().filter(|t| *t != page.url) else { continue };
                let Some(answered) = site.answer(target)? else { continue };
                let problem = if answered.status != Some(200) || !answered.html {
                    answer(&answered)
                } else {
                    let other = site.page(target)?.unwrap_or_default();
                    let back = if reverse == "prev" { other.prev } else { other.next };
                    match back {
                        Some(back) if back == page.url => continue,
                        Some(back) => format!("it names {back} as rel={reverse}"),
                        None => format!("it has no rel={reverse}"),
                    }
                };
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("rel={rel} {target}: {problem}"),
                });
            }
            Ok(())
        })
    }
}
