//! The AI-visibility endpoints (docs/API.md, "AI visibility"): `POST /api/ai-readiness`,
//! `POST /api/ai-visibility-scan` and `POST /api/geo-check`, each with body `{url}`.
//!
//! Identity, quota, the body and the answer; the work is the application's ([`app::ai`],
//! [`app::GeoService::check`]): each one audits the page like the audit endpoint does (an
//! audit slot, one quota unit, the audit stored) and asks the `ai-visibility` engines;
//! geo-check keeps its answer per domain for [`store::GEO_CACHE_TTL`].

use url::Url;

use crate::auth::{authenticate_metered, billed, payer, Identity, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// `POST /api/ai-readiness` with `{url}`.
pub async fn readiness(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let payer = payer(&ctx, &identity);
    let report = billed(&ctx, &payer, ctx.state.app.ai_readiness(&url, identity.user_id(), &payer).await)?;
    Ok(ok_json(&api::AiReadinessAnswer::new(report)))
}

/// `POST /api/ai-visibility-scan` with `{url}`.
pub async fn scan(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let payer = payer(&ctx, &identity);
    let scan = billed(&ctx, &payer, ctx.state.app.ai_visibility_scan(&url, identity.user_id(), &payer).await)?;
    Ok(ok_json(&api::AiVisibilityScanAnswer::new(url.to_string(), scan)))
}

/// `POST /api/geo-check` with `{url}`.
pub async fn geo(ctx: Ctx) -> Result<crate::Response, ApiError> {
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
