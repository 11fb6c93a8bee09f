use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangNoSelfReference;

static META: RuleMeta = RuleMeta {
    id: "hreflang-no-self-reference",
    name: "hreflang set includes the page itself",
    category: Category::Internationalization,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no alternate points to the page's own URL",
    why: "Each language version must list itself among its alternates, or search engines may ignore the set.",
    fail_example: "alternates for other languages only",
    pass_example: "an alternate for this page's own URL too",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["hreflang self"],
    excluded: &[],
    glossary: &["hreflang"],
};

impl Rule for HreflangNoSelfReference {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_hreflang().next().is_none() {
            return Outcome::NotApplicable;
        }
        if page.head_hreflang().any(|h| h.url.as_deref().is_some_and(|u| util::same_url(u, &page.final_url))) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "hreflang without self-reference",
                "None of the hreflang alternates points to this page itself.",
            )
            .suggested(format!(
                "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">",
                page.lang.as_deref().unwrap_or("en"),
                page.final_url
            ))
            .at(page, page.head_hreflang().map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::hreflang_fix(c)
    }
}
