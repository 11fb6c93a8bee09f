//! `GET /api/v1/alerts`: the alerts of the key owner's monitors and crawl schedules in one
//! list (docs/API.md, "Alerts"; wire types: `api::alerts`).
//!
//! A key with the `mcp` scope (monitors are made by the agent tools) or the `audit` scope
//! (crawl schedules are made with it) is required; reading consumes no quota.

use api::alerts::AlertList;

use crate::auth::{authenticate, Identity, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// The caller's owner: a key with the `mcp` or the `audit` scope is required.
async fn owner(ctx: &Ctx) -> Result<app::UserId, ApiError> {
    match authenticate(ctx, KeyRule::Required, None).await? {
        Identity::Key(key) if key.has_scope(app::Scope::Mcp) || key.has_scope(app::Scope::Audit) => {
            Ok(key.user_id.clone())
        }
        Identity::Key(_) => {
            Err(ApiError::forbidden("scope", "The API key has neither the `mcp` nor the `audit` scope."))
        }
        Identity::Anonymous { .. } => {
            Err(ApiError::unauthorized("This endpoint needs an API key with the `mcp` or the `audit` scope."))
        }
    }
}

/// `GET /api/v1/alerts`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let request = app::alerts::list_query(|name| ctx.query(name))?;
    let listing = ctx.state.app.list_alerts(owner, request).await?;
    Ok(ok_json(&AlertList {
        ok: true,
        api_version: audit_core::API_VERSION,
        alerts: listing.alerts,
        next_cursor: listing.next_cursor,
    }))
}
