//! monitor_site: puts a page of the key owner under monitoring (or reports on the existing
//! monitor): alert rules, recent alerts with their severity breakdown, and the issue counts
//! of the newest audit.
//! A page never audited is audited once now, so the first report has a breakdown.

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
}

/// Result.
pub type Output = app::monitors::MonitorReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let url = url_arg(&args.url, "url")?;
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
