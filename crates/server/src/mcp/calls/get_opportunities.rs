//! get_opportunities: failed checks ranked by priority (impact points × weight ÷ effort
//! points).

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{audit_url_arg, ranked, Audited, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    match audit_url_arg(env, args).await {
        Ok((url, done, _)) => ToolResult::success(structured(url.as_str(), &done)),
        Err(e) => e,
    }
}

/// The structuredContent of get_opportunities.
pub fn structured(url: &str, done: &Audited) -> Value {
    let opportunities: Vec<Value> = ranked(&done.audit)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": r.rule.id,
                "title": r.finding.title,
                "category": r.rule.category.name(),
                "severity": r.rule.severity.name(),
                "impact": r.rule.impact.name(),
                "effort": r.rule.effort.name(),
                "weight": r.rule.weight,
                "priorityScore": r.priority,
                "rank": i + 1,
            })
        })
        .collect();
    json!({
        "url": url,
        "finalUrl": done.audit.page.final_url,
        "score": done.audit.score().percentage,
        "ranking": "priorityScore = impact points (high 3, medium 2, low 1) x rule weight / effort points (low 1, medium 2, high 3)",
        "opportunities": opportunities,
    })
}
