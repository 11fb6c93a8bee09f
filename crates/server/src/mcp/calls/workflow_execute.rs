//! workflow_execute: creates a persisted run and starts it in the background; answers at
//! once with the runId (see [`app::Workflows`]; the arguments checked by
//! [`app::workflows::tool_run`]).

use mcp_protocol::ToolResult;

use super::{from_api_error, from_app_error, owner, ToolEnv};

/// Arguments.
pub type Args = app::workflows::ExecuteArgs;

/// Result: the run just created.
pub type Output = app::workflows::Started;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let new = app::workflows::tool_run(owner(env)?, args).map_err(|e| from_app_error(e, "argument"))?;
    let run = env.state.workflows.create(new).await;
    Ok(app::workflows::Started::of(&run.map_err(|e| from_api_error(e.into(), "workflow not created"))?))
}
