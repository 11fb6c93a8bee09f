//! get_audit_methodology: the rule table and how the score is computed, optionally for
//! one methodology group.

use audit_core::Group;
use mcp_protocol::ToolResult;
use serde_json::{Map, Value};

use super::{string_arg, tool_error, ToolEnv};
use crate::mcp::methodology::methodology;

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let group = match string_arg(args, "category") {
        None => None,
        Some(name) => match Group::from_name(name) {
            Some(g) => Some(g),
            None => {
                return tool_error(
                    "invalid_request",
                    format!("category must be performance, content or technical, not {name:?}"),
                )
            }
        },
    };
    ToolResult::success(methodology(group))
}
