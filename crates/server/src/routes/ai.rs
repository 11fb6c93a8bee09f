//! The AI-visibility endpoints (docs/API.md, "AI visibility"): `POST /api/ai-readiness`,
//! `POST /api/ai-visibility-scan` and `POST /api/geo-check`, each with body `{url}`.
//!
//! Each one audits the page like the audit endpoint does (an audit slot, one quota unit,
//! the audit stored) and hands the page, its robots.txt and, for the first two, its
//! llms.txt to the `ai-visibility` engines. geo-check asks the operator's AI search
//! provider and keeps the result per domain for [`store::GEO_CACHE_TTL`]; a cached answer
//! asks neither the page nor the provider.

use ai_visibility::{ai_readiness, ai_visibility_scan, default_llms_url, geo_check, normalize_domain};
use serde_json::{json, Value};
use url::Url;

use crate::auth::{authenticate_metered, consume_quota, Identity, KeyRule};
use crate::error::ApiError;
use crate::response::ok_json;
use crate::router::{Ctx, HandlerFuture};
use crate::state::AppState;

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
    let (page, llms) = audit_with_llms(&ctx, &url, &identity).await?;
    let requested = url.to_string();
    let body = blocking(move || {
        let llms = Some((llms.url.as_str(), llms.body.as_deref()));
        serde_json::to_value(ai_readiness(&requested, &page.audit.page, llms, page.robots_txt.as_ref()))
    })
    .await?;
    Ok(ok_json(&with_api_version(body, None)))
}

async fn scan_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    let (page, llms) = audit_with_llms(&ctx, &url, &identity).await?;
    let body = blocking(move || {
        serde_json::to_value(ai_visibility_scan(&page.audit.page, llms.body.as_deref(), page.robots_txt.as_ref()))
    })
    .await?;
    Ok(ok_json(&with_api_version(body, Some(&url))))
}

async fn geo_inner(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (identity, url) = request(&ctx).await?;
    // Without a provider nothing is charged: the request could never succeed.
    let provider = ctx.state.geo.provider()?.clone();
    let domain = normalize_domain(url.host_str().unwrap_or_default());
    let ticket = ctx.state.app.admit_charged(1, |n| consume_quota(&ctx, &identity, n).map(drop))?.pop();
    let ticket = ticket.ok_or_else(|| ApiError::internal("no audit ticket"))?;

    let lookup = domain.clone();
    let now = time::OffsetDateTime::now_utc();
    if let Some(entry) = ctx.state.db(move |s| s.get_geo_cache(&lookup, now)).await? {
        match serde_json::from_str::<Value>(&entry.result_json) {
            Ok(mut body) if body.is_object() => {
                body["cached"] = json!(true);
                return Ok(ok_json(&body));
            }
            _ => tracing::warn!(domain = %domain, "unreadable geo-check cache entry; asking the provider again"),
        }
    }

    let page = ctx.state.app.run_audit(&url, identity.user_id(), ticket).await?;
    let options = *ctx.state.geo.options();
    // Dropped with the request (the client went away), the check stops asking the provider.
    let report = geo_check(&provider, &page.audit.page, &domain, &options).await.map_err(|e| {
        tracing::warn!(request_id = %ctx.request_id, domain = %domain, error = %e, "geo-check provider failed");
        crate::geo::provider_error(&e)
    })?;
    let checked_at = time::OffsetDateTime::now_utc();
    let mut body = json!({
        "ok": true,
        "api_version": audit_core::API_VERSION,
        "url": url.as_str(),
        "domain": report.domain,
        "visibilityScore": report.visibility_score,
        "queries": report.queries,
        "checkedAt": store::format_rfc3339(checked_at),
    });
    let (key, text) = (report.domain.clone(), body.to_string());
    // A result that cannot be cached is still the client's answer; the next call asks again.
    if let Err(e) = ctx.state.db(move |s| s.put_geo_cache(&key, &text, checked_at)).await {
        tracing::error!(domain = %domain, cause = ?e.cause, "geo-check result not cached");
    }
    body["cached"] = json!(false);
    Ok(ok_json(&body))
}

/// The identity and the validated target of a `{url}` request: 401/403 for a bad key,
/// 415/413/400 for the body, 400 `invalid_url`.
async fn request(ctx: &Ctx) -> Result<(Identity, Url), ApiError> {
    let identity = authenticate_metered(ctx, KeyRule::Optional, Some("audit")).await?;
    let body = ctx.json_body().await?;
    let raw = target(&body)?;
    Ok((identity, fetch::validate_url(&raw)?))
}

/// The `url` of a `{url}` body.
fn target(body: &Value) -> Result<String, ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `url`."));
    };
    match obj.get("url") {
        None | Some(Value::Null) => Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ApiError::invalid_request("`url` must be a string.")),
    }
}

/// Where llms.txt was looked for, and its body when the site serves one.
struct Llms {
    url: String,
    body: Option<String>,
}

/// Takes an audit slot and a quota unit, then audits the page (stored like every audit)
/// while fetching the site's llms.txt.
async fn audit_with_llms(ctx: &Ctx, url: &Url, identity: &Identity) -> Result<(app::Audited, Llms), ApiError> {
    // Admitted and charged before anything is fetched, llms.txt included.
    let ticket = ctx.state.app.admit_charged(1, |n| consume_quota(ctx, identity, n).map(drop))?.pop();
    let ticket = ticket.ok_or_else(|| ApiError::internal("no audit ticket"))?;
    let (page, llms) =
        tokio::join!(ctx.state.app.run_audit(url, identity.user_id(), ticket), fetch_llms(&ctx.state, url));
    Ok((page?, llms))
}

/// `/llms.txt` at the page's origin. Whatever comes back is data for the report: a 2xx
/// body is handed to the parser (an HTML page there is one of its findings); any other
/// status, or no answer at all, means the site has none.
async fn fetch_llms(state: &AppState, page: &Url) -> Llms {
    let Ok(at) = page.join("/llms.txt") else {
        return Llms { url: default_llms_url(page.as_str()), body: None };
    };
    let max = state.fetcher.config().text_max_bytes;
    match state.fetcher.fetch_text(&at, max).await {
        Ok(answer) if (200..300).contains(&answer.status) => {
            Llms { url: answer.final_url.to_string(), body: Some(String::from_utf8_lossy(&answer.body).into_owned()) }
        }
        Ok(_) => Llms { url: at.to_string(), body: None },
        Err(e) => {
            tracing::debug!(url = %at, error = %e, "llms.txt not fetched; reported absent");
            Llms { url: at.to_string(), body: None }
        }
    }
}

/// Stores the audit as the audit endpoint does; a failure is logged and the client still
/// gets its answer.
/// Runs an engine on the blocking pool (CPU-bound work never stalls the reactor).
async fn blocking<F>(f: F) -> Result<Value, ApiError>
where
    F: FnOnce() -> Result<Value, serde_json::Error> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(ApiError::internal(e)),
        Err(e) => Err(ApiError::internal(format!("ai-visibility engine failed: {e}"))),
    }
}

/// Adds `api_version` (and `url` when the engine's body has none) to an engine's body.
fn with_api_version(mut body: Value, url: Option<&Url>) -> Value {
    if let Some(obj) = body.as_object_mut() {
        obj.insert("api_version".into(), json!(audit_core::API_VERSION));
        if let Some(url) = url {
            obj.entry("url").or_insert_with(|| json!(url.as_str()));
        }
    }
    body
}

// `target` reads the body field by field, for precise error answers; this type documents it.
/// The body of the AI-visibility endpoints: the page to check.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
pub struct UrlRequest {
    /// The page (http or https; a bare host gets https://).
    #[schemars(length(min = 1, max = fetch::MAX_URL_LEN))]
    pub url: String,
}

#[cfg(test)]
mod tests {
    use super::*;

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
