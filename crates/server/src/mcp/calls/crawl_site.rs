//! crawl_site: starts a site crawl of the key owner (as `POST /api/v1/crawls` does, with the
//! owner's tier cap) and answers at once with its crawl_id (see [`app::crawl::Crawls`]); the
//! arguments are checked by [`app::crawl::from_tool`].

use mcp_protocol::ToolResult;

use super::{from_app_error, owner, payer, url_arg, ToolEnv};

/// Arguments: the members of the crawl request an agent gives.
pub type Args = api::crawls::CrawlSiteArgs;

/// Result: the crawl just created.
pub type Output = app::crawl::views::StartedView;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    // Only a key's owner crawls through the agent tools.
    owner(env)?;
    let url = url_arg(&args.url, "url")?;
    let request = app::crawl::from_tool(url, args).map_err(|e| from_app_error(e, "argument"))?;
    let started =
        env.state.crawls.start_for(&payer(env), request).await.map_err(|e| from_app_error(e, "crawl not started"))?;
    Ok(Output::of(started))
}
