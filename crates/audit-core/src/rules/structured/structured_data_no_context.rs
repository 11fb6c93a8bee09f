use crate::fix::json_ld_script;
use crate::rules::prelude::*;
use serde_json::{json, Map, Value};

/// The rule: its text is `META`, its check and its fix are below.
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
    phrases: &["@context", "json ld context", "schema context"],
    excluded: &[],
    glossary: &["json-ld", "structured-data"],
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
                .suggested("\"@context\": \"https://schema.org\"")
                .at(page, valid.iter().filter(|b| !b.has_context).map(|b| b.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let existing = c.page.and_then(|p| p.json_ld.iter().find(|b| !b.has_context).and_then(|b| b.value.clone()));
        let fixed = match existing {
            Some(Value::Object(map)) if map.contains_key("@type") => {
                let mut out = Map::new();
                out.insert("@context".into(), json!("https://schema.org"));
                out.extend(map);
                Value::Object(out)
            }
            _ => super::main_json_ld(c),
        };
        FixTemplate::some(
            FixKind::JsonLd,
            Difficulty::Easy,
            json_ld_script(&fixed),
            "Every JSON-LD block needs \"@context\": \"https://schema.org\" so its types are understood.",
        )
    }
}
