//! `GET /api/v1/usage`: the usage snapshot of the key's owner (docs/API.md, "GET /api/v1/usage").

use api::Usage;

use crate::auth::{authenticate, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// `GET /api/v1/usage` (key required, any scope; consumes no quota).
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate(&ctx, KeyRule::Required, None).await?;
    let Some(key) = identity.key().cloned() else {
        return Err(ApiError::unauthorized("This endpoint needs an API key."));
    };
    let limits = ctx.state.config.rate_limits;
    let facts = ctx.state.app.usage(identity.label(), key.user_id.clone()).await?;
    let counts = &facts.counts;
    // The limiter counts exactly and at once; the store's copy is written behind it and
    // survives restarts. Each may be ahead of the other for a moment: report the larger.
    let this_minute = counts.this_minute.max(u64::from(ctx.state.limiter.used_this_minute(&identity.label())));
    Ok(ok_json(&Usage {
        ok: true,
        api_version: audit_core::API_VERSION,
        user_id: key.user_id,
        tier: key.tier.as_str(),
        rate_limit_per_minute: identity.rate_limit(&limits),
        requests_this_minute: this_minute,
        requests_last_24h: counts.last_24h.max(this_minute),
        // The configured tier limits, not only the built-in defaults, decide.
        api_keys: facts.wire_keys(&limits),
        webhook_subscriptions: facts.webhook_subscriptions,
    }))
}
