//! seo_audit: the full audit of one page, stored like a REST audit. Its result is the REST
//! audit result itself (`GET /api/v1/audit`, `format=json`): the same type, so the same
//! field names, nesting and schema (docs/API.md, "The agent-tool endpoint").

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to audit
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result: the REST audit result, envelope included.
pub type Output = api::FullAnswer;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    env.state
        .app
        .audit_charged(&url, env.identity.user_id())
        .await
        .map(|done| api::FullAnswer::new(done.result))
        .map_err(|e| from_app_error(e, url.as_str()))
}
