//! Issues in, fixes out.

use audit_core::rule_by_id;
use crawl::site_rule_by_id;
use serde::Serialize;

use audit_core::fix::{Difficulty, FixKind, FixTemplate};

use crate::context::{fix_ctx, FixContext, Issue};
use crate::extra::{render, template_ids, EXTRA_TEMPLATES};
use crate::matching::match_rule;

/// The most issues one batch may carry (the server enforces it; docs/API.md,
/// "POST /api/auto-fix-batch").
pub const MAX_BATCH: usize = 50;

/// A ready-to-use fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AutoFix"))]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub issue_title: String,
    /// The code (or text) to apply.
    pub fix: String,
    #[serde(rename = "type")]
    pub kind: FixKind,
    pub difficulty: Difficulty,
    /// The template used: a rule id of the audit or one of [`EXTRA_TEMPLATES`].
    #[cfg_attr(feature = "schema", schemars(description = "The template used; null for the generic fix."))]
    pub rule_id: Option<String>,
    /// Where to put the fix and why, in a sentence or two.
    pub explanation: String,
    /// The parts of `fix` the page did not give and the user must write: each a `TODO:` text
    /// inside `fix`, in order. Empty when the fix can be used as it is (docs/API.md,
    /// "POST /api/auto-fix-batch").
    pub placeholders: Vec<Placeholder>,
}

/// A part of a fix to fill in: a `TODO:` text that stands where the page's own value goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "AutoFixPlaceholder"))]
#[serde(rename_all = "camelCase")]
pub struct Placeholder {
    /// The text exactly as it stands in the fix, starting with `TODO:`; replace all of it.
    pub text: String,
    /// The line of the fix it is on, from 1.
    pub line: usize,
}

/// Marks a placeholder in a snippet; [`placeholders`] finds each.
pub const TODO_MARK: &str = "TODO:";

/// Every `TODO:` text of a snippet: from the mark to the end of the value it stands in (a
/// quote, a tag, `;`, a bracket, the next `TODO:` or the end of the line), in order.
pub fn placeholders(code: &str) -> Vec<Placeholder> {
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(TODO_MARK) {
            let tail = &rest[at..];
            let end = tail[TODO_MARK.len()..]
                .find(['"', '<', '>', ';', '(', ')', '[', ']', '{', '}'])
                .map_or(tail.len(), |e| e + TODO_MARK.len());
            let end = tail[..end].find("-->").unwrap_or(end);
            let end = tail[TODO_MARK.len()..end].find(TODO_MARK).map_or(end, |e| e + TODO_MARK.len());
            out.push(Placeholder { text: tail[..end].trim_end().to_string(), line: i + 1 });
            rest = &tail[end..];
        }
    }
    out
}

/// The explanation, with a word on the placeholders when there are any.
fn explain(explanation: String, placeholders: &[Placeholder]) -> String {
    match placeholders.len() {
        0 => explanation,
        n => format!(
            "{explanation} Before using it, replace {} marked TODO (listed in placeholders): the page did not give {}.",
            if n == 1 { "the text" } else { "every text" },
            if n == 1 { "that value" } else { "those values" }
        ),
    }
}

impl Fix {
    fn new(issue_title: String, rule_id: Option<String>, t: FixTemplate) -> Fix {
        let placeholders = placeholders(&t.code);
        Fix {
            issue_title,
            explanation: explain(t.explanation, &placeholders),
            fix: t.code,
            kind: t.kind,
            difficulty: t.difficulty,
            rule_id,
            placeholders,
        }
    }
}

/// The fix of one rule (or extra template) id for a page, `None` for an unknown id.
pub fn fix_for_rule(rule_id: &str, context: Option<&FixContext>) -> Option<Fix> {
    let ctx = fix_ctx(context);
    let t = render(rule_id, &ctx, "")?;
    let title = rule_by_id(rule_id).map(|m| m.name).or_else(|| site_rule_by_id(rule_id).map(|m| m.name)).map_or_else(
        || {
            EXTRA_TEMPLATES
                .iter()
                .find(|x| x.id == rule_id)
                .map_or(rule_id, |x| x.description.split(':').next().unwrap_or(x.description))
                .to_string()
        },
        str::to_string,
    );
    Some(Fix::new(title, Some(rule_id.to_string()), t))
}

/// The fix for one issue: by its id when it names a template, else by the best text match,
/// else an honest generic text fix. Never fails.
pub fn fix_issue(issue: &Issue) -> Fix {
    let issue_title = issue
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .or_else(|| issue.id.clone())
        .unwrap_or_else(|| "Untitled issue".to_string());
    let text = [&issue.title, &issue.description, &issue.recommendation, &issue.category]
        .iter()
        .filter_map(|s| s.as_deref())
        .collect::<Vec<_>>()
        .join(" ");
    let by_id = issue.id.as_deref().map(str::trim).filter(|id| template_ids().contains(id));
    let id = by_id.map(str::to_string).or_else(|| match_rule(issue).map(|m| m.rule_id.to_string()));
    let ctx = fix_ctx(issue.context.as_ref()).with_current(issue.current_value.as_deref());
    if let Some(id) = id {
        if let Some(t) = render(&id, &ctx, &text) {
            return Fix::new(issue_title, Some(id), t);
        }
    }
    generic(issue_title, issue)
}

fn generic(issue_title: String, issue: &Issue) -> Fix {
    let advice = issue.recommendation.as_deref().filter(|r| !r.trim().is_empty()).map_or_else(
        || "Read the issue's description, change the page accordingly, and re-run the audit to confirm.".to_string(),
        |r| format!("Apply the recommendation: {}", r.trim()),
    );
    Fix {
        issue_title,
        fix: format!("No template matches this issue; no code fix is generated for it. {advice}"),
        kind: FixKind::Text,
        difficulty: Difficulty::Medium,
        rule_id: None,
        explanation:
            "The issue did not match any audit rule closely enough to generate code; send the rule id for an exact fix."
                .into(),
        placeholders: Vec::new(),
    }
}

/// One fix per issue, in the same order.
pub fn fix_batch(issues: &[Issue]) -> Vec<Fix> {
    issues.iter().map(fix_issue).collect()
}
