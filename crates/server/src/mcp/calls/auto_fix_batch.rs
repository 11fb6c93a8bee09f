//! auto_fix_batch: a fix for each of 1 to 50 issues ([`app::App::auto_fix`]), fetching
//! nothing. Its result is the answer of `POST /api/auto-fix-batch` itself: the same type,
//! so the same shape and schema (docs/API.md, "The agent-tool endpoint", one shape per
//! fact).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, payer, tool_error, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The issues to fix, in order (1 to 50): each names a rule id (`id`) or describes the
    /// problem (`title`, `description`), with an optional `context` (`url`, `title`,
    /// `description`, `text`, `currentValue`) that fills the template
    #[schemars(length(min = 1, max = autofix::MAX_BATCH))]
    pub issues: Vec<autofix::Issue<'static>>,
}

/// Result: the REST answer of `POST /api/auto-fix-batch`.
pub type Output = api::AutoFixResult;

/// Runs the tool through the REST endpoint's use case ([`app::App::auto_fix`]); its one
/// quota unit is the one the protocol layer charged for the call.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let n = args.issues.len();
    if n == 0 || n > autofix::MAX_BATCH {
        let max = autofix::MAX_BATCH;
        return Err(tool_error("invalid_request", format!("`issues` must hold 1 to {max} issues, not {n}.")));
    }
    let fixes = env.state.app.auto_fix(args.issues, &payer(env)).await;
    let fixes = fixes.map_err(|e| from_app_error(e, "auto-fix batch"))?;
    Ok(api::AutoFixResult::new(fixes))
}
