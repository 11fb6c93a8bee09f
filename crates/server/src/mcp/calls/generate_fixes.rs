//! generate_fixes: a ready-to-apply fix, filled with the page's own values, for each of
//! the top-ranked failed checks ([`app::fixes::fix_plan`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{audit_url_arg, ToolEnv, TopN};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// How many of the highest-priority issues to fix (1 to 20, default 5)
    #[serde(default)]
    pub top_n: TopN,
}

/// Result.
pub type Output = app::fixes::FixPlan;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (url, done) = audit_url_arg(env, &args.url).await?;
    Ok(app::fixes::fix_plan(url.as_str(), &done.audit, args.top_n.0))
}
