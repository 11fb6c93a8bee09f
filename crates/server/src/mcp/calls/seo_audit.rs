//! seo_audit: the full audit of one page, stored like a REST audit. Its result is the REST
//! audit result itself (`GET /api/v1/audit`, `format=json`): the same type, so the same
//! field names, nesting and schema (docs/API.md, "The agent-tool endpoint").

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
        "Fetches a page and runs the full deterministic SEO audit. The result is exactly the REST audit result \
         (GET /api/v1/audit): score (percentage of applicable rule weight passed), every failed check as a \
         recommendation with its rule id, type (severity), category, impact and effort, every check's outcome, \
         and the page facts (title, meta_description, h1, word_count, status_code, images, links, og, ...). \
         Stores the audit (it feeds monitoring, keyword history and experiments). Needs an API key with the mcp \
         scope. Use it for a complete picture of one page; follow with get_opportunities or generate_fixes.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to audit
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result: the REST audit result.
pub type Output = audit_core::AuditResult;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    env.state
        .app
        .audit_charged(&url, env.identity.user_id())
        .await
        .map(|done| done.result)
        .map_err(|e| from_app_error(e, url.as_str()))
}
