//! The tools: the table ([`TOOLS`]) and one module per tool, each with its typed arguments
//! (`Args`), its result (`Output`) and `call(env, args)`, which turns arguments into calls of
//! the application (`app`) and its result or error into a tool result; plus the steps they
//! share (URL arguments, the key owner, error mapping, ranking failures). A tool's card (its
//! title, description, hints, examples and whether it is free of quota) is content and lives
//! in `app::agent::tools`, which the agent card and the methodology read too.
//!
//! A tool's own failure (invalid URL, blocked target, unreachable page, timeout, not HTML,
//! overload) is a tool result with `isError: true` whose text starts with the error code
//! of the REST API (`target_unreachable: ...`), never a JSON-RPC error: agents read
//! tool results, and the code lets them decide whether to retry.

// The table of tools, in the documented order (docs/API.md): one module per tool.
crate::mcp::tools::table! {
    get_site_info,
    get_audit_methodology,
    get_seo_concept,
    seo_audit,
    get_opportunities,
    generate_fixes,
    check_ai_readiness,
    scan_ai_visibility,
    analyze_content_gap,
    auto_fix_batch,
    workflow_execute,
    workflow_status,
    approve_fixes,
    detect_regressions,
    compare_competitors,
    monitor_site,
    track_keywords,
    run_experiment,
    crawl_site,
    crawl_status,
    list_crawls,
    compare_crawls,
    schedule_crawl,
    share_crawl_report,
}

use mcp_protocol::{ToolDef, ToolResult};
use url::Url;

use crate::error::ApiError;

pub use crate::mcp::tools::{tool_error, ToolEnv};

/// An [`ApiError`] as a tool result; internal causes are logged, never shown.
pub fn from_api_error(e: ApiError, what: &str) -> ToolResult {
    match &e.cause {
        Some(cause) if e.code == app::ErrorCode::Internal => {
            tracing::error!(cause = %cause, code = e.code.as_str(), "agent tool failed")
        }
        Some(cause) => tracing::info!(cause = %cause, code = e.code.as_str(), "agent tool failed"),
        None => {}
    }
    let message = e.message.trim_end_matches('.');
    tool_error(e.code.as_str(), format!("{message} ({what})."))
}

/// An [`app::AppError`] as a tool result: a refusal names its own code and sentence;
/// anything else is mapped as the REST API maps it, `what` saying what it concerned.
pub fn from_app_error(e: app::AppError, what: &str) -> ToolResult {
    match e {
        app::AppError::Refused(refusal) => tool_error(refusal.code.as_str(), refusal.message),
        other => from_api_error(other.into(), what),
    }
}

/// The URL argument `name`, validated as the REST endpoints validate `url`.
pub fn url_arg(raw: &str, name: &str) -> Result<Url, ToolResult> {
    app::validate_url(raw).map_err(|e| from_api_error(ApiError::from(e), &format!("argument {name}")))
}

/// The key owner a write tool acts for; an isError result without one.
pub fn owner(env: &ToolEnv<'_>) -> Result<app::UserId, ToolResult> {
    env.identity.user_id().cloned().ok_or_else(|| {
        tool_error("unauthorized", "This tool needs an API key with the mcp scope in the x-api-key header.")
    })
}

pub use app::fixes::TopN;

/// Fetches, audits and stores `url` for the caller through the one audit path (the call
/// itself was charged by the protocol layer), as `GET /api/v1/audit` does.
pub async fn audit(env: &ToolEnv<'_>, url: &Url) -> Result<app::Audited, ToolResult> {
    let done = env.state.app.audit_charged(url, env.identity.user_id()).await;
    done.map_err(|e| from_api_error(ApiError::from(e), url.as_str()))
}

/// The page `url` (the tool's `url` argument), audited and stored ([`audit`]): what
/// get_opportunities and generate_fixes do before shaping their answers.
pub async fn audit_url_arg(env: &ToolEnv<'_>, url: &str) -> Result<(Url, app::Audited), ToolResult> {
    let url = url_arg(url, "url")?;
    let done = audit(env, &url).await?;
    Ok((url, done))
}

/// The payer of a tool call's use case: the call's first unit was taken by the protocol
/// layer, once per call; a use case that costs more (a render) charges the rest itself.
pub fn payer(env: &ToolEnv<'_>) -> app::quota::Payer {
    app::quota::Payer::new(
        env.identity.clone(),
        std::sync::Arc::clone(&env.state.limiter),
        &env.state.config.rate_limits,
    )
    .prepaid(1)
}

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static crate::mcp::tools::Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Every tool's definition, in order.
pub fn tool_defs() -> Vec<ToolDef> {
    TOOLS.iter().map(|t| (t.def)()).collect()
}

/// Names of all tools, in order.
pub fn tool_names() -> Vec<String> {
    TOOLS.iter().map(|t| t.name.to_string()).collect()
}
