//! seo_audit: the full audit of one page, stored like a REST audit. Its result is the REST
//! audit result itself (`GET /api/v1/audit`, `format=json`): the same type, so the same
//! field names, nesting and schema (docs/API.md, "The agent-tool endpoint"). With `render`
//! the page is rendered first (docs/API.md, "Rendered audits").

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, payer, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to audit
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Render the page in headless Chromium and audit the rendered DOM, with a `rendering`
    /// section comparing it with the served HTML (5 quota units instead of 1)
    #[serde(default)]
    pub render: bool,
}

/// Result: the REST audit result, envelope included.
pub type Output = api::FullAnswer;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    let owner = env.identity.user_id();
    let done = if args.render {
        // The call's first unit was taken by the protocol layer; a render takes the rest of
        // its units once admitted, as the REST audit does.
        let options = app::AuditOptions::RENDERED;
        env.state.app.audit_for_client(&url, options, &payer(env)).await
    } else {
        env.state.app.audit_charged(&url, owner).await
    };
    done.map(|done| api::FullAnswer::new(done.result)).map_err(|e| from_app_error(e, url.as_str()))
}
