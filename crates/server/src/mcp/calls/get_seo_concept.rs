//! get_seo_concept: the glossary entry for a term or rule id, or suggestions
//! ([`app::concept::answer`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// An SEO term or an audit rule id
    #[schemars(length(min = 1, max = 200))]
    pub concept: String,
}

/// Result.
pub type Output = app::concept::ConceptAnswer;

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    app::concept::answer(&args.concept).map_err(|e| from_app_error(e, "concept"))
}
