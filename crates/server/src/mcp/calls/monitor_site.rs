//! monitor_site: puts a page of the key owner under monitoring (or reports on the existing
//! monitor): alert rules, recent alerts, and the severity breakdown of the newest audit.
//! A page never audited is audited once now, so the first report has a breakdown.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::workflow_execute::owner;
use super::{from_api_error, url_arg, ToolEnv};
use app::workflows::severity_breakdown;

/// Alerts reported.
pub const RECENT_ALERTS: usize = 20;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let url = match url_arg(args, "url") {
        Ok(url) => url,
        Err(e) => return e,
    };
    let state = env.state;
    let key = url.to_string();
    let latest = match state.db(move |s| s.latest_audit_for_url(&key)).await {
        Ok(l) => l,
        Err(e) => return from_api_error(e, "monitor"),
    };
    let latest = match latest {
        Some(a) => a,
        None => match state.app.audit_and_store(&url, &user_id).await {
            Ok((stored, _)) => stored,
            Err(e) => return from_api_error(e.into(), url.as_str()),
        },
    };
    let (monitor, created) = match state.monitors.ensure(&user_id, url.as_str()).await {
        Ok(m) => m,
        Err(e) => return from_api_error(e.into(), "monitor"),
    };
    let id = monitor.id.clone();
    let alerts = match state.db(move |s| s.recent_alerts(&id, RECENT_ALERTS)).await {
        Ok(a) => a,
        Err(e) => return from_api_error(e, "alerts"),
    };
    let result = app::StoredResult::of(&latest);
    let recent: Vec<Value> = alerts
        .iter()
        .map(|a| {
            json!({
                "alertId": a.id, "rule": a.rule, "severity": a.severity, "message": a.message,
                "createdAt": store::format_rfc3339(a.created_at),
            })
        })
        .collect();
    ToolResult::success(json!({
        "monitorId": monitor.id,
        "url": monitor.url,
        "intervalSeconds": monitor.interval_s,
        "created": created,
        "nextRunAt": store::format_rfc3339(monitor.next_run_at),
        "rules": app::monitors::rules_json(),
        "recentAlerts": recent,
        "severityBreakdown": severity_breakdown(&result),
        "lastScore": latest.score,
        "lastAuditAt": store::format_rfc3339(latest.created_at),
    }))
}
