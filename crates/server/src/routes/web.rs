//! The web surfaces: `GET /api/widget` (score badge, SVG or iframe page), `GET /widget.js`,
//! `GET /report/{domain}`, `GET /report?url=` and the landing page `GET /`.
//!
//! Rendering is the [`pages`] crate's (pure functions of typed values); what a badge or
//! report shows and the background audits it queues are the application's
//! ([`app::badges::BadgeQueue::badge_score`], [`app::report`]); this module applies the
//! per-IP flood guard and sets status and headers.
//!
//! Errors: the badge answers the JSON error body of every API route (an `<img>` shows
//! nothing either way, and scripts and monitors read JSON). The report routes are opened by
//! people in browsers, so their errors are small HTML pages with the same status, the error
//! code in an `x-error-code` header, and the `Retry-After` and `x-ratelimit-*` headers the
//! JSON answer would carry.

use http::{header, HeaderValue, StatusCode};
use pages::badge;
use serde_json::json;

use crate::auth::{anonymous_identity, authenticate, billed, payer, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::Response;
use app::badges::params::{BadgeFormat, BadgeParams};
use app::report::{audit_report, domain_report, AuditReport, DomainReport};
use http_serve::response::with_headers as respond;

/// `Cache-Control` of reports and the landing page: always revalidate, a new audit may
/// change them at any time.
pub const PAGE_CACHE_CONTROL: &str = "no-cache";
/// `Cache-Control` of the "not audited yet" report and of error pages.
pub const NO_STORE: &str = "no-store";

/// `GET /api/widget?domain=&color=&size=&format=`.
pub async fn widget(ctx: Ctx) -> Result<crate::Response, ApiError> {
    flood_guard(&ctx)?;
    let params = BadgeParams::parse(|name| ctx.query(name))?;
    let score = ctx.state.badges.badge_score(&params.domain).await?;
    Ok(match params.format {
        BadgeFormat::Svg => respond(
            StatusCode::OK,
            badge::render_svg(&params.domain, score, &params.color, params.size),
            pages::SVG_CONTENT_TYPE,
            pages::SVG_CACHE_CONTROL,
            pages::SVG_SECURITY_HEADERS,
        ),
        BadgeFormat::Iframe => respond(
            StatusCode::OK,
            badge::render_iframe_page(&base_url(&ctx), &params.domain, score, &params.color, params.size),
            pages::HTML_CONTENT_TYPE,
            pages::SVG_CACHE_CONTROL,
            pages::IFRAME_SECURITY_HEADERS,
        ),
    })
}

/// `GET /widget.js`.
pub async fn widget_js(_ctx: Ctx) -> Result<crate::Response, ApiError> {
    Ok(respond(
        StatusCode::OK,
        pages::WIDGET_JS.to_string(),
        pages::JS_CONTENT_TYPE,
        pages::WIDGET_JS_CACHE_CONTROL,
        pages::WIDGET_JS_SECURITY_HEADERS,
    ))
}

/// `GET /`.
pub async fn landing(ctx: Ctx) -> Result<Response, ApiError> {
    Ok(html(StatusCode::OK, pages::report::render_landing(&base_url(&ctx)), PAGE_CACHE_CONTROL))
}

/// `GET /report/{domain}` (optionally `?audit=ID`, which `GET /report?url=` redirects to).
pub async fn report(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let answer = report_domain(&ctx).await;
    Ok(answer.unwrap_or_else(|e| html_error(&ctx, e)))
}

/// `GET /report?url=`: audits the page (1 quota unit) and redirects to its report.
pub async fn report_url(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let answer = audit_and_redirect(&ctx).await;
    Ok(answer.unwrap_or_else(|e| html_error(&ctx, e)))
}

/// Counts the request against the per-IP flood guard of the badge, report and discovery
/// routes: 429
/// `rate_limited` with `Retry-After` past [`crate::Config::widget_rate_limit`] a minute.
/// It is not the audit quota (these pages consume none) and sends no `x-ratelimit-*` headers, which
/// would vary per visitor on publicly cached images.
pub(crate) fn flood_guard(ctx: &Ctx) -> Result<(), ApiError> {
    // The same client identity as the anonymous audit quota (an IPv6 client is its prefix).
    let client = anonymous_identity(ctx).label();
    let limit = ctx.state.config.widget_rate_limit;
    let decision = ctx.state.widget_guard.consume_in_memory(&client, 1, limit);
    if decision.allowed {
        return Ok(());
    }
    Err(ApiError::new(
        app::ErrorCode::RateLimited,
        format!(
            "Too many badge, report, discovery and history requests from this address; retry in {} seconds.",
            decision.reset_s
        ),
    )
    .with_details(json!({ "limit": limit, "retry_after_s": decision.reset_s }))
    .with_header(header::RETRY_AFTER, HeaderValue::from(decision.reset_s)))
}

async fn report_domain(ctx: &Ctx) -> Result<Response, ApiError> {
    flood_guard(ctx)?;
    let (state, raw) = (&ctx.state, ctx.param("domain").unwrap_or_default());
    let report = domain_report(
        &state.app,
        &state.crawls,
        &state.badges,
        base_url(ctx),
        raw,
        ctx.query("audit").map(app::AuditId::from),
    );
    Ok(match report.await? {
        DomainReport::Page(body) => html(StatusCode::OK, body, PAGE_CACHE_CONTROL),
        DomainReport::NotAudited(body) => html(StatusCode::NOT_FOUND, body, NO_STORE),
    })
}

async fn audit_and_redirect(ctx: &Ctx) -> Result<Response, ApiError> {
    let identity = authenticate(ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let raw = ctx.query("url").filter(|u| !u.trim().is_empty()).ok_or_else(|| ApiError::missing_parameter("url"))?;
    let url = app::validate_url(&raw)?;
    // The one audit path, as the audit endpoint: admission first, so a full server answers
    // 503 without charging quota.
    let payer = payer(ctx, &identity);
    let audited =
        billed(ctx, &payer, ctx.state.app.audit_for_client(&url, app::AuditOptions::default(), &payer).await)?;
    Ok(match audit_report(&ctx.state.app, base_url(ctx), &audited).await? {
        AuditReport::Page(body) => html(StatusCode::OK, body, NO_STORE),
        AuditReport::Redirect(location) => {
            let mut resp = respond(StatusCode::SEE_OTHER, String::new(), pages::HTML_CONTENT_TYPE, NO_STORE, &[]);
            if let Ok(v) = HeaderValue::from_str(&location) {
                resp.headers_mut().insert(header::LOCATION, v);
            }
            resp
        }
    })
}

/// The public address used in absolute links (snippets, the iframe badge's link).
///
/// The configured `base_url` when the operator set one. Otherwise (it is still the default,
/// or its `https://` form when the service speaks TLS) the request's `Host` when that names
/// this machine: a loopback name or address, or the address the server listens on; so a
/// development server on another port links to itself, with the scheme it serves. Any other
/// `Host` is ignored: a forged header must not plant links to another site in pages a cache
/// may keep.
pub(crate) fn base_url(ctx: &Ctx) -> String {
    let configured = ctx.state.config.base_url.trim_end_matches('/').to_string();
    let scheme = ctx.state.config.scheme();
    let default = app::DEFAULT_BASE_URL.trim_end_matches('/');
    let default_here = format!("{scheme}://{}", default.trim_start_matches("http://"));
    if configured != default && configured != default_here {
        return configured;
    }
    match http_serve::request::local_authority(&ctx.headers, &ctx.uri, ctx.state.config.listen.ip()) {
        Some(authority) => format!("{scheme}://{authority}"),
        None => configured,
    }
}

/// An HTML page with the headers of the landing and report pages.
pub(crate) fn html(status: StatusCode, body: String, cache: &'static str) -> Response {
    respond(status, body, pages::HTML_CONTENT_TYPE, cache, pages::HTML_SECURITY_HEADERS)
}

/// An error of a browser-facing route as an HTML page (status, `Retry-After` and the
/// other headers of the error kept; the code in `x-error-code`).
pub(crate) fn html_error(ctx: &Ctx, e: ApiError) -> Response {
    if let Some(cause) = &e.cause {
        tracing::error!(request_id = %ctx.request_id, cause = %cause, code = e.code.as_str(), "request failed");
    }
    let mut resp = html(e.status, pages::error_page(e.status.as_u16(), e.code.as_str(), &e.message), NO_STORE);
    for (name, value) in &e.headers {
        resp.headers_mut().insert(name.clone(), value.clone());
    }
    resp.headers_mut().insert("x-error-code", HeaderValue::from_static(e.code.as_str()));
    resp
}
