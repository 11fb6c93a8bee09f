use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HreflangRelativeUrl;

static META: RuleMeta = RuleMeta {
    id: "hreflang-relative-url",
    name: "hreflang URLs are absolute",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an hreflang href that is relative",
    why: "Google requires fully qualified URLs in hreflang annotations.",
    fail_example: "<link rel=\"alternate\" hreflang=\"de\" href=\"/de/\">",
    pass_example: "<link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/de/\">",
    reference: "https://developers.google.com/search/docs/specialty/international/localized-versions",
    phrases: &["hreflang relative"],
    excluded: &[],
    glossary: &["hreflang"],
};

impl Rule for HreflangRelativeUrl {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_hreflang().next().is_none() {
            return Outcome::NotApplicable;
        }
        let Some(bad) = page.head_hreflang().find(|h| !util::is_absolute_url(&h.href)) else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new("Relative hreflang URL", "An hreflang alternate uses a relative URL; use absolute URLs.")
                .current(bad.href.clone())
                .suggested(bad.url.clone().unwrap_or_default())
                .at(page, page.head_hreflang().filter(|h| !util::is_absolute_url(&h.href)).map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::hreflang_fix(c)
    }
}
