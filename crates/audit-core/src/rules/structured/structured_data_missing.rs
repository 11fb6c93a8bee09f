//! `structured-data-missing`: Page has structured data.
//!
//! - **What it checks:** fails when no JSON-LD and no microdata.
//! - **Why it matters:** Structured data makes a page eligible for rich results and tells machines what its entities are.
//! - **Fails:** no JSON-LD
//! - **Passes:** `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article",...}</script>`
//! - **Reference:** <https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataMissing;

static META: RuleMeta = RuleMeta {
    id: "structured-data-missing",
    name: "Page has structured data",
    category: Category::StructuredData,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 70,
    weight: 1,
    threshold: "no JSON-LD and no microdata",
    why: "Structured data makes a page eligible for rich results and tells machines what its entities are.",
    fail_example: "no JSON-LD",
    pass_example:
        "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Article\",...}</script>",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
};

impl Rule for StructuredDataMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.json_ld.iter().any(|b| b.value.is_some()) || !page.microdata_types.is_empty() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "No structured data",
                "The page has no JSON-LD or microdata; add schema.org markup for its main entity.",
            )
            .suggested("JSON-LD with @context https://schema.org"),
        )
    }
}
