//! Two stored audits of one URL compared (`GET /api/v1/audits/{id}/compare?against={id}`,
//! docs/API.md "Comparing two audits"): each finding new, unchanged or resolved, by the same
//! comparison the command line's `--baseline` makes ([`audit_core::baseline::compare`]).

use api::compare::{AuditComparison, ComparedFinding, ComparedLocation, RulesetVersions, ScoreChange};
use audit_core::baseline::{self, AuditFindings, Comparison, Counts, Finding, State};
use audit_core::AuditResult;

use crate::history::AuditRecord;
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
        user_id: String,
        id: String,
        against: String,
    ) -> Result<AuditComparison, AppError> {
        let not_found =
            |id: &str| AppError::refused("not_found", format!("No audit of yours has the id {}.", crate::clip(id)));
        let Some(current) = self.own_audit(user_id.clone(), id.clone()).await? else { return Err(not_found(&id)) };
        let Some(baseline) = self.own_audit(user_id, against.clone()).await? else { return Err(not_found(&against)) };
        let (c, b) = (&current.summary, &baseline.summary);
        if c.url != b.url && c.final_url != b.final_url {
            return Err(AppError::refused(
                "invalid_request",
                format!(
                    "The audits are of different URLs ({} and {}): only two audits of one URL compare.",
                    crate::clip(&c.url),
                    crate::clip(&b.url)
                ),
            )
            .with_details(serde_json::json!({ "parameter": "against" })));
        }
        // Reading both results grows with them: the application's work, off the async workers.
        self.compute(move |_| compared(&current, &baseline)).await?
    }
}

/// What the comparison reads of a stored result: its findings, read as JSON so that a result
/// stored by any version of the engine compares.
fn findings_of(result: &AuditResult) -> Result<AuditFindings, AppError> {
    let value = serde_json::to_value(result).map_err(AppError::internal)?;
    let mut read = baseline::audit_findings(&value).map_err(AppError::internal)?;
    // One page: its findings are matched by rule and element, whatever its redirects did.
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
    let (now, before) = (findings_of(current)?, findings_of(baseline)?);
    let comparison = baseline::compare(&now.findings, &before.findings);
    Ok((comparison.counts(), findings(&now.findings, &before.findings, &comparison)))
}

/// `current` against `baseline`, as the route answers it.
fn compared(current: &AuditRecord, baseline: &AuditRecord) -> Result<AuditComparison, AppError> {
    let (counts, findings) = compare_results(&current.result, &baseline.result)?;
    let (rules_now, rules_before) =
        (current.result.meta.ruleset_version.clone(), baseline.result.meta.ruleset_version.clone());
    let mut notes = Vec::new();
    if rules_now != rules_before {
        notes.push(format!(
            "The audits were made with rulesets {rules_before} and {rules_now}: a rule that changed between them may \
             show its findings as new or resolved."
        ));
    }
    let (score_now, score_before) = (current.result.score.percentage, baseline.result.score.percentage);
    Ok(AuditComparison {
        ok: true,
        api_version: audit_core::API_VERSION,
        id: current.summary.id.clone(),
        against: baseline.summary.id.clone(),
        url: current.summary.url.clone(),
        score: ScoreChange {
            current: score_now,
            baseline: score_before,
            change: i64::from(score_now) - i64::from(score_before),
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
