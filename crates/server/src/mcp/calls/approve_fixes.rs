//! approve_fixes: decides the approval gate of a fix run. Every invalid move (unknown run
//! or gate, a run not waiting, a gate already decided, a bad decision) is an isError
//! result and changes nothing: the decision is one store transaction that checks the gate
//! is still pending.

use mcp_protocol::{Category, ToolAnnotations, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::workflow_status::owned_run;
use super::{from_api_error, owner, tool_error, ToolEnv};
use crate::mcp::tools::Meta;

/// The tool's card.
pub const META: Meta = Meta {
    title: "Approve or reject fixes",
    category: Category::Write,
    hints: ToolAnnotations {
        read_only_hint: false,
        open_world_hint: false,
        destructive_hint: Some(false),
        idempotent_hint: Some(true),
    },
    description:
        "Answers an approval gate of a fix workflow: approved lets the run finish its fix plan, rejected ends \
         the run in the rejected state. The approvalId comes from workflow_status' pendingApprovals. Deciding \
         the same gate again with the same decision changes nothing. Needs an API key with the mcp scope.",
};

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

/// The answer to an approval gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// The run finishes its fix plan.
    Approved,
    /// The run ends in the rejected state.
    Rejected,
}

impl Decision {
    fn as_str(self) -> &'static str {
        match self {
            Decision::Approved => "approved",
            Decision::Rejected => "rejected",
        }
    }
}

/// Result: the decision and where the run stands now.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Output {
    /// The run.
    pub run_id: String,
    /// The gate.
    pub approval_id: String,
    /// The decision taken.
    pub decision: Decision,
    /// running after an approval, rejected after a rejection.
    pub state: app::RunState,
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let Args { run_id, approval_id, decision } = args;
    let run = owned_run(env, &user_id, &run_id).await?;
    let Some(gate) = run.approvals.iter().find(|a| a.id == approval_id) else {
        return Err(tool_error("not_found", format!("Run {run_id} has no approval gate {approval_id:?}.")));
    };
    if gate.state != "pending" {
        return Err(tool_error(
            "conflict",
            format!(
                "Approval {approval_id} was already decided ({}); the run is {}. Nothing was changed.",
                gate.decision.as_deref().unwrap_or("decided"),
                run.state
            ),
        ));
    }
    if run.state != app::RunState::AwaitingApproval {
        return Err(tool_error(
            "conflict",
            format!("Run {run_id} is {}, not awaiting approval. Nothing was changed.", run.state),
        ));
    }
    let decided = env
        .state
        .workflows
        .decide(run_id.clone(), approval_id.clone(), decision.as_str())
        .await
        .map_err(|e| from_api_error(e.into(), "approval"))?;
    if let Err(e) = decided {
        // Lost a race with another decision: the transaction changed nothing.
        return Err(tool_error(
            "conflict",
            format!("Approval {approval_id} could not be decided: {e}. Nothing was changed."),
        ));
    }
    // The store finished the gate step (and skipped what a rejection leaves) with the decision.
    let state = match decision {
        Decision::Approved => app::RunState::Running,
        Decision::Rejected => app::RunState::Rejected,
    };
    Ok(Output { run_id, approval_id, decision, state })
}
