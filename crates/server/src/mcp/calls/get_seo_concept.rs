//! get_seo_concept: the glossary entry for a term or rule id, or suggestions.

use mcp_protocol::ToolResult;
use serde_json::{Map, Value};

use super::{string_arg, tool_error, ToolEnv};
use crate::mcp::glossary;

/// Longest concept accepted (the input schema's `maxLength`).
const MAX_CONCEPT_CHARS: usize = 200;

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let query = string_arg(args, "concept").unwrap_or("").trim();
    if query.is_empty() {
        return tool_error("invalid_request", "concept must name an SEO term or a rule id, e.g. \"canonical tag\"");
    }
    if query.chars().count() > MAX_CONCEPT_CHARS {
        return tool_error("invalid_request", format!("concept must be at most {MAX_CONCEPT_CHARS} characters"));
    }
    ToolResult::success(glossary::concept(query).to_json())
}
