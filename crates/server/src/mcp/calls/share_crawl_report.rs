//! share_crawl_report: a share link of the report page of one of the key owner's crawls
//! ([`app::crawl::Crawls::share`], the use case `POST /api/v1/crawls/{id}/shares` calls too):
//! an address that opens the report without the key until it expires or is revoked.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The crawl whose report to share, as crawl_site or list_crawls gave it
    #[schemars(length(min = 1))]
    pub crawl_id: String,
    /// Seconds the link opens the report, 60 to 2592000 (30 days); 604800 (7 days) when absent
    #[schemars(range(min = 60, max = 2_592_000))]
    pub expires_in: Option<u64>,
}

/// Result: the link, as the REST route's `share`.
pub type Output = api::crawl_shares::CrawlShare;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let share = env
        .state
        .crawls
        .share(&user_id, &args.crawl_id.trim().into(), args.expires_in)
        .await
        .map_err(|e| from_app_error(e, "crawl"))?;
    Ok(app::crawl::share::wire_share(&env.state.config.base_url, share))
}
