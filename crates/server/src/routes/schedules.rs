//! `POST /api/v1/crawl-schedules`, `GET /api/v1/crawl-schedules`, `GET .../{id}`,
//! `POST .../{id}/pause`, `POST .../{id}/resume`, `DELETE .../{id}`: scheduled crawls
//! (docs/API.md, "Scheduled crawls"; wire types: `api::schedules`).
//!
//! A key with the `audit` scope is required (a schedule's runs are charged to it); these
//! routes consume no quota. Another owner's id answers 404 like an unknown one.

use api::schedules::{ScheduleAnswer, ScheduleEnded, ScheduleList};
use app::crawl::schedules::wire;
use http::{header, HeaderValue, StatusCode};

use crate::auth::{authenticate, Identity, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

/// `POST /api/v1/crawl-schedules`.
pub fn create(ctx: Ctx) -> HandlerFuture {
    Box::pin(create_schedule(ctx))
}

/// `GET /api/v1/crawl-schedules`.
pub fn list(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_schedules(ctx))
}

/// `GET /api/v1/crawl-schedules/{id}`.
pub fn get(ctx: Ctx) -> HandlerFuture {
    Box::pin(async move {
        let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
        answer(StatusCode::OK, &ctx.state.schedules.get(owner, id).await?)
    })
}

/// `POST /api/v1/crawl-schedules/{id}/pause`.
pub fn pause(ctx: Ctx) -> HandlerFuture {
    Box::pin(async move {
        let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
        no_body(&ctx).await?;
        answer(StatusCode::OK, &ctx.state.schedules.pause(owner, id).await?)
    })
}

/// `POST /api/v1/crawl-schedules/{id}/resume`.
pub fn resume(ctx: Ctx) -> HandlerFuture {
    Box::pin(async move {
        let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
        no_body(&ctx).await?;
        answer(StatusCode::OK, &ctx.state.schedules.resume(owner, id).await?)
    })
}

/// `DELETE /api/v1/crawl-schedules/{id}`.
pub fn end(ctx: Ctx) -> HandlerFuture {
    Box::pin(async move {
        let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
        ctx.state.schedules.end(owner, id.clone()).await?;
        Ok(ok_json(&ScheduleEnded { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
    })
}

/// Pause and resume need no body; one that is sent is read as every POST body is (JSON, at
/// most 1 MiB), and ignored.
async fn no_body(ctx: &Ctx) -> Result<(), ApiError> {
    let sends_body = match ctx.headers.get(http::header::CONTENT_LENGTH) {
        Some(len) => len.as_bytes() != b"0",
        None => ctx.headers.contains_key(http::header::TRANSFER_ENCODING),
    };
    if sends_body {
        ctx.ignored_body().await?;
    }
    Ok(())
}

fn id_of(ctx: &Ctx) -> String {
    ctx.param("id").unwrap_or_default().to_string()
}

/// The caller's key: required, with the `audit` scope.
async fn key(ctx: &Ctx) -> Result<std::sync::Arc<app::KeyRecord>, ApiError> {
    match authenticate(ctx, KeyRule::Required, Some(app::Scope::Audit)).await? {
        Identity::Key(key) => Ok(key),
        Identity::Anonymous { .. } => {
            Err(ApiError::unauthorized("This endpoint needs an API key with the `audit` scope."))
        }
    }
}

async fn owner(ctx: &Ctx) -> Result<String, ApiError> {
    Ok(key(ctx).await?.user_id.clone())
}

fn answer(status: StatusCode, schedule: &app::crawl::stored::CrawlSchedule) -> Result<crate::Response, ApiError> {
    Ok(json_response(
        status,
        &ScheduleAnswer { ok: true, api_version: audit_core::API_VERSION, schedule: wire(schedule) },
    ))
}

async fn create_schedule(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let key = key(&ctx).await?;
    let body = ctx.body::<api::schedules::ScheduleRequest>().await?;
    let input = app::crawl::parse_schedule(body)?;
    let schedule = ctx.state.schedules.create(&key, input).await?;
    let location = format!("/api/v1/crawl-schedules/{}", schedule.id);
    let mut resp = answer(StatusCode::CREATED, &schedule)?;
    if let Ok(v) = HeaderValue::from_str(&location) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

async fn list_schedules(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let schedules = ctx.state.schedules.list(owner).await?;
    Ok(ok_json(&ScheduleList {
        ok: true,
        api_version: audit_core::API_VERSION,
        schedules: schedules.iter().map(wire).collect(),
    }))
}
