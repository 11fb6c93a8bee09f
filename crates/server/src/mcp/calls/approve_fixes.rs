//! approve_fixes: decides the approval gate of a fix run. Every invalid move (unknown run
//! or gate, a run not waiting, a gate already decided, a bad decision) is an isError
//! result and changes nothing: the decision is one store transaction that checks the gate
//! is still pending.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::workflow_status::owned_run;
use super::{from_api_error, owner, tool_error, ToolEnv};

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
    let run = owned_run(env, &user_id, &run_id).await?;
    let refused = |r: app::workflows::GateRefusal| tool_error(r.code(), r);
    app::workflows::check_gate(&run, &approval_id).map_err(refused)?;
    let decided = env
        .state
        .workflows
        .decide(run_id.clone(), approval_id.clone(), decision.as_str())
        .await
        .map_err(|e| from_api_error(e.into(), "approval"))?;
    // Lost a race with another decision: the transaction changed nothing.
    decided.map_err(|e| refused(app::workflows::GateRefusal::lost_race(&approval_id, e)))?;
    Ok(Output { run_id, approval_id, decision, state: decision.state_after() })
}
