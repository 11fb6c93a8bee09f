//! `GET /api/v1/monitors`, `DELETE /api/v1/monitors/{id}`: the monitors of the key's owner
//! (docs/API.md, "Managing what a key created").
//!
//! A key with the `mcp` scope is required (monitors are made by the agent tools); reading
//! and stopping consume no quota. Another owner's id answers 404 like an unknown one.

use api::{Monitor, MonitorAlert, MonitorList, MonitorStopped};

use crate::auth::{authenticate, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::ok_json;

/// `GET /api/v1/monitors`.
pub fn list(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_monitors(ctx))
}

/// `DELETE /api/v1/monitors/{id}`.
pub fn stop(ctx: Ctx) -> HandlerFuture {
    Box::pin(stop_monitor(ctx))
}

/// The key owner of a route that needs the `mcp` scope.
pub(crate) async fn mcp_owner(ctx: &Ctx) -> Result<String, ApiError> {
    let identity = authenticate(ctx, KeyRule::Required, Some("mcp")).await?;
    identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `mcp` scope."))
}

fn listed(m: &app::OwnedMonitor) -> Monitor {
    use strum::VariantArray as _;
    Monitor {
        id: m.monitor.id.clone(),
        url: m.monitor.url.clone(),
        interval_seconds: m.monitor.interval_s,
        created_at: app::format_rfc3339(m.monitor.created_at),
        last_checked_at: m.last_checked_at.map(app::format_rfc3339),
        next_run_at: app::format_rfc3339(m.monitor.next_run_at),
        rules: app::AlertRule::VARIANTS.iter().map(|r| r.name()).collect(),
        last_alert: m.last_alert.as_ref().map(|a| MonitorAlert {
            id: a.id.clone(),
            rule: a.rule.clone(),
            severity: a.severity.clone(),
            message: a.message.clone(),
            created_at: app::format_rfc3339(a.created_at),
        }),
    }
}

async fn list_monitors(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = mcp_owner(&ctx).await?;
    let monitors = ctx.state.app.owned_monitors(user_id).await?;
    let monitors = monitors.iter().map(listed).collect();
    Ok(ok_json(&MonitorList { ok: true, api_version: audit_core::API_VERSION, monitors }))
}

async fn stop_monitor(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = mcp_owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    if ctx.state.app.stop_monitor(user_id, id.clone()).await? {
        Ok(ok_json(&MonitorStopped { ok: true, api_version: audit_core::API_VERSION, deleted: id }))
    } else {
        Err(ApiError::not_found(format!("No monitor {id}.")))
    }
}
