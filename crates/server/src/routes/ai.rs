//! The AI-visibility endpoints (docs/API.md, "AI visibility"): `POST /api/ai-readiness`,
//! `POST /api/ai-visibility-scan` and `POST /api/geo-check`, each with body `{url}`.
//!
//! Identity, quota, the body and the answer; the work is the application's ([`app::ai`],
//! [`app::GeoService::check`]): each one audits the page like the audit endpoint does (an
//! audit slot, one quota unit, the audit stored) and asks the `ai-visibility` engines;
//! geo-check keeps its answer per domain for [`store::GEO_CACHE_TTL`].

use url::Url;

use crate::auth::{authenticate_metered, billed, payer, Identity, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::ok_json;

/// `POST /api/ai-readiness` with `{url}`.
pub fn readiness(ctx: Ctx) -> HandlerFuture {
    Box::pin(readiness_inner(ctx))
}

/// `POST /api/ai-visibility-scan` with `{url}`.
pub fn scan(ctx: Ctx) -> HandlerFuture {
    Box::pin(scan_inner(ctx))
}

/// `POST /api/geo-check` with `{url}`.
pub fn geo(ctx: Ctx) -> HandlerFuture {
    Box::pin(geo_inner(ctx))
}

async fn readiness_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let payer = payer(&ctx, &identity);
    let report = billed(&ctx, &payer, ctx.state.app.ai_readiness(&url, identity.user_id(), &payer).await)?;
    Ok(ok_json(&api::AiReadinessAnswer { api_version: audit_core::API_VERSION, report }))
}

async fn scan_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let payer = payer(&ctx, &identity);
    let scan = billed(&ctx, &payer, ctx.state.app.ai_visibility_scan(&url, identity.user_id(), &payer).await)?;
    Ok(ok_json(&api::AiVisibilityScanAnswer { api_version: audit_core::API_VERSION, url: url.to_string(), scan }))
}

async fn geo_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let payer = payer(&ctx, &identity);
    // A provider failure is logged by the use case (502 `upstream_error` here).
    let caller = identity.label();
    let checked = ctx.state.geo.check(&ctx.state.app, &url, identity.user_id(), &caller, &payer).await;
    let body = billed(&ctx, &payer, checked)?;
    Ok(ok_json(&body))
}

/// The identity and the validated target of a `{url}` request: 401/403 for a bad key,
/// 415/413/400 for the body, 400 `invalid_url`.
async fn request(ctx: &Ctx) -> Result<(Identity, Url), ApiError> {
    let identity = authenticate_metered(ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let body: api::UrlRequest = ctx.body().await?;
    let raw = body.url.required_text("url")?;
    Ok((identity, app::validate_url(&raw)?))
}
