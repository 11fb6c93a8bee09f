//! Fixes: the fix plan of an audited page (generate_fixes, the workflow's `fix_plan` step)
//! and the auto-fix batch (`POST /api/auto-fix-batch`). Auto-fix never fetches: an issue's
//! `context.url` only fills templates.

use audit_core::Audit;
use autofix::{fix_for_rule, Difficulty, FixContext};
use serde::Serialize;

use crate::opportunities::ranked;
use crate::AppError;

/// Largest `topN` of generate_fixes and workflow_execute (docs/API.md, the tools table).
pub const MAX_TOP_N: u64 = 20;
/// `topN` when the argument is absent.
pub const DEFAULT_TOP_N: u64 = 5;

/// A ready-to-apply fix for each of the top-ranked failed checks of a page (the structured
/// answer of generate_fixes).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FixPlan {
    /// The URL asked for.
    pub url: String,
    /// Where it led after redirects.
    pub final_url: String,
    /// How many of the highest-priority failures the plan covers at most.
    pub top_n: usize,
    /// The fixes, highest priority first.
    pub fixes: Vec<PlannedFix>,
}

/// One fix of a [`FixPlan`], filled with the page's own values.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlannedFix {
    /// The rule that failed.
    pub rule_id: &'static str,
    /// What it found.
    pub issue_title: String,
    /// What kind of change it is (`html`, `json-ld`, ...).
    #[serde(rename = "type")]
    pub kind: autofix::FixKind,
    /// How much work it is.
    pub difficulty: Difficulty,
    /// The code (or text) to apply.
    pub fix: String,
    /// Where to put it and why.
    pub explanation: String,
    /// The `TODO:` texts of `fix` to fill in (docs/API.md, "POST /api/auto-fix-batch").
    pub placeholders: Vec<autofix::Placeholder>,
    /// The failure's priority ([`crate::opportunities::priority`]).
    pub priority_score: f64,
}

/// The fix plan of the audited page at `url`: a fix for each of the `top_n` highest-ranked
/// failures that has a template.
pub fn fix_plan(url: &str, audit: &Audit, top_n: usize) -> FixPlan {
    let page = &audit.page;
    let context = FixContext { url: Some(page.final_url.clone()), page: Some(page), ..FixContext::default() };
    let fixes = ranked(audit)
        .iter()
        .filter_map(|r| {
            let fix = fix_for_rule(r.rule.id, Some(&context))?;
            Some(PlannedFix {
                rule_id: r.rule.id,
                issue_title: r.finding.title.clone(),
                kind: fix.kind,
                difficulty: fix.difficulty,
                fix: fix.fix,
                explanation: fix.explanation,
                placeholders: fix.placeholders,
                priority_score: r.priority,
            })
        })
        .take(top_n)
        .collect();
    FixPlan { url: url.to_string(), final_url: page.final_url.clone(), top_n, fixes }
}

/// The fixes of a batch of issues (at most [`autofix::MAX_BATCH`], which the caller
/// checked), on the blocking pool: templates and text matching are CPU work, small but up
/// to fifty at once.
///
/// # Errors
/// The engine failed (a bug).
pub async fn fix_batch(issues: Vec<autofix::Issue<'static>>) -> Result<Vec<autofix::Fix>, AppError> {
    tokio::task::spawn_blocking(move || autofix::fix_batch(&issues))
        .await
        .map_err(|e| AppError::internal(format!("auto-fix failed: {e}")))
}
