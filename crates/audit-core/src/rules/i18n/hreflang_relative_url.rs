//! `hreflang-relative-url`: hreflang URLs are absolute.
//!
//! - **What it checks:** fails when an hreflang href that is relative.
//! - **Why it matters:** Google requires fully qualified URLs in hreflang annotations.
//! - **Fails:** `<link rel="alternate" hreflang="de" href="/de/">`
//! - **Passes:** `<link rel="alternate" hreflang="de" href="https://example.com/de/">`
//! - **Reference:** <https://developers.google.com/search/docs/specialty/international/localized-versions>

use crate::rules::prelude::*;

/// See the module documentation.
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
                .suggested(bad.url.clone().unwrap_or_default()),
        )
    }
}
