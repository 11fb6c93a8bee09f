//! compare_crawls: how one of the key owner's crawls differs from an earlier crawl of the same
//! site ([`app::crawl::Crawls::compare`], the one use case `GET /api/v1/crawls/{id}/compare`
//! calls too): per rule the URLs new, fixed and still failing, pages added and gone, status
//! and indexability changes, the site score change.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The crawl to read the change of (usually the newer one), as crawl_site or list_crawls gave it
    #[schemars(length(min = 1))]
    pub crawl_id: String,
    /// The crawl of the same site to compare it against (usually the previous one)
    #[schemars(length(min = 1))]
    pub against: String,
}

/// Result: the change, as the REST route's `comparison`.
pub type Output = api::crawls::CrawlChange;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    env.state
        .crawls
        .compare(Some(&user_id), &args.crawl_id.trim().into(), &args.against.trim().into())
        .await
        .map_err(|e| from_app_error(e, "crawls"))
}
