//! The routing table and the dispatcher every request goes through.
//!
//! [`ROUTES`] is the one list of (method, path pattern, handler, consumes_quota, doc). The
//! OpenAPI document is generated from it ([`crate::openapi`], with the `api` crate), so a route cannot be added
//! without documenting it. To add an area: write `routes/<area>.rs` with one
//! `async fn(Ctx) -> Result<Response, ApiError>` per route, add rows here (`h!(area::name)`)
//! with their [`Operation`] (`api::ops`), and run `just openapi`.
//!
//! [`handle`] does what every route needs: request id, routing (404, 405 with `Allow`;
//! `HEAD` answered as `GET` without the body, RFC 9110 §9.3.2; the paths of
//! [`OTHER_METHODS_AS`] answering unlisted methods through one of their own rows),
//! panic containment (a panicking handler answers 500 `internal`), the error mapping
//! ([`ApiError`]), rate-limit headers, and one log line per request.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;
use futures_util::FutureExt;
use http::{HeaderValue, Method, StatusCode};
use http_body_util::BodyExt;
use http_serve::router::Miss;

use crate::ctx::{BodyError, BoxError, Ctx, Handler, Outgoing, PeerAddr};
use crate::error::ApiError;
use crate::response::Response;
use crate::state::AppState;
use api::{ops, Operation};

/// One row of the routing table.
#[derive(Debug)]
pub struct Route {
    /// HTTP method.
    pub method: Method,
    /// Path pattern; `{name}` matches one non-empty segment (OpenAPI syntax).
    pub path: &'static str,
    /// The handler.
    pub handler: Handler,
    /// Whether the route consumes quota of the shared rate limiter (it then answers the
    /// `x-ratelimit-*` headers and 429).
    pub consumes_quota: bool,
    /// What the OpenAPI document says about it ([`crate::openapi`]).
    pub doc: &'static Operation,
}

impl Route {
    /// A row of a routing table.
    pub const fn new(
        method: Method,
        path: &'static str,
        handler: Handler,
        consumes_quota: bool,
        doc: &'static Operation,
    ) -> Route {
        Route { method, path, handler, consumes_quota, doc }
    }
}

impl http_serve::router::Row for Route {
    fn method(&self) -> &Method {
        &self.method
    }
    fn path(&self) -> &'static str {
        self.path
    }
}

/// The query parameter of a share link's token (docs/API.md, "Share links"): a credential
/// for one report page, written `REDACTED` in the log as a key is.
const SHARE_PARAMETER: &str = "share";

/// The row's handler: the route's `async fn(Ctx) -> Result<Response, ApiError>` in
/// `routes::<area>`, boxed here once so that no handler writes its own `Box::pin`.
macro_rules! h {
    ($($part:ident)::+) => {
        |ctx| Box::pin(crate::routes::$($part)::+(ctx))
    };
}

/// The route consumes quota ([`Route::consumes_quota`]).
const QUOTA: bool = true;
/// The route consumes no quota.
const FREE: bool = false;

/// Every route of the service: method, path pattern, handler, quota, what the OpenAPI document
/// says about it.
pub static ROUTES: &[Route] = &[
    Route::new(Method::GET, "/api/v1/audit", h!(audit::get), QUOTA, &ops::AUDIT),
    Route::new(Method::POST, "/api/v1/audit/batch", h!(audit::batch), QUOTA, &ops::AUDIT_BATCH),
    // Stored audits read back (docs/API.md, "Stored audits"): reads consume no quota.
    Route::new(Method::GET, "/api/v1/audits", h!(history::list), FREE, &ops::LIST_AUDITS),
    Route::new(Method::GET, "/api/v1/audits/{id}", h!(history::get), FREE, &ops::GET_AUDIT),
    Route::new(Method::GET, "/api/v1/audits/{id}/compare", h!(history::compare), FREE, &api::compare::COMPARE_AUDITS),
    Route::new(Method::GET, "/api/v1/history", h!(history::history), FREE, &ops::HISTORY),
    Route::new(Method::GET, "/api/v1/usage", h!(usage::get), FREE, &ops::USAGE),
    Route::new(Method::POST, "/api/v1/webhooks", h!(webhooks::create), FREE, &ops::CREATE_WEBHOOK),
    Route::new(Method::GET, "/api/v1/webhooks", h!(webhooks::list), FREE, &ops::LIST_WEBHOOKS),
    Route::new(Method::DELETE, "/api/v1/webhooks/{id}", h!(webhooks::delete), FREE, &ops::DELETE_WEBHOOK),
    // What a key created, listed and ended (docs/API.md, "Managing what a key created").
    Route::new(Method::PATCH, "/api/v1/webhooks/{id}", h!(webhooks::update), FREE, &ops::UPDATE_WEBHOOK),
    // A test ping sends a signed request: 1 unit, so the quota bounds them.
    Route::new(Method::POST, "/api/v1/webhooks/{id}/test", h!(webhooks::test), QUOTA, &ops::TEST_WEBHOOK),
    Route::new(
        Method::GET,
        "/api/v1/webhooks/{id}/deliveries",
        h!(webhooks::deliveries),
        FREE,
        &ops::WEBHOOK_DELIVERIES,
    ),
    Route::new(Method::GET, "/api/v1/monitors", h!(monitors::list), FREE, &ops::LIST_MONITORS),
    // The alerts of the owner's monitors and crawl schedules (docs/API.md, "Alerts").
    Route::new(Method::GET, "/api/v1/alerts", h!(alerts::list), FREE, &api::alerts::LIST_ALERTS),
    Route::new(Method::DELETE, "/api/v1/monitors/{id}", h!(monitors::stop), FREE, &ops::STOP_MONITOR),
    Route::new(Method::GET, "/api/v1/workflows", h!(workflows::list), FREE, &ops::LIST_WORKFLOWS),
    // Site crawls (docs/API.md, "Site crawl"): starting one costs 1 unit, reading is free.
    Route::new(Method::POST, "/api/v1/crawls", h!(crawls::create), QUOTA, &api::crawls::CREATE_CRAWL),
    Route::new(Method::GET, "/api/v1/crawls", h!(crawls::list), FREE, &api::crawls::LIST_CRAWLS),
    Route::new(Method::GET, "/api/v1/crawls/{id}", h!(crawls::get), FREE, &api::crawls::GET_CRAWL),
    Route::new(Method::DELETE, "/api/v1/crawls/{id}", h!(crawls::cancel), FREE, &api::crawls::CANCEL_CRAWL),
    Route::new(Method::GET, "/api/v1/crawls/{id}/pages", h!(crawls::pages), FREE, &api::crawls::CRAWL_PAGES),
    Route::new(Method::GET, "/api/v1/crawls/{id}/compare", h!(crawls::compare), FREE, &api::crawls::COMPARE_CRAWLS),
    Route::new(Method::GET, "/api/v1/crawls/{id}/issues/{rule_id}", h!(crawls::issue), FREE, &api::crawls::CRAWL_ISSUE),
    Route::new(Method::GET, "/api/v1/crawls/{id}/export", h!(crawls::export), FREE, &api::crawls::EXPORT_CRAWL),
    Route::new(Method::GET, "/crawls/{id}", h!(crawls::report), FREE, &api::crawls::CRAWL_REPORT),
    // Scheduled crawls (docs/API.md, "Scheduled crawls"): each run is charged when it starts.
    Route::new(Method::POST, "/api/v1/crawl-schedules", h!(schedules::create), FREE, &api::schedules::CREATE_SCHEDULE),
    Route::new(Method::GET, "/api/v1/crawl-schedules", h!(schedules::list), FREE, &api::schedules::LIST_SCHEDULES),
    Route::new(Method::GET, "/api/v1/crawl-schedules/{id}", h!(schedules::get), FREE, &api::schedules::GET_SCHEDULE),
    Route::new(Method::DELETE, "/api/v1/crawl-schedules/{id}", h!(schedules::end), FREE, &api::schedules::END_SCHEDULE),
    Route::new(
        Method::POST,
        "/api/v1/crawl-schedules/{id}/pause",
        h!(schedules::pause),
        FREE,
        &api::schedules::PAUSE_SCHEDULE,
    ),
    Route::new(
        Method::POST,
        "/api/v1/crawl-schedules/{id}/resume",
        h!(schedules::resume),
        FREE,
        &api::schedules::RESUME_SCHEDULE,
    ),
    // Share links of a crawl's report (docs/API.md, "Share links"): a key's own, free.
    Route::new(
        Method::POST,
        "/api/v1/crawls/{id}/shares",
        h!(crawl_shares::create),
        FREE,
        &api::crawl_shares::CREATE_CRAWL_SHARE,
    ),
    Route::new(
        Method::GET,
        "/api/v1/crawls/{id}/shares",
        h!(crawl_shares::list),
        FREE,
        &api::crawl_shares::LIST_CRAWL_SHARES,
    ),
    Route::new(
        Method::DELETE,
        "/api/v1/crawls/{id}/shares/{link}",
        h!(crawl_shares::revoke),
        FREE,
        &api::crawl_shares::REVOKE_CRAWL_SHARE,
    ),
    Route::new(Method::GET, "/api/status", h!(status::get), FREE, &ops::STATUS),
    // For load balancers and orchestrators (docs/API.md, "Metrics, liveness and readiness").
    Route::new(Method::GET, "/livez", h!(status::livez), FREE, &ops::LIVEZ),
    Route::new(Method::GET, "/readyz", h!(status::readyz), FREE, &ops::READYZ),
    Route::new(Method::POST, "/api/content-gap", h!(content::content_gap), QUOTA, &ops::CONTENT_GAP),
    Route::new(Method::POST, "/api/auto-fix-batch", h!(content::auto_fix_batch), QUOTA, &ops::AUTO_FIX_BATCH),
    Route::new(Method::POST, "/api/ai-readiness", h!(ai::readiness), QUOTA, &ops::AI_READINESS),
    Route::new(Method::POST, "/api/ai-visibility-scan", h!(ai::scan), QUOTA, &ops::AI_VISIBILITY_SCAN),
    Route::new(Method::POST, "/api/geo-check", h!(ai::geo), QUOTA, &ops::GEO_CHECK),
    // The agent-tool endpoint charges one unit per tools/call itself (mcp::registry).
    Route::new(Method::POST, "/api/mcp", h!(mcp::post), FREE, &ops::MCP),
    Route::new(Method::GET, "/api/mcp", h!(mcp::not_allowed), FREE, &ops::MCP_GET),
    Route::new(Method::DELETE, "/api/mcp", h!(mcp::not_allowed), FREE, &ops::MCP_DELETE),
    Route::new(Method::GET, "/.well-known/mcp.json", h!(mcp::discovery), FREE, &ops::MCP_DISCOVERY),
    Route::new(Method::GET, "/.well-known/agent-card.json", h!(mcp::card), FREE, &ops::AGENT_CARD),
    Route::new(Method::GET, "/.well-known/ai-catalog.json", h!(mcp::ai_catalog), FREE, &ops::AI_CATALOG),
    Route::new(Method::GET, "/openapi.json", h!(openapi::get), FREE, &ops::OPENAPI),
    Route::new(Method::GET, "/api/widget", h!(web::widget), FREE, &ops::WIDGET),
    Route::new(Method::GET, "/widget.js", h!(web::widget_js), FREE, &ops::WIDGET_SCRIPT),
    Route::new(Method::GET, "/report/{domain}", h!(web::report), FREE, &ops::REPORT),
    Route::new(Method::GET, "/report", h!(web::report_url), QUOTA, &ops::REPORT_FOR_URL),
    Route::new(Method::GET, "/bot", h!(bot::get), FREE, &ops::BOT_PAGE),
    Route::new(Method::GET, "/", h!(web::landing), FREE, &ops::LANDING),
];

/// Paths whose methods without a row of their own are answered by the row of another method instead
/// of the router's REST 405: `/api/mcp` answers JSON-RPC errors only (docs/API.md, "Conventions of
/// every endpoint"), so `PUT`, `PATCH`, `OPTIONS`, ... get what `GET` and `DELETE` get (405,
/// `Allow: POST`, a JSON-RPC error body).
pub static OTHER_METHODS_AS: &[(&str, Method)] = &[("/api/mcp", Method::GET)];

/// A matched route and the values of its `{name}` path segments.
pub type RouteMatch = http_serve::router::Match<Route>;

/// Finds the route of `method` and `path`: the route and its path parameters, or the 404 /
/// 405 answer.
pub fn route(method: &Method, path: &str) -> Result<RouteMatch, ApiError> {
    route_in(ROUTES, method, path)
}

/// [`route`] over another table ([`http_serve::router::find`]: `HEAD` without a row of its
/// own takes the `GET` row of the path, and the dispatcher then drops the body; a 405 names
/// `HEAD` wherever `GET` is allowed).
pub fn route_in(table: &'static [Route], method: &Method, path: &str) -> Result<RouteMatch, ApiError> {
    http_serve::router::find(table, method, path, OTHER_METHODS_AS).map_err(|miss| match miss {
        Miss::NotFound => ApiError::not_found(format!("No route matches {path}.")),
        Miss::MethodNotAllowed(allowed) => ApiError::method_not_allowed(&allowed),
    })
}

/// Handles one request: the whole service as a function, callable without a socket.
pub async fn handle<B>(state: AppState, req: http::Request<B>) -> Response
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    handle_with(ROUTES, state, req).await
}

/// [`handle`] with another routing table (tests of the dispatcher itself).
pub async fn handle_with<B>(table: &'static [Route], state: AppState, req: http::Request<B>) -> Response
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let started = Instant::now();
    let (parts, body) = req.into_parts();
    let request_id = http_serve::request::request_id(&parts.headers);
    let peer =
        parts.extensions.get::<PeerAddr>().map_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0), |p| p.0);
    let method = parts.method.clone();
    let head = method == Method::HEAD;
    let logged_path = http_serve::request::redact(&parts.uri, &[crate::API_KEY_HEADER, SHARE_PARAMETER]);
    let out = Arc::new(Mutex::new(Outgoing::default()));
    let metrics = state.metrics.clone();
    // The metrics' route label: the template, never the path (crate::metrics).
    let mut template = telemetry::UNMATCHED_ROUTE;

    // A loopback listener answers only requests that name it (DNS-rebinding protection,
    // docs/SECURITY.md); `/api/mcp` refuses the same requests itself, in JSON-RPC.
    let foreign = parts.extensions.get::<crate::host::PublicListener>().is_some()
        && state.config.listen.ip().is_loopback()
        && parts.uri.path() != "/api/mcp"
        && !crate::host::names_this_server(&parts.uri, &parts.headers, &state.config);
    let result = match route_in(table, &parts.method, parts.uri.path()) {
        _ if foreign => Err(ApiError::forbidden(
            "host",
            "This service listens on loopback and answers only requests addressed to localhost, 127.0.0.1, [::1] or the host of its base_url (DNS-rebinding protection).",
        )),
        Err(e) => Err(e),
        Ok((route, params)) => {
            template = route.path;
            let ctx = Ctx {
                state,
                method: parts.method,
                uri: parts.uri,
                headers: parts.headers,
                body: Mutex::new(Some(body.map_err(|e| BodyError(e.into().to_string())).boxed_unsync())),
                peer,
                params,
                request_id: request_id.clone(),
                out: out.clone(),
            };
            let handler = route.handler;
            match std::panic::AssertUnwindSafe(async move { handler(ctx).await }).catch_unwind().await {
                Ok(result) => result,
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "non-string panic".to_string());
                    Err(ApiError::internal(format!("handler panicked: {what}")))
                }
            }
        }
    };

    let mut resp = match result {
        Ok(resp) => resp,
        Err(e) => {
            match &e.cause {
                Some(cause) if e.code == app::ErrorCode::Internal => {
                    tracing::error!(request_id = %request_id, cause = %cause, code = e.code.as_str(), "request failed")
                }
                // A target's failure: the libraries' cause chain, for the operator.
                Some(cause) => {
                    tracing::info!(request_id = %request_id, cause = %cause, code = e.code.as_str(), "request failed")
                }
                None => {}
            }
            // A 500 says nothing of its cause, so the one thing a client can bring to the
            // operator is the id the cause was logged with: the body carries it too, for
            // clients that keep bodies and drop headers.
            let e = if e.code == app::ErrorCode::Internal { e.with_request_id(&request_id) } else { e };
            e.into_response()
        }
    };
    let out = std::mem::take(&mut *out.lock().unwrap_or_else(|p| p.into_inner()));
    for (name, value) in out.headers.iter() {
        resp.headers_mut().entry(name).or_insert_with(|| value.clone());
    }
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        resp.headers_mut().insert("x-request-id", v);
    }
    // No answer of the service may be sniffed into another type (a JSON error echoing
    // input rendered as HTML).
    resp.headers_mut().entry(http::header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    if head {
        http_serve::router::without_body(&mut resp);
    }
    let status = resp.status();
    let identity = out.identity.unwrap_or_else(|| format!("ip:{}", peer.ip()));
    let took = started.elapsed();
    if let Some(metrics) = &metrics {
        metrics.http_request(template, &method, status, took);
    }
    let ms = took.as_secs_f64() * 1000.0;
    if status == StatusCode::INTERNAL_SERVER_ERROR {
        tracing::warn!(target: "seo_audit::request", request_id = %request_id, %method, path = %logged_path, status = status.as_u16(), ms, identity = %identity, "request");
    } else {
        tracing::info!(target: "seo_audit::request", request_id = %request_id, %method, path = %logged_path, status = status.as_u16(), ms, identity = %identity, "request");
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_route(method: Method, path: &str, expected: Result<&str, u16>) {
        let got = route(&method, path).map(|(r, _)| r.path).map_err(|e| e.status.as_u16());
        assert_eq!(got, expected, "{method} {path}");
    }

    #[test]
    fn routing() {
        check_route(Method::GET, "/api/v1/audit", Ok("/api/v1/audit"));
        check_route(Method::POST, "/api/v1/audit/batch", Ok("/api/v1/audit/batch"));
        check_route(Method::POST, "/api/v1/audit", Err(405));
        check_route(Method::GET, "/api/v1/audit/batch", Err(405));
        check_route(Method::GET, "/api/v1/audit/", Err(404));
        check_route(Method::GET, "/nope", Err(404));
        check_route(Method::GET, "/", Ok("/"));
        check_route(Method::POST, "/", Err(405));
        // HEAD takes the GET row; a path without GET has no HEAD either.
        check_route(Method::HEAD, "/api/status", Ok("/api/status"));
        check_route(Method::HEAD, "/report/{domain}".replace("{domain}", "a.example").as_str(), Ok("/report/{domain}"));
        check_route(Method::HEAD, "/api/v1/audit/batch", Err(405));
        check_route(Method::HEAD, "/nope", Err(404));
        // Unlisted methods on /api/mcp reach its GET row (JSON-RPC 405); elsewhere 405.
        for m in [Method::PUT, Method::PATCH, Method::OPTIONS, Method::HEAD] {
            check_route(m, "/api/mcp", Ok("/api/mcp"));
        }
        let put = route(&Method::PUT, "/api/mcp").map(|(r, _)| r.method.clone()).map_err(|e| e.status);
        assert_eq!(put, Ok(Method::GET));
        check_route(Method::PUT, "/api/status", Err(405));
        check_route(Method::GET, "/bot", Ok("/bot"));
    }

    fn allow_of(method: Method, path: &str) -> String {
        let e = route(&method, path).expect_err("a 405");
        e.headers.iter().find(|(n, _)| n == http::header::ALLOW).map(|(_, v)| v.to_str().unwrap().to_string()).unwrap()
    }

    #[test]
    fn allow_lists_head_with_get() {
        assert_eq!(allow_of(Method::POST, "/api/v1/audit"), "GET, HEAD");
        assert_eq!(allow_of(Method::DELETE, "/api/v1/webhooks"), "POST, GET, HEAD");
        assert_eq!(allow_of(Method::GET, "/api/v1/audit/batch"), "POST");
        assert_eq!(allow_of(Method::HEAD, "/api/v1/webhooks/w1"), "DELETE, PATCH");
    }
}
