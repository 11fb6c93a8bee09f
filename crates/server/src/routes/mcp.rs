//! `POST /api/mcp` (the agent-tool endpoint, JSON-RPC), `GET`/`DELETE /api/mcp` (405),
//! and the discovery documents `/.well-known/mcp.json` and `/.well-known/agent-card.json`.
//!
//! The HTTP side lives here: DNS-rebinding protection (Host/Origin on a loopback
//! listener), content type, body size, the key verdict. Everything about JSON-RPC and MCP
//! is [`mcp_protocol::handle`]'s; the tools run in [`crate::mcp::registry`]. Every error
//! of this path is a JSON-RPC error body (`id: null` when the request never got parsed),
//! not the REST error body: MCP clients parse JSON-RPC.
//!
//! The route consumes no quota itself; the registry charges one unit per `tools/call`
//! on the shared limiter.

use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body_util::Full;
use mcp_protocol::{Auth, ErrorObject, Id, KeyRejection, McpRequest, INTERNAL_ERROR, INVALID_REQUEST};
use serde_json::Value;

use crate::auth::{anonymous_identity, identify, Identity};
use crate::config::MAX_REQUEST_BODY_BYTES;
use crate::ctx::{BodyReadError, Ctx};
use crate::error::ApiError;
use crate::mcp::discovery::{agent_card, mcp_json};
use crate::mcp::registry::McpRegistry;
use crate::response::{json_response, Response};
use app::quota::KeyRefusal;

/// `POST /api/mcp`.
pub async fn post(ctx: Ctx) -> Result<crate::Response, ApiError> {
    Ok(answer(ctx).await)
}

/// `GET` and `DELETE /api/mcp`: no SSE stream and no sessions, so 405 with `Allow: POST`.
pub async fn not_allowed(_ctx: Ctx) -> Result<crate::Response, ApiError> {
    let mut resp = rpc_error(
        StatusCode::METHOD_NOT_ALLOWED,
        INVALID_REQUEST,
        "this endpoint answers POST only: one JSON-RPC message per request, no SSE stream, no sessions",
    );
    resp.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
    Ok(resp)
}

/// `GET /.well-known/mcp.json`. No quota, but the per-IP flood guard of the public pages
/// (docs/API.md, "Discovery").
pub async fn discovery(ctx: Ctx) -> Result<crate::Response, ApiError> {
    crate::routes::web::flood_guard(&ctx)?;
    Ok(public_json(&mcp_json(&ctx.state.config.base_url)))
}

/// `GET /.well-known/agent-card.json`, flood-guarded like [`discovery`].
pub async fn card(ctx: Ctx) -> Result<crate::Response, ApiError> {
    crate::routes::web::flood_guard(&ctx)?;
    Ok(public_json(&agent_card(&ctx.state.config.base_url)))
}

/// `GET /.well-known/ai-catalog.json`, flood-guarded like [`discovery`].
pub async fn ai_catalog(ctx: Ctx) -> Result<crate::Response, ApiError> {
    crate::routes::web::flood_guard(&ctx)?;
    Ok(public_json(&crate::mcp::discovery::ai_catalog(&ctx.state.config.base_url)))
}

/// A discovery document: readable from any origin (browser-based agents fetch it).
fn public_json(value: &Value) -> Response {
    let mut resp = json_response(StatusCode::OK, value);
    resp.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
    resp
}

/// A JSON-RPC error answer that no request id can be given for.
fn rpc_error(status: StatusCode, code: i32, message: &str) -> Response {
    let error = ErrorObject { code, message: message.to_string(), data: None };
    json_response(status, &mcp_protocol::failure(&Id::Null, &error))
}

async fn answer(ctx: Ctx) -> Response {
    if let Some(refusal) = rebinding_refusal(&ctx) {
        return refusal;
    }
    if !is_json(&ctx) {
        return rpc_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, "Content-Type must be application/json");
    }
    let body = match read_body(&ctx).await {
        Ok(body) => body,
        Err(resp) => return resp,
    };
    let (auth, identity) = match resolve_key(&ctx).await {
        Ok(found) => found,
        Err(e) => {
            tracing::error!(request_id = %ctx.request_id, cause = ?e.cause, "key lookup failed");
            return rpc_error(StatusCode::INTERNAL_SERVER_ERROR, INTERNAL_ERROR, "internal error");
        }
    };
    let headers: Vec<(String, String)> = ctx
        .headers
        .iter()
        .filter_map(|(name, value)| Some((name.as_str().to_string(), value.to_str().ok()?.to_string())))
        .collect();
    let registry = McpRegistry::new(ctx.state.clone(), identity);
    let request = McpRequest { headers: &headers, body: &body, auth: &auth };
    let reply = mcp_protocol::handle(&request, &registry).await;

    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut resp = match &reply.body {
        Some(body) => json_response(status, body),
        None => {
            let mut resp = http::Response::new(Full::new(Bytes::new()));
            *resp.status_mut() = status;
            resp
        }
    };
    for (name, value) in &reply.headers {
        if let (Ok(name), Ok(value)) = (header::HeaderName::try_from(name.as_str()), HeaderValue::from_str(value)) {
            resp.headers_mut().insert(name, value);
        }
    }
    resp
}

/// The key verdict for the protocol layer and the identity quota is charged to. A key
/// that is sent is never silently downgraded to anonymous: unknown is 401, disabled or
/// expired 403, for every method (the protocol layer answers them).
async fn resolve_key(ctx: &Ctx) -> Result<(Auth, Identity), ApiError> {
    let anonymous = anonymous_identity(ctx);
    Ok(match identify(ctx, None).await? {
        Ok(Identity::Key(record)) => (Auth::Key { scopes: record.scopes.clone() }, Identity::Key(record)),
        Ok(identity) => (Auth::Anonymous, identity),
        Err(KeyRefusal::Unknown) => (Auth::Rejected(KeyRejection::Unknown), anonymous),
        Err(KeyRefusal::Expired) => (Auth::Rejected(KeyRejection::Expired), anonymous),
        Err(KeyRefusal::Disabled | KeyRefusal::MissingScope(_)) => (Auth::Rejected(KeyRejection::Disabled), anonymous),
    })
}

fn is_json(ctx: &Ctx) -> bool {
    mcp_protocol::is_json_content_type(ctx.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()))
}

/// The raw body, read by [`Ctx::body_bytes`] (the limits of every body: 413 over
/// [`MAX_REQUEST_BODY_BYTES`], 400 when not received within `body_timeout_ms`), its
/// refusals as JSON-RPC errors.
async fn read_body(ctx: &Ctx) -> Result<Bytes, Response> {
    match ctx.body_bytes().await {
        Ok(bytes) => Ok(bytes),
        Err(BodyReadError::TooLarge { .. }) => Err(rpc_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            INVALID_REQUEST,
            &format!("the request body is larger than {MAX_REQUEST_BODY_BYTES} bytes"),
        )),
        Err(e @ BodyReadError::Busy { .. }) => {
            Err(rpc_error(StatusCode::SERVICE_UNAVAILABLE, INVALID_REQUEST, &format!("the body was refused: {e}")))
        }
        Err(e) => Err(rpc_error(StatusCode::BAD_REQUEST, INVALID_REQUEST, &format!("the body could not be read: {e}"))),
    }
}

/// DNS-rebinding protection: on a loopback listener, a `Host` or `Origin` naming another
/// host means a page elsewhere reached the local server through a rebound name; 403.
fn rebinding_refusal(ctx: &Ctx) -> Option<Response> {
    if !ctx.state.config.listen.ip().is_loopback() {
        return None;
    }
    // The rule of every route (crate::host): a missing `Host`, an absolute-form target
    // or an HTTP/2 `:authority` naming another host are refused as a foreign `Host` is.
    if crate::host::names_this_server(&ctx.uri, &ctx.headers, &ctx.state.config) {
        return None;
    }
    Some(rpc_error(
        StatusCode::FORBIDDEN,
        INVALID_REQUEST,
        "this server listens on loopback and accepts only localhost Host and Origin headers (DNS-rebinding protection)",
    ))
}
