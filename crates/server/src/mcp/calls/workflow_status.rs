//! workflow_status: a run of the key owner, read from the store (another owner's run
//! answers exactly as an unknown one).

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::workflow_execute::owner;
use super::{from_api_error, string_arg, tool_error, ToolEnv};

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
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let run_id = string_arg(args, "runId").unwrap_or_default();
    match owned_run(env, &user_id, run_id).await {
        Ok(run) => ToolResult::success(structured(&run)),
        Err(e) => e,
    }
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
