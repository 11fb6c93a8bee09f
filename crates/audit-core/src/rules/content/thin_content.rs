//! `thin-content`: Page has substantial text.
//!
//! - **What it checks:** fails when < 300 visible words.
//! - **Why it matters:** Pages with little text rarely answer a query well enough to rank.
//! - **Fails:** a page with 120 words
//! - **Passes:** a page with 800 words
//! - **Reference:** <https://github.com/sethblack/python-seo-analyzer>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct ThinContent;

static META: RuleMeta = RuleMeta {
    id: "thin-content",
    name: "Page has substantial text",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::High,
    confidence: 70,
    weight: 2,
    threshold: "< 300 visible words",
    why: "Pages with little text rarely answer a query well enough to rank.",
    fail_example: "a page with 120 words",
    pass_example: "a page with 800 words",
    reference: "https://github.com/sethblack/python-seo-analyzer",
};

impl Rule for ThinContent {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.word_count >= util::THIN_CONTENT_WORDS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Thin content",
                format!(
                    "The page has {} visible words; pages that rank usually have at least {}.",
                    page.word_count,
                    util::THIN_CONTENT_WORDS
                ),
            )
            .current(page.word_count.to_string())
            .suggested(format!(">= {}", util::THIN_CONTENT_WORDS)),
        )
    }
}
