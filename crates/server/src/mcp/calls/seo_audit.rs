//! seo_audit: the full audit of one page (score, issues, main facts), stored like a REST
//! audit.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{audit_url_arg, Audited, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    match audit_url_arg(env, args).await {
        Ok((url, done, audit_id)) => ToolResult::success(structured(url.as_str(), &done, audit_id)),
        Err(e) => e,
    }
}

/// The structuredContent of seo_audit.
pub fn structured(url: &str, done: &Audited, audit_id: Option<String>) -> Value {
    let result = &done.result;
    let issues: Vec<Value> = result
        .recommendations
        .iter()
        .map(|r| {
            json!({
                "id": r.id, "type": r.kind, "category": r.category, "title": r.title,
                "description": r.description, "impact": r.impact, "effort": r.effort,
                "confidence": r.confidence, "currentValue": r.current_value, "suggestedValue": r.suggested_value,
            })
        })
        .collect();
    let s = &result.score;
    let p = &result.page;
    json!({
        "url": url,
        "finalUrl": p.final_url,
        "auditId": audit_id,
        "scannedAt": result.scanned_at,
        "score": { "current": s.current, "max": s.max, "percentage": s.percentage, "passed": s.passed, "total": s.total },
        "issues": issues,
        "page": {
            "title": p.title, "metaDescription": p.meta_description, "h1": p.h1,
            "wordCount": p.word_count, "statusCode": p.status_code, "canonical": p.canonical,
            "lang": p.lang, "robots": p.robots,
        },
        "rulesetVersion": s.ruleset_version,
        "rulesetFingerprint": s.ruleset_fingerprint,
        "aiInsights": result.ai_insights,
    })
}
