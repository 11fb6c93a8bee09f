//! `canonical-multiple`: Page declares one canonical URL.
//!
//! - **What it checks:** fails when more than one link rel=canonical.
//! - **Why it matters:** With several canonicals search engines ignore all of them.
//! - **Fails:** two link rel=canonical elements
//! - **Passes:** exactly one
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/canonical>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalMultiple;

static META: RuleMeta = RuleMeta {
    id: "canonical-multiple",
    name: "Page declares one canonical URL",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "more than one link rel=canonical",
    why: "With several canonicals search engines ignore all of them.",
    fail_example: "two link rel=canonical elements",
    pass_example: "exactly one",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/canonical",
};

impl Rule for CanonicalMultiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.canonicals.is_empty() {
            return Outcome::NotApplicable;
        }
        if page.canonicals.len() == 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several canonical tags",
                format!(
                    "The page declares {} canonical URLs; search engines ignore conflicting canonicals.",
                    page.canonicals.len()
                ),
            )
            .current(page.canonicals.join(", "))
            .suggested(page.canonical()),
        )
    }
}
