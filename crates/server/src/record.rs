//! Keeping audits. Every audit the service makes (REST, batch, agent tools, AI and
//! content-gap endpoints, report form, workflows, monitors, badge background audits) is stored
//! through here, so badges, reports, monitoring and keyword history read one shape, and a key
//! owner's audits fire `audit.completed` in one place.

use audit_core::AuditResult;
use serde_json::{json, Map, Value};
use url::Url;

use crate::error::ApiError;
use crate::state::AppState;

/// The row for an audit of `url`: the full result JSON (plus any additive `extra` fields),
/// its score, ruleset and final URL, owned by `user_id`.
pub fn audit_record(
    url: &Url,
    user_id: Option<&str>,
    result: &AuditResult,
    extra: Option<Map<String, Value>>,
) -> Result<store::NewAudit, serde_json::Error> {
    let mut value = serde_json::to_value(result)?;
    if let (Some(extra), Value::Object(fields)) = (extra, &mut value) {
        fields.extend(extra);
    }
    let mut record = store::NewAudit::new(
        url.as_str(),
        result.page.final_url.clone(),
        i64::from(result.score.percentage),
        result.score.ruleset_version.clone(),
        value.to_string(),
    );
    record.user_id = user_id.map(str::to_string);
    Ok(record)
}

/// Stores an audit and, for a key owner, fires `audit.completed` with its id: the event is
/// written to the webhook outbox in the audit's own transaction (docs/API.md, "Webhooks").
pub async fn record_audit(
    state: &AppState,
    url: &Url,
    user_id: Option<&str>,
    result: &AuditResult,
    extra: Option<Map<String, Value>>,
) -> Result<store::StoredAudit, ApiError> {
    let record = audit_record(url, user_id, result, extra).map_err(ApiError::internal)?;
    let (page, score, scanned_at) = (url.to_string(), result.score.percentage, result.scanned_at.clone());
    let data = move |stored: &store::StoredAudit| {
        json!({
            "url": page,
            "score": score,
            "scannedAt": scanned_at,
            "auditId": stored.id,
        })
    };
    let (stored, enqueued) = state.db(move |s| s.insert_audit_with_event(record, data)).await?;
    state.webhooks.enqueued(&enqueued);
    Ok(stored)
}

/// [`record_audit`] for callers whose client gets its answer either way: a failure to keep
/// the copy is logged, not returned.
pub async fn keep_audit(
    state: &AppState,
    url: &Url,
    user_id: Option<&str>,
    result: &AuditResult,
) -> Option<store::StoredAudit> {
    match record_audit(state, url, user_id, result, None).await {
        Ok(stored) => Some(stored),
        Err(e) => {
            tracing::error!(url = %url, cause = ?e.cause, "audit not stored");
            None
        }
    }
}
