//! `POST /api/v1/webhooks`, `GET /api/v1/webhooks`, `DELETE /api/v1/webhooks/{id}`,
//! `PATCH /api/v1/webhooks/{id}`, `POST /api/v1/webhooks/{id}/test`,
//! `GET /api/v1/webhooks/{id}/deliveries`: webhook subscriptions of the key's owner
//! (docs/API.md, "Webhooks" and "Managing what a key created").
//!
//! A key with the `webhooks` scope is required (401 without, 403 without the scope).
//! Managing subscriptions consumes no audit quota: it is account administration, like the
//! usage snapshot. The signing secret is shown once, in the answer to POST.

use api::{
    NewWebhook, Webhook, WebhookCreated, WebhookDeleted, WebhookDelivery, WebhookDeliveryList, WebhookList,
    WebhookTestQueued, WebhookUpdated,
};
use http::StatusCode;
use serde_json::{json, Value};

use crate::auth::{authenticate, KeyRule};
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
    let identity = authenticate(ctx, KeyRule::Required, Some("webhooks")).await?;
    identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `webhooks` scope."))
}

/// A subscription as listed.
fn listed(hook: &app::Webhook) -> Webhook {
    Webhook {
        id: hook.id.clone(),
        url: hook.url.clone(),
        events: hook.events.clone(),
        enabled: hook.enabled,
        created_at: app::format_rfc3339(hook.created_at),
    }
}

async fn create_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let body = ctx.json_body().await?;
    let (raw_url, events) = parse_create(&body)?;
    let url = webhook_url(&raw_url)?;
    let hook = match ctx.state.app.subscribe(user_id, url, events).await {
        Ok(hook) => hook,
        Err(app::SubscribeError::TooMany) => {
            return Err(ApiError::invalid_request(format!(
                "An owner may hold at most {MAX_WEBHOOKS_PER_USER} webhook subscriptions; delete one first."
            )))
        }
        Err(app::SubscribeError::App(e)) => return Err(e.into()),
    };
    let Webhook { id, url, events, enabled, created_at } = listed(&hook);
    let webhook = NewWebhook { id, url, events, enabled, created_at, secret: hook.secret };
    Ok(json_response(StatusCode::CREATED, &WebhookCreated { ok: true, api_version: audit_core::API_VERSION, webhook }))
}

async fn list_webhooks(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let hooks = ctx.state.app.subscriptions(user_id).await?;
    let webhooks = hooks.iter().map(listed).collect();
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

/// A delivery as the delivery log lists it.
fn delivery(d: &app::LoggedDelivery) -> WebhookDelivery {
    WebhookDelivery {
        id: d.id.clone(),
        event_id: d.event_id.clone(),
        event: d.event.clone(),
        state: d.state.as_str(),
        attempts: d.attempts,
        last_status_code: d.last_status_code,
        last_error: d.last_error.clone(),
        next_attempt_at: d.next_attempt_at.map(app::format_rfc3339),
        created_at: app::format_rfc3339(d.created_at),
        updated_at: app::format_rfc3339(d.updated_at),
    }
}

async fn update_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    let body = ctx.json_body().await?;
    let enabled = parse_update(&body)?;
    match ctx.state.app.set_subscription_enabled(user_id, id.clone(), enabled).await? {
        Some(hook) => {
            Ok(ok_json(&WebhookUpdated { ok: true, api_version: audit_core::API_VERSION, webhook: listed(&hook) }))
        }
        None => Err(no_such(&id)),
    }
}

async fn test_webhook(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    // No body is needed; one that is sent is read as every POST body is (JSON, at most
    // 1 MiB), and ignored.
    let sends_body = match ctx.headers.get(http::header::CONTENT_LENGTH) {
        Some(len) => len.as_bytes() != b"0",
        None => ctx.headers.contains_key(http::header::TRANSFER_ENCODING),
    };
    if sends_body {
        ctx.json_body().await?;
    }
    match ctx.state.app.test_subscription(user_id, id.clone()).await? {
        Some(queued) => Ok(json_response(
            StatusCode::ACCEPTED,
            &WebhookTestQueued { ok: true, api_version: audit_core::API_VERSION, delivery: delivery(&queued.delivery) },
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
            deliveries: log.iter().map(delivery).collect(),
        })),
        None => Err(no_such(&id)),
    }
}

/// `{enabled: boolean}` (documented as `api::WebhookUpdate`); other fields are ignored.
fn parse_update(body: &Value) -> Result<bool, ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `enabled`."));
    };
    match obj.get("enabled") {
        None | Some(Value::Null) => Err(ApiError::missing_parameter("enabled")),
        Some(Value::Bool(enabled)) => Ok(*enabled),
        Some(_) => Err(ApiError::invalid_request("The field `enabled` must be true or false.")),
    }
}

/// The webhook URL rule of docs/API.md ("Webhooks"): an absolute `http://` or `https://`
/// URL, written with its scheme (nothing is guessed, unlike audit targets), whose host is a
/// dotted DNS name of valid labels (the rule of the badge's `domain`, which also admits
/// `localhost` so that the address guard can judge it) or an address literal, plus the
/// shape rules of every fetched URL (no credentials, at most 2048 bytes). Whether the host
/// may be reached is the address guard's business, not this function's.
fn webhook_url(raw: &str) -> Result<url::Url, ApiError> {
    let invalid = |why: &str| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_url",
            format!(
                "The webhook URL {why}: it must be an absolute http:// or https:// URL whose host is a \
                 DNS name such as hooks.example.com or a public IP address."
            ),
        )
    };
    let text = raw.trim();
    let scheme_len = ["http://", "https://"]
        .iter()
        .find(|prefix| text.get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix)))
        .map(|prefix| prefix.len())
        .ok_or_else(|| invalid("does not start with http:// or https://"))?;
    if text.len() == scheme_len {
        return Err(invalid("has no host"));
    }
    let url = app::validate_url(text).map_err(|e| match e {
        app::FetchError::InvalidUrl(reason) => invalid(&format!("is not valid ({reason})")),
        other => ApiError::from(other),
    })?;
    match url.host() {
        Some(url::Host::Domain(name)) if pages::badge::validate_domain(name).is_some() => Ok(url),
        Some(url::Host::Domain(_)) | None => Err(invalid("has no valid host name")),
        Some(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => Ok(url),
    }
}

/// `{url: string, events: [known event names, at least one]}` (documented as `api::WebhookRequest`).
fn parse_create(body: &Value) -> Result<(String, Vec<String>), ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `url` and `events`."));
    };
    let url = match obj.get("url") {
        None | Some(Value::Null) => return Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => return Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(ApiError::invalid_request("The field `url` must be a string.")),
    };
    let events: Vec<String> =
        match obj.get("events") {
            None | Some(Value::Null) => return Err(ApiError::missing_parameter("events")),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ApiError::invalid_request("Every entry of `events` must be a string."))?,
            Some(_) => return Err(ApiError::invalid_request("The field `events` must be an array of event names.")),
        };
    let allowed = app::WEBHOOK_EVENTS;
    if events.is_empty() {
        return Err(ApiError::invalid_request("The field `events` must name at least one event.")
            .with_details(json!({ "parameter": "events", "allowed": allowed })));
    }
    if let Some(unknown) = events.iter().find(|e| !allowed.contains(&e.as_str())) {
        return Err(ApiError::invalid_request(format!("Unknown event {unknown:?}."))
            .with_details(json!({ "parameter": "events", "allowed": allowed })));
    }
    Ok((url, events))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: Value, expected: Result<usize, &str>) {
        let got = parse_create(&body).map(|(_, e)| e.len()).map_err(|e| e.code);
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn create_bodies() {
        check(json!({"url": "https://h.example/", "events": ["audit.completed"]}), Ok(1));
        check(json!({"url": "https://h.example/", "events": ["monitor.alert", "workflow.completed"]}), Ok(2));
        check(json!({"url": "https://h.example/", "events": ["nope"]}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": []}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": "audit.completed"}), Err("invalid_request"));
        check(json!({"url": "https://h.example/", "events": [1]}), Err("invalid_request"));
        check(json!({"url": "https://h.example/"}), Err("missing_parameter"));
        check(json!({"events": ["audit.completed"]}), Err("missing_parameter"));
        check(json!({"url": " ", "events": ["audit.completed"]}), Err("missing_parameter"));
        check(json!({"url": 5, "events": ["audit.completed"]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
    }

    #[test]
    fn update_bodies() {
        let check = |body: Value, expected: Result<bool, &str>| {
            assert_eq!(parse_update(&body).map_err(|e| e.code), expected, "{body}");
        };
        check(json!({"enabled": false}), Ok(false));
        check(json!({"enabled": true, "other": 1}), Ok(true));
        check(json!({"enabled": "false"}), Err("invalid_request"));
        check(json!({"enabled": null}), Err("missing_parameter"));
        check(json!({}), Err("missing_parameter"));
        check(json!([true]), Err("invalid_request"));
    }

    #[test]
    fn webhook_urls_are_never_guessed() {
        for bad in [
            "..",
            "x",
            "{{7*7}}",
            "hooks.example.com/seo",
            "//hooks.example.com/",
            "http:hooks.example.com",
            "http:/hooks.example.com",
            "http://",
            "https://x/",
            "https://../",
            "https://{{7*7}}/",
            "https://a..b/",
            "https://-a.example/",
            "https://a.123/",
            "https://user:pw@hooks.example.com/",
            "ftp://hooks.example.com/",
            "javascript:alert(1)",
            "mailto:a@b.example",
        ] {
            let err = webhook_url(bad).expect_err(bad);
            assert_eq!((err.status.as_u16(), err.code), (400, "invalid_url"), "{bad}: {err:?}");
            assert!(err.message.contains("http://"), "{}", err.message);
        }
        for (good, normalised) in [
            ("https://hooks.example.com/seo", "https://hooks.example.com/seo"),
            (" HTTPS://Hooks.Example.COM:8443/a?b=1 ", "https://hooks.example.com:8443/a?b=1"),
            ("http://hooks.example.com.", "http://hooks.example.com./"),
            ("http://203.0.113.9/hook", "http://203.0.113.9/hook"),
            ("http://[2001:db8::1]/hook", "http://[2001:db8::1]/hook"),
            ("http://localhost:9/", "http://localhost:9/"),
            ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"),
            ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ] {
            assert_eq!(webhook_url(good).map(|u| u.to_string()).as_deref(), Ok(normalised), "{good}");
        }
    }
}
