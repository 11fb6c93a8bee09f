//! analyze_content_gap: the content gap of a page against competitors or the built-in
//! model ([`app::App::content_gap`]). Its result is the answer of `POST /api/content-gap`
//! itself: the same type, so the same shape and schema (docs/API.md, "The agent-tool
//! endpoint", one shape per fact).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, text, payer, url_arg, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to analyse
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Overrides the fetched page's title
    pub title: Option<String>,
    /// Overrides the fetched page's word count
    pub word_count: Option<u64>,
    /// Overrides the fetched page's section headings (h2-h6); an empty list means none
    pub headings: Option<Vec<String>>,
    /// Up to 5 competitor pages to compare with, instead of the built-in model of the page type
    #[schemars(length(max = content_gap::MAX_COMPETITORS), inner(length(min = 1, max = 2048)))]
    pub competitors: Option<Vec<String>>,
}

/// Result: the REST answer of `POST /api/content-gap`.
pub type Output = api::ContentGapResult;

/// Runs the tool: a place in the audit queue for the page and each competitor, the page's
/// audit stored; the one quota unit of the REST endpoint (however many competitors) is the
/// one the protocol layer charged for the call.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let url = url_arg(&args.url, "url")?;
    let given = args.competitors.unwrap_or_default();
    if given.len() > content_gap::MAX_COMPETITORS {
        let max = content_gap::MAX_COMPETITORS;
        return Err(super::tool_error(
            "invalid_request",
            format!("`competitors` may hold at most {max} URLs, not {}.", given.len()),
        ));
    }
    let mut competitors: Vec<url::Url> = Vec::new();
    for (index, raw) in given.iter().enumerate() {
        let competitor = url_arg(raw, &format!("competitors[{index}]"))?;
        if !competitors.contains(&competitor) {
            competitors.push(competitor);
        }
    }
    let word_count = args.word_count.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let req = app::content::GapRequest {
        url: url.clone(),
        title: text(&args.title),
        word_count,
        headings: args.headings,
        competitors,
    };
    let answer = env.state.app.content_gap(req, env.identity.user_id(), &payer(env)).await;
    Ok(answer.map_err(|e| from_app_error(e, url.as_str()))?.wire(&url))
}
