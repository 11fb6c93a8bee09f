//! get_audit_methodology: the rule table and how the score is computed, optionally for
//! one methodology group.

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

use super::ToolEnv;
use crate::mcp::methodology::{Methodology, MethodologyGroup};
use crate::mcp::tools::{Meta, READ_ONLY_LOCAL};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Audit methodology",
    category: Category::Public,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains how seo_audit scores a page: every rule (stable id, name, severity, weight, threshold) grouped \
         as technical, content and performance, the ruleset version and fingerprint, and how the percentage is \
         computed. Public: no API key needed. Use it to explain a score, to see which checks exist before an \
         audit, or to cite the exact threshold behind a finding. Pass category to get one group only.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Only this methodology group; all groups when absent
    pub category: Option<MethodologyGroup>,
}

/// Result.
pub type Output = Methodology;

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    Ok(Methodology::of(args.category.map(MethodologyGroup::group)))
}
