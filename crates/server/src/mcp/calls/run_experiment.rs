//! run_experiment: SEO experiments of the key owner, measured with audits
//! ([`app::experiments`]).

use app::experiments::{ExperimentAction, NewExperiment, DEFAULT_METRIC};
use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, needed_url, owner, text, tool_error, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// create or list
    pub action: ExperimentAction,
    /// Short name; required for create
    #[schemars(length(min = 1, max = 200))]
    pub title: Option<String>,
    /// What the change should achieve; required for create
    #[schemars(length(min = 1, max = 2000))]
    pub hypothesis: Option<String>,
    /// The page under test; required for create
    #[schemars(length(min = 1, max = 2048))]
    pub url: Option<String>,
    /// Kind of change, e.g. title-rewrite, schema-added, content-expansion
    #[schemars(length(max = 100))]
    pub experiment_type: Option<String>,
    /// Measured figure: score (default), word_count, or a rule id
    #[schemars(length(max = 100))]
    pub metric_target: Option<String>,
}

/// Result.
pub type Output = app::experiments::ExperimentReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let app = &env.state.app;
    if args.action == ExperimentAction::Create {
        const MISSING: &str = "create needs title, hypothesis and url.";
        let (Some(title), Some(hypothesis)) = (text(&args.title), text(&args.hypothesis)) else {
            return Err(tool_error("missing_parameter", MISSING));
        };
        let url = needed_url(args.url.as_deref(), "url", MISSING)?;
        let new = NewExperiment {
            title,
            hypothesis,
            experiment_type: text(&args.experiment_type),
            metric: text(&args.metric_target).unwrap_or_else(|| DEFAULT_METRIC.to_string()),
            url,
        };
        let what = new.url.to_string();
        app.create_experiment(&user_id, new).await.map_err(|e| from_app_error(e, &what))?;
    }
    app.experiment_report(&user_id, args.action).await.map_err(|e| from_app_error(e, "experiments"))
}
