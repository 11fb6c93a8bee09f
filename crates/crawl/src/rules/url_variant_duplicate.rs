use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct UrlVariantDuplicate;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "url-variant-duplicate",
    name: "One URL for each page",
    severity: Severity::Warning,
    threshold: "two variants of one URL (with and without a trailing slash or `index.html`, in another letter case, \
                or with a query string and the same text) both answer 200 as indexable pages and their canonicals \
                do not name one URL; reported on the less plain variant",
    why: "Each variant is a separate URL to search engines: links and signals are split between them, the crawl \
          budget is spent twice, and either may be shown.",
    fail_example: "/shoes and /Shoes both answer 200, and neither names the other as its canonical",
    pass_example: "/Shoes redirects to /shoes, or names /shoes as its canonical",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &[],
    excluded: &[],
    glossary: &[super::DuplicateContent::ID, "canonical-url"],
};

/// The file names a server answers for a directory.
const INDEX_FILES: [&str; 3] = ["index.html", "index.htm", "index.php"];

/// The other variants of `url` worth looking up: its path as it is and lower-cased, each
/// without the query, with and without a trailing slash and with `index.html`. Looked up
/// from every page, they find each pair of variants from one side at least, and cost a few
/// index lookups per page instead of a grouping of every URL of the crawl.
fn variants(url: &str) -> Vec<String> {
    let Ok(parsed) = url::Url::parse(url) else { return Vec::new() };
    let origin = parsed.origin().ascii_serialization();
    let path = parsed.path();
    let mut out = Vec::new();
    for path in [path.to_string(), path.to_lowercase()] {
        let dir = INDEX_FILES.iter().find_map(|f| path.strip_suffix(f)).unwrap_or(&path);
        let bare = dir.trim_end_matches('/');
        let forms = if bare.is_empty() {
            vec!["/".to_string(), "/index.html".to_string()]
        } else {
            vec![bare.to_string(), format!("{bare}/"), format!("{bare}/index.html")]
        };
        for form in forms {
            let candidate = format!("{origin}{form}");
            if candidate != url && !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

/// Whether `other` is one of the variants of `url` ([`variants`]): `/index.html` of `/`,
/// `/a/` of `/a`, `/shoes` of `/Shoes` (the lower case is a variant of the other, not the
/// reverse).
pub(crate) fn is_variant(other: &str, url: &str) -> bool {
    variants(url).iter().any(|v| v == other)
}

/// How plain a variant is, the plainest first: no query, lower case, no index file, no
/// trailing slash, shortest, then the URL itself (so that the order is total).
fn plainness(url: &str) -> (bool, bool, bool, bool, usize, &str) {
    let (path, query) = url.split_once('?').map_or((url, false), |(p, _)| (p, true));
    let index = INDEX_FILES.iter().any(|f| path.ends_with(f));
    let slash = path.ends_with('/') && path.matches('/').count() > 3;
    (query, path != path.to_lowercase(), index, slash, url.len(), url)
}

fn indexable(page: &CrawledPage) -> bool {
    page.status == Some(200) && page.html && !page.noindex
}

impl SiteRule for UrlVariantDuplicate {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            if !indexable(page) {
                return Ok(());
            }
            let preferred = |p: &CrawledPage| p.canonical.clone().unwrap_or_else(|| p.url.clone());
            for candidate in variants(&page.url) {
                // The answer alone first: most variants were never linked, and so not crawled.
                if !site.answer(&candidate)?.is_some_and(|a| a.status == Some(200) && a.html && !a.noindex) {
                    continue;
                }
                let Some(other) = site.page(&candidate)? else { continue };
                // A query string may select other content (a page of a list): only the same
                // text makes it a variant.
                if page.url.contains('?') && !page.same_text(&other) {
                    continue;
                }
                if preferred(page) == preferred(&other) {
                    continue;
                }
                let (variant, plain) = if plainness(&page.url) > plainness(&other.url) {
                    (&page.url, &other.url)
                } else {
                    (&other.url, &page.url)
                };
                out.push(SiteFinding {
                    url: variant.clone(),
                    linked_from: None,
                    detail: format!("variant of {plain}: both answer 200, no canonical names one of them"),
                });
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_of_a_url() {
        assert_eq!(
            variants("https://s.test/Shoes/index.html?ref=nav"),
            [
                "https://s.test/Shoes",
                "https://s.test/Shoes/",
                "https://s.test/Shoes/index.html",
                "https://s.test/shoes",
                "https://s.test/shoes/",
                "https://s.test/shoes/index.html",
            ]
        );
        assert_eq!(variants("https://s.test/a/"), ["https://s.test/a", "https://s.test/a/index.html"]);
        assert_eq!(variants("https://s.test/"), ["https://s.test/index.html"]);
        assert_eq!(variants("https://s.test/index.htm"), ["https://s.test/", "https://s.test/index.html"]);
    }

    #[test]
    fn the_plainer_variant_sorts_first() {
        let mut urls = [
            "https://s.test/a/index.html",
            "https://s.test/a?x=1",
            "https://s.test/A",
            "https://s.test/a/",
            "https://s.test/a",
        ];
        urls.sort_by_key(|u| plainness(u));
        assert_eq!(
            urls,
            [
                "https://s.test/a",
                "https://s.test/a/",
                "https://s.test/a/index.html",
                "https://s.test/A",
                "https://s.test/a?x=1"
            ]
        );
    }
}
