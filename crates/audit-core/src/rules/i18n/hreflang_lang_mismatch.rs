//! The hreflang annotations that name the page itself (its self-reference, `x-default`
//! aside) say which language and region the page is for; `<html lang>` says which language its
//! text is in. The two are compared by language subtag, and by region when both give one:
//! `lang="en"` agrees with `hreflang="en-GB"`, `lang="en-US"` does not. An invalid `lang` is
//! `html-lang-invalid`'s, and a page without a self-reference is `hreflang-no-self-reference`'s.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangLangMismatch;

static META: RuleMeta = RuleMeta {
    id: "hreflang-lang-mismatch",
    name: "hreflang of the page agrees with its lang",
    category: Category::Internationalization,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "an hreflang naming the page itself gives another language (or another region) than <html lang>",
    why: "One of the two is wrong: either the page is listed for the wrong language in its hreflang set, or its lang tells browsers, screen readers and translators the wrong language.",
    fail_example: "<html lang=\"de\"> with <link rel=\"alternate\" hreflang=\"en\" href=\"(this page)\">",
    pass_example: "<html lang=\"en\"> with hreflang=\"en\" or \"en-GB\" for this page",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["hreflang lang", "hreflang language mismatch", "lang attribute hreflang"],
    excluded: &[],
    glossary: &["hreflang", "html-lang"],
};

impl Rule for HreflangLangMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(lang) = page.lang.as_deref().map(str::trim).filter(|l| util::is_valid_bcp47(l)) else {
            return Outcome::NotApplicable;
        };
        let selves: Vec<_> = page
            .head_hreflang()
            .filter(|h| !h.lang.trim().eq_ignore_ascii_case("x-default"))
            .filter(|h| h.url.as_deref().is_some_and(|u| util::same_url(u, &page.final_url)))
            .collect();
        if selves.is_empty() {
            return Outcome::NotApplicable;
        }
        let (language, region) = util::language_and_region(lang);
        let differing: Vec<_> = selves
            .iter()
            .filter(|h| {
                let (l, r) = util::language_and_region(&h.lang);
                l != language || matches!((&r, &region), (Some(a), Some(b)) if a != b)
            })
            .collect();
        let Some(first) = differing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "hreflang and lang disagree",
                format!(
                    "The page lists itself for hreflang \"{}\" but its <html lang> is \"{lang}\"; one of them names the wrong language.",
                    first.lang.trim()
                ),
            )
            .current(format!("lang=\"{lang}\", hreflang=\"{}\"", first.lang.trim()))
            .suggested(format!("<html lang=\"{}\">, or hreflang=\"{lang}\" for this page", first.lang.trim()))
            .at(page, std::iter::once(page.spots.html).chain(differing.iter().map(|h| h.spot))),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let hreflang = c
            .page
            .and_then(|p| {
                p.head_hreflang()
                    .find(|h| {
                        !h.lang.eq_ignore_ascii_case("x-default")
                            && h.url.as_deref().is_some_and(|u| util::same_url(u, &p.final_url))
                    })
                    .map(|h| h.lang.trim().to_string())
            })
            .unwrap_or_else(|| "TODO: the language of the page's text".to_string());
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<html lang=\"{}\">", attr(&hreflang)),
            "Give the page's language once and the same in both places: this sets <html lang> to the hreflang the page is listed under; if the text is in the language lang named, correct the hreflang annotations on every page of the set instead.",
        )
    }
}
