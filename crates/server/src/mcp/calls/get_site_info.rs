//! get_site_info: what a page is, whether search engines may index it, and the technology
//! it is built with ([`app::site_info`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page, e.g. https://example.com/
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result.
pub type Output = app::site_info::SiteInfo;

/// Runs the tool: fetches the page and its robots.txt (no audit is stored).
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    env.state.app.site_info(&url).await.map_err(|e| match e {
        app::AppError::Overloaded => from_app_error(e, "retry in a few seconds"),
        e => from_app_error(e, url.as_str()),
    })
}
