//! Fixes: the fix plan of an audited page (generate_fixes, the workflow's `fix_plan` step)
//! and the auto-fix batch (`POST /api/auto-fix-batch`). Auto-fix never fetches: an issue's
//! `context.url` only fills templates.

use audit_core::Audit;
use autofix::{fix_for_rule, Difficulty, FixContext};
use serde::Serialize;
use serde_json::Value;

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

impl crate::App {
    /// The auto-fix batch of `POST /api/auto-fix-batch` and the auto_fix_batch tool: one unit
    /// of `payer`'s quota (an agent-tool call's unit, paid beforehand, covers it), charged
    /// once the request is known to be well formed (the caller checked it: a malformed batch
    /// costs nothing) and before any fix is written, then the fixes ([`fix_batch`]).
    ///
    /// # Errors
    /// The charge's refusal (`rate_limited`, nothing written), or the engine failed.
    pub async fn auto_fix(
        &self,
        issues: Vec<autofix::Issue<'static>>,
        payer: &crate::quota::Payer,
    ) -> Result<Vec<autofix::Fix>, AppError> {
        self.charge(payer, 1).await?;
        fix_batch(issues).await
    }
}

/// How many of the top issues a fix plan covers: a whole number of 1 to [`MAX_TOP_N`],
/// [`DEFAULT_TOP_N`] when absent (a fractional value is cut, one out of range clamped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopN(pub usize);

impl Default for TopN {
    fn default() -> TopN {
        TopN(DEFAULT_TOP_N as usize)
    }
}

impl TopN {
    /// `topN` as asked (the protocol layer checked its type and range), clamped to 1..=20.
    pub fn of(value: Option<&Value>) -> TopN {
        let n = value.and_then(Value::as_f64).map_or(DEFAULT_TOP_N as f64, f64::trunc);
        TopN(n.clamp(1.0, MAX_TOP_N as f64) as usize)
    }
}

impl<'de> serde::Deserialize<'de> for TopN {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TopN, D::Error> {
        Ok(TopN::of(Some(&Value::deserialize(d)?)))
    }
}

impl schemars::JsonSchema for TopN {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TopN".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX_TOP_N, "default": DEFAULT_TOP_N })
    }
}

/// The report page of `result` with the page's score `history`, its query strings removed
/// first (the auto-fix code is made from the scrubbed values, so it cannot repeat them
/// either), and the page's newest public AI-readiness answer when it has one (read back
/// here, so that its cost is the page's: callers run this in [`crate::App::compute`]).
pub fn report_page(
    base: &str,
    domain: &str,
    mut result: audit_core::AuditResult,
    history: &[pages::report::ScorePoint],
    crawl: Option<&pages::report::CrawlLink>,
    readiness: Option<&store::StoredReadiness>,
) -> String {
    pages::report::strip_query_strings(&mut result);
    let fixes = report_fixes(&result);
    let readiness = readiness.and_then(crate::ai::shown_readiness);
    pages::report::render_report_with_readiness(base, domain, &result, &fixes, history, crawl, readiness.as_ref())
}

/// `(rule id, fix code)` for every recommendation of a stored result (the report page's
/// fixes), filled from its page: the stored result has no parsed page, so the finding's own
/// value (a word count, a status, the blocking rule) is what the template may state as fact.
pub fn report_fixes(result: &audit_core::AuditResult) -> Vec<(String, String)> {
    let text = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
    let page = &result.page;
    let context = autofix::FixContext {
        url: text(&page.final_url).or_else(|| text(&page.url)),
        title: text(&page.title),
        description: page.meta_description.as_deref().and_then(text),
        ..autofix::FixContext::default()
    };
    let mut fixes: Vec<(String, String)> = Vec::new();
    for rec in &result.recommendations {
        if rec.id.is_empty() || fixes.iter().any(|(known, _)| *known == rec.id) {
            continue;
        }
        let context = autofix::FixContext { current_value: rec.current_value.clone(), ..context.clone() };
        if let Some(fix) = autofix::fix_for_rule(&rec.id, Some(&context)) {
            fixes.push((rec.id.clone(), fix.fix));
        }
    }
    fixes
}

#[cfg(test)]
mod top_n_tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn top_n_defaults_and_bounds() {
        use serde_json::json;
        let check = |v: Option<Value>, expected: usize| assert_eq!(TopN::of(v.as_ref()).0, expected, "{v:?}");
        check(None, 5);
        check(Some(json!(1)), 1);
        check(Some(json!(20)), 20);
        check(Some(json!(3.0)), 3);
        check(Some(json!(99)), 20);
        check(Some(json!(0)), 1);
        check(Some(json!(-4)), 1);
        let parsed: TopN = serde_json::from_value(json!(2.0)).unwrap();
        assert_eq!(parsed, TopN(2));
    }
}
