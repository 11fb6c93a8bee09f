//! The seo-audit HTTP service: routing, keys, limits and the error model around the
//! engines.
//!
//! - [`serve`] binds the configured address and returns a running [`Server`] (its real
//!   address, a [`ShutdownHandle`]); [`shutdown_signal`] resolves on SIGINT/SIGTERM.
//! - [`AppState`] is what every handler shares: the [`app::App`] and its engines (badge
//!   queue, geo-check, webhook dispatcher, monitors, workflows), the one [`Limiter`] and the
//!   [`Config`]; [`serve`] starts the engines.
//! - [`handle`] is the whole service as a function of a request (tests call it without a
//!   socket); [`ROUTES`] is the one routing table (method, path pattern, handler,
//!   consumes_quota, doc), from which [`openapi`] generates the OpenAPI document ([`OPENAPI_JSON`]).
//! - `http_serve` bounds connections (caps in all and per client IP, a deadline for the
//!   first request head, an idle timeout, the open-file limit, backoff on failed accepts);
//!   [`serve`] maps the [`Config`] to its limits and hands it [`handle`].
//! - [`ApiError`] is the single mapping of failures to status, code and JSON body.
//! - [`authenticate`] resolves the identity (key or client IP); the use cases charge its
//!   quota themselves (`app::quota::Payer`), and the routes write the charge as the
//!   `x-ratelimit-*` headers.
//! - [`pipeline`] is the audit path shared with the command line and agent tools.
//! - the `telemetry` crate keeps the Prometheus metrics; [`serve`] serves them, `/livez` and `/readyz`
//!   on the `metrics_listen` listener (`scrape.rs`).
//!
//! Adding an area: write `routes/<area>.rs` with one `async fn(Ctx) -> Result<Response,
//! ApiError>` per route, add rows to [`ROUTES`] with their `api::Operation` (`api::ops`), and
//! run `just openapi`.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let config = server::Config { listen: "127.0.0.1:0".parse()?, ..server::Config::default() };
//! let server = server::serve(config).await?;
//! println!("listening on http://{}", server.local_addr());
//! server::shutdown_signal().await;
//! server.shutdown().await; // stop accepting, finish requests in flight
//! # Ok(())
//! # }
//! ```
//!
//! Without a socket:
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let config = server::Config { data: dir.path().to_path_buf(), ..server::Config::default() };
//! let state = server::AppState::new(config)?;
//! let req = http::Request::get("/api/status").body(http_body_util::Empty::<bytes::Bytes>::new())?;
//! let resp = server::handle(state, req).await;
//! assert_eq!(resp.status(), 200);
//! assert!(resp.headers().contains_key("x-request-id"));
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod auth;
mod ctx;
mod error;
mod host;
pub mod mcp;
pub mod openapi;
mod response;
mod router;
mod routes;
mod scrape;
mod serve;
mod state;

// The settings are the application's (`app::config`); `crate::config` names them here too.
use app::config;
pub use app::quota::{Decision, Limiter};
pub use app::{AuditSlots, Ticket};
pub use auth::{
    anonymous_identity, anonymous_network, authenticate, client_ip, presented_key, Identity, KeyRule, API_KEY_HEADER,
    DEFAULT_ANONYMOUS_IPV6_PREFIX,
};
pub use config::{
    Config, FetchSettings, GeoSettings, MaxPages, RateLimits, BATCH_CONCURRENCY, DEFAULT_ANALYSIS_CPU, MAX_BATCH_URLS,
    MAX_REQUEST_BODY_BYTES,
};
pub use ctx::{Body, BodyError, BodyReadError, BoxError, Ctx, Handler, HandlerFuture, PeerAddr};
pub use error::{ApiError, ErrorBody, ErrorDetail, ERROR_CODES};
pub use response::{json_response, ok_json, Response, JSON_CONTENT_TYPE};
pub use router::{handle, handle_with, route, route_in, Route, RouteMatch, ROUTES};
pub use routes::openapi::{document as openapi_document, OPENAPI_JSON};
pub use serve::{serve, serve_state, shutdown_signal, ServeError, Server, ShutdownHandle};
pub use state::{AppState, StateError};

/// The current time as RFC 3339 UTC with milliseconds (`scanned_at`, timestamps on the wire).
pub fn now_rfc3339() -> String {
    app::now_rfc3339()
}
