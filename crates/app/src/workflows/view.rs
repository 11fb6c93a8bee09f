//! A workflow run as the agent tools report it (docs/API.md "Workflow runs"): just created
//! (workflow_execute), and as it stands (workflow_status): its steps, the results gathered so
//! far and its approval gates.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};
use vocab::{ApprovalId, WorkflowId};

/// Result: a run of the key owner.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunView {
    /// The run's id.
    #[schemars(with = "String")]
    pub run_id: WorkflowId,
    /// What the run does.
    pub intent: crate::Intent,
    /// The page.
    pub url: String,
    /// The competitor's page (competitor intent).
    pub competitor_url: Option<String>,
    /// Where the run stands.
    pub state: crate::RunState,
    /// Every step, in order.
    pub steps: Vec<StepView>,
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
    #[schemars(with = "String")]
    pub created_at: vocab::Timestamp,
    /// When the run last changed (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub updated_at: vocab::Timestamp,
}

/// One step of a run.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepView {
    /// The step's name.
    pub name: String,
    /// Where the step stands.
    pub status: crate::StepStatus,
    /// When it started (ISO 8601 UTC), or null.
    #[schemars(with = "Option<String>")]
    pub started_at: Option<vocab::Timestamp>,
    /// When it finished (ISO 8601 UTC), or null.
    #[schemars(with = "Option<String>")]
    pub finished_at: Option<vocab::Timestamp>,
}

/// An approval gate waiting for a decision.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// The approvalId for approve_fixes.
    #[schemars(with = "String")]
    pub approval_id: ApprovalId,
    /// What approving does.
    pub summary: String,
}

/// An approval gate.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalView {
    /// The gate's id.
    #[schemars(with = "String")]
    pub approval_id: ApprovalId,
    /// pending or decided.
    pub state: String,
    /// approved or rejected once decided.
    pub decision: Option<String>,
    /// When it was decided.
    #[schemars(with = "Option<String>")]
    pub decided_at: Option<vocab::Timestamp>,
}

/// Why a run failed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunError {
    /// The step that failed.
    pub step: String,
    /// Why.
    pub reason: String,
}

impl RunView {
    /// The view of a run (workflow_status answers it).
    pub fn of(run: &crate::WorkflowRun) -> RunView {
        let steps = run
            .steps
            .iter()
            .map(|s| StepView {
                name: s.name.clone(),
                status: s.status,
                started_at: s.started_at,
                finished_at: s.finished_at,
            })
            .collect();
        let mut results = Map::new();
        for s in &run.steps {
            if let Some(v) = s.result_json.as_deref().and_then(|j| serde_json::from_str::<Value>(j).ok()) {
                results.insert(s.name.clone(), v);
            }
        }
        let summary = super::steps::output_of::<super::steps::GateOutput>(run, super::Step::Approval)
            .map(|gate| gate.summary)
            .unwrap_or_else(|_| "Approve the fix plan (see results.fix_plan).".to_string());
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
                decided_at: a.decided_at,
            })
            .collect();
        let error = (run.state == crate::RunState::Failed).then(|| RunError {
            step: run.error_step.clone().unwrap_or_else(|| "start".into()),
            reason: run.error_reason.clone().unwrap_or_else(|| "unknown".into()),
        });
        RunView {
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
            created_at: run.created_at.into(),
            updated_at: run.updated_at.into(),
        }
    }
}

/// Result: the run just created.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Started {
    /// The run's id, for workflow_status.
    #[schemars(with = "String")]
    pub run_id: WorkflowId,
    /// Always queued.
    pub state: crate::RunState,
    /// What the run does.
    pub intent: crate::Intent,
    /// The page.
    pub url: String,
    /// The steps the run will take, in order.
    pub steps: Vec<String>,
}

impl Started {
    /// The answer for `run`, just created (still queued).
    pub fn of(run: &crate::WorkflowRun) -> Started {
        Started {
            run_id: run.id.clone(),
            state: crate::RunState::Queued,
            intent: run.intent,
            url: run.url.clone(),
            steps: super::steps_of(run.intent).iter().map(|s| s.as_str().to_string()).collect(),
        }
    }
}

/// Result: the key owner's runs (workflow_status without a runId).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunList {
    /// The newest runs, newest first (at most 100).
    pub runs: Vec<RunSummary>,
}

/// A run as listed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    /// The run's id, for workflow_status.
    #[schemars(with = "String")]
    pub run_id: WorkflowId,
    /// What the run does.
    pub intent: crate::Intent,
    /// The page.
    pub url: String,
    /// Where the run stands.
    pub state: crate::RunState,
    /// The step it is at (its running step, or the next one to run); null once it ended.
    pub current_step: Option<String>,
    /// When the run was created (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub created_at: vocab::Timestamp,
    /// When the run last changed (ISO 8601 UTC).
    #[schemars(with = "String")]
    pub updated_at: vocab::Timestamp,
}

impl RunList {
    /// The list of `runs`.
    pub fn of(runs: &[crate::WorkflowRun]) -> RunList {
        let runs = runs
            .iter()
            .map(|run| RunSummary {
                run_id: run.id.clone(),
                intent: run.intent,
                url: run.url.clone(),
                state: run.state,
                current_step: super::current_step(run).map(str::to_string),
                created_at: run.created_at.into(),
                updated_at: run.updated_at.into(),
            })
            .collect();
        RunList { runs }
    }
}
