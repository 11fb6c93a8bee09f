//! get_opportunities: failed checks ranked by priority (impact points × weight ÷ effort
//! points), as [`app::opportunities`] ranks them.

use mcp_protocol::ToolResult;
use serde_json::{Map, Value};

use super::{audit_url_arg, success, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    match audit_url_arg(env, args).await {
        Ok((url, done, _)) => success(app::opportunities::opportunities(url.as_str(), &done.audit)),
        Err(e) => e,
    }
}
