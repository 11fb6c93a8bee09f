use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangToBadUrl;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "hreflang-to-bad-url",
    name: "Hreflang alternates are indexable pages",
    severity: Severity::Warning,
    threshold: "a page answering 200 names, as an hreflang alternate, a URL of the site that redirects, answers \
                other than 200, cannot be fetched, is `noindex` or names another URL as its canonical",
    why: "Search engines pair language versions only between indexable pages that name each other; an alternate \
          that redirects or may not be indexed breaks the pair, and the wrong version is shown.",
    fail_example: "/en names /de-old as its German version, and /de-old answers 301 to /de",
    pass_example: "/en names /de, which answers 200 and may be indexed",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &[],
    excluded: &[],
    glossary: &["hreflang"],
};

impl SiteRule for HreflangToBadUrl {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            if page.status != Some(200) {
                return Ok(());
            }
            for (lang, alternate) in page.hreflang.iter().filter(|(_, u)| *u != page.url) {
                let Some(target) = site.answer(alternate)? else { continue };
                let problem = if target.status != Some(200) {
                    answer(&target)
                } else if target.noindex {
                    "noindex".to_string()
                } else {
                    // Only a page answering 200 has its canonical read.
                    match site.page(alternate)?.and_then(|t| t.canonical).filter(|c| c != alternate) {
                        Some(canonical) => format!("canonical {canonical}"),
                        None => continue,
                    }
                };
                out.push(SiteFinding {
                    url: alternate.clone(),
                    linked_from: Some(page.url.clone()),
                    detail: format!("named as hreflang {lang}: {problem}"),
                });
            }
            Ok(())
        })
    }
}
