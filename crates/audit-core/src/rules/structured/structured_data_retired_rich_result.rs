//! `structured-data-retired-rich-result`: Structured data is not written for a retired rich result only.
//!
//! - **What it checks:** fails when an item's type only earned a rich result Google has retired (FAQ since 2026-05-07, How-to since 2023-09-13, seven types since 2025-06-12).
//! - **Why it matters:** The markup can be valid, but it earns no rich result any more: effort spent keeping it up buys nothing in Search.
//! - **Fails:** `{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[...]}`
//! - **Passes:** markup for rich results Google still shows
//! - **Reference:** <https://developers.google.com/search/blog/2025/06/simplifying-search-results>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataRetiredRichResult;

static META: RuleMeta = RuleMeta {
    id: "structured-data-retired-rich-result",
    name: "Structured data is not written for a retired rich result only",
    category: Category::StructuredData,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an item of a type whose rich result Google retired (FAQPage, HowTo, Book, Course, ClaimReview, Occupation, LearningResource, SpecialAnnouncement, Vehicle)",
    why: "The markup can be valid, but it earns no rich result any more: effort spent keeping it up buys nothing in Search.",
    fail_example: "{\"@context\":\"https://schema.org\",\"@type\":\"FAQPage\",\"mainEntity\":[...]}",
    pass_example: "markup for rich results Google still shows",
    reference: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
};

impl Rule for StructuredDataRetiredRichResult {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let sd = &page.structured_data;
        if sd.items.is_empty() {
            return Outcome::NotApplicable;
        }
        let retired: Vec<_> = sd.items.iter().filter_map(|i| i.notice.as_ref().map(|n| (i, n))).collect();
        let Some((item, notice)) = retired.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Structured data for a retired rich result",
                format!("{} item(s) earn no rich result any more. {notice} (line {})", retired.len(), item.line),
            )
            .current(item.type_.clone())
            .suggested("keep the markup only if another consumer reads it"),
        )
    }
}
