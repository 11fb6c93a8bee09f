//! get_seo_concept: the glossary entry for a term or rule id, or suggestions.

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{tool_error, ToolEnv};
use crate::mcp::glossary;
use crate::mcp::tools::{Meta, READ_ONLY_LOCAL};

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
pub type Output = app::concept::ConceptAnswer;

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
        return Err(tool_error("invalid_request", format!("The concept must be at most {MAX_CONCEPT_CHARS} characters.")));
    }
    Ok(glossary::concept(query).into())
}
