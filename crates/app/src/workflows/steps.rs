//! The steps of a workflow run and what each one stores (docs/API.md, "Workflow runs"):
//! [`Step`] names them, and every step's result is a typed value written and read back
//! through [`output_of`]. Results are stored as JSON with the camelCase names
//! workflow_status shows under `results`; fields added after the first release carry
//! `#[serde(default)]` so rows written by older versions still read, while the ids later
//! steps follow (`auditId`) are required: a row without one is an error the run reports,
//! never a silent empty id.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::StoredResult;

/// A step of a workflow run, by the name stored with it and shown by workflow_status.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::AsRefStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum Step {
    /// Audit the run's page.
    Audit,
    /// Summarise the page's audit.
    Summarize,
    /// Rank the page's opportunities.
    Opportunities,
    /// Plan fixes for the page.
    FixPlan,
    /// The approval gate of the fix plan (`store::GATE_STEP`).
    Approval,
    /// Finish an approved fix plan.
    Finalize,
    /// Find or make the page's monitor.
    RegisterMonitor,
    /// Audit the competitor's page.
    AuditCompetitor,
    /// Compare the page with the competitor's.
    Compare,
}

impl Step {
    /// The stored name of the step.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Counts of each severity among the recommendations of an audit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issues {
    /// Critical recommendations.
    #[serde(default)]
    pub critical: usize,
    /// Warnings.
    #[serde(default)]
    pub warning: usize,
    /// Notices.
    #[serde(default)]
    pub notice: usize,
}

impl Issues {
    /// The counts of a stored result.
    pub fn of(result: &StoredResult) -> Issues {
        let (critical, warning, notice) = result.severity_counts();
        Issues { critical, warning, notice }
    }
}

/// Result of the `audit` and `audit_competitor` steps: the stored audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditOutput {
    /// The stored audit the later steps read.
    pub audit_id: vocab::AuditId,
    /// The page asked for.
    #[serde(default)]
    pub url: String,
    /// The page's score percentage.
    #[serde(default)]
    pub score: i64,
    /// The page's title.
    #[serde(default)]
    pub title: String,
    /// The page's HTTP status.
    #[serde(default)]
    pub status_code: u16,
    /// Recommendations by severity.
    #[serde(default)]
    pub issues: Issues,
}

impl AuditOutput {
    /// The summary of a stored audit.
    pub fn of(stored: &store::StoredAudit, result: &StoredResult) -> AuditOutput {
        AuditOutput {
            audit_id: stored.id.clone(),
            url: stored.url.clone(),
            score: stored.score,
            title: result.result.page.title.clone(),
            status_code: result.result.page.status_code,
            issues: Issues::of(result),
        }
    }
}

/// One failed check as the `summarize` step lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopIssue {
    /// The rule id.
    pub id: String,
    /// Its severity.
    #[serde(rename = "type")]
    pub kind: audit_core::Severity,
    /// What it found.
    pub title: String,
    /// Its impact level.
    pub impact: audit_core::Level,
    /// Its effort level.
    pub effort: audit_core::Level,
}

/// Result of the `summarize` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryOutput {
    /// The page's score percentage.
    #[serde(default)]
    pub score: i64,
    /// The audit's own summary.
    #[serde(default)]
    pub summary: String,
    /// Recommendations by severity.
    #[serde(default)]
    pub issues: Issues,
    /// The five most severe failed checks, in the audit's order.
    #[serde(default)]
    pub top_issues: Vec<TopIssue>,
}

/// Result of the `opportunities` and `fix_plan` steps: what get_opportunities or
/// generate_fixes answer, with the audit it was made from.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedOutput<T> {
    /// The answer of the tool.
    #[serde(flatten)]
    pub plan: T,
    /// The stored audit it was made from.
    pub audit_id: vocab::AuditId,
}

/// The `fix_plan` step's result as the approval gate and `finalize` read it back: the
/// fixes are carried over as they were stored (the plan's fixes refer to rules by static
/// id, so they are written from [`crate::fixes::FixPlan`] and read as stored JSON).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredPlan {
    /// The stored audit the plan was made from.
    pub audit_id: vocab::AuditId,
    /// The fixes, highest priority first.
    pub fixes: Vec<Value>,
}

/// Result of the approval gate step while it waits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GateOutput {
    /// The gate's id, for approve_fixes.
    pub approval_id: vocab::ApprovalId,
    /// What approving does.
    #[serde(default)]
    pub summary: String,
}

/// Result of the `finalize` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FinalizeOutput {
    /// Always true (a rejected plan never reaches this step).
    pub approved: bool,
    /// When the plan was approved.
    pub approved_at: Option<vocab::Timestamp>,
    /// The approved fixes.
    pub fixes: Vec<Value>,
}

/// Result of the `register_monitor` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonitorOutput {
    /// The page's monitor.
    pub monitor_id: vocab::MonitorId,
    /// How often it checks the page.
    #[serde(default)]
    pub interval_seconds: u32,
    /// Whether this step made it (false: it existed).
    #[serde(default)]
    pub created: bool,
}

/// Result of the `compare` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompareOutput {
    /// The page's score percentage.
    pub site_score: i64,
    /// The competitor's score percentage.
    pub competitor_score: i64,
    /// The page's score minus the competitor's.
    pub score_delta: i64,
    /// Rules that fail on the competitor's page only.
    #[serde(default)]
    pub site_wins: Vec<String>,
    /// Rules that fail on the page only.
    #[serde(default)]
    pub competitor_wins: Vec<String>,
}

/// Result of a failed step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedOutput {
    /// Why it failed.
    pub error: String,
}

/// The stored JSON of a step's result.
pub fn to_json<T: Serialize>(output: &T) -> Result<String, String> {
    serde_json::to_string(output).map_err(|e| format!("step result not written: {e}"))
}

/// The stored result of `step` of `run`, typed: an error (which fails the step reading it)
/// when the step stored none or its result does not read as `T`.
pub fn output_of<T: DeserializeOwned>(run: &store::WorkflowRun, step: Step) -> Result<T, String> {
    let json = run
        .steps
        .iter()
        .find(|s| s.name == step.as_str())
        .and_then(|s| s.result_json.as_deref())
        .ok_or_else(|| format!("step {step} stored no result"))?;
    serde_json::from_str(json).map_err(|e| format!("the result of step {step} does not read: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(name: &str, json: &str) -> store::WorkflowRun {
        let step = store::WorkflowStep {
            idx: 0,
            name: name.into(),
            status: store::StepStatus::Completed,
            started_at: None,
            finished_at: None,
            result_json: Some(json.into()),
        };
        store::WorkflowRun {
            id: "r".into(),
            user_id: None,
            intent: store::Intent::Audit,
            url: "https://example.com/".into(),
            competitor_url: None,
            top_n: None,
            state: store::RunState::Running,
            error_step: None,
            error_reason: None,
            resumes: 0,
            created_at: time::OffsetDateTime::UNIX_EPOCH,
            updated_at: time::OffsetDateTime::UNIX_EPOCH,
            steps: vec![step],
            approvals: vec![],
        }
    }

    #[test]
    fn step_names_round_trip() {
        use strum::VariantArray as _;
        for &step in Step::VARIANTS {
            assert_eq!(step.as_str().parse::<Step>(), Ok(step));
        }
        assert_eq!(Step::Approval.as_str(), store::GATE_STEP);
        assert_eq!(Step::AuditCompetitor.as_str(), "audit_competitor");
        assert!("Audit".parse::<Step>().is_err());
    }

    #[test]
    fn an_old_audit_row_without_later_fields_still_reads() {
        let run = run_with("audit", r#"{"auditId":"a1","score":70}"#);
        let out: AuditOutput = output_of(&run, Step::Audit).expect("reads");
        assert_eq!(out.audit_id, "a1");
        assert_eq!(out.score, 70);
        assert_eq!((out.title.as_str(), out.status_code, out.issues), ("", 0, Issues::default()));
    }

    #[test]
    fn a_missing_or_renamed_audit_id_is_an_error_not_an_empty_id() {
        let renamed = run_with("audit", r#"{"audit_id":"a1","score":70}"#);
        let err = output_of::<AuditOutput>(&renamed, Step::Audit).expect_err("no auditId");
        assert!(err.contains("auditId"), "{err}");
        let plan = run_with("fix_plan", r#"{"fixes":[]}"#);
        assert!(output_of::<StoredPlan>(&plan, Step::FixPlan).is_err());
        let err = output_of::<AuditOutput>(&renamed, Step::AuditCompetitor).expect_err("no such step");
        assert!(err.contains("audit_competitor"), "{err}");
    }

    #[test]
    fn a_written_audit_output_keeps_its_wire_names_and_order() {
        let out = AuditOutput {
            audit_id: "a1".into(),
            url: "https://example.com/".into(),
            score: 80,
            title: "T".into(),
            status_code: 200,
            issues: Issues { critical: 1, warning: 2, notice: 3 },
        };
        assert_eq!(
            to_json(&out).expect("json"),
            r#"{"auditId":"a1","url":"https://example.com/","score":80,"title":"T","statusCode":200,"issues":{"critical":1,"warning":2,"notice":3}}"#
        );
    }
}
