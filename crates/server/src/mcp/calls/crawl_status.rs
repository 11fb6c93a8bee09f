//! crawl_status: a site crawl of the key owner ([`app::crawl::Crawls::owned`]: another
//! owner's crawl answers exactly as an unknown one) with its top issues.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The crawl_id returned by crawl_site
    #[schemars(length(min = 1))]
    pub crawl_id: String,
}

/// Result: the crawl, with its top issues.
pub type Output = app::crawl::views::StatusView;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let crawls = &env.state.crawls;
    let crawl = crawls.owned(Some(&user_id), &args.crawl_id.as_str().into()).await.map_err(|e| from_app_error(e, "crawl"))?;
    let issues = crawls.issue_counts(&crawl.id).await.map_err(|e| from_app_error(e, "crawl issues"))?;
    Ok(Output::of(crawl, issues))
}
