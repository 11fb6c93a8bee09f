//! `image-alt-missing`: Images have alt attributes.
//!
//! - **What it checks:** fails when any <img> without alt.
//! - **Why it matters:** Alt text is how search engines and screen readers understand images; images without it do not rank in image search.
//! - **Fails:** <img src="a.png">
//! - **Passes:** <img src="a.png" alt="Red shoe, side view"> or alt="" for decoration
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/accessibility/image-alt>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct ImageAltMissing;

static META: RuleMeta = RuleMeta {
    id: "image-alt-missing",
    name: "Images have alt attributes",
    category: Category::Images,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 3,
    threshold: "any <img> without alt",
    why: "Alt text is how search engines and screen readers understand images; images without it do not rank in image search.",
    fail_example: "<img src=\"a.png\">",
    pass_example: "<img src=\"a.png\" alt=\"Red shoe, side view\"> or alt=\"\" for decoration",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/image-alt",
};

impl Rule for ImageAltMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.images.is_empty() {
            return Outcome::NotApplicable;
        }
        let missing: Vec<&str> = page.images.iter().filter(|i| i.alt.is_none()).map(|i| i.src.as_str()).collect();
        let Some(first) = missing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Images without alt text",
                format!("{} of {} images have no alt attribute.", missing.len(), page.images.len()),
            )
            .current(first.to_string())
            .suggested("alt=\"describe the image\" (alt=\"\" for decorative images)"),
        )
    }
}
