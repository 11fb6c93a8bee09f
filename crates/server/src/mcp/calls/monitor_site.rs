//! monitor_site: puts a page of the key owner under monitoring (or reports on the existing
//! monitor): alert rules, recent alerts with their severity breakdown, and the issue counts
//! of the newest audit.
//! A page never audited is audited once now, so the first report has a breakdown.
//! With `action: "stop"` it stops the owner's monitor of the page instead
//! ([`app::App::stop_monitor_of`], as `DELETE /api/v1/monitors/{id}` does).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_api_error, from_app_error, owner, url_arg, ToolEnv};
use crate::error::ApiError;

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to monitor
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// watch (default): monitor the page and report on it; stop: stop monitoring it (its
    /// monitor and alerts are deleted)
    #[serde(default)]
    pub action: Option<app::monitors::MonitorAction>,
}

/// Result: the report on the monitor (watch), or the monitor stopped (stop).
#[derive(Debug, serde::Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum Output {
    /// watch.
    Report(app::monitors::MonitorReport),
    /// stop.
    Stopped(app::monitors::MonitorStopped),
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let url = url_arg(&args.url, "url")?;
    if args.action == Some(app::monitors::MonitorAction::Stop) {
        let stopped = env.state.app.stop_monitor_of(user_id, &url).await;
        return stopped.map(Output::Stopped).map_err(|e| from_app_error(e, "monitor"));
    }
    let report = env.state.monitors.watch_page(&user_id, &url).await;
    report.map(Output::Report).map_err(|e| from_api_error(ApiError::from(e.error), &e.what))
}
