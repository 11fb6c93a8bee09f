//! Two stored audits of one URL compared (`GET /api/v1/audits/{id}/compare?against={id}`,
//! docs/API.md "Comparing two audits"): each finding new, unchanged or resolved, by the same
//! comparison the command line's `--baseline` makes ([`audit_core::baseline::compare`]).

use api::compare::{AuditComparison, ComparedFinding, ComparedLocation, RulesetVersions, ScoreChange};
use audit_core::baseline::{self, AuditFindings, Comparison, Counts, Finding, State};
use audit_core::AuditResult;

use vocab::{AuditId, UserId};

use crate::{App, AppError};

impl App {
    /// The stored audit `id` of `user_id` compared with their audit `against` (its baseline).
    ///
    /// # Errors
    /// `not_found` when either is not an audit of `user_id` (as `GET /api/v1/audits/{id}`);
    /// `invalid_request` (`details.parameter` `against`) when they audited different URLs;
    /// the store failed.
    pub async fn compare_audits(
        &self,
        user_id: UserId,
        id: AuditId,
        against: AuditId,
    ) -> Result<AuditComparison, AppError> {
        let current = self.own_row(&user_id, &id).await?;
        let baseline = self.own_row(&user_id, &against).await?;
        if current.url != baseline.url && current.final_url != baseline.final_url {
            return Err(AppError::refused(
                crate::ErrorCode::InvalidRequest,
                format!(
                    "The audits are of different URLs ({} and {}): only two audits of one URL compare.",
                    crate::clip(&current.url),
                    crate::clip(&baseline.url)
                ),
            )
            .with_details(serde_json::json!({ "parameter": "against" })));
        }
        // Reading both results grows with them: the application's work, off the async workers.
        self.compute(move |_| compared(&current, &baseline)).await?
    }

    /// The stored row `id` when it is `user_id`'s; `not_found` otherwise, an unknown id and
    /// another owner's alike. The row, not the typed result: the comparison reads the result
    /// as JSON, members this build's types do not know (a newer engine's) included.
    async fn own_row(&self, user_id: &UserId, id: &AuditId) -> Result<store::StoredAudit, AppError> {
        let not_found = || {
            AppError::refused(crate::ErrorCode::NotFound, format!("No audit of yours has the id {}.", crate::clip(id)))
        };
        if id.len() > 64 {
            return Err(not_found());
        }
        let key = id.clone();
        let found = self
            .db(move |s| match s.get_audit(&key) {
                Ok(audit) => Ok(Some(audit)),
                Err(store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            })
            .await?;
        found.filter(|a| a.user_id.as_ref() == Some(user_id)).ok_or_else(not_found)
    }
}

/// What the comparison reads of a stored row's result: its findings, read as JSON so that
/// a result stored by any version of the engine compares.
fn row_findings(row: &store::StoredAudit) -> Result<AuditFindings, AppError> {
    let value: serde_json::Value = serde_json::from_str(&row.result_json).map_err(AppError::internal)?;
    value_findings(&value)
}

/// The findings of a result read as JSON, at no URL: one page's findings are matched by rule
/// and element, whatever its redirects did.
fn value_findings(value: &serde_json::Value) -> Result<AuditFindings, AppError> {
    let mut read = baseline::audit_findings(value).map_err(AppError::internal)?;
    for f in &mut read.findings {
        f.url.clear();
    }
    Ok(read)
}

/// The findings of the result `current` against those of `baseline`, both of one page (or
/// of two pages compared as one, as detect_regressions compares two live pages): their
/// counts by state, and each finding with its state (the resolved ones last).
///
/// # Errors
/// `internal` when a result does not serialise as an audit result.
pub fn compare_results(
    current: &AuditResult,
    baseline: &AuditResult,
) -> Result<(Counts, Vec<ComparedFinding>), AppError> {
    let json = |r: &AuditResult| serde_json::to_value(r).map_err(AppError::internal);
    let (now, before) = (value_findings(&json(current)?)?, value_findings(&json(baseline)?)?);
    Ok(compare_findings(&now, &before))
}

/// The counts and the findings with their states, `now` against `before`.
fn compare_findings(now: &AuditFindings, before: &AuditFindings) -> (Counts, Vec<ComparedFinding>) {
    let comparison = baseline::compare(&now.findings, &before.findings);
    (comparison.counts(), findings(&now.findings, &before.findings, &comparison))
}

/// The stored audit `current` against `baseline`, as the route answers it.
fn compared(current: &store::StoredAudit, baseline: &store::StoredAudit) -> Result<AuditComparison, AppError> {
    let (now, before) = (row_findings(current)?, row_findings(baseline)?);
    let (counts, findings) = compare_findings(&now, &before);
    let rules_now = now.ruleset_version.unwrap_or_else(|| current.ruleset_version.clone());
    let rules_before = before.ruleset_version.unwrap_or_else(|| baseline.ruleset_version.clone());
    let mut notes = Vec::new();
    if rules_now != rules_before {
        notes.push(format!(
            "The audits were made with rulesets {rules_before} and {rules_now}: a rule that changed between them may \
             show its findings as new or resolved."
        ));
    }
    Ok(AuditComparison {
        ok: true,
        api_version: audit_core::API_VERSION,
        id: current.id.clone(),
        against: baseline.id.clone(),
        url: current.url.clone(),
        score: ScoreChange {
            current: now.score,
            baseline: before.score,
            change: i64::from(now.score) - i64::from(before.score),
        },
        ruleset_version: RulesetVersions { current: rules_now, baseline: rules_before },
        counts,
        findings,
        notes,
    })
}

/// The current findings with their states and their elements', then the resolved ones.
fn findings(now: &[Finding], before: &[Finding], comparison: &Comparison) -> Vec<ComparedFinding> {
    let located = |f: &Finding, i: usize, state: State| ComparedLocation { element: f.elements[i].clone(), state };
    let mut out: Vec<ComparedFinding> = now
        .iter()
        .zip(&comparison.current)
        .map(|(f, j)| {
            let mut locations: Vec<ComparedLocation> =
                j.elements.iter().enumerate().map(|(i, s)| located(f, i, *s)).collect();
            if let Some(b) = j.baseline {
                locations.extend(j.resolved_elements.iter().map(|&i| located(&before[b], i, State::Resolved)));
            }
            ComparedFinding { id: f.rule.clone(), state: j.state, title: f.title.clone(), locations }
        })
        .collect();
    out.extend(comparison.resolved.iter().map(|&b| {
        let f = &before[b];
        ComparedFinding {
            id: f.rule.clone(),
            state: State::Resolved,
            title: f.title.clone(),
            locations: (0..f.elements.len()).map(|i| located(f, i, State::Resolved)).collect(),
        }
    }));
    out
}
