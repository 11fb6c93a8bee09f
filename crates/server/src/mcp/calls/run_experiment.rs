//! run_experiment: SEO experiments of the key owner, measured with audits. create audits
//! the page now and records the chosen metric as the baseline; list reads the newest
//! stored audit of each page as the current value.

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::workflow_execute::owner;
use super::{from_api_error, string_arg, tool_error, url_arg, ToolEnv};
use crate::error::ApiError;

/// The metric when metricTarget is absent.
pub const DEFAULT_METRIC: &str = "score";

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let state = env.state;
    let action = string_arg(args, "action").unwrap_or_default().to_string();
    match action.as_str() {
        "create" => {
            let text = |name: &str| string_arg(args, name).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
            let (Some(title), Some(hypothesis)) = (text("title"), text("hypothesis")) else {
                return tool_error("missing_parameter", "create needs title, hypothesis and url.");
            };
            if string_arg(args, "url").is_none() {
                return tool_error("missing_parameter", "create needs title, hypothesis and url.");
            }
            let url = match url_arg(args, "url") {
                Ok(u) => u,
                Err(e) => return e,
            };
            let metric = text("metricTarget").unwrap_or_else(|| DEFAULT_METRIC.to_string());
            if !is_metric(&metric) {
                return tool_error(
                    "invalid_request",
                    format!(
                        "metricTarget must be score, word_count or a rule id (see get_audit_methodology), not \
                         {metric:?}. Nothing was created."
                    ),
                );
            }
            let baseline =
                match state.app.audit_and_store(&url, &user_id).await.map_err(ApiError::from).map(|(stored, _)| stored)
                {
                    Ok(a) => a,
                    Err(e) => return from_api_error(e, url.as_str()),
                };
            let new = store::NewExperiment {
                user_id: user_id.clone(),
                title,
                hypothesis,
                url: url.to_string(),
                experiment_type: text("experimentType"),
                metric_target: Some(metric.clone()),
                baseline_value: Some(metric_value(&metric, &baseline)),
                baseline_audit_id: Some(baseline.id.clone()),
            };
            if let Err(e) = state.db(move |s| s.create_experiment(new)).await {
                return from_api_error(e, "experiment");
            }
        }
        "list" => {}
        other => return tool_error("invalid_request", format!("action must be create or list, not {other:?}.")),
    }
    let u = user_id.clone();
    let experiments = match state.db(move |s| s.list_experiments(&u)).await {
        Ok(e) => e,
        Err(e) => return from_api_error(e, "experiments"),
    };
    let mut out = Vec::new();
    for exp in experiments {
        let (key, base_id) = (exp.url.clone(), exp.baseline_audit_id.clone());
        let (latest, base) = state
            .db(move |s| {
                let base = match base_id {
                    Some(id) => Some(s.get_audit(&id)?),
                    None => None,
                };
                Ok((s.latest_audit_for_url(&key)?, base))
            })
            .await
            .unwrap_or((None, None));
        let metric = exp.metric_target.clone().unwrap_or_else(|| DEFAULT_METRIC.to_string());
        let baseline_value = exp.baseline_value.unwrap_or(0.0);
        let baseline_at = base.as_ref().map_or(exp.created_at, |b| b.created_at);
        let current = latest.as_ref().map(|a| (metric_value(&metric, a), store::format_rfc3339(a.created_at)));
        out.push(json!({
            "id": exp.id,
            "title": exp.title,
            "hypothesis": exp.hypothesis,
            "url": exp.url,
            "experimentType": exp.experiment_type.unwrap_or_default(),
            "metricTarget": metric,
            "baseline": { "value": baseline_value, "auditedAt": store::format_rfc3339(baseline_at) },
            "current": current.as_ref().map_or(Value::Null, |(v, at)| json!({ "value": v, "auditedAt": at })),
            "delta": current.as_ref().map_or(Value::Null, |(v, _)| json!(round2(v - baseline_value))),
            "createdAt": store::format_rfc3339(exp.created_at),
        }));
    }
    ToolResult::success(json!({ "action": action, "experiments": out }))
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Whether `metric` names something [`metric_value`] can measure.
pub fn is_metric(metric: &str) -> bool {
    metric == "score" || metric == "word_count" || audit_core::rule_by_id(metric).is_some()
}

/// The metric of a stored audit: `score`, `word_count`, or a rule id (1 when the rule
/// does not fail on the page, 0 when it does).
pub fn metric_value(metric: &str, audit: &store::StoredAudit) -> f64 {
    let result = app::StoredResult::of(audit);
    match metric {
        "score" => audit.score as f64,
        "word_count" => result.result.page.word_count as f64,
        rule if result.fails(rule) => 0.0,
        _ => 1.0,
    }
}
