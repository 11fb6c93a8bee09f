//! `image-dimensions-missing`: Images declare width and height.
//!
//! - **What it checks:** fails when any `<img>` without both width and height.
//! - **Why it matters:** Without dimensions the browser cannot reserve space, and the layout shifts as images load (CLS).
//! - **Fails:** `<img src="a.png" alt="x">`
//! - **Passes:** `<img src="a.png" alt="x" width="640" height="480">`
//! - **Reference:** <https://web.dev/articles/optimize-cls>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct ImageDimensionsMissing;

static META: RuleMeta = RuleMeta {
    id: "image-dimensions-missing",
    name: "Images declare width and height",
    category: Category::Images,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "any <img> without both width and height",
    why: "Without dimensions the browser cannot reserve space, and the layout shifts as images load (CLS).",
    fail_example: "<img src=\"a.png\" alt=\"x\">",
    pass_example: "<img src=\"a.png\" alt=\"x\" width=\"640\" height=\"480\">",
    reference: "https://web.dev/articles/optimize-cls",
};

impl Rule for ImageDimensionsMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.images.is_empty() {
            return Outcome::NotApplicable;
        }
        let missing: Vec<&str> =
            page.images.iter().filter(|i| i.width.is_none() || i.height.is_none()).map(|i| i.src.as_str()).collect();
        let Some(first) = missing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Images without dimensions",
                format!("{} of {} images lack width or height attributes.", missing.len(), page.images.len()),
            )
            .current(first.to_string())
            .suggested("width=\"W\" height=\"H\""),
        )
    }
}
