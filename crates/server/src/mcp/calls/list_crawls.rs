//! list_crawls: the key owner's crawls, newest first ([`app::crawl::Crawls::list`], the one
//! use case `GET /api/v1/crawls` calls too, with the same typed request).

use mcp_protocol::ToolResult;

use super::{from_app_error, owner, ToolEnv};

/// Arguments: the request of `GET /api/v1/crawls`.
pub type Args = api::crawls::ListCrawls;

/// Result: a page of crawls.
pub type Output = api::crawls::CrawlListing;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    env.state.crawls.list(user_id, args).await.map_err(|e| from_app_error(e, "crawls"))
}
