//! scan_ai_visibility: the AI visibility scan of a page ([`app::App::ai_visibility_scan`]).
//! Its result is the answer of `POST /api/ai-visibility-scan` itself: the same type, so the
//! same shape and schema (docs/API.md, "The agent-tool endpoint", one shape per fact).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, payer, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page (usually the home page)
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result: the REST answer of `POST /api/ai-visibility-scan`.
pub type Output = api::AiVisibilityScanAnswer;

/// Runs the tool: one audit slot, the audit stored, llms.txt and robots.txt read; the one
/// quota unit of the REST endpoint is the one the protocol layer charged for the call.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    let scan = env.state.app.ai_visibility_scan(&url, env.identity.user_id(), &payer(env)).await;
    let scan = scan.map_err(|e| from_app_error(e, url.as_str()))?;
    Ok(api::AiVisibilityScanAnswer::new(url.to_string(), scan))
}
