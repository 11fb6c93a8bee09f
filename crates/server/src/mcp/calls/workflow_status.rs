//! workflow_status: a run of the key owner, read from the store (another owner's run
//! answers exactly as an unknown one).

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{from_api_error, owner, tool_error, ToolEnv};
use crate::mcp::tools::shape::{all_required, array_of, nullable_timestamp, one_of_strings, t};
use crate::mcp::tools::{Json, Meta, Shape, READ_ONLY_LOCAL};

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

/// Result.
pub type Output = Json<Status>;

/// The shape of [`structured`].
#[derive(Debug)]
pub struct Status;

impl Shape for Status {
    fn schema() -> Value {
        use strum::VariantArray as _;
        let names = |v: &[&'static str]| one_of_strings(v);
        let intents: Vec<&str> = store::Intent::VARIANTS.iter().map(|i| i.as_str()).collect();
        let states: Vec<&str> = store::RunState::VARIANTS.iter().map(|s| s.as_str()).collect();
        let statuses: Vec<&str> = store::StepStatus::VARIANTS.iter().map(|s| s.as_str()).collect();
        let step = all_required(json!({
            "name": t("string"),
            "status": names(&statuses),
            "startedAt": nullable_timestamp(),
            "finishedAt": nullable_timestamp()
        }));
        all_required(json!({
            "runId": t("string"),
            "intent": names(&intents),
            "url": t("string"),
            "state": names(&states),
            "steps": array_of(step),
            "results": { "type": "object", "description": "Results of finished steps, keyed by step name" },
            "pendingApprovals": array_of(all_required(json!({ "approvalId": t("string"), "summary": t("string") }))),
            "error": {
                "type": ["object", "null"],
                "properties": { "step": t("string"), "reason": t("string") },
                "required": ["step", "reason"]
            },
            "resumes": {
                "type": "integer", "minimum": 0,
                "description": "Times the run was resumed after a server restart cut it short"
            }
        }))
    }
}

/// The run `run_id` when it belongs to `user_id`; the same not-found result otherwise.
pub async fn owned_run(env: &ToolEnv<'_>, user_id: &str, run_id: &str) -> Result<store::WorkflowRun, ToolResult> {
    let id = run_id.to_string();
    let found = env.state.db(move |s| Ok(s.get_run(&id))).await.map_err(|e| from_api_error(e, "workflow run"))?;
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
    Ok(Json::new(structured(&run)))
}

/// The structuredContent of workflow_status.
pub fn structured(run: &store::WorkflowRun) -> Value {
    let steps: Vec<Value> = run
        .steps
        .iter()
        .map(|s| json!({ "name": s.name, "status": s.status, "startedAt": s.started_at, "finishedAt": s.finished_at }))
        .collect();
    let mut results = serde_json::Map::new();
    for s in &run.steps {
        if let Some(v) = s.result_json.as_deref().and_then(|j| serde_json::from_str::<Value>(j).ok()) {
            results.insert(s.name.clone(), v);
        }
    }
    let pending: Vec<Value> = run
        .approvals
        .iter()
        .filter(|a| a.state == "pending")
        .map(|a| {
            let summary = results
                .get(store::GATE_STEP)
                .and_then(|v| v["summary"].as_str())
                .unwrap_or("Approve the fix plan (see results.fix_plan).")
                .to_string();
            json!({ "approvalId": a.id, "summary": summary })
        })
        .collect();
    let approvals: Vec<Value> = run
        .approvals
        .iter()
        .map(|a| json!({ "approvalId": a.id, "state": a.state, "decision": a.decision, "decidedAt": a.decided_at }))
        .collect();
    let error = match (run.state, &run.error_reason) {
        (store::RunState::Failed, reason) => json!({
            "step": run.error_step.clone().unwrap_or_else(|| "start".into()),
            "reason": reason.clone().unwrap_or_else(|| "unknown".into()),
        }),
        _ => Value::Null,
    };
    json!({
        "runId": run.id,
        "intent": run.intent,
        "url": run.url,
        "competitorUrl": run.competitor_url,
        "state": run.state.as_str(),
        "steps": steps,
        "results": results,
        "pendingApprovals": pending,
        "approvals": approvals,
        "error": error,
        "resumes": run.resumes,
        "createdAt": store::format_rfc3339(run.created_at),
        "updatedAt": store::format_rfc3339(run.updated_at),
    })
}
