//! `GET /api/v1/usage`: the usage snapshot of the key's owner (docs/API.md, "GET /api/v1/usage").

use schemars::JsonSchema;
use serde::Serialize;

use crate::auth::{authenticate, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::ok_json;

/// `GET /api/v1/usage` (key required, any scope; consumes no quota).
pub fn get(ctx: Ctx) -> HandlerFuture {
    Box::pin(usage(ctx))
}

async fn usage(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate(&ctx, KeyRule::Required, None).await?;
    let Some(key) = identity.key().cloned() else {
        return Err(ApiError::unauthorized("This endpoint needs an API key."));
    };
    let limits = ctx.state.config.rate_limits;
    let app::UsageFacts { counts, keys, webhook_subscriptions: webhooks } =
        ctx.state.app.usage(identity.label(), key.user_id.clone()).await?;
    // The limiter counts exactly and at once; the store's copy is written behind it and
    // survives restarts. Each may be ahead of the other for a moment: report the larger.
    let this_minute = counts.this_minute.max(u64::from(ctx.state.limiter.used_this_minute(&identity.label())));
    let api_keys = keys
        .iter()
        .map(|k| ApiKey {
            id: k.id.clone(),
            name: k.name.clone(),
            key_prefix: k.key_prefix.clone(),
            scopes: k.scopes.clone(),
            // The configured tier limits, not only the built-in defaults, decide.
            rate_limit: k.rate_limit_or(limits.for_tier(k.tier)),
            enabled: k.enabled,
            last_used_at: k.last_used_at.map(app::format_rfc3339),
            expires_at: k.expires_at.map(app::format_rfc3339),
            created_at: app::format_rfc3339(k.created_at),
        })
        .collect();
    Ok(ok_json(&Usage {
        ok: true,
        api_version: audit_core::API_VERSION,
        user_id: key.user_id,
        tier: key.tier.as_str(),
        rate_limit_per_minute: identity.rate_limit(&limits),
        requests_this_minute: this_minute,
        requests_last_24h: counts.last_24h.max(this_minute),
        api_keys,
        webhook_subscriptions: webhooks,
    }))
}

/// The usage snapshot of the key's owner.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Usage {
    #[schemars(extend("const" = true))]
    ok: bool,
    #[schemars(extend("const" = "v1"))]
    api_version: &'static str,
    /// The owner of the key.
    #[schemars(extend("format" = "uuid"))]
    user_id: String,
    /// The owner's tier.
    #[schemars(extend("enum" = ["free", "pro"]))]
    tier: &'static str,
    /// Quota units per minute of the key sending the request.
    rate_limit_per_minute: u32,
    /// Units it used in the current minute.
    requests_this_minute: u64,
    /// Units it used in the last 24 hours.
    requests_last_24h: u64,
    /// The owner's keys (never the keys themselves).
    api_keys: Vec<ApiKey>,
    /// The owner's enabled webhook subscriptions.
    webhook_subscriptions: u64,
}

/// An API key of the owner, without its secret.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ApiKey {
    /// UUID.
    #[schemars(extend("format" = "uuid"))]
    id: String,
    /// Human label.
    name: String,
    /// The first characters of the key.
    #[schemars(regex(pattern = r"^sa_[0-9A-Za-z]{7}$"))]
    key_prefix: String,
    /// Granted scopes.
    #[schemars(extend("items" = { "type": "string", "enum": app::SCOPES }))]
    scopes: Vec<String>,
    /// Requests per minute: the key's own limit, else its tier's.
    rate_limit: u32,
    /// Disabled keys are refused (403).
    enabled: bool,
    /// Last successful authentication.
    #[schemars(extend("format" = "date-time"))]
    last_used_at: Option<String>,
    /// Expiry; null never.
    #[schemars(extend("format" = "date-time"))]
    expires_at: Option<String>,
    /// Creation time.
    #[schemars(extend("format" = "date-time"))]
    created_at: String,
}
