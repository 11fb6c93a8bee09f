//! Stricter than Lighthouse's `hreflang`, which checks the language subtag against every
//! known ISO 639 code and ignores the region: Google's documentation asks for an ISO 639-1
//! language (`eng` for `en` fails) and an ISO 3166-1 alpha-2 region (`en-UK` fails). A
//! language without an ISO 639-1 code takes its ISO 639-2 code, as BCP 47 writes it (`ast`).
//! The hreflang rules read the links of the head only, as search engines do.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangInvalidCode;

static META: RuleMeta = RuleMeta {
    id: "hreflang-invalid-code",
    name: "hreflang values are valid codes",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold:
        "an hreflang that is not ISO 639-1 (ISO 639-2 for a language without one) + optional ISO 3166-1, or x-default",
    why: "Search engines ignore alternates with invalid codes (en-UK is a classic: the region is GB).",
    fail_example: "<link rel=\"alternate\" hreflang=\"en-UK\" href=\"...\">",
    pass_example: "<link rel=\"alternate\" hreflang=\"en-GB\" href=\"...\">",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["invalid hreflang", "hreflang code", "wrong hreflang"],
    excluded: &[],
    glossary: &["hreflang"],
};

impl Rule for HreflangInvalidCode {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_hreflang().next().is_none() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<&str> =
            page.head_hreflang().map(|h| h.lang.as_str()).filter(|l| !util::is_valid_hreflang(l)).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Invalid hreflang codes",
                format!("{} hreflang value(s) are not valid language-region codes.", bad.len()),
            )
            .current(first.to_string())
            .suggested("ISO 639-1 language, optional ISO 3166-1 region: en, en-GB, x-default")
            .at(page, page.head_hreflang().filter(|h| !util::is_valid_hreflang(&h.lang)).map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::hreflang_fix(c)
    }
}
