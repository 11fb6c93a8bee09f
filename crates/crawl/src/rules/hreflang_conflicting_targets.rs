use std::collections::BTreeMap;

use super::prelude::*;

/// The rule: its text is `META`, its check is below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangConflictingTargets;

static META: SiteRuleMeta = SiteRuleMeta {
    id: "hreflang-conflicting-targets",
    name: "Each hreflang language names one URL",
    severity: Severity::Warning,
    threshold: "a page names two or more different URLs for the same hreflang language (or `x-default`)",
    why: "Search engines cannot tell which URL is the version for that language, and may ignore the page's hreflang \
          annotations altogether.",
    fail_example: "/en names both /de and /de-de for `hreflang=\"de\"`",
    pass_example: "/en names /de for `de` and /de-at for `de-at`",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &[],
    excluded: &[],
    glossary: &["hreflang"],
};

impl SiteRule for HreflangConflictingTargets {
    fn meta(&self) -> &'static SiteRuleMeta {
        &META
    }

    fn scan<'s>(&'s self, _: &'s dyn CrawledSite, _: &mut Findings) -> ScanResult<'s> {
        each_page(move |page: &CrawledPage, out: &mut Findings| {
            // The record's languages are already lower-cased, so `de-DE` and `de-de` are one.
            let mut by_lang: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (lang, url) in &page.hreflang {
                let urls = by_lang.entry(lang.as_str()).or_default();
                if !urls.contains(&url.as_str()) {
                    urls.push(url);
                }
            }
            for (lang, urls) in by_lang.iter().filter(|(_, u)| u.len() > 1) {
                out.push(SiteFinding {
                    url: page.url.clone(),
                    linked_from: None,
                    detail: format!("hreflang {lang} names {}", urls.join(" and ")),
                });
            }
            Ok(())
        })
    }
}
