use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct PaginationBroken;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "pagination-broken",
    name: "Paginated series link both ways",
    severity: Severity::Notice,
    threshold: "a page's <link rel=next> or rel=prev names a URL of the site that answers other than 200, or a \
                page that does not name it back (`rel=prev` for its `rel=next`, `rel=next` for its `rel=prev`; a \
                URL that redirects to the page, or the page's own variant (with or without `index.html` or the \
                final slash, or in lower case) answering the same text, names it too: `url-variant-duplicate` and this rule's \
                finding on the other page report those)",
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

/// The most redirects followed from a back link to the page (as `broken-internal-link` follows).
const MAX_HOPS: usize = 10;

/// Whether `back`, another URL than `page`'s, still leads a reader back to it: it redirects
/// to the page, or it is the page's variant (`/` and `/index.html`, `/a` and `/a/`) and
/// answered the same text. Sphinx names a book's first page `index.html` while a crawl starts
/// at `/`: the series links both ways, and the duplicate URL is `url-variant-duplicate`'s.
fn names_the_page(site: &dyn CrawledSite, back: &str, page: &CrawledPage) -> SiteResult<bool> {
    let Some(answered) = site.answer(back)? else { return Ok(false) };
    if let Some(first) = answered.redirect_to.as_deref() {
        let path = follow_redirects(site, back, first, MAX_HOPS)?;
        return Ok(matches!(path, RedirectPath::Ends(chain) if chain.last() == Some(&page.url)));
    }
    if !super::url_variant_duplicate::is_variant(back, &page.url) {
        return Ok(false);
    }
    Ok(page.same_text(&site.page(back)?.unwrap_or_default()))
}

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
                        Some(back) if back == page.url || names_the_page(site, &back, page)? => continue,
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
