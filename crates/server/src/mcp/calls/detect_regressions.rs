//! detect_regressions: audits a baseline and a current page at once and reports what got
//! worse or better ([`app::competitors`]).

use app::competitors::PairError;
use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The reference page (e.g. production)
    #[schemars(length(min = 1, max = 2048))]
    pub baseline_url: String,
    /// The page to compare with it (e.g. staging)
    #[schemars(length(min = 1, max = 2048))]
    pub current_url: String,
}

/// Result.
pub type Output = app::competitors::Regressions;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (baseline, current) = (url_arg(&args.baseline_url, "baselineUrl")?, url_arg(&args.current_url, "currentUrl")?);
    env.state.app.detect_regressions(&baseline, &current, env.identity.user_id()).await.map_err(|e| match e {
        PairError::First(e) => pair_error(e, &baseline, "baselineUrl"),
        PairError::Second(e) => pair_error(e, &current, "currentUrl"),
    })
}

/// The failure of one of two pages, saying which argument named it.
pub fn pair_error(e: app::AppError, url: &url::Url, argument: &str) -> ToolResult {
    ToolResult::error(format!("{} (argument {argument})", from_app_error(e, url.as_str()).text()))
}
