//! The tools: the table ([`TOOLS`]) and one module per tool, each with its card (`META`),
//! its typed arguments (`Args`), its result (`Output`) and `call(env, args)`, which turns
//! arguments into calls of the application (`app`) and its result or error into a tool
//! result; plus the steps they share (URL arguments, the key owner, error mapping, ranking
//! failures).
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
    workflow_execute,
    workflow_status,
    approve_fixes,
    detect_regressions,
    compare_competitors,
    monitor_site,
    track_keywords,
    run_experiment,
}

use audit_core::Audit;
use mcp_protocol::{ToolDef, ToolResult};
use serde_json::Value;
use url::Url;

use crate::error::ApiError;

pub use crate::mcp::tools::{tool_error, ToolEnv};

/// An [`ApiError`] as a tool result; internal causes are logged, never shown.
pub fn from_api_error(e: ApiError, what: &str) -> ToolResult {
    match &e.cause {
        Some(cause) if e.code == "internal" => tracing::error!(cause = %cause, code = e.code, "agent tool failed"),
        Some(cause) => tracing::info!(cause = %cause, code = e.code, "agent tool failed"),
        None => {}
    }
    let message = e.message.trim_end_matches('.');
    tool_error(e.code, format!("{message} ({what})."))
}

/// An [`app::AppError`] as a tool result: a refusal names its own code and sentence;
/// anything else is mapped as the REST API maps it, `what` saying what it concerned.
pub fn from_app_error(e: app::AppError, what: &str) -> ToolResult {
    match e {
        app::AppError::Refused { code, message } => tool_error(code, message),
        other => from_api_error(other.into(), what),
    }
}

/// The URL argument `name`, validated as the REST endpoints validate `url`.
pub fn url_arg(raw: &str, name: &str) -> Result<Url, ToolResult> {
    app::validate_url(raw).map_err(|e| from_api_error(ApiError::from(e), &format!("argument {name}")))
}

/// An optional URL argument that the action at hand needs: `missing` (a sentence) when absent.
pub fn needed_url(raw: Option<&str>, name: &str, missing: &str) -> Result<Url, ToolResult> {
    url_arg(raw.ok_or_else(|| tool_error("missing_parameter", missing))?, name)
}

/// An optional text argument, trimmed; `None` when absent or blank.
pub fn text(arg: &Option<String>) -> Option<String> {
    arg.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The key owner a write tool acts for; an isError result without one.
pub fn owner(env: &ToolEnv<'_>) -> Result<String, ToolResult> {
    env.identity.user_id().map(str::to_string).ok_or_else(|| {
        tool_error("unauthorized", "This tool needs an API key with the mcp scope in the x-api-key header.")
    })
}

/// How many of the top issues a fix plan covers: a whole number of 1 to [`MAX_TOP_N`],
/// [`DEFAULT_TOP_N`] when absent (a fractional value is cut, one out of range clamped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopN(pub usize);

pub use app::fixes::{DEFAULT_TOP_N, MAX_TOP_N};

impl Default for TopN {
    fn default() -> TopN {
        TopN(DEFAULT_TOP_N as usize)
    }
}

impl TopN {
    /// `topN` as asked (the protocol layer checked its type and range), clamped to 1..=20.
    pub fn of(value: Option<&Value>) -> TopN {
        let n = value.and_then(Value::as_f64).map_or(DEFAULT_TOP_N as f64, f64::trunc);
        TopN(n.clamp(1.0, MAX_TOP_N as f64) as usize)
    }
}

impl<'de> serde::Deserialize<'de> for TopN {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TopN, D::Error> {
        Ok(TopN::of(Some(&Value::deserialize(d)?)))
    }
}

impl schemars::JsonSchema for TopN {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TopN".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_TOP_N, "default": DEFAULT_TOP_N })
    }
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

/// The page `url` (the tool's `url` argument), audited and stored ([`audit`]): what
/// get_opportunities and generate_fixes do before shaping their answers.
pub async fn audit_url_arg(env: &ToolEnv<'_>, url: &str) -> Result<(Url, Audited), ToolResult> {
    let url = url_arg(url, "url")?;
    let done = audit(env, &url).await?;
    Ok((url, done))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_n_defaults_and_bounds() {
        use serde_json::json;
        let check = |v: Option<Value>, expected: usize| assert_eq!(TopN::of(v.as_ref()).0, expected, "{v:?}");
        check(None, 5);
        check(Some(json!(1)), 1);
        check(Some(json!(20)), 20);
        check(Some(json!(3.0)), 3);
        check(Some(json!(99)), 20);
        check(Some(json!(0)), 1);
        check(Some(json!(-4)), 1);
        let parsed: TopN = serde_json::from_value(json!(2.0)).unwrap();
        assert_eq!(parsed, TopN(2));
    }
}
