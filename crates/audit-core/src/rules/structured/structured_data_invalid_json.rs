//! `structured-data-invalid-json`: JSON-LD blocks are valid JSON.
//!
//! - **What it checks:** fails when a JSON-LD block that does not parse.
//! - **Why it matters:** Search engines ignore a JSON-LD block that is not valid JSON.
//! - **Fails:** `<script type="application/ld+json">{"@type": "Article",}</script>`
//! - **Passes:** valid JSON
//! - **Reference:** <https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataInvalidJson;

static META: RuleMeta = RuleMeta {
    id: "structured-data-invalid-json",
    name: "JSON-LD blocks are valid JSON",
    category: Category::StructuredData,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 100,
    weight: 1,
    threshold: "a JSON-LD block that does not parse",
    why: "Search engines ignore a JSON-LD block that is not valid JSON.",
    fail_example: "<script type=\"application/ld+json\">{\"@type\": \"Article\",}</script>",
    pass_example: "valid JSON",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
};

impl Rule for StructuredDataInvalidJson {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.json_ld.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = page.json_ld.iter().filter_map(|b| b.error.as_deref()).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Invalid JSON-LD",
                format!("{} of {} JSON-LD blocks are not valid JSON.", bad.len(), page.json_ld.len()),
            )
            .current(first.to_string())
            .suggested("valid JSON"),
        )
    }
}
