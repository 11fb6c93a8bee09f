//! generate_fixes: a ready-to-apply fix, filled with the page's own values, for each of
//! the top-ranked failed checks ([`app::fixes::fix_plan`]).

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{audit_url_arg, ToolEnv, TopN};
use crate::mcp::tools::{Meta, AUDITS};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Generate fixes",
    category: Category::Write,
    hints: AUDITS,
    description:
        "Audits a page and writes a ready-to-paste fix (HTML, JSON-LD, robots.txt, HTTP header, server config \
         or text) for each of its top issues, filled with the page's own title, URL and text. Deterministic and \
         template-based: the same page gives the same fixes. Needs an API key with the mcp scope. Use it after \
         get_opportunities, or directly when the user wants code.",
};

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
