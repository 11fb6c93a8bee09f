//! `POST /api/v1/webhooks`, `GET /api/v1/webhooks`, `DELETE /api/v1/webhooks/{id}`,
//! `PATCH /api/v1/webhooks/{id}`, `POST /api/v1/webhooks/{id}/test`,
//! `GET /api/v1/webhooks/{id}/deliveries`: webhook subscriptions of the key's owner
//! (docs/API.md, "Webhooks" and "Managing what a key created").
//!
//! A key with the `webhooks` scope is required (401 without, 403 without the scope).
//! Managing subscriptions consumes no audit quota: it is account administration, like the
//! usage snapshot. A test ping costs 1 unit: it makes the service send a signed request,
//! so the key's quota bounds how many it sends. The signing secret is shown once, in the answer to POST.

use api::{WebhookCreated, WebhookDeleted, WebhookDeliveryList, WebhookList, WebhookTestQueued, WebhookUpdated};
use app::webhooks::wire::{wire_delivery, wire_new, wire_webhook};
use app::{UserId, WebhookId};
use http::StatusCode;

use crate::auth::{authenticate_metered, billed, key_owner, payer, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

async fn owner(ctx: &Ctx) -> Result<UserId, ApiError> {
    key_owner(ctx, app::Scope::Webhooks).await
}

/// The subscription id of the path.
fn path_id(ctx: &Ctx) -> WebhookId {
    WebhookId::from(ctx.param("id").unwrap_or_default())
}

/// `POST /api/v1/webhooks` with `{url, events: [..]}`.
pub async fn create(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let (raw_url, events) = app::webhooks::request::create(ctx.body().await?)?;
    let url = app::webhooks::request::webhook_url(&raw_url)?;
    let webhook = wire_new(ctx.state.app.subscribe(user_id, url, events).await?);
    Ok(json_response(StatusCode::CREATED, &WebhookCreated { ok: true, api_version: audit_core::API_VERSION, webhook }))
}

/// `GET /api/v1/webhooks`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let hooks = ctx.state.app.subscriptions(user_id).await?;
    let webhooks = hooks.iter().map(wire_webhook).collect();
    Ok(ok_json(&WebhookList { ok: true, api_version: audit_core::API_VERSION, webhooks }))
}

/// `DELETE /api/v1/webhooks/{id}`.
pub async fn delete(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = path_id(&ctx);
    // Another owner's id answers exactly as an unknown one (the use case's `not_found`).
    ctx.state.app.unsubscribe(user_id, id.clone()).await?;
    Ok(ok_json(&WebhookDeleted { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
}

/// `PATCH /api/v1/webhooks/{id}` with `{"enabled": bool}`.
pub async fn update(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = path_id(&ctx);
    let enabled = app::webhooks::request::update(ctx.body().await?)?;
    let hook = ctx.state.app.set_subscription_enabled(user_id, id, enabled).await?;
    Ok(ok_json(&WebhookUpdated { ok: true, api_version: audit_core::API_VERSION, webhook: wire_webhook(&hook) }))
}

/// `POST /api/v1/webhooks/{id}/test`.
pub async fn test(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Required, Some(app::Scope::Webhooks)).await?;
    let user_id = identity
        .user_id()
        .cloned()
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `webhooks` scope."))?;
    let id = path_id(&ctx);
    ctx.no_body().await?;
    let payer = payer(&ctx, &identity);
    let queued = billed(&ctx, &payer, ctx.state.app.test_subscription(&payer, user_id, id).await)?;
    Ok(json_response(
        StatusCode::ACCEPTED,
        &WebhookTestQueued {
            ok: true,
            api_version: audit_core::API_VERSION,
            delivery: wire_delivery(&queued.delivery),
        },
    ))
}

/// `GET /api/v1/webhooks/{id}/deliveries`.
pub async fn deliveries(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = path_id(&ctx);
    let log = ctx.state.app.delivery_log(user_id, id).await?;
    Ok(ok_json(&WebhookDeliveryList {
        ok: true,
        api_version: audit_core::API_VERSION,
        deliveries: log.iter().map(wire_delivery).collect(),
    }))
}
