//! The AI-visibility endpoints (docs/API.md, "AI visibility"): `POST /api/ai-readiness`,
//! `POST /api/ai-visibility-scan` and `POST /api/geo-check`, each with body `{url}`.
//!
//! Identity, quota, the body and the answer; the work is the application's ([`app::ai`],
//! [`app::GeoService::check`]): each one audits the page like the audit endpoint does (an
//! audit slot, one quota unit, the audit stored) and asks the `ai-visibility` engines;
//! geo-check keeps its answer per domain for [`store::GEO_CACHE_TTL`].

use serde_json::Value;
use url::Url;

use crate::auth::{authenticate_metered, consume_quota, Identity, KeyRule};
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
    let charge = |n| consume_quota(&ctx, &identity, n).map(drop);
    let report = ctx.state.app.ai_readiness(&url, identity.user_id(), charge).await?;
    Ok(ok_json(&api::AiReadinessAnswer { api_version: audit_core::API_VERSION, report }))
}

async fn scan_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let charge = |n| consume_quota(&ctx, &identity, n).map(drop);
    let scan = ctx.state.app.ai_visibility_scan(&url, identity.user_id(), charge).await?;
    Ok(ok_json(&api::AiVisibilityScanAnswer { api_version: audit_core::API_VERSION, url: url.to_string(), scan }))
}

async fn geo_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let charge = |n| consume_quota(&ctx, &identity, n).map(drop);
    // A provider failure is logged by the use case (502 `upstream_error` here).
    let body = ctx.state.geo.check(&ctx.state.app, &url, identity.user_id(), charge).await?;
    Ok(ok_json(&body))
}

/// The identity and the validated target of a `{url}` request: 401/403 for a bad key,
/// 415/413/400 for the body, 400 `invalid_url`.
async fn request(ctx: &Ctx) -> Result<(Identity, Url), ApiError> {
    let identity = authenticate_metered(ctx, KeyRule::Optional, Some("audit")).await?;
    let body = ctx.json_body().await?;
    let raw = target(&body)?;
    Ok((identity, app::validate_url(&raw)?))
}

/// The `url` of a `{url}` body (documented as `api::UrlRequest`).
fn target(body: &Value) -> Result<String, ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `url`."));
    };
    match obj.get("url") {
        None | Some(Value::Null) => Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ApiError::invalid_request("The field `url` must be a string.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(body: Value, expected: Result<&str, &str>) {
        let got = target(&body);
        assert_eq!(got.as_deref().map_err(|e| e.code), expected, "{body}");
    }

    #[test]
    fn url_bodies() {
        check(json!({"url": "https://a.example/"}), Ok("https://a.example/"));
        check(json!({"url": "a.example", "extra": 1}), Ok("a.example"));
        check(json!({}), Err("missing_parameter"));
        check(json!({"url": null}), Err("missing_parameter"));
        check(json!({"url": "  "}), Err("missing_parameter"));
        check(json!({"url": 5}), Err("invalid_request"));
        check(json!({"url": ["a"]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        check(json!("https://a.example/"), Err("invalid_request"));
    }
}
