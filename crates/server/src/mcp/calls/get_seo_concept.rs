//! get_seo_concept: the glossary entry for a term or rule id, or suggestions.

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{tool_error, ToolEnv};
use crate::mcp::glossary;
use crate::mcp::tools::shape::{strings, t};
use crate::mcp::tools::{Json, Meta, Shape, READ_ONLY_LOCAL};

/// The tool's card.
pub const META: Meta = Meta {
    title: "SEO concept",
    category: Category::Public,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains an SEO term or an audit rule in plain words: definition, why it matters, how to fix or apply \
         it, the audit rule ids that check it and related concepts. Accepts a term in any form ('canonical tag', \
         'og tags', 'JSON-LD', 'LCP', 'llms.txt') or a rule id from an audit ('meta-description-missing'). \
         Public: no API key needed. When the term is unknown the result has found: false and up to 5 suggestions.",
};

/// Longest concept accepted.
const MAX_CONCEPT_CHARS: usize = 200;

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// An SEO term or an audit rule id
    #[schemars(length(min = 1, max = 200))]
    pub concept: String,
}

/// Result.
pub type Output = Json<Concept>;

/// The shape of [`glossary::Concept::to_json`]: an entry when found, suggestions when not.
#[derive(Debug)]
pub struct Concept;

impl Shape for Concept {
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "concept": { "type": "string", "description": "Slug of the concept found, or the query when not found" },
                "found": t("boolean"),
                "title": t("string"),
                "definition": t("string"),
                "whyItMatters": t("string"),
                "howToFix": t("string"),
                "relatedRules": strings(),
                "related": strings(),
                "suggestions": strings()
            },
            "required": ["concept", "found"],
            "if": { "properties": { "found": { "const": true } } },
            "then": { "required": ["title", "definition", "whyItMatters", "howToFix", "relatedRules", "related"] },
            "else": { "required": ["suggestions"] }
        })
    }
}

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let query = args.concept.trim();
    if query.is_empty() {
        return Err(tool_error(
            "invalid_request",
            "concept must name an SEO term or a rule id, e.g. \"canonical tag\"",
        ));
    }
    if query.chars().count() > MAX_CONCEPT_CHARS {
        return Err(tool_error("invalid_request", format!("concept must be at most {MAX_CONCEPT_CHARS} characters")));
    }
    Ok(Json::new(glossary::concept(query).to_json()))
}
