//! analyze_content_gap: the content gap of a page against competitors or the built-in
//! model ([`app::App::content_gap`], its arguments checked by [`app::requests::gap_args`]).
//! Its result is the answer of `POST /api/content-gap` itself: the same type, so the same
//! shape and schema (docs/API.md, "The agent-tool endpoint", one shape per fact).

use mcp_protocol::ToolResult;

use super::{from_app_error, payer, ToolEnv};

/// Arguments: the members of the REST request.
pub type Args = api::ContentGapArgs;

/// Result: the REST answer of `POST /api/content-gap`.
pub type Output = api::ContentGapResult;

/// Runs the tool: a place in the audit queue for the page and each competitor, the page's
/// audit stored; the one quota unit of the REST endpoint (however many competitors) is the
/// one the protocol layer charged for the call.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let req = app::requests::gap_args(args).map_err(|e| from_app_error(e, "argument"))?;
    let url = req.url.clone();
    let answer = env.state.app.content_gap(req, env.identity.user_id(), &payer(env)).await;
    Ok(answer.map_err(|e| from_app_error(e, url.as_str()))?.wire(&url))
}
