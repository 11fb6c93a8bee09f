//! crawl_site: starts a site crawl of the key owner (as `POST /api/v1/crawls` does, with the
//! owner's tier cap) and answers at once with its crawl_id (see [`app::crawl::Crawls`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{from_app_error, owner, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL the crawl starts from
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Pages fetched at most (cut to the key's tier: free 100, pro 500)
    #[schemars(range(min = 1))]
    pub max_pages: Option<u32>,
}

/// `max_pages` cut to the tier.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cut {
    /// What was asked for.
    pub asked: u32,
    /// The tier's pages per crawl.
    pub limit: u32,
}

/// Result: the crawl just created.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Output {
    /// Pass it to crawl_status.
    pub crawl_id: String,
    /// The start URL, normalised.
    pub url: String,
    /// `queued`.
    pub state: String,
    /// Pages fetched at most.
    pub max_pages: u32,
    /// Present when max_pages was cut to the tier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pages_cut: Option<Cut>,
    /// The crawl's REST status route.
    pub status_url: String,
    /// The human report page.
    pub report_url: String,
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    url_arg(&args.url, "url")?;
    let tier = env.identity.key().map(|k| k.tier);
    let request = app::crawl::CrawlRequest {
        url: args.url,
        max_pages: args.max_pages,
        max_depth: None,
        include: Vec::new(),
        exclude: Vec::new(),
        sitemaps: true,
    };
    let started =
        env.state.crawls.start(request, Some(user_id), tier).await.map_err(|e| from_app_error(e, "crawl not started"))?;
    let crawl = started.crawl;
    Ok(Output {
        status_url: format!("/api/v1/crawls/{}", crawl.id),
        report_url: format!("/crawls/{}", crawl.id),
        crawl_id: crawl.id,
        url: crawl.url,
        state: crawl.state.as_str().to_string(),
        max_pages: crawl.max_pages,
        max_pages_cut: started.cut_from.map(|asked| Cut { asked, limit: started.tier_limit }),
    })
}
