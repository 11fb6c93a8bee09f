//! The hreflang annotations that name the page itself (its self-reference, `x-default`
//! aside) say which language and region the page is for; `<html lang>` says which language its
//! text is in. The two are compared by language subtag, and by script and region when both
//! give one: `lang="en"` agrees with `hreflang="en-GB"`, `lang="en-US"` does not. Codes of one
//! language compare equal (`nb` and `no`, `iw` and `he`). An invalid `lang` is
//! `html-lang-invalid`'s, an invalid hreflang `hreflang-invalid-code`'s, and a page without a
//! self-reference `hreflang-no-self-reference`'s.

use crate::page::Hreflang;
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
    threshold: "a valid hreflang naming the page itself gives another language (or script, or region) than a valid <html lang>",
    why: "One of the two is wrong: either the page is listed for the wrong language in its hreflang set, or its lang tells browsers, screen readers and translators the wrong language.",
    fail_example: "<html lang=\"de\"> with <link rel=\"alternate\" hreflang=\"en\" href=\"(this page)\">",
    pass_example: "<html lang=\"en\"> with hreflang=\"en\" or \"en-GB\" for this page",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["hreflang and lang", "hreflang lang", "hreflang language mismatch", "lang attribute hreflang"],
    excluded: &[],
    glossary: &["hreflang", "html-lang"],
};

/// The page's valid `lang`, and the valid hreflang annotations of the head that name the page
/// itself (x-default aside) with those of them that disagree with it; `None` when the rule does
/// not concern the page.
fn self_references(page: &Page) -> Option<(&str, Vec<&Hreflang>, Vec<&Hreflang>)> {
    let lang = page.lang.as_deref().map(str::trim).filter(|l| util::is_valid_bcp47(l))?;
    let selves: Vec<&Hreflang> = super::language_entries(page)
        .filter(|h| h.url.as_deref().is_some_and(|u| util::same_url(u, &page.final_url)))
        .collect();
    if selves.is_empty() {
        return None;
    }
    let (language, script, region) = util::language_script_region(lang);
    let differ = |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(a), Some(b)) if a != b);
    let differing = selves
        .iter()
        .copied()
        .filter(|h| {
            let (l, s, r) = util::language_script_region(&h.lang);
            l != language || differ(&s, &script) || differ(&r, &region)
        })
        .collect();
    Some((lang, selves, differing))
}

/// The `lang` the fix suggests: the hreflang the page is listed under, or its bare language
/// when the page lists itself for several regions of that language.
fn suggested_lang(selves: &[&Hreflang], first: &Hreflang) -> String {
    let (language, _, _) = util::language_script_region(&first.lang);
    let regions: Vec<_> = selves.iter().map(|h| util::language_script_region(&h.lang)).collect();
    if regions.len() > 1 && regions.iter().all(|(l, _, _)| *l == language) && regions.iter().any(|r| *r != regions[0]) {
        first.lang.trim().split(['-', '_']).next().unwrap_or_default().to_string()
    } else {
        first.lang.trim().to_string()
    }
}

impl Rule for HreflangLangMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some((lang, selves, differing)) = self_references(page) else { return Outcome::NotApplicable };
        let Some(first) = differing.first() else { return Outcome::Pass };
        let listed = first.lang.trim();
        Outcome::Fail(
            Finding::new(
                "hreflang and lang disagree",
                format!(
                    "The page lists itself for hreflang \"{listed}\" but its <html lang> is \"{lang}\"; one of them names the wrong language or region."
                ),
            )
            .current(format!("lang=\"{lang}\", hreflang=\"{listed}\""))
            .suggested(format!("<html lang=\"{}\">, or hreflang=\"{lang}\" for this page", suggested_lang(&selves, first)))
            .at(page, std::iter::once(page.spots.html).chain(differing.iter().map(|h| h.spot))),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let lang = c
            .page
            .and_then(self_references)
            .and_then(|(_, selves, differing)| differing.first().map(|first| suggested_lang(&selves, first)))
            .unwrap_or_else(|| "TODO: the language of the page's text".to_string());
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<html lang=\"{}\">", attr(&lang)),
            "Give the page's language the same in both places: this sets <html lang> to the hreflang the page is listed under; if the text is in the language lang named, correct the hreflang annotations on every page of the set instead.",
        )
    }
}
