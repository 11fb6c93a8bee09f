//! `viewport-missing`: Page has a viewport meta tag.
//!
//! - **What it checks:** fails when no `<meta name=viewport>`.
//! - **Why it matters:** Without a viewport the page renders at desktop width on phones; Google indexes the mobile version.
//! - **Fails:** no viewport
//! - **Passes:** `<meta name="viewport" content="width=device-width, initial-scale=1">`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/best-practices/viewport>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct ViewportMissing;

static META: RuleMeta = RuleMeta {
    id: "viewport-missing",
    name: "Page has a viewport meta tag",
    category: Category::Mobile,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 95,
    weight: 2,
    threshold: "no <meta name=viewport>",
    why: "Without a viewport the page renders at desktop width on phones; Google indexes the mobile version.",
    fail_example: "no viewport",
    pass_example: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/viewport",
};

impl Rule for ViewportMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.viewport.is_some() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Viewport meta tag missing",
                "The page has no viewport meta tag, so phones render it at desktop width.",
            )
            .suggested(util::VIEWPORT),
        )
    }
}
