//! A return link confirms an hreflang pair only if it names the page for the language the
//! page gives itself: when page A names itself `en` and names B, and B names A back only as
//! `fr`, the two disagree on what A is, and search engines may pair neither. A page that names
//! no language for itself is `hreflang-no-self-reference`'s, and a B that names A for no
//! language at all is `hreflang-no-return-link`'s; `x-default` is a role, not a language,
//! and is left out on both sides. Codes are compared as the record keeps them, lower-cased
//! (`en-US` and `en-us` are one); an invalid code is `hreflang-invalid-code`'s.

use std::collections::BTreeSet;

use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangInconsistentReturn;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "hreflang-inconsistent-return",
    name: "Hreflang return links name the page's own language",
    severity: Severity::Warning,
    threshold: "an indexable page A names itself with an hreflang language and names page B, and B, crawled and \
                indexable, names A back only with other languages (`x-default` left out on both sides)",
    why: "The two pages disagree on which language A is, so search engines cannot confirm the pair and may show the wrong version, or ignore the annotations.",
    fail_example: "/en names itself `en` and /de as `de`; /de names /en as `fr`",
    pass_example: "/en names itself `en` and /de as `de`; /de names /en as `en`",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &[],
    excluded: &[],
    glossary: &["hreflang"],
};

impl SiteRule for HreflangInconsistentReturn {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, site: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            // A record keeps a bounded list of alternates: with some left out, a return link
            // may be among them, and nothing is said.
            if !page.indexable() || page.hreflang_total.is_some() {
                return Ok(());
            }
            let own: BTreeSet<&str> = languages_for(page, &page.url).collect();
            if own.is_empty() {
                return Ok(());
            }
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            for (_, alternate) in page.hreflang.iter().filter(|(_, u)| *u != page.url) {
                if !seen.insert(alternate) {
                    continue;
                }
                let Some(target) = site.page(alternate)?.filter(|t| t.indexable() && t.hreflang_total.is_none()) else {
                    continue;
                };
                let back: Vec<&str> = languages_for(&target, &page.url).collect();
                if back.is_empty() || back.iter().any(|l| own.contains(l)) {
                    continue;
                }
                out.push(SiteFinding {
                    url: target.url.clone(),
                    linked_from: Some(page.url.clone()),
                    detail: format!(
                        "names {} as hreflang {}, which names itself {}",
                        page.url,
                        back.join(", "),
                        own.iter().copied().collect::<Vec<_>>().join(", ")
                    ),
                });
            }
            Ok(())
        })
    }
}

/// The languages (not `x-default`) a page's hreflang alternates give `url`.
fn languages_for<'p>(page: &'p CrawledPage, url: &'p str) -> impl Iterator<Item = &'p str> + 'p {
    page.hreflang.iter().filter(move |(lang, u)| u == url && lang != "x-default").map(|(lang, _)| lang.as_str())
}
