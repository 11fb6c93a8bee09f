//! compare_competitors: the site's page and a competitor's, audited with the same ruleset
//! and compared per category ([`app::competitors`]).

use app::competitors::PairError;
use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::detect_regressions::pair_error;
use super::{url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The user's page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// The competitor's comparable page
    #[schemars(length(min = 1, max = 2048))]
    pub competitor_url: String,
}

/// Result.
pub type Output = app::competitors::CompetitorComparison;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (site, competitor) = (url_arg(&args.url, "url")?, url_arg(&args.competitor_url, "competitorUrl")?);
    env.state.app.compare_competitors(&site, &competitor, env.identity.user_id()).await.map_err(|e| match e {
        PairError::First(e) => pair_error(e, &site, "url"),
        PairError::Second(e) => pair_error(e, &competitor, "competitorUrl"),
    })
}
