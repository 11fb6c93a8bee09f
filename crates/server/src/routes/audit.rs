//! `GET /api/v1/audit` and `POST /api/v1/audit/batch` (wire types: `api::wire`).

use std::collections::HashMap;

use api::{AuditAnswer, BatchError, BatchItem, BatchResult, Format};
use serde_json::{json, Value};
use url::Url;

use crate::auth::{authenticate_metered, consume_quota, KeyRule};
use crate::config::{BATCH_CONCURRENCY, MAX_BATCH_URLS};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::ok_json;

/// The `format` of an audit request.
fn parse_format(value: Option<&str>) -> Result<Format, ApiError> {
    match value {
        None | Some("json") => Ok(Format::Json),
        Some("compact") => Ok(Format::Compact),
        Some(other) => Err(ApiError::invalid_request(format!(
            "The parameter `format` must be `json` or `compact`, not {other:?}."
        ))
        .with_details(json!({ "parameter": "format", "allowed": ["json", "compact"] }))),
    }
}

/// `GET /api/v1/audit?url=..&format=json|compact`.
pub fn get(ctx: Ctx) -> HandlerFuture {
    Box::pin(audit_one(ctx))
}

/// `POST /api/v1/audit/batch` with `{urls, format}`.
pub fn batch(ctx: Ctx) -> HandlerFuture {
    Box::pin(audit_batch(ctx))
}

async fn audit_one(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some("audit")).await?;
    let raw = ctx.query("url").filter(|u| !u.trim().is_empty()).ok_or_else(|| ApiError::missing_parameter("url"))?;
    let format = parse_format(ctx.query("format").as_deref())?;
    let url = app::validate_url(&raw)?;
    // The one audit path: admission first, then this quota, then fetch, analysis, record.
    let audited = ctx
        .state
        .app
        .audit_for_client(&url, identity.user_id(), |n| consume_quota(&ctx, &identity, n).map(drop))
        .await?;
    Ok(ok_json(&render(&audited, format)))
}

/// An audit answer in the asked shape.
fn render(audited: &app::Audited, format: Format) -> AuditAnswer {
    match format {
        Format::Json => AuditAnswer::full(audited.result.clone()),
        Format::Compact => AuditAnswer::compact(audited.audit.to_compact(&audited.scanned_at)),
    }
}

async fn audit_batch(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some("audit")).await?;
    let body = ctx.json_body().await?;
    let (urls, format) = parse_batch(&body)?;

    // Each position is a valid URL (an index into `distinct`) or its own error.
    let mut distinct: Vec<Url> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let positions: Vec<Result<usize, ApiError>> = urls
        .iter()
        .map(|raw| {
            let url = app::validate_url(raw)?;
            Ok(*index.entry(url.to_string()).or_insert_with(|| {
                distinct.push(url);
                distinct.len() - 1
            }))
        })
        .collect();

    // A batch that needs more units than the caller's whole per-minute limit can never pass:
    // 400, no Retry-After, nothing charged (docs/API.md, "POST /api/v1/audit/batch").
    let limit = identity.rate_limit(&ctx.state.config.rate_limits);
    if distinct.len() > limit as usize {
        return Err(larger_than_limit(distinct.len(), limit, identity.key().is_some()));
    }

    // Every item takes its place in the audit queue before anything is charged: a batch the
    // queue cannot hold is refused whole (503) and waits nowhere else.
    let outcomes: Vec<Result<AuditAnswer, ApiError>> = ctx
        .state
        .app
        .audit_batch(distinct, identity.user_id(), BATCH_CONCURRENCY, |n| consume_quota(&ctx, &identity, n).map(drop))
        .await?
        .into_iter()
        .map(|outcome| outcome.map(|audited| render(&audited, format)).map_err(ApiError::from))
        .collect();

    let mut succeeded = 0;
    let results: Vec<BatchItem> = urls
        .iter()
        .zip(positions)
        .map(|(raw, position)| match position.and_then(|i| outcomes[i].clone()) {
            Ok(result) => {
                succeeded += 1;
                BatchItem::Audited { url: raw.clone(), ok: true, result }
            }
            Err(e) => {
                match &e.cause {
                    Some(cause) if e.code == "internal" => {
                        tracing::error!(request_id = %ctx.request_id, url = %raw, cause = %cause, "batch item failed")
                    }
                    Some(cause) => {
                        tracing::info!(request_id = %ctx.request_id, url = %raw, cause = %cause, "batch item failed")
                    }
                    None => {}
                }
                BatchItem::Failed {
                    url: raw.clone(),
                    ok: false,
                    error: BatchError { code: e.code, message: e.message },
                }
            }
        })
        .collect();
    Ok(ok_json(&BatchResult {
        ok: true,
        api_version: audit_core::API_VERSION,
        count: results.len(),
        succeeded,
        failed: results.len() - succeeded,
        results,
    }))
}

/// The refusal of a batch of `needed` distinct URLs from a caller whose whole limit is
/// `limit` a minute: waiting cannot help, so it says what to send instead.
fn larger_than_limit(needed: usize, limit: u32, keyed: bool) -> ApiError {
    let whose = if keyed { "this key's whole" } else { "the whole anonymous" };
    let hint = if keyed { "" } else { " An API key raises the limit." };
    ApiError::invalid_request(format!(
        "This batch is larger than the rate limit: its {needed} distinct URLs need {needed} requests of quota, \
         more than {whose} limit of {limit} per minute, so it can never pass as sent. Send at most {limit} \
         distinct URLs per batch.{hint}"
    ))
    .with_details(json!({ "parameter": "urls", "limit": limit, "requested": needed }))
}

/// `{urls: [1..=10 strings], format?: "json" | "compact"}`.
fn parse_batch(body: &Value) -> Result<(Vec<String>, Format), ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `urls`."));
    };
    let urls =
        match obj.get("urls") {
            None | Some(Value::Null) => return Err(ApiError::missing_parameter("urls")),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ApiError::invalid_request("Every entry of `urls` must be a string."))?,
            Some(_) => return Err(ApiError::invalid_request("The field `urls` must be an array of strings.")),
        };
    if urls.is_empty() || urls.len() > MAX_BATCH_URLS {
        return Err(ApiError::invalid_request(format!(
            "The field `urls` must hold 1 to {MAX_BATCH_URLS} URLs, not {}.",
            urls.len()
        ))
        .with_details(json!({ "parameter": "urls", "max": MAX_BATCH_URLS })));
    }
    let format = match obj.get("format") {
        None | Some(Value::Null) => Format::Json,
        Some(Value::String(s)) => parse_format(Some(s))?,
        Some(_) => return Err(ApiError::invalid_request("The field `format` must be a string.")),
    };
    Ok((urls, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: Value, expected: Result<(usize, Format), &str>) {
        let got = parse_batch(&body).map(|(u, f)| (u.len(), f)).map_err(|e| e.code);
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn batch_bodies() {
        check(json!({"urls": ["a"]}), Ok((1, Format::Json)));
        check(json!({"urls": ["a", "a"], "format": "compact"}), Ok((2, Format::Compact)));
        check(json!({"urls": ["a"], "format": null}), Ok((1, Format::Json)));
        check(json!({"urls": ["a"], "format": "xml"}), Err("invalid_request"));
        check(json!({"urls": ["a"], "format": 1}), Err("invalid_request"));
        check(json!({}), Err("missing_parameter"));
        check(json!({"urls": null}), Err("missing_parameter"));
        check(json!({"urls": "a"}), Err("invalid_request"));
        check(json!({"urls": [1]}), Err("invalid_request"));
        check(json!({"urls": []}), Err("invalid_request"));
        check(json!({"urls": vec!["a"; 11]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        check(json!("x"), Err("invalid_request"));
    }
}
