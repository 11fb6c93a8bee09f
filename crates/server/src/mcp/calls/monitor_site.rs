//! monitor_site: puts a page of the key owner under monitoring (or reports on the existing
//! monitor): alert rules, recent alerts, and the severity breakdown of the newest audit.
//! A page never audited is audited once now, so the first report has a breakdown.

use mcp_protocol::{Category, ToolAnnotations, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{from_api_error, owner, url_arg, ToolEnv};
use crate::error::ApiError;
use crate::mcp::tools::shape::{all_required, array_of, nullable_timestamp, severity, t, timestamp};
use crate::mcp::tools::{Json, Meta, Shape};
use app::workflows::severity_breakdown;

/// Alerts reported.
pub const RECENT_ALERTS: usize = 20;

/// The tool's card.
pub const META: Meta = Meta {
    title: "Monitor a site",
    category: Category::Write,
    hints: ToolAnnotations {
        read_only_hint: false,
        open_world_hint: true,
        destructive_hint: Some(false),
        idempotent_hint: Some(true),
    },
    description:
        "Puts a page under monitoring (re-audited daily) or, when it already is, reports on it: the alert rules \
         (score drop of 5 or more, new critical issue, status not 2xx, unreachable), recent alerts, a severity \
         breakdown of the latest audit and when it ran. Alerts also go to the key owner's webhooks. Scheduled \
         re-audits obey the site's robots.txt for SeoAuditBot (a disallowed page raises unreachable instead). \
         Calling it again for the same URL creates nothing new. Needs an API key with the mcp scope.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page to monitor
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result.
pub type Output = Json<Report>;

/// The shape of the monitor report.
#[derive(Debug)]
pub struct Report;

impl Shape for Report {
    fn schema() -> Value {
        let rule = all_required(json!({ "rule": t("string"), "description": t("string") }));
        let alert = all_required(json!({
            "rule": t("string"), "severity": severity(), "message": t("string"), "createdAt": timestamp()
        }));
        all_required(json!({
            "monitorId": t("string"),
            "url": t("string"),
            "intervalSeconds": t("integer"),
            "created": t("boolean"),
            "rules": array_of(rule),
            "recentAlerts": array_of(alert),
            "severityBreakdown": all_required(json!({ "critical": t("integer"), "warning": t("integer"), "notice": t("integer") })),
            "lastAuditAt": nullable_timestamp()
        }))
    }
}

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
    // `latest` was read: report the newest audit, so breakdown and alerts agree.
    let latest = state.app.latest_audit(url.to_string()).await.ok().flatten().unwrap_or(latest);
    let result = app::StoredResult::of(&latest);
    let recent: Vec<Value> = alerts
        .iter()
        .map(|a| {
            json!({
                "alertId": a.id, "rule": a.rule, "severity": a.severity, "message": a.message,
                "createdAt": app::format_rfc3339(a.created_at),
            })
        })
        .collect();
    Ok(Json::new(json!({
        "monitorId": monitor.id,
        "url": monitor.url,
        "intervalSeconds": monitor.interval_s,
        "created": created,
        "nextRunAt": app::format_rfc3339(monitor.next_run_at),
        "rules": app::monitors::rules_json(),
        "recentAlerts": recent,
        "severityBreakdown": severity_breakdown(&result),
        "lastScore": latest.score,
        "lastAuditAt": app::format_rfc3339(latest.created_at),
    })))
}
