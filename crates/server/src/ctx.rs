//! [`Ctx`]: a request as handlers see it (method, URI, headers, the body read within its
//! bounds, path parameters, the request id, the shared state), and the handler types the
//! routing table ([`crate::ROUTES`]) is made of. Routes, identity and the dispatcher all speak
//! in these types; this module imports none of them.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::future::BoxFuture;
use http::{HeaderMap, HeaderValue, Method, Uri};
pub use http_serve::request::{Body, BodyError, BodyReadError, BoxError};

use crate::error::ApiError;
use crate::response::Response;
use crate::state::AppState;

/// What a handler returns.
pub type HandlerFuture = BoxFuture<'static, Result<Response, ApiError>>;
/// A route handler.
pub type Handler = fn(Ctx) -> HandlerFuture;

/// The socket peer of a request, put in its extensions by the server. Requests without it
/// (tests calling [`crate::handle`] directly) count as coming from `0.0.0.0`.
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

/// What the handler leaves for the dispatcher: the identity to log, headers to add.
#[derive(Debug, Default)]
pub struct Outgoing {
    /// `key:<id>` or `ip:<addr>`, once known.
    pub identity: Option<String>,
    /// Headers added to the answer, error or not (rate-limit headers).
    pub headers: HeaderMap,
}

/// A request as handlers see it.
#[derive(Debug)]
pub struct Ctx {
    /// Shared state.
    pub state: AppState,
    /// Request method.
    pub method: Method,
    /// Request URI.
    pub uri: Uri,
    /// Request headers.
    pub headers: HeaderMap,
    /// The body, until a handler takes it ([`Ctx::body()`]). In a mutex only so that
    /// `&Ctx` is `Sync` and handlers can hold it across awaits.
    pub body: Mutex<Option<Body>>,
    /// Socket peer.
    pub peer: SocketAddr,
    /// Values of the `{name}` segments of the path pattern.
    pub params: Vec<(&'static str, String)>,
    /// The request id (`x-request-id`).
    pub request_id: String,
    /// Shared with the dispatcher.
    pub out: Arc<Mutex<Outgoing>>,
}

impl Ctx {
    /// First value of a query parameter, percent-decoded.
    pub fn query(&self, name: &str) -> Option<String> {
        http_serve::request::query_param(&self.uri, name)
    }

    /// Names of all query parameters.
    pub fn query_names(&self) -> Vec<String> {
        http_serve::request::query_names(&self.uri)
    }

    /// A path parameter by name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    /// Adds a header to the answer, error or not.
    pub fn add_header(&self, name: &'static str, value: HeaderValue) {
        self.outgoing().headers.insert(name, value);
    }

    /// Sets the identity named in the log line.
    pub fn set_identity(&self, label: String) {
        self.outgoing().identity = Some(label);
    }

    pub(crate) fn outgoing(&self) -> std::sync::MutexGuard<'_, Outgoing> {
        self.out.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads the body as the request type `T` ([`api::body::parse`]): 415 unless
    /// `Content-Type: application/json`, 413 when over [`crate::MAX_REQUEST_BODY_BYTES`]
    /// (from `Content-Length` before reading, else while reading), 400 `invalid_request`
    /// when not JSON, not an object (or naming a member twice) or not received within
    /// `body_timeout_ms`. A faulty member is the use case's to refuse.
    pub async fn body<T: api::body::JsonBody>(&self) -> Result<T, ApiError> {
        let bytes = self.json_bytes().await?;
        Ok(api::body::parse(&bytes)?)
    }

    /// Reads a body the route does not need, refused as [`Ctx::body()`] refuses when it is not
    /// JSON, and drops it.
    pub async fn ignored_body(&self) -> Result<(), ApiError> {
        let bytes = self.json_bytes().await?;
        Ok(api::body::check_json(&bytes)?)
    }

    /// The body as [`Ctx::body()`] reads it when the request sends one, else `T::default()`:
    /// for a route whose body may be left out.
    pub async fn body_if_sent<T: api::body::JsonBody + Default>(&self) -> Result<T, ApiError> {
        if self.sends_body() {
            self.body().await
        } else {
            Ok(T::default())
        }
    }

    /// For a route that needs no body: one that is sent is read as every body is (JSON, at
    /// most [`crate::MAX_REQUEST_BODY_BYTES`]) and dropped ([`Ctx::ignored_body`]).
    pub async fn no_body(&self) -> Result<(), ApiError> {
        if self.sends_body() {
            self.ignored_body().await?;
        }
        Ok(())
    }

    /// Whether the request announces a body: a `Content-Length` other than 0, or a
    /// `Transfer-Encoding`.
    fn sends_body(&self) -> bool {
        match self.headers.get(http::header::CONTENT_LENGTH) {
            Some(len) => len.as_bytes() != b"0",
            None => self.headers.contains_key(http::header::TRANSFER_ENCODING),
        }
    }

    /// The bytes of a JSON body: 415 unless `Content-Type: application/json`, 413 when
    /// too large, 400 when not received in time, 503 when the budget of bodies is spent.
    async fn json_bytes(&self) -> Result<Bytes, ApiError> {
        if !http_serve::request::is_json(&self.headers) {
            return Err(ApiError::unsupported_media_type());
        }
        match self.body_bytes().await {
            Ok(bytes) => Ok(bytes),
            Err(BodyReadError::TooLarge { limit }) => Err(ApiError::payload_too_large(limit)),
            Err(BodyReadError::Busy { .. }) => Err(body_budget_spent()),
            Err(e) => Err(ApiError::invalid_request(format!("The request body could not be read: {e}."))),
        }
    }

    /// Takes the body and reads it whole: at most [`crate::MAX_REQUEST_BODY_BYTES`] (refused
    /// from `Content-Length` before reading, else while reading), within `body_timeout_ms`.
    /// Every route that reads a body reads it through here, so none can be held open by a
    /// client that announces a body and trickles it or never sends it.
    pub async fn body_bytes(&self) -> Result<Bytes, BodyReadError> {
        let taken = self.body.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some(body) = taken else { return Err(BodyReadError::AlreadyRead) };
        let within = std::time::Duration::from_millis(self.state.config.body_timeout_ms.max(1));
        let read = http_serve::request::read_body(
            body,
            &self.headers,
            crate::MAX_REQUEST_BODY_BYTES,
            within,
            &self.state.bodies,
        )
        .await;
        if let (Err(BodyReadError::TimedOut { .. }), Some(metrics)) = (&read, &self.state.metrics) {
            metrics.connection_closed(telemetry::BODY_TIMEOUT);
        }
        read
    }
}

/// 503 `overloaded` for a body refused because the server holds its budget of bodies being
/// received (`body_budget_mb`).
pub(crate) fn body_budget_spent() -> ApiError {
    ApiError::new(
        app::ErrorCode::Overloaded,
        "The service is receiving too many request bodies at once; retry in a few seconds.",
    )
    .with_header(http::header::RETRY_AFTER, http::HeaderValue::from_static("5"))
}
