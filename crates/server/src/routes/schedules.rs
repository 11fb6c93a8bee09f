//! `POST /api/v1/crawl-schedules`, `GET /api/v1/crawl-schedules`, `GET .../{id}`,
//! `POST .../{id}/pause`, `POST .../{id}/resume`, `DELETE .../{id}`: scheduled crawls
//! (docs/API.md, "Scheduled crawls"; wire types: `api::schedules`).
//!
//! A key with the `audit` scope is required (a schedule's runs are charged to it); these
//! routes consume no quota. Another owner's id answers 404 like an unknown one.

use api::schedules::{ScheduleAnswer, ScheduleEnded, ScheduleList};
use app::crawl::schedules::wire;
use http::{header, HeaderValue, StatusCode};

use crate::auth::{key_owner, required_key};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

/// `GET /api/v1/crawl-schedules/{id}`.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
    answer(StatusCode::OK, &ctx.state.schedules.get(owner, id).await?)
}

/// `POST /api/v1/crawl-schedules/{id}/pause`.
pub async fn pause(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
    ctx.no_body().await?;
    answer(StatusCode::OK, &ctx.state.schedules.pause(owner, id).await?)
}

/// `POST /api/v1/crawl-schedules/{id}/resume`.
pub async fn resume(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
    ctx.no_body().await?;
    answer(StatusCode::OK, &ctx.state.schedules.resume(owner, id).await?)
}

/// `DELETE /api/v1/crawl-schedules/{id}`.
pub async fn end(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let (owner, id) = (owner(&ctx).await?, id_of(&ctx));
    ctx.state.schedules.end(owner, id.clone()).await?;
    Ok(ok_json(&ScheduleEnded { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
}

fn id_of(ctx: &Ctx) -> app::ScheduleId {
    app::ScheduleId::from(ctx.param("id").unwrap_or_default())
}

async fn owner(ctx: &Ctx) -> Result<app::UserId, ApiError> {
    key_owner(ctx, app::Scope::Audit).await
}

fn answer(status: StatusCode, schedule: &app::crawl::stored::CrawlSchedule) -> Result<crate::Response, ApiError> {
    Ok(json_response(
        status,
        &ScheduleAnswer { ok: true, api_version: audit_core::API_VERSION, schedule: wire(schedule) },
    ))
}

/// `POST /api/v1/crawl-schedules`.
pub async fn create(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let key = required_key(&ctx, Some(app::Scope::Audit)).await?;
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

/// `GET /api/v1/crawl-schedules`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let schedules = ctx.state.schedules.list(owner).await?;
    Ok(ok_json(&ScheduleList {
        ok: true,
        api_version: audit_core::API_VERSION,
        schedules: schedules.iter().map(wire).collect(),
    }))
}
