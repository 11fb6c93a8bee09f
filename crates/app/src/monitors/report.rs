//! What monitor_site reports on a monitor (docs/API.md, "Monitoring"): its alert rules,
//! recent alerts, and the severity breakdown of the newest audit.

use schemars::JsonSchema;
use serde::Serialize;
use strum::VariantArray as _;

use super::AlertRule;
use crate::StoredResult;

/// A monitor of the key owner, with its alerts and newest audit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MonitorReport {
    /// The monitor's id.
    pub monitor_id: String,
    /// The monitored page.
    pub url: String,
    /// Seconds between scheduled audits.
    pub interval_seconds: u32,
    /// Whether this call created the monitor.
    pub created: bool,
    /// When the next scheduled audit is due (ISO 8601 UTC timestamp).
    pub next_run_at: String,
    /// The alert rules.
    pub rules: Vec<RuleView>,
    /// The newest alerts, newest first.
    pub recent_alerts: Vec<AlertView>,
    /// Issues of the newest audit by severity.
    pub severity_breakdown: SeverityBreakdown,
    /// Score of the newest audit.
    pub last_score: i64,
    /// When the newest audit ran (ISO 8601 UTC timestamp).
    pub last_audit_at: String,
}

/// An alert rule.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleView {
    /// The rule's name.
    pub rule: &'static str,
    /// When it fires.
    pub description: &'static str,
}

/// An alert a monitor raised.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertView {
    /// The alert's id.
    pub alert_id: String,
    /// The rule that fired.
    pub rule: String,
    /// critical, warning or notice.
    #[schemars(extend("enum" = ["critical", "warning", "notice"]))]
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// When it was raised (ISO 8601 UTC timestamp).
    pub created_at: String,
}

/// Issue counts by severity.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct SeverityBreakdown {
    /// Critical issues.
    pub critical: usize,
    /// Warnings.
    pub warning: usize,
    /// Notices.
    pub notice: usize,
}

impl SeverityBreakdown {
    /// The counts of a stored audit.
    pub fn of(result: &StoredResult) -> SeverityBreakdown {
        let (critical, warning, notice) = result.severity_counts();
        SeverityBreakdown { critical, warning, notice }
    }
}

impl MonitorReport {
    /// The report on `monitor` (`created` by this call), its `alerts` and the `latest` audit.
    pub fn of(monitor: &store::Monitor, created: bool, alerts: &[store::Alert], latest: &store::StoredAudit) -> Self {
        MonitorReport {
            monitor_id: monitor.id.clone(),
            url: monitor.url.clone(),
            interval_seconds: monitor.interval_s,
            created,
            next_run_at: crate::format_rfc3339(monitor.next_run_at),
            rules: AlertRule::VARIANTS
                .iter()
                .map(|r| RuleView { rule: r.name(), description: r.description() })
                .collect(),
            recent_alerts: alerts
                .iter()
                .map(|a| AlertView {
                    alert_id: a.id.clone(),
                    rule: a.rule.clone(),
                    severity: a.severity.clone(),
                    message: a.message.clone(),
                    created_at: crate::format_rfc3339(a.created_at),
                })
                .collect(),
            severity_breakdown: SeverityBreakdown::of(&StoredResult::of(latest)),
            last_score: latest.score,
            last_audit_at: crate::format_rfc3339(latest.created_at),
        }
    }
}
