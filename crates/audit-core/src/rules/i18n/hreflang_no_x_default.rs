use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangNoXDefault;

static META: RuleMeta = RuleMeta {
    id: "hreflang-no-x-default",
    name: "hreflang set has an x-default",
    category: Category::Internationalization,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 70,
    weight: 1,
    threshold: "no hreflang=x-default",
    why: "x-default tells search engines which version to show users whose language is not listed.",
    fail_example: "alternates without x-default",
    pass_example: "<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.com/\">",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["x default"],
    excluded: &[],
    glossary: &["hreflang"],
};

impl Rule for HreflangNoXDefault {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_hreflang().next().is_none() {
            return Outcome::NotApplicable;
        }
        if page.head_hreflang().any(|h| h.lang.eq_ignore_ascii_case("x-default")) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("hreflang without x-default", "The hreflang set has no x-default alternate.")
                .suggested("<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.com/\">")
                .at(page, page.head_hreflang().map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::hreflang_fix(c)
    }
}
