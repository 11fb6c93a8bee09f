//! `mixed-content`: HTTPS page loads no subresource over HTTP.
//!
//! - **What it checks:** fails when any http: subresource.
//! - **Why it matters:** Browsers block or flag insecure subresources on secure pages, breaking images, scripts and styles.
//! - **Fails:** `<img src="http://cdn.example.com/a.png">` on an https page
//! - **Passes:** every subresource over https
//! - **Reference:** <https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct MixedContent;

static META: RuleMeta = RuleMeta {
    id: "mixed-content",
    name: "HTTPS page loads no subresource over HTTP",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 2,
    threshold: "any http: subresource",
    why: "Browsers block or flag insecure subresources on secure pages, breaking images, scripts and styles.",
    fail_example: "<img src=\"http://cdn.example.com/a.png\"> on an https page",
    pass_example: "every subresource over https",
    reference: "https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content",
};

impl Rule for MixedContent {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.parsed_url().is_none_or(|u| u.scheme() != "https") {
            return Outcome::NotApplicable;
        }
        let Some(first) = page.mixed_content.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Mixed content",
                format!("{} subresource(s) load over plain HTTP on this HTTPS page.", page.mixed_content.len()),
            )
            .current(first.clone())
            .suggested(first.replacen("http://", "https://", 1)),
        )
    }
}
