//! seo_audit: the full audit of one page (score, issues, main facts), stored like a REST
//! audit ([`app::audit_report`]).

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, url_arg, ToolEnv};
use crate::mcp::tools::{Meta, AUDITS};

/// The tool's card.
pub const META: Meta = Meta {
    title: "SEO audit",
    category: Category::Write,
    hints: AUDITS,
    description:
        "Fetches a page and runs the full deterministic SEO audit: score (percentage of applicable rule weight \
         passed), every failed check as an issue with its rule id, severity, category, impact and effort, and \
         the main page facts. Stores the audit (it feeds monitoring, keyword history and experiments). Needs an \
         API key with the mcp scope. Use it for a complete picture of one page; follow with get_opportunities \
         or generate_fixes.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to audit
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result.
pub type Output = app::audit_report::AuditReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    env.state.app.audit_report(&url, env.identity.user_id()).await.map_err(|e| from_app_error(e, url.as_str()))
}
