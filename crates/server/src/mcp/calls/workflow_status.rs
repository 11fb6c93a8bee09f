//! workflow_status: a run of the key owner, read from the store (another owner's run
//! answers exactly as an unknown one).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_api_error, owner, tool_error, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The runId returned by workflow_execute
    pub run_id: String,
}

/// Result: a run of the key owner.
pub type Output = app::workflows::RunView;

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
    Ok(app::workflows::RunView::of(&run))
}
