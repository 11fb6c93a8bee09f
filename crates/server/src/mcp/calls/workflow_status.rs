//! workflow_status: a run of the key owner, read from the store (another owner's run
//! answers exactly as an unknown one).

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{from_api_error, owner, tool_error, ToolEnv};
use crate::mcp::tools::{Meta, READ_ONLY_LOCAL};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Workflow status",
    category: Category::Write,
    hints: READ_ONLY_LOCAL,
    description:
        "Reports a workflow run: its state (queued, running, awaiting_approval, completed, rejected, failed), \
         each step with its timing, the results gathered so far, approvals waiting for approve_fixes, and the \
         failing step and reason when it failed. A run cut short by a server restart resumes from that step \
         (resumes counts how often). Needs an API key with the mcp scope. Call it after workflow_execute until \
         the state is completed, rejected or failed.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The runId returned by workflow_execute
    pub run_id: String,
}

/// Result: a run of the key owner.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Output {
    /// The run's id.
    pub run_id: String,
    /// What the run does.
    pub intent: app::Intent,
    /// The page.
    pub url: String,
    /// The competitor's page (competitor intent).
    pub competitor_url: Option<String>,
    /// Where the run stands.
    pub state: app::RunState,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Results of finished steps, keyed by step name
    pub results: Map<String, Value>,
    /// Approval gates waiting for approve_fixes.
    pub pending_approvals: Vec<PendingApproval>,
    /// Every approval gate of the run.
    pub approvals: Vec<ApprovalView>,
    /// The failing step and why; null unless the run failed.
    pub error: Option<RunError>,
    /// Times the run was resumed after a server restart cut it short
    pub resumes: u32,
    /// When the run was created (ISO 8601 UTC).
    pub created_at: String,
    /// When the run last changed (ISO 8601 UTC).
    pub updated_at: String,
}

/// One step of a run.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// The step's name.
    pub name: String,
    /// Where the step stands.
    pub status: app::StepStatus,
    /// When it started (ISO 8601 UTC), or null.
    pub started_at: Option<String>,
    /// When it finished (ISO 8601 UTC), or null.
    pub finished_at: Option<String>,
}

/// An approval gate waiting for a decision.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// The approvalId for approve_fixes.
    pub approval_id: String,
    /// What approving does.
    pub summary: String,
}

/// An approval gate.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalView {
    /// The gate's id.
    pub approval_id: String,
    /// pending or decided.
    pub state: String,
    /// approved or rejected once decided.
    pub decision: Option<String>,
    /// When it was decided.
    pub decided_at: Option<String>,
}

/// Why a run failed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunError {
    /// The step that failed.
    pub step: String,
    /// Why.
    pub reason: String,
}

/// The run `run_id` when it belongs to `user_id`; the same not-found result otherwise.
pub async fn owned_run(env: &ToolEnv<'_>, user_id: &str, run_id: &str) -> Result<app::WorkflowRun, ToolResult> {
    let found = env.state.workflows.run(run_id.to_string()).await.map_err(|e| from_api_error(e.into(), "workflow run"))?;
    match found {
        Ok(run) if run.user_id.as_deref() == Some(user_id) => Ok(run),
        Ok(_) => Err(not_found(run_id)),
        Err(e) if e.is_not_found() => Err(not_found(run_id)),
        Err(e) => Err(from_api_error(e.into(), "workflow run")),
    }
}

fn not_found(run_id: &str) -> ToolResult {
    tool_error("not_found", format!("No workflow run {run_id:?} of this API key's owner."))
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let run = owned_run(env, &user_id, &args.run_id).await?;
    Ok(structured(&run))
}

/// The structuredContent of workflow_status.
pub fn structured(run: &app::WorkflowRun) -> Output {
    let steps = run
        .steps
        .iter()
        .map(|s| Step {
            name: s.name.clone(),
            status: s.status,
            started_at: s.started_at.clone(),
            finished_at: s.finished_at.clone(),
        })
        .collect();
    let mut results = Map::new();
    for s in &run.steps {
        if let Some(v) = s.result_json.as_deref().and_then(|j| serde_json::from_str::<Value>(j).ok()) {
            results.insert(s.name.clone(), v);
        }
    }
    let summary = results
        .get(app::GATE_STEP)
        .and_then(|v| v["summary"].as_str())
        .unwrap_or("Approve the fix plan (see results.fix_plan).")
        .to_string();
    let pending_approvals = run
        .approvals
        .iter()
        .filter(|a| a.state == "pending")
        .map(|a| PendingApproval { approval_id: a.id.clone(), summary: summary.clone() })
        .collect();
    let approvals = run
        .approvals
        .iter()
        .map(|a| ApprovalView {
            approval_id: a.id.clone(),
            state: a.state.clone(),
            decision: a.decision.clone(),
            decided_at: a.decided_at.clone(),
        })
        .collect();
    let error = (run.state == app::RunState::Failed).then(|| RunError {
        step: run.error_step.clone().unwrap_or_else(|| "start".into()),
        reason: run.error_reason.clone().unwrap_or_else(|| "unknown".into()),
    });
    Output {
        run_id: run.id.clone(),
        intent: run.intent,
        url: run.url.clone(),
        competitor_url: run.competitor_url.clone(),
        state: run.state,
        steps,
        results,
        pending_approvals,
        approvals,
        error,
        resumes: run.resumes,
        created_at: app::format_rfc3339(run.created_at),
        updated_at: app::format_rfc3339(run.updated_at),
    }
}
