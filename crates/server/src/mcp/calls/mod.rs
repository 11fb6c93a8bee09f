//! The tools' work: one module per tool, each with one `call(env, args) -> ToolResult`
//! function that [`super::registry`] dispatches to by name, plus the steps they share
//! (argument reading, audit slots, storing an audit, typed answers).
//!
//! A tool's own failure (invalid URL, blocked target, unreachable page, timeout, not HTML,
//! overload) is a tool result with `isError: true` whose text starts with the error code
//! of the REST API (`target_unreachable: ...`), never a JSON-RPC error: agents read
//! tool results, and the code lets them decide whether to retry.

pub mod compare_competitors;
pub mod detect_regressions;
pub mod generate_fixes;
pub mod get_audit_methodology;
pub mod get_opportunities;
pub mod get_seo_concept;
pub mod get_site_info;
pub mod seo_audit;
// Issue 8: workflows, monitoring, keywords, experiments.
pub mod approve_fixes;
pub mod monitor_site;
pub mod run_experiment;
pub mod track_keywords;
pub mod workflow_execute;
pub mod workflow_status;

use audit_core::Audit;
use mcp_protocol::{CallContext, ToolResult};
use serde_json::{Map, Value};
use tokio::sync::OwnedSemaphorePermit;
use url::Url;

use crate::auth::Identity;
use crate::error::ApiError;
use crate::state::AppState;

/// What a tool call runs with: the shared state, who is calling, and what the protocol
/// layer knows about the request.
#[derive(Debug, Clone, Copy)]
pub struct ToolEnv<'a> {
    /// Store, fetcher, limiter, config, audit slots.
    pub state: &'a AppState,
    /// The caller: a key or the client address (whose quota was charged).
    pub identity: &'a Identity,
    /// Era, protocol version and key verdict of the request.
    pub protocol: &'a CallContext<'a>,
}

/// A tool result naming an error code and saying what went wrong, e.g.
/// `invalid_url: The URL is not valid (argument url)`.
pub fn tool_error(code: &str, message: impl std::fmt::Display) -> ToolResult {
    ToolResult::error(format!("{code}: {message}"))
}

/// The result of a tool that is listed but not implemented in this build.
pub fn not_available(name: &str) -> ToolResult {
    tool_error(
        "not_available",
        format!("{name} is not available yet on this server; the audit tools (seo_audit, get_opportunities, generate_fixes, detect_regressions, compare_competitors) work now."),
    )
}

/// An [`ApiError`] as a tool result; internal causes are logged, never shown.
pub fn from_api_error(e: ApiError, what: &str) -> ToolResult {
    if let Some(cause) = &e.cause {
        tracing::error!(cause = %cause, code = e.code, "agent tool failed");
    }
    let message = e.message.trim_end_matches('.');
    tool_error(e.code, format!("{message} ({what})."))
}

/// A string argument (the protocol crate already checked `required` and `type`).
pub fn string_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// A URL argument, validated as the REST endpoints validate `url`.
pub fn url_arg(args: &Map<String, Value>, name: &str) -> Result<Url, ToolResult> {
    let raw = string_arg(args, name).unwrap_or("");
    app::validate_url(raw).map_err(|e| from_api_error(ApiError::from(e), &format!("argument {name}")))
}

/// A place among the bounded audit slots, as REST audits take one: a full server answers
/// `overloaded` at once instead of queueing without bound.
pub async fn audit_slot(state: &AppState) -> Result<OwnedSemaphorePermit, ToolResult> {
    let ticket = state.app.slots.admit().map_err(|e| from_api_error(e.into(), "retry in a few seconds"))?;
    ticket.ready().await.map_err(|e| from_api_error(e.into(), "audit slot"))
}

/// A fetched, audited and stored page, with the time it was audited.
#[derive(Debug)]
pub struct Audited {
    /// The engine's result.
    pub audit: Audit,
    /// `scanned_at` of the stored result.
    pub scanned_at: String,
    /// The wire result, built once by the audit path (what was stored).
    pub result: audit_core::AuditResult,
    /// The stored audit's id (`None` when storing failed; logged).
    pub audit_id: Option<String>,
}

/// Fetches, audits and stores `url` for the caller through the one audit path (the call
/// itself was charged by the protocol layer), as `GET /api/v1/audit` does.
pub async fn audit(env: &ToolEnv<'_>, url: &Url) -> Result<Audited, ToolResult> {
    match env.state.app.audit_charged(url, env.identity.user_id()).await {
        Ok(done) => Ok(Audited {
            audit_id: done.stored.map(|s| s.id),
            audit: done.audit,
            scanned_at: done.scanned_at,
            result: done.result,
        }),
        Err(e) => Err(from_api_error(ApiError::from(e), url.as_str())),
    }
}

/// The page named by the `url` argument, audited and stored ([`audit`]): what seo_audit,
/// get_opportunities and generate_fixes do before shaping their answers. Returns the URL,
/// the audit and the stored audit's id.
pub async fn audit_url_arg(
    env: &ToolEnv<'_>,
    args: &Map<String, Value>,
) -> Result<(Url, Audited, Option<String>), ToolResult> {
    let url = url_arg(args, "url")?;
    let done = audit(env, &url).await?;
    let audit_id = done.audit_id.clone();
    Ok((url, done, audit_id))
}

/// A typed answer as a successful tool result (its structured content); an answer that
/// does not serialise (a bug) is logged and answered as an internal error.
pub fn success(answer: impl serde::Serialize) -> ToolResult {
    match serde_json::to_value(answer) {
        Ok(value) => ToolResult::success(value),
        Err(e) => from_api_error(ApiError::internal(format!("tool answer did not serialise: {e}")), "answer"),
    }
}
