//! get_opportunities: failed checks ranked by priority (impact points × weight ÷ effort
//! points), as [`app::opportunities`] ranks them.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{audit_url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result.
pub type Output = app::opportunities::Opportunities;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (url, done) = audit_url_arg(env, &args.url).await?;
    Ok(app::opportunities::opportunities(url.as_str(), &done.audit))
}
