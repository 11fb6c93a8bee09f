//! `image-alt-missing`: Images have alt attributes.
//!
//! - **What it checks:** fails when an `<img>` without alt (or with an alt of white space only) that is neither decorative, named otherwise nor hidden.
//! - **Why it matters:** Alt text is how search engines and screen readers understand images; images without it do not rank in image search.
//! - **Fails:** `<img src="a.png">`
//! - **Passes:** `<img src="a.png" alt="Red shoe, side view">` or alt="" for decoration
//!
//! As axe's `image-alt` (Lighthouse): images with `role=presentation` or `none`, with a name
//! from `aria-label`, `aria-labelledby` or a non-empty `title`, hidden ones (`hidden`,
//! `aria-hidden="true"`, `inert`, on them or an ancestor) and images inside `<noscript>`
//! (which a browser running scripts, like Googlebot's renderer, never builds) are not
//! counted; an alt of white space only is neither a description nor the empty alt of a
//! decorative image, and fails.
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
    threshold: "an <img> without alt (or with an alt of white space only) that is neither decorative, named otherwise nor hidden",
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
        let counted: Vec<_> = page.images.iter().filter(|i| !i.in_noscript && !i.hidden).collect();
        if counted.is_empty() {
            return Outcome::NotApplicable;
        }
        let missing: Vec<&str> = counted
            .iter()
            .filter(|i| {
                let blank = i.alt.as_deref().is_some_and(|a| !a.is_empty() && a.trim().is_empty());
                let presentational = matches!(i.role.as_deref(), Some("presentation" | "none"));
                blank || (i.alt.is_none() && !presentational && !i.labelled)
            })
            .map(|i| i.src.as_str())
            .collect();
        let Some(first) = missing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Images without alt text",
                format!("{} of {} images have no alt text.", missing.len(), counted.len()),
            )
            .current(first.to_string())
            .suggested("alt=\"describe the image\" (alt=\"\" for decorative images)"),
        )
    }
}
