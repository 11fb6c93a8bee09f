//! What monitor_site reports on a monitor (docs/API.md, "Monitoring"): its alert rules,
//! recent alerts and their severity breakdown, and the issue counts of the newest audit.

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
    #[schemars(with = "String")]
    pub monitor_id: vocab::MonitorId,
    /// The monitored page.
    pub url: String,
    /// Seconds between scheduled audits.
    pub interval_seconds: u32,
    /// Whether this call created the monitor.
    pub created: bool,
    /// When the next scheduled audit is due (ISO 8601 UTC timestamp).
    #[schemars(with = "String")]
    pub next_run_at: vocab::Timestamp,
    /// The alert rules.
    pub rules: Vec<RuleView>,
    /// The newest alerts, newest first.
    pub recent_alerts: Vec<AlertView>,
    /// The alerts of `recent_alerts` by severity: the breakdown counts what is listed.
    pub severity_breakdown: SeverityBreakdown,
    /// Issues of the newest audit by severity.
    pub latest_audit_issues: SeverityBreakdown,
    /// Score of the newest audit.
    pub last_score: i64,
    /// When the newest audit ran (ISO 8601 UTC timestamp).
    #[schemars(with = "String")]
    pub last_audit_at: vocab::Timestamp,
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
    #[schemars(with = "String")]
    pub alert_id: vocab::AlertId,
    /// The rule that fired.
    pub rule: String,
    /// critical, warning or notice.
    #[schemars(extend("enum" = ["critical", "warning", "notice"]))]
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// When it was raised (ISO 8601 UTC timestamp).
    #[schemars(with = "String")]
    pub created_at: vocab::Timestamp,
}

/// Counts by severity (of alerts, or of an audit's issues).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SeverityBreakdown {
    /// Critical ones.
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

    /// The counts of `alerts` by their severity.
    pub fn of_alerts(alerts: &[store::Alert]) -> SeverityBreakdown {
        let count = |severity: &str| alerts.iter().filter(|a| a.severity == severity).count();
        SeverityBreakdown { critical: count("critical"), warning: count("warning"), notice: count("notice") }
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
            next_run_at: monitor.next_run_at.into(),
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
                    created_at: a.created_at.into(),
                })
                .collect(),
            severity_breakdown: SeverityBreakdown::of_alerts(alerts),
            latest_audit_issues: SeverityBreakdown::of(&StoredResult::of(latest)),
            last_score: latest.score,
            last_audit_at: latest.created_at.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(severity: &str) -> store::Alert {
        store::Alert {
            id: "a".into(),
            monitor_id: "m".into(),
            rule: "score_drop".into(),
            severity: severity.into(),
            message: "m".into(),
            created_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn the_breakdown_counts_the_alerts_listed() {
        let alerts = [alert("critical"), alert("warning"), alert("critical")];
        assert_eq!(SeverityBreakdown::of_alerts(&alerts), SeverityBreakdown { critical: 2, warning: 1, notice: 0 });
        assert_eq!(SeverityBreakdown::of_alerts(&[]), SeverityBreakdown { critical: 0, warning: 0, notice: 0 });
    }
}
