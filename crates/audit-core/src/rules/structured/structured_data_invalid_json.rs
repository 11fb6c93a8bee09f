use crate::fix::json_ld_script;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
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
    phrases: &["invalid json", "json ld error", "json syntax", "json parse"],
    excluded: &[],
    glossary: &["json-ld", "structured-data"],
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
            .suggested("valid JSON")
            .at(page, page.json_ld.iter().filter(|b| b.error.is_some()).map(|b| b.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let err = c.page.and_then(|p| p.json_ld.iter().find_map(|b| b.error.clone()));
        let because = err.map_or(String::new(), |e| format!(" The parser reported: {e}."));
        FixTemplate::some(
            FixKind::JsonLd,
            Difficulty::Medium,
            json_ld_script(&super::main_json_ld(c)),
            format!("Replace the broken block with valid JSON (no trailing commas or comments, double quotes only).{because}"),
        )
    }
}
