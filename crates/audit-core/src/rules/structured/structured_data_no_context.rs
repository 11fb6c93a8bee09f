//! `structured-data-no-context`: JSON-LD blocks declare @context.
//!
//! - **What it checks:** fails when a valid block without @context.
//! - **Why it matters:** Without @context the types are not schema.org types and search engines ignore them.
//! - **Fails:** `{"@type":"Article"}`
//! - **Passes:** `{"@context":"https://schema.org","@type":"Article"}`
//! - **Reference:** <https://json-ld.org/spec/latest/json-ld/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataNoContext;

static META: RuleMeta = RuleMeta {
    id: "structured-data-no-context",
    name: "JSON-LD blocks declare @context",
    category: Category::StructuredData,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "a valid block without @context",
    why: "Without @context the types are not schema.org types and search engines ignore them.",
    fail_example: "{\"@type\":\"Article\"}",
    pass_example: "{\"@context\":\"https://schema.org\",\"@type\":\"Article\"}",
    reference: "https://json-ld.org/spec/latest/json-ld/",
};

impl Rule for StructuredDataNoContext {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let valid: Vec<_> = page.json_ld.iter().filter(|b| b.value.is_some()).collect();
        if valid.is_empty() {
            return Outcome::NotApplicable;
        }
        let n = valid.iter().filter(|b| !b.has_context).count();
        if n == 0 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("JSON-LD without @context", format!("{n} JSON-LD block(s) lack @context."))
                .suggested("\"@context\": \"https://schema.org\""),
        )
    }
}
