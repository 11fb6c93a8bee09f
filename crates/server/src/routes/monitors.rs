//! `GET /api/v1/monitors`, `DELETE /api/v1/monitors/{id}`: the monitors of the key's owner
//! (docs/API.md, "Managing what a key created").
//!
//! A key with the `mcp` scope is required (monitors are made by the agent tools); reading
//! and stopping consume no quota. Another owner's id answers 404 like an unknown one.

use api::{MonitorList, MonitorStopped};
use app::{MonitorId, UserId};

use crate::auth::key_owner;
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// The key owner of a route that needs the `mcp` scope.
pub(crate) async fn mcp_owner(ctx: &Ctx) -> Result<UserId, ApiError> {
    key_owner(ctx, app::Scope::Mcp).await
}

/// `GET /api/v1/monitors`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = mcp_owner(&ctx).await?;
    let monitors = ctx.state.app.owned_monitors(user_id).await?;
    let monitors = monitors.iter().map(app::OwnedMonitor::wire).collect();
    Ok(ok_json(&MonitorList { ok: true, api_version: audit_core::API_VERSION, monitors }))
}

/// `DELETE /api/v1/monitors/{id}`.
pub async fn stop(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = mcp_owner(&ctx).await?;
    let id = MonitorId::from(ctx.param("id").unwrap_or_default());
    ctx.state.app.stop_monitor(user_id, id.clone()).await?;
    Ok(ok_json(&MonitorStopped { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
}
