//! get_opportunities: failed checks ranked by priority (impact points × weight ÷ effort
//! points), as [`app::opportunities`] ranks them.

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{audit_url_arg, ToolEnv};
use crate::mcp::tools::{Meta, AUDITS};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Ranked opportunities",
    category: Category::Write,
    hints: AUDITS,
    description:
        "Audits a page and returns its failed checks ranked by expected gain: a priority score from the rule's \
         weight, impact and effort (high impact, low effort and heavy weight first). Needs an API key with the \
         mcp scope. Use it to decide what to fix first; pass the top ids to generate_fixes or get_seo_concept.",
};

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
