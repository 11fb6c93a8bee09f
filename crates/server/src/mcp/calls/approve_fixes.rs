//! approve_fixes: decides the approval gate of a fix run. Every invalid move (unknown run
//! or gate, a run not waiting, a gate already decided, a bad decision) is an isError
//! result and changes nothing: the decision is one store transaction that checks the gate
//! is still pending.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::workflow_execute::owner;
use super::workflow_status::owned_run;
use super::{from_api_error, string_arg, tool_error, ToolEnv};
use crate::mcp::tools::APPROVAL_DECISIONS;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let run_id = string_arg(args, "runId").unwrap_or_default().to_string();
    let approval_id = string_arg(args, "approvalId").unwrap_or_default().to_string();
    let decision = string_arg(args, "decision").unwrap_or_default().to_string();
    if !APPROVAL_DECISIONS.contains(&decision.as_str()) {
        return tool_error("invalid_request", format!("decision must be approved or rejected, not {decision:?}."));
    }
    let run = match owned_run(env, &user_id, &run_id).await {
        Ok(run) => run,
        Err(e) => return e,
    };
    let Some(gate) = run.approvals.iter().find(|a| a.id == approval_id) else {
        return tool_error("not_found", format!("Run {run_id} has no approval gate {approval_id:?}."));
    };
    if gate.state != "pending" {
        return tool_error(
            "conflict",
            format!(
                "Approval {approval_id} was already decided ({}); the run is {}. Nothing was changed.",
                gate.decision.as_deref().unwrap_or("decided"),
                run.state
            ),
        );
    }
    if run.state != store::RunState::AwaitingApproval {
        return tool_error(
            "conflict",
            format!("Run {run_id} is {}, not awaiting approval. Nothing was changed.", run.state),
        );
    }
    let (rid, aid, d) = (run_id.clone(), approval_id.clone(), decision.clone());
    let decided = match env.state.db(move |s| Ok(s.decide_approval(&rid, &aid, &d))).await {
        Ok(r) => r,
        Err(e) => return from_api_error(e, "approval"),
    };
    if let Err(e) = decided {
        // Lost a race with another decision: the transaction changed nothing.
        return tool_error(
            "conflict",
            format!("Approval {approval_id} could not be decided: {e}. Nothing was changed."),
        );
    }
    // The store finished the gate step (and skipped what a rejection leaves) with the decision.
    let state = if decision == "approved" {
        env.state.workflows.resume(run_id.clone());
        "running"
    } else {
        "rejected"
    };
    ToolResult::success(json!({ "runId": run_id, "approvalId": approval_id, "decision": decision, "state": state }))
}
