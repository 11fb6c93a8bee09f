//! Within one page's head: an hreflang value given twice with different URLs (which one is
//! the version for that language?), or one URL given for two languages (a page is in one
//! language: pointing every missing translation at the home page is the usual cause). Regions
//! of one language may share a URL (`en-GB` and `en-US` both to an English page), and so may
//! `x-default`. Codes of one language compare equal (`nb` and `no`). Across the pages of a
//! site, a crawl's `hreflang-conflicting-targets` compares the sets of the pages.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangConflictingEntries;

static META: RuleMeta = RuleMeta {
    id: "hreflang-conflicting-entries",
    name: "hreflang entries of the page agree",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 85,
    weight: 1,
    threshold: "the head's hreflang gives one code two URLs, or one URL for two languages (x-default aside)",
    why: "Search engines cannot tell which version to show for the language, and may ignore the conflicting annotations or the whole set.",
    fail_example: "hreflang=\"de\" and hreflang=\"fr\" both naming https://example.com/",
    pass_example: "each language its own URL; en-GB and en-US may share one",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["hreflang conflict", "several languages", "multiple languages for one url", "hreflang entries"],
    excluded: &["x default"],
    glossary: &["hreflang"],
};

/// The head's valid hreflang entries that conflict with an earlier one, each with the earlier
/// entry it conflicts with.
fn conflicts(page: &Page) -> Vec<(&crate::page::Hreflang, &crate::page::Hreflang)> {
    let entries: Vec<_> = super::language_entries(page).filter(|h| h.url.is_some()).collect();
    let mut out = Vec::new();
    for (i, h) in entries.iter().enumerate() {
        let url = h.url.as_deref().unwrap_or_default();
        let (language, _, _) = util::language_script_region(&h.lang);
        let earlier = entries[..i].iter().find(|e| {
            let other = e.url.as_deref().unwrap_or_default();
            let same_code = e.lang.trim().eq_ignore_ascii_case(h.lang.trim());
            (same_code && !util::same_url(other, url))
                || (!same_code && util::same_url(other, url) && util::language_script_region(&e.lang).0 != language)
        });
        if let Some(e) = earlier {
            out.push((*h, *e));
        }
    }
    out
}

impl Rule for HreflangConflictingEntries {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_hreflang().next().is_none() {
            return Outcome::NotApplicable;
        }
        let found = conflicts(page);
        let Some((h, e)) = found.first() else { return Outcome::Pass };
        let (url, earlier_url) = (h.url.as_deref().unwrap_or_default(), e.url.as_deref().unwrap_or_default());
        let what = if e.lang.trim().eq_ignore_ascii_case(h.lang.trim()) {
            format!("hreflang \"{}\" names both {earlier_url} and {url}", h.lang.trim())
        } else {
            format!("{url} is named for both hreflang \"{}\" and \"{}\"", e.lang.trim(), h.lang.trim())
        };
        Outcome::Fail(
            Finding::new(
                "Conflicting hreflang entries",
                match found.len() {
                    1 => format!("An entry of the hreflang set conflicts with an earlier one: {what}."),
                    n => format!("{n} entries of the hreflang set conflict with earlier ones; the first: {what}."),
                },
            )
            .current(format!("hreflang=\"{}\" {earlier_url}; hreflang=\"{}\" {url}", e.lang.trim(), h.lang.trim()))
            .suggested("one URL for each language, each URL for one language")
            .at(page, found.iter().flat_map(|(h, e)| [e.spot, h.spot])),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // The page's set without the entries that conflict with an earlier one.
        let dropped: Vec<(String, String)> = c
            .page
            .map(|p| {
                conflicts(p)
                    .iter()
                    .map(|(h, _)| (h.lang.trim().to_string(), h.url.clone().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default();
        let kept: Vec<String> = c
            .page
            .map(|p| {
                p.head_hreflang()
                    .filter(|h| {
                        !dropped.iter().any(|(l, u)| {
                            h.lang.trim().eq_ignore_ascii_case(l)
                                && h.url.as_deref().is_some_and(|x| util::same_url(x, u))
                        })
                    })
                    .filter_map(|h| {
                        h.url.as_deref().map(|u| {
                            format!(
                                "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">",
                                attr(h.lang.trim()),
                                attr(u)
                            )
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut code = kept.join("\n");
        for (lang, _) in &dropped {
            code.push_str(&format!(
                "\n<link rel=\"alternate\" hreflang=\"{}\" href=\"TODO: the URL of the {} version, or remove this line\">",
                attr(lang),
                attr(lang)
            ));
        }
        if code.trim().is_empty() {
            code = "<link rel=\"alternate\" hreflang=\"TODO: language\" href=\"TODO: the URL of that language's version\">"
                .to_string();
        }
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Medium,
            code.trim().to_string(),
            "Give each language one URL and each URL one language (regions of one language may share it): this keeps each first entry; give each dropped language the URL of its own version, or leave it out until the translation exists.",
        )
    }
}
