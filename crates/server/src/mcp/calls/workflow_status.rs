//! workflow_status: a run of the key owner ([`app::Workflows::owned_run`]: another owner's
//! run answers exactly as an unknown one), or, without a runId, the owner's newest runs (as
//! `GET /api/v1/workflows` lists them).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// The runId returned by workflow_execute; leave it out to list your runs
    pub run_id: Option<String>,
}

/// Result: a run of the key owner, or the owner's runs.
#[derive(Debug, serde::Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum Output {
    /// A run (with runId).
    Run(Box<app::workflows::RunView>),
    /// The owner's runs (without runId).
    List(app::workflows::RunList),
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let Some(run_id) = args.run_id else {
        let runs = env.state.workflows.owned_runs(user_id, app::workflows::RUN_LIST_LIMIT).await;
        return Ok(Output::List(app::workflows::RunList::of(&runs.map_err(|e| from_app_error(e, "workflow runs"))?)));
    };
    let run = env.state.workflows.owned_run(&user_id, &run_id.into()).await;
    Ok(Output::Run(Box::new(app::workflows::RunView::of(&run.map_err(|e| from_app_error(e, "workflow run"))?))))
}
