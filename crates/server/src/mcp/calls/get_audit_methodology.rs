//! get_audit_methodology: the rule table and how the score is computed, optionally for
//! one methodology group.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::ToolEnv;
use crate::mcp::methodology::{Methodology, MethodologyGroup};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Only this methodology group; all groups when absent
    pub category: Option<MethodologyGroup>,
}

/// Result.
pub type Output = Methodology;

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    Ok(Methodology::of(args.category.map(MethodologyGroup::group)))
}
