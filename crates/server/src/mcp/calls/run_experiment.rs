//! run_experiment: SEO experiments of the key owner, measured with audits
//! ([`app::experiments`]; the arguments checked by
//! [`app::experiments::ExperimentArgs::new_experiment`]).

use mcp_protocol::ToolResult;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
pub type Args = app::experiments::ExperimentArgs;

/// Result.
pub type Output = app::experiments::ExperimentReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let app = &env.state.app;
    if let Some(new) = args.new_experiment().map_err(|e| from_app_error(e, "argument"))? {
        let what = new.url.to_string();
        app.create_experiment(&user_id, new).await.map_err(|e| from_app_error(e, &what))?;
    }
    app.experiment_report(&user_id, args.action).await.map_err(|e| from_app_error(e, "experiments"))
}
