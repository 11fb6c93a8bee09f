//! `GET /api/v1/audit` and `POST /api/v1/audit/batch` (wire types: `api::wire`).

use api::{AuditAnswer, BatchError, BatchItem, BatchResult, Format};

use crate::auth::{authenticate_metered, billed, payer, KeyRule};
use crate::config::BATCH_CONCURRENCY;
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::{ok_json, ok_json_text};

/// `GET /api/v1/audit?url=..&format=json|compact&render=true|false`.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let raw = ctx.query("url").filter(|u| !u.trim().is_empty()).ok_or_else(|| ApiError::missing_parameter("url"))?;
    let format = api::request::parse_format(ctx.query("format").as_deref())?;
    let options = app::AuditOptions { render: api::request::parse_render(ctx.query("render").as_deref())? };
    let url = app::validate_url(&raw)?;
    // The one audit path: admission first, then this quota, then fetch, analysis, record.
    let payer = payer(&ctx, &identity);
    let mut audited = billed(&ctx, &payer, ctx.state.app.audit_for_client(&url, options, &payer).await)?;
    // The full answer is the stored row, already serialised (`app::audit_record` writes this
    // envelope): sent as it is rather than built and serialised a second time.
    if format == Format::Json {
        if let Some(stored) = audited.stored.take() {
            return Ok(ok_json_text(stored.result_json));
        }
    }
    Ok(ok_json(&render(&audited, format)))
}

/// An audit answer in the asked shape.
fn render(audited: &app::Audited, format: Format) -> AuditAnswer {
    match format {
        Format::Json => AuditAnswer::full(audited.result.clone()),
        Format::Compact => {
            let mut compact = audited.audit.to_compact(&audited.scanned_at.to_string());
            compact.rendering = audited.result.rendering.as_ref().map(audit_core::CompactRendering::of);
            AuditAnswer::compact(compact)
        }
    }
}

/// `POST /api/v1/audit/batch` with `{urls, format, render}`.
pub async fn batch(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let (urls, format, rendered) = api::request::batch(ctx.body().await?)?;
    let options = app::AuditOptions { render: rendered };

    // Every item takes its place in the audit queue before anything is charged: a batch the
    // queue cannot hold is refused whole (503) and waits nowhere else.
    let payer = payer(&ctx, &identity);
    let audits = billed(&ctx, &payer, ctx.state.app.audit_batch(&urls, options, BATCH_CONCURRENCY, &payer).await)?;
    let outcomes = audits.into_each(|outcome| outcome.map(|audited| render(&audited, format)).map_err(ApiError::from));

    let mut succeeded = 0;
    let results: Vec<BatchItem> = urls
        .iter()
        .zip(outcomes)
        .map(|(raw, outcome)| match outcome {
            Ok(result) => {
                succeeded += 1;
                BatchItem::Audited { url: raw.clone(), ok: true, result }
            }
            Err(e) => {
                match &e.cause {
                    Some(cause) if e.code == app::ErrorCode::Internal => {
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
                    error: BatchError { code: e.code.as_str(), message: e.message },
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
