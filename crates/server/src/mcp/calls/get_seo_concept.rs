//! get_seo_concept: the glossary entry for a term or rule id, or suggestions.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{tool_error, ToolEnv};
use crate::mcp::glossary;

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
