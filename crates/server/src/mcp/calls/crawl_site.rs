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
    /// List mode: the URLs to crawl beside url (fetched first), and no other (their links
    /// are recorded, not followed; no sitemap is read; the site rules that need the whole
    /// site are skipped): absolute http(s) URLs on url's site, at most the key's pages per
    /// crawl with url
    #[serde(default)]
    pub urls: Vec<String>,
    /// Custom extraction: at most 10 extractors, each {name, css, attribute?, all?} (the
    /// first match's text or attribute, or every match's joined by " | ") or {name, regex}
    /// (its first capture group over the page's HTML); their values are the columns
    /// extract:<name> of the crawl's pages and exports
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub extract: Vec<api::crawls::Extractor>,
    /// Request headers (name to value) sent to the crawled site's host only, for a staging
    /// site: at most 20 with cookies and basic auth, 8 KiB in all; Host, Content-Length,
    /// hop-by-hop headers, Accept-Encoding, User-Agent and Cookie refused. Never stored,
    /// logged or answered
    #[serde(default)]
    pub headers: std::collections::BTreeMap<String, api::crawls::Secret>,
    /// Cookies (name=value) sent to the crawled site's host only, as headers are
    #[serde(default)]
    pub cookies: Vec<api::crawls::Secret>,
    /// HTTP basic auth sent to the crawled site's host only, as headers are
    pub basic_auth: Option<api::crawls::BasicAuth>,
    /// Who the crawl says it is: default (SeoAuditBot, obeying robots.txt's SeoAuditBot
    /// group) or smartphone (Google's smartphone crawler's user agent, obeying the Googlebot
    /// group)
    pub user_agent: Option<api::crawls::UserAgent>,
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
    let extract = app::crawl::extractor_specs(args.extract);
    app::crawl::check_extractors(&extract).map_err(|e| from_app_error(e, "argument extract"))?;
    let site_headers = app::crawl::site_headers(
        args.headers.iter().map(|(name, value)| (name.as_str(), value.0.as_str())),
        args.cookies.iter().map(|c| c.0.as_str()),
        args.basic_auth.as_ref().map(|b| (b.user.as_str(), b.password.0.as_str())),
    )
    .map_err(|e| from_app_error(e, "a staging site's header refused"))?;
    if args.render && site_headers.is_some() {
        let message = "argument render: false when headers, cookies or basic_auth are given (the browser would fetch \
                       the pages without them)";
        return Err(tool_error("invalid_request", message.to_string()));
    }
    let request = app::crawl::CrawlRequest {
        max_pages: args.max_pages,
        include: args.include,
        exclude: args.exclude,
        strip_params: args.strip_params,
        named_sitemaps: args.sitemaps,
        render: args.render,
        external_links: args.external_links,
        urls: args.urls,
        extract,
        site_headers,
        user_agent: match args.user_agent {
            Some(api::crawls::UserAgent::Smartphone) => Some("smartphone".to_string()),
            _ => None,
        },
        ..app::crawl::CrawlRequest::of(url)
    };
    let started =
        env.state.crawls.start_for(&payer(env), request).await.map_err(|e| from_app_error(e, "crawl not started"))?;
    Ok(Output::of(started))
}
