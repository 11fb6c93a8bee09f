//! `POST /api/v1/crawls`, `GET /api/v1/crawls/{id}`, `.../pages`, `.../issues/{rule_id}`,
//! `.../export`, `.../compare`, `DELETE /api/v1/crawls/{id}`, `GET /api/v1/crawls`: site crawls (docs/API.md, "Site crawl"; wire
//! types: `api::crawls`).
//!
//! Scope `audit`; anonymous use allowed (counted by IP). Starting a crawl costs 1 quota unit;
//! reading one costs nothing. A crawl made with a key is seen only by that key's owner, one
//! made without a key only without one (404 otherwise, as for an unknown id).

use api::crawls::{CrawlAnswer, CrawlComparison, CrawlList, CrawlPages};
use app::crawl::share::ReportReader;
use app::crawl::views::{wire_crawl, wire_issue, wire_page, wire_started};
use http::{header, HeaderValue, StatusCode};

use crate::auth::{authenticate, authenticate_metered, billed, key_owner, payer, Identity, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

async fn caller(ctx: &Ctx) -> Result<Identity, ApiError> {
    authenticate(ctx, KeyRule::Optional, Some(app::Scope::Audit)).await
}

fn id_of(ctx: &Ctx) -> app::CrawlId {
    app::CrawlId::from(ctx.param("id").unwrap_or_default())
}

fn limit_of(ctx: &Ctx) -> Result<usize, ApiError> {
    Ok(app::crawl::parse_limit(ctx.query("limit").as_deref())?)
}

/// `POST /api/v1/crawls`.
pub async fn create(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let request = app::crawl::parse_start(ctx.body().await?)?;
    let payer = payer(&ctx, &identity);
    let started = billed(&ctx, &payer, ctx.state.crawls.start_for(&payer, request).await)?;
    let crawl = wire_started(&started);
    let location = app::crawl::views::crawl_path(&crawl.id);
    let mut resp =
        json_response(StatusCode::ACCEPTED, &CrawlAnswer { ok: true, api_version: audit_core::API_VERSION, crawl });
    if let Ok(v) = HeaderValue::from_str(&location) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

/// `GET /api/v1/crawls`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = key_owner(&ctx, app::Scope::Audit).await?;
    let request = app::crawl::list::list_query(|name| ctx.query(name))?;
    let listing = ctx.state.crawls.list(owner, request).await?;
    Ok(ok_json(&CrawlList {
        ok: true,
        api_version: audit_core::API_VERSION,
        crawls: listing.crawls,
        next_cursor: listing.next_cursor,
    }))
}

/// `GET /api/v1/crawls/{id}/compare?against={id}`.
pub async fn compare(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = caller(&ctx).await?;
    let against = match ctx.query("against") {
        Some(a) if !a.trim().is_empty() => a,
        _ => return Err(app::AppError::missing_parameter("against").into()),
    };
    let comparison = ctx.state.crawls.compare(identity.user_id(), &id_of(&ctx), &against.trim().into()).await?;
    Ok(ok_json(&CrawlComparison { ok: true, api_version: audit_core::API_VERSION, comparison }))
}

/// `GET /api/v1/crawls/{id}`.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = caller(&ctx).await?;
    let id = id_of(&ctx);
    let crawl = ctx.state.crawls.owned(identity.user_id(), &id).await?;
    let issues = ctx.state.crawls.issue_counts(&crawl.id).await?;
    Ok(ok_json(&CrawlAnswer { ok: true, api_version: audit_core::API_VERSION, crawl: wire_crawl(&crawl, &issues) }))
}

/// `GET /api/v1/crawls/{id}/pages`.
pub async fn pages(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = caller(&ctx).await?;
    let limit = limit_of(&ctx)?;
    let cursor = ctx.query("cursor");
    let (crawl, pages, next) =
        ctx.state.crawls.pages(identity.user_id(), &id_of(&ctx), cursor.as_deref(), limit).await?;
    Ok(ok_json(&CrawlPages {
        ok: true,
        api_version: audit_core::API_VERSION,
        crawl_id: crawl.id,
        state: crawl.state.as_str().to_string(),
        pages: pages.iter().map(wire_page).collect(),
        next_cursor: next,
    }))
}

/// `GET /api/v1/crawls/{id}/issues/{rule_id}`.
pub async fn issue(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = caller(&ctx).await?;
    let limit = limit_of(&ctx)?;
    let cursor = ctx.query("cursor");
    let id = id_of(&ctx);
    let rule_id = ctx.param("rule_id").unwrap_or_default().to_string();
    let page = ctx.state.crawls.issue(identity.user_id(), &id, &rule_id, cursor.as_deref(), limit).await?;
    Ok(ok_json(&wire_issue(id, page)))
}

/// `GET /api/v1/crawls/{id}/export`.
pub async fn export(ctx: Ctx) -> Result<crate::Response, ApiError> {
    use app::crawl::export;
    let identity = caller(&ctx).await?;
    let (format, table) = export::parse_request(ctx.query("format").as_deref(), ctx.query("table").as_deref())?;
    let file = ctx.state.crawls.export(identity.user_id(), &id_of(&ctx), format, table).await?;
    let name = export::file_name(&file.crawl_id, format, table);
    let mut resp = http::Response::new(http_body_util::Full::new(bytes::Bytes::from(file.body)));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(format.content_type()));
    if let Some(Ok(v)) = name.map(|name| HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// `DELETE /api/v1/crawls/{id}`.
pub async fn cancel(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = caller(&ctx).await?;
    let crawl = ctx.state.crawls.cancel(identity.user_id(), &id_of(&ctx)).await?;
    let issues = ctx.state.crawls.issue_counts(&crawl.id).await?;
    Ok(ok_json(&CrawlAnswer { ok: true, api_version: audit_core::API_VERSION, crawl: wire_crawl(&crawl, &issues) }))
}

/// `GET /crawls/{id}`: the human report page of a crawl.
pub async fn report(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let answer = report_page(&ctx).await;
    Ok(answer.unwrap_or_else(|e| crate::routes::web::html_error(&ctx, e)))
}

async fn report_page(ctx: &Ctx) -> Result<crate::Response, ApiError> {
    crate::routes::web::flood_guard(ctx)?;
    let table = app::crawl::table::table_query(|name| ctx.query(name))?;
    // A share link decides alone (`app::crawl::share::link_of`): the key is then not read.
    let reader = match app::crawl::share::link_of(ctx.query("share")) {
        Some(token) => ReportReader::Link(token),
        None => ReportReader::Caller(caller(ctx).await?.user_id().cloned()),
    };
    let view = ctx.state.crawls.report_for(reader, &id_of(ctx), table).await?;
    let shared = view.share.is_some();
    let base = crate::routes::web::base_url(ctx);
    // The page grows with the crawl: rendered as the application's work is (in an audit
    // slot, off the async workers).
    let body = ctx.state.app.compute(move |_| pages::crawl::render_crawl_report(&base, &view)).await?;
    let mut resp = crate::routes::web::html(StatusCode::OK, body, crate::routes::web::NO_STORE);
    if shared {
        // Whoever holds the link may read the page; no search engine should list it, and no
        // site it links to should learn the token from a Referer.
        resp.headers_mut().insert("x-robots-tag", HeaderValue::from_static("noindex, nofollow"));
        resp.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    }
    Ok(resp)
}
