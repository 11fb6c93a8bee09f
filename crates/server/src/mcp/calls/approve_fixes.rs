//! approve_fixes: decides the approval gate of a fix run. Every invalid move (unknown run
//! or gate, a run not waiting, a gate already decided, a bad decision) is an isError
//! result and changes nothing ([`app::Workflows::approve`]: the decision is one store
//! transaction that checks the gate is still pending).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The run waiting for approval
    pub run_id: String,
    /// The approvalId listed in workflow_status
    pub approval_id: String,
    /// approved or rejected
    pub decision: Decision,
}

pub use app::workflows::Decision;

/// Result: the decision and where the run stands now.
pub type Output = app::workflows::Decided;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let Args { run_id, approval_id, decision } = args;
    let decided = env.state.workflows.approve(&user_id, run_id.into(), approval_id.into(), decision).await;
    decided.map_err(|e| from_app_error(e, "approval"))
}
