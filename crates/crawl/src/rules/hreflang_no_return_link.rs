use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangNoReturnLink;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "hreflang-no-return-link",
    name: "Hreflang alternates link back",
    severity: Severity::Warning,
    threshold: "an indexable page A names page B as an hreflang alternate and B, crawled and indexable, does not \
                name A (an alternate that redirects, answers an error, is `noindex` or names another canonical is \
                `hreflang-to-bad-url`'s, whose fix is another URL, not a return link; a page that may not be \
                indexed needs no return link)",
    why: "Search engines ignore hreflang annotations that are not confirmed by the other page, so the language versions are not paired.",
    fail_example: "/en names /de as its German version, and /de names no English version",
    pass_example: "/en and /de name each other",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &[],
    excluded: &[],
    glossary: &["hreflang"],
};

impl SiteRule for HreflangNoReturnLink {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            if !page.indexable() {
                return Ok(());
            }
            for (lang, alternate) in page.hreflang.iter().filter(|(_, u)| *u != page.url) {
                let Some(target) = site.page(alternate)?.filter(CrawledPage::indexable) else { continue };
                if !target.hreflang.iter().any(|(_, u)| *u == page.url) {
                    out.push(SiteFinding {
                        url: target.url.clone(),
                        linked_from: Some(page.url.clone()),
                        detail: format!("named as hreflang {lang}, names no return link"),
                    });
                }
            }
            Ok(())
        })
    }
}
