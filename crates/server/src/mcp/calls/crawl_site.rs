//! crawl_site: starts a site crawl of the key owner (as `POST /api/v1/crawls` does, with the
//! owner's tier cap) and answers at once with its crawl_id (see [`app::crawl::Crawls`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, payer, tool_error, url_arg, ToolEnv};

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
    /// Render every HTML page in headless Chromium and audit the rendered DOM (5 quota units
    /// for the call instead of 1)
    #[serde(default)]
    pub render: bool,
    /// Sitemaps to read beside /sitemap.xml and those robots.txt names: absolute http(s)
    /// URLs on the crawled site, at most 10 (`app::crawl::MAX_NAMED_SITEMAPS`)
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub sitemaps: Vec<String>,
    /// URL patterns (regular expressions, at most 20) matched against a URL's path and query
    /// from its start (`/blog`, `/(en|fr)/`): when given, only URLs one of them matches are
    /// crawled (the start URL always is)
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub include: Vec<String>,
    /// URL patterns as include's: URLs one of them matches are never fetched (listed as
    /// skipped)
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub exclude: Vec<String>,
    /// Query parameters removed from every URL found before it is compared with those known
    /// (at most 50): a name, a prefix ending in * (utm_*), or * for all
    #[serde(default)]
    #[schemars(length(max = 50))]
    pub strip_params: Vec<String>,
    /// Check the links to other sites for broken-external-link (default true): each external
    /// URL once, HEAD then GET, within the crawl's budget of external URLs
    #[serde(default = "yes")]
    #[schemars(extend("default" = true))]
    pub external_links: bool,
}

fn yes() -> bool {
    true
}

/// Result: the crawl just created.
pub type Output = app::crawl::views::StartedView;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    // Only a key's owner crawls through the agent tools.
    owner(env)?;
    let url = url_arg(&args.url, "url")?;
    if args.sitemaps.len() > app::crawl::MAX_NAMED_SITEMAPS {
        let message = format!("argument sitemaps: at most {} sitemap URLs", app::crawl::MAX_NAMED_SITEMAPS);
        return Err(tool_error("invalid_request", message));
    }
    for sitemap in &args.sitemaps {
        url_arg(sitemap, "sitemaps")?;
    }
    app::crawl::check_patterns("include", &args.include).map_err(|e| from_app_error(e, "argument include"))?;
    app::crawl::check_patterns("exclude", &args.exclude).map_err(|e| from_app_error(e, "argument exclude"))?;
    app::crawl::check_strip_params(&args.strip_params).map_err(|e| from_app_error(e, "argument strip_params"))?;
    let request = app::crawl::CrawlRequest {
        max_pages: args.max_pages,
        include: args.include,
        exclude: args.exclude,
        strip_params: args.strip_params,
        named_sitemaps: args.sitemaps,
        render: args.render,
        external_links: args.external_links,
        ..app::crawl::CrawlRequest::of(url)
    };
    let started =
        env.state.crawls.start_for(&payer(env), request).await.map_err(|e| from_app_error(e, "crawl not started"))?;
    Ok(Output::of(started))
}
