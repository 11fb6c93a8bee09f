//! `POST /api/v1/webhooks`, `GET /api/v1/webhooks`, `DELETE /api/v1/webhooks/{id}`,
//! `PATCH /api/v1/webhooks/{id}`, `POST /api/v1/webhooks/{id}/test`,
//! `GET /api/v1/webhooks/{id}/deliveries`: webhook subscriptions of the key's owner
//! (docs/API.md, "Webhooks" and "Managing what a key created").
//!
//! A key with the `webhooks` scope is required (401 without, 403 without the scope).
//! Managing subscriptions consumes no audit quota: it is account administration, like the
//! usage snapshot. A test ping costs 1 unit: it makes the service send a signed request,
//! so the key's quota bounds how many it sends. The signing secret is shown once, in the answer to POST.

use api::{
    NewWebhook, Webhook, WebhookCreated, WebhookDeleted, WebhookDeliveryList, WebhookList, WebhookTestQueued,
    WebhookUpdated,
};
use app::webhooks::wire::{wire_delivery, wire_webhook};
use http::StatusCode;

use crate::auth::{authenticate, authenticate_metered, billed, payer, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

pub use app::MAX_WEBHOOKS_PER_USER;

/// `POST /api/v1/webhooks` with `{url, events: [..]}`.
pub fn create(ctx: Ctx) -> HandlerFuture {
    Box::pin(create_webhook(ctx))
}

/// `GET /api/v1/webhooks`.
pub fn list(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_webhooks(ctx))
}

/// `DELETE /api/v1/webhooks/{id}`.
pub fn delete(ctx: Ctx) -> HandlerFuture {
    Box::pin(delete_webhook(ctx))
}

async fn owner(ctx: &Ctx) -> Result<String, ApiError> {
    let identity = authenticate(ctx, KeyRule::Required, Some(app::Scope::Webhooks)).await?;
    identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `webhooks` scope."))
}

async fn create_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let (raw_url, events) = app::webhooks::request::create(ctx.body().await?)?;
    let url = app::webhooks::request::webhook_url(&raw_url)?;
    let hook = match ctx.state.app.subscribe(user_id, url, events).await {
        Ok(hook) => hook,
        Err(app::SubscribeError::TooMany) => {
            return Err(ApiError::invalid_request(format!(
                "An owner may hold at most {MAX_WEBHOOKS_PER_USER} webhook subscriptions; delete one first."
            )))
        }
        Err(app::SubscribeError::App(e)) => return Err(e.into()),
    };
    let Webhook { id, url, events, enabled, created_at } = wire_webhook(&hook);
    let webhook = NewWebhook { id, url, events, enabled, created_at, secret: hook.secret };
    Ok(json_response(StatusCode::CREATED, &WebhookCreated { ok: true, api_version: audit_core::API_VERSION, webhook }))
}

async fn list_webhooks(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let hooks = ctx.state.app.subscriptions(user_id).await?;
    let webhooks = hooks.iter().map(wire_webhook).collect();
    Ok(ok_json(&WebhookList { ok: true, api_version: audit_core::API_VERSION, webhooks }))
}

async fn delete_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    if ctx.state.app.unsubscribe(user_id, id.clone()).await? {
        Ok(ok_json(&WebhookDeleted { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
    } else {
        // Another owner's id answers exactly as an unknown one.
        Err(ApiError::not_found(format!("No webhook subscription {id}.")))
    }
}

/// `PATCH /api/v1/webhooks/{id}` with `{"enabled": bool}`.
pub fn update(ctx: Ctx) -> HandlerFuture {
    Box::pin(update_webhook(ctx))
}

/// `POST /api/v1/webhooks/{id}/test`.
pub fn test(ctx: Ctx) -> HandlerFuture {
    Box::pin(test_webhook(ctx))
}

/// `GET /api/v1/webhooks/{id}/deliveries`.
pub fn deliveries(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_deliveries(ctx))
}

fn no_such(id: &str) -> ApiError {
    // Another owner's id answers exactly as an unknown one.
    ApiError::not_found(format!("No webhook subscription {id}."))
}

async fn update_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    let enabled = app::webhooks::request::update(ctx.body().await?)?;
    match ctx.state.app.set_subscription_enabled(user_id, id.clone(), enabled).await? {
        Some(hook) => Ok(ok_json(&WebhookUpdated {
            ok: true,
            api_version: audit_core::API_VERSION,
            webhook: wire_webhook(&hook),
        })),
        None => Err(no_such(&id)),
    }
}

async fn test_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Required, Some(app::Scope::Webhooks)).await?;
    let user_id = identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `webhooks` scope."))?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    // No body is needed; one that is sent is read as every POST body is (JSON, at most
    // 1 MiB), and ignored.
    let sends_body = match ctx.headers.get(http::header::CONTENT_LENGTH) {
        Some(len) => len.as_bytes() != b"0",
        None => ctx.headers.contains_key(http::header::TRANSFER_ENCODING),
    };
    if sends_body {
        ctx.ignored_body().await?;
    }
    let payer = payer(&ctx, &identity);
    match billed(&ctx, &payer, ctx.state.app.test_subscription(&payer, user_id, id.clone()).await)? {
        Some(queued) => Ok(json_response(
            StatusCode::ACCEPTED,
            &WebhookTestQueued {
                ok: true,
                api_version: audit_core::API_VERSION,
                delivery: wire_delivery(&queued.delivery),
            },
        )),
        None => Err(no_such(&id)),
    }
}

async fn list_deliveries(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    match ctx.state.app.delivery_log(user_id, id.clone()).await? {
        Some(log) => Ok(ok_json(&WebhookDeliveryList {
            ok: true,
            api_version: audit_core::API_VERSION,
            deliveries: log.iter().map(wire_delivery).collect(),
        })),
        None => Err(no_such(&id)),
    }
}
