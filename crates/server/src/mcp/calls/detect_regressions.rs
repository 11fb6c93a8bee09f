//! detect_regressions: audits a baseline and a current page at once and reports what
//! got worse or better.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{audit, url_arg, Audited, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let (baseline_url, current_url) = match (url_arg(args, "baselineUrl"), url_arg(args, "currentUrl")) {
        (Ok(b), Ok(c)) => (b, c),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let (baseline, current) = tokio::join!(audit(env, &baseline_url), audit(env, &current_url));
    let (baseline, current) = match (baseline, current) {
        (Ok(b), Ok(c)) => (b, c),
        (Err(e), _) => return prefixed("baselineUrl", e),
        (_, Err(e)) => return prefixed("currentUrl", e),
    };
    ToolResult::success(structured(baseline_url.as_str(), &baseline, current_url.as_str(), &current))
}

/// Says which of the two pages failed.
fn prefixed(which: &str, e: ToolResult) -> ToolResult {
    ToolResult::error(format!("{} (argument {which})", e.text()))
}

/// The facts compared, by name, read from the audit result's page summary.
fn facts(done: &Audited) -> Vec<(&'static str, Value)> {
    let p = &done.result.page;
    vec![
        ("title", json!(p.title)),
        ("metaDescription", json!(p.meta_description)),
        ("h1", json!(p.h1)),
        ("canonical", json!(p.canonical)),
        ("wordCount", json!(p.word_count)),
        ("statusCode", json!(p.status_code)),
        ("robots", json!(p.robots)),
        ("lang", json!(p.lang)),
        ("ogTitle", json!(p.og.title)),
        ("ogDescription", json!(p.og.description)),
        ("ogImage", json!(p.og.image)),
    ]
}

/// The structuredContent of detect_regressions.
pub fn structured(baseline_url: &str, baseline: &Audited, current_url: &str, current: &Audited) -> Value {
    let diff = app::Comparison::of(&baseline.result, &current.result);
    let changed: Vec<Value> = facts(baseline)
        .into_iter()
        .zip(facts(current))
        .filter(|((_, b), (_, c))| b != c)
        .map(|((field, b), (_, c))| json!({ "field": field, "baseline": b, "current": c }))
        .collect();
    json!({
        "baselineUrl": baseline_url,
        "currentUrl": current_url,
        "baselineScore": diff.scores.0,
        "currentScore": diff.scores.1,
        "scoreDelta": diff.score_delta(),
        "regressed": diff.regressed(),
        "newlyFailing": diff.failing_only_in_b,
        "newlyPassing": diff.fixed_in_b,
        "changedFacts": changed,
    })
}
