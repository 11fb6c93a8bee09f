//! workflow_status: a run of the key owner ([`app::Workflows::owned_run`]: another owner's
//! run answers exactly as an unknown one).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The runId returned by workflow_execute
    pub run_id: String,
}

/// Result: a run of the key owner.
pub type Output = app::workflows::RunView;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let run = env.state.workflows.owned_run(&user_id, &args.run_id).await;
    Ok(app::workflows::RunView::of(&run.map_err(|e| from_app_error(e, "workflow run"))?))
}
