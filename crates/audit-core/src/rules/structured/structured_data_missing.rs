use crate::fix::json_ld_script;
use crate::rules::prelude::*;
use crate::structured_data::Source;

/// The rule: its text is `META`, its check and its fix are below.
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
    threshold: "no JSON-LD, no microdata and no RDFa",
    why: "Structured data makes a page eligible for rich results and tells machines what its entities are.",
    fail_example: "no JSON-LD",
    pass_example:
        "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Article\",...}</script>",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
    phrases: &[
        "structured data missing",
        "schema missing",
        "schema markup missing",
        "json ld missing",
        "rich snippet missing",
    ],
    excluded: &["required", "property", "field", "context", "@context", "invalid"],
    glossary: &["structured-data", "entity"],
};

impl Rule for StructuredDataMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        // A JSON-LD block left unread past the reader's byte bound is structured data all the
        // same; RDFa counts when an item of it was read (RDFa attributes of other vocabularies,
        // such as Open Graph's `property`, do not).
        let rdfa = page.structured_data.items.iter().any(|i| i.source == Source::Rdfa);
        if page.json_ld.iter().any(|b| b.value.is_some() || b.not_read) || !page.microdata_types.is_empty() || rdfa {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "No structured data",
                "The page has no JSON-LD, microdata or RDFa; add schema.org markup for its main entity.",
            )
            .suggested("JSON-LD with @context https://schema.org")
            .at(page, [page.spots.head]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let main = super::main_json_ld(c);
        let mut code = json_ld_script(&main);
        if let Some(bc) = super::breadcrumbs(c) {
            code.push('\n');
            code.push_str(&json_ld_script(&bc));
        }
        let ty = main.get("@type").and_then(serde_json::Value::as_str).unwrap_or("WebPage").to_string();
        FixTemplate::some(
            FixKind::JsonLd,
            Difficulty::Medium,
            code,
            format!("Add to <head>: {ty} markup with the page's own name and URL. Check it with Google's Rich Results Test."),
        )
    }
}
