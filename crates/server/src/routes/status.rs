//! `GET /api/status`: health with a real database round trip (docs/API.md, "GET /api/status");
//! `GET /livez` and `GET /readyz` for load balancers (docs/API.md, "Metrics, liveness and
//! readiness").

use api::{Health, Status};
use http::StatusCode;

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::json_response;

/// `GET /api/status` (no key, no quota): 200 `ok` when the database answers a ping,
/// 503 `degraded` when it does not.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let started = std::time::Instant::now();
    let ping = ctx.state.app.ping().await;
    let damaged = ping.as_ref().is_err_and(is_damaged);
    let ping = ping.map_err(ApiError::from);
    let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (status, code, db) = match &ping {
        Ok(_) => ("ok", StatusCode::OK, "up"),
        Err(e) if damaged => {
            tracing::error!(request_id = %ctx.request_id, cause = ?e.cause, "the database file is damaged");
            ("degraded", StatusCode::SERVICE_UNAVAILABLE, "corrupt")
        }
        Err(e) => {
            tracing::error!(request_id = %ctx.request_id, cause = ?e.cause, "database ping failed");
            ("degraded", StatusCode::SERVICE_UNAVAILABLE, "down")
        }
    };
    Ok(json_response(
        code,
        &Status {
            ok: ping.is_ok(),
            api_version: audit_core::API_VERSION,
            status,
            db,
            engine_version: audit_core::ENGINE_VERSION,
            ruleset_version: audit_core::RULESET_VERSION,
            timestamp: crate::now_rfc3339(),
            uptime_s: ctx.state.started.elapsed().as_secs(),
            latency_ms,
        },
    ))
}

/// `GET /livez` (no key, no quota): 200 while the process answers; touches no database.
pub async fn livez(_ctx: Ctx) -> Result<crate::Response, ApiError> {
    Ok(health(StatusCode::OK, "live"))
}

/// `GET /readyz` (no key, no quota): 200 `ready` when the database answers a ping and the
/// service is not shutting down; 503 `draining` from the shutdown signal on, 503 `db_down`
/// when the database does not answer.
pub async fn readyz(ctx: Ctx) -> Result<crate::Response, ApiError> {
    if ctx.state.is_draining() {
        return Ok(health(StatusCode::SERVICE_UNAVAILABLE, "draining"));
    }
    Ok(match ctx.state.app.ping().await {
        Ok(()) => health(StatusCode::OK, "ready"),
        Err(e) if is_damaged(&e) => {
            tracing::error!(request_id = %ctx.request_id, error = %e, "readiness: the database file is damaged");
            health(StatusCode::SERVICE_UNAVAILABLE, "db_corrupt")
        }
        Err(e) => {
            tracing::warn!(request_id = %ctx.request_id, error = %e, "readiness: database ping failed");
            health(StatusCode::SERVICE_UNAVAILABLE, "db_down")
        }
    })
}

/// Whether the ping failed because the database file is damaged, not out of reach.
fn is_damaged(e: &app::AppError) -> bool {
    matches!(e, app::AppError::Store(e) if e.is_damaged())
}

fn health(code: StatusCode, status: &'static str) -> crate::Response {
    json_response(code, &Health { ok: code == StatusCode::OK, api_version: audit_core::API_VERSION, status })
}
