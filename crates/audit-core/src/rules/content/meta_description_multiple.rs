//! `meta-description-multiple`: Page has one meta description.
//!
//! - **What it checks:** fails when more than one meta description.
//! - **Why it matters:** Several descriptions are ambiguous; search engines use one of them or none.
//! - **Fails:** two `<meta name=description>`
//! - **Passes:** one
//! - **Reference:** <https://www.seonaut.org/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionMultiple;

static META: RuleMeta = RuleMeta {
    id: "meta-description-multiple",
    name: "Page has one meta description",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "more than one meta description",
    why: "Several descriptions are ambiguous; search engines use one of them or none.",
    fail_example: "two <meta name=description>",
    pass_example: "one",
    reference: "https://www.seonaut.org/",
};

impl Rule for MetaDescriptionMultiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.meta_descriptions.len() <= 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several meta descriptions",
                format!("The page has {} meta descriptions; keep one.", page.meta_descriptions.len()),
            )
            .current(page.meta_descriptions.len().to_string())
            .suggested("1"),
        )
    }
}
