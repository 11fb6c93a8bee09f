//! generate_fixes: a ready-to-apply fix, filled with the page's own values, for each of
//! the top-ranked failed checks.

use autofix::{fix_for_rule, FixContext};
use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{audit_url_arg, ranked, Audited, ToolEnv};

/// Largest `topN` of generate_fixes and workflow_execute (docs/API.md, the tools table).
pub const MAX_TOP_N: u64 = 20;
/// `topN` when the argument is absent.
pub const DEFAULT_TOP_N: u64 = 5;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let top_n = top_n(args.get("topN"));
    match audit_url_arg(env, args).await {
        Ok((url, done, _)) => ToolResult::success(structured(url.as_str(), &done, top_n)),
        Err(e) => e,
    }
}

/// `topN` as asked (the protocol layer checked its type and range), clamped to 1..=20.
pub fn top_n(value: Option<&Value>) -> usize {
    let n = value.and_then(Value::as_f64).map_or(DEFAULT_TOP_N as f64, f64::trunc);
    n.clamp(1.0, MAX_TOP_N as f64) as usize
}

/// The structuredContent of generate_fixes.
pub fn structured(url: &str, done: &Audited, top_n: usize) -> Value {
    let page = &done.audit.page;
    let context = FixContext { url: Some(page.final_url.clone()), page: Some(page), ..FixContext::default() };
    let fixes: Vec<Value> = ranked(&done.audit)
        .iter()
        .filter_map(|r| {
            let fix = fix_for_rule(r.rule.id, Some(&context))?;
            Some(json!({
                "ruleId": r.rule.id,
                "issueTitle": r.finding.title,
                "type": fix.kind.name(),
                "difficulty": fix.difficulty,
                "fix": fix.fix,
                "explanation": fix.explanation,
                "priorityScore": r.priority,
            }))
        })
        .take(top_n)
        .collect();
    json!({ "url": url, "finalUrl": page.final_url, "topN": top_n, "fixes": fixes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_n_defaults_and_bounds() {
        let check = |v: Option<Value>, expected: usize| assert_eq!(top_n(v.as_ref()), expected, "{v:?}");
        check(None, 5);
        check(Some(json!(1)), 1);
        check(Some(json!(20)), 20);
        check(Some(json!(3.0)), 3);
        check(Some(json!(99)), 20);
        check(Some(json!(0)), 1);
        check(Some(json!(-4)), 1);
    }
}
