//! `viewport-not-device-width`: Viewport uses the device width.
//!
//! - **What it checks:** fails when viewport without width=device-width.
//! - **Why it matters:** A fixed-width viewport does not adapt to the screen.
//! - **Fails:** `<meta name="viewport" content="width=1024">`
//! - **Passes:** `<meta name="viewport" content="width=device-width, initial-scale=1">`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/best-practices/viewport>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct ViewportNotDeviceWidth;

static META: RuleMeta = RuleMeta {
    id: "viewport-not-device-width",
    name: "Viewport uses the device width",
    category: Category::Mobile,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "viewport without width=device-width",
    why: "A fixed-width viewport does not adapt to the screen.",
    fail_example: "<meta name=\"viewport\" content=\"width=1024\">",
    pass_example: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/viewport",
};

impl Rule for ViewportNotDeviceWidth {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(v) = &page.viewport else { return Outcome::NotApplicable };
        if util::viewport_has(v, "width", |x| x.eq_ignore_ascii_case("device-width")) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Viewport not set to device width", "The viewport does not use width=device-width.")
                .current(v.clone())
                .suggested(util::VIEWPORT),
        )
    }
}
