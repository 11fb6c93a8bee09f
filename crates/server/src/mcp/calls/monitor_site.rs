//! monitor_site: puts a page of the key owner under monitoring (or reports on the existing
//! monitor): alert rules, recent alerts with their severity breakdown, and the issue counts
//! of the newest audit.
//! A page never audited is audited once now, so the first report has a breakdown.
//! With `action: "stop"` it stops the owner's monitor of the page instead
//! ([`app::App::stop_monitor_of`], as `DELETE /api/v1/monitors/{id}` does).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_api_error, owner, url_arg, ToolEnv};
use crate::error::ApiError;

/// Alerts reported.
pub const RECENT_ALERTS: usize = 20;

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
        return match env.state.app.stop_monitor_of(user_id, url.to_string()).await {
            Ok(Some(m)) => {
                Ok(Output::Stopped(app::monitors::MonitorStopped { monitor_id: m.id, url: m.url, stopped: true }))
            }
            Ok(None) => Err(super::tool_error("not_found", format!("No monitor of {url} for this API key's owner."))),
            Err(e) => Err(from_api_error(e.into(), "monitor")),
        };
    }
    watch(env, user_id, url).await.map(Output::Report)
}

async fn watch(env: &ToolEnv<'_>, user_id: String, url: url::Url) -> Result<app::monitors::MonitorReport, ToolResult> {
    let state = env.state;
    let latest = match state.app.latest_audit(url.to_string()).await.map_err(ApiError::from) {
        Ok(l) => l,
        Err(e) => return Err(from_api_error(e, "monitor")),
    };
    let latest = match latest {
        Some(a) => a,
        None => match state.app.audit_and_store(&url, &user_id)
            .await
            .map_err(ApiError::from)
            .map(|(stored, _)| stored)
        {
            Ok(a) => a,
            Err(e) => return Err(from_api_error(e, url.as_str())),
        },
    };
    let (monitor, created) = match state.monitors.ensure(&user_id, url.as_str()).await.map_err(ApiError::from) {
        Ok(m) => m,
        Err(e) => return Err(from_api_error(e, "monitor")),
    };
    let id = monitor.id.clone();
    let alerts = match state.app.recent_alerts(id, RECENT_ALERTS).await.map_err(ApiError::from) {
        Ok(a) => a,
        Err(e) => return Err(from_api_error(e, "alerts")),
    };
    // A monitor check may have stored an audit (and raised the alerts just read) since
    // `latest` was read: report the newest audit, so its issue counts and the alerts agree.
    let latest = state.app.latest_audit(url.to_string()).await.ok().flatten().unwrap_or(latest);
    Ok(app::monitors::MonitorReport::of(&monitor, created, &alerts, &latest))
}
