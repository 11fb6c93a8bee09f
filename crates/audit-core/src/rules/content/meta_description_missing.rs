//! `meta-description-missing`: Page has a meta description.
//!
//! - **What it checks:** fails when no meta description.
//! - **Why it matters:** The description is the snippet under the title in results; without it search engines pick any text from the page.
//! - **Fails:** no <meta name=description>
//! - **Passes:** <meta name="description" content="...">
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/meta-description>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionMissing;

static META: RuleMeta = RuleMeta {
    id: "meta-description-missing",
    name: "Page has a meta description",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 95,
    weight: 4,
    threshold: "no meta description",
    why: "The description is the snippet under the title in results; without it search engines pick any text from the page.",
    fail_example: "no <meta name=description>",
    pass_example: "<meta name=\"description\" content=\"...\">",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/meta-description",
};

impl Rule for MetaDescriptionMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.meta_description().is_some_and(|d| !d.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new(
            "Meta description missing",
            "The page has no meta description; write one of 70-160 characters that sums up the page.",
        );
        if let Some(s) = util::suggest_description(page) {
            f = f.suggested(s);
        }
        Outcome::Fail(f)
    }
}
