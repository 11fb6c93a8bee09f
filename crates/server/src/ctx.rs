//! [`Ctx`]: a request as handlers see it (method, URI, headers, the body read within its
//! bounds, path parameters, the request id, the shared state), and the handler types the
//! routing table ([`crate::ROUTES`]) is made of. Routes, identity and the dispatcher all speak
//! in these types; this module imports none of them.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::future::BoxFuture;
use http::{HeaderMap, HeaderValue, Method, Uri};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;

use crate::error::ApiError;
use crate::response::Response;
use crate::state::AppState;

/// Error type of request bodies.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// A request body of any origin (a socket, or a test's `Full`).
pub type Body = UnsyncBoxBody<Bytes, BodyError>;

/// A failure while receiving a request body. (A concrete type: with `BoxError` itself the
/// compiler cannot prove the body-reading future `Send`.)
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BodyError(pub String);
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
    /// The body, until a handler takes it ([`Ctx::json_body`]). In a mutex only so that
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
        let q = self.uri.query()?;
        url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
    }

    /// Names of all query parameters.
    pub fn query_names(&self) -> Vec<String> {
        let q = self.uri.query().unwrap_or("");
        url::form_urlencoded::parse(q.as_bytes()).map(|(k, _)| k.into_owned()).collect()
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

    /// Reads the body as a JSON value: 415 unless `Content-Type: application/json`, 413
    /// when over [`crate::MAX_REQUEST_BODY_BYTES`] (from `Content-Length` before reading,
    /// else while reading), 400 `invalid_request` when not JSON or not received within
    /// `body_timeout_ms`.
    pub async fn json_body(&self) -> Result<serde_json::Value, ApiError> {
        let is_json = self
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
        if !is_json {
            return Err(ApiError::unsupported_media_type());
        }
        let bytes = match self.body_bytes().await {
            Ok(bytes) => bytes,
            Err(BodyReadError::TooLarge { limit }) => return Err(ApiError::payload_too_large(limit)),
            Err(e) => return Err(ApiError::invalid_request(format!("The request body could not be read: {e}."))),
        };
        serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::invalid_request(format!("The request body is not valid JSON: {e}.")))
    }

    /// Takes the body and reads it whole: at most [`crate::MAX_REQUEST_BODY_BYTES`] (refused
    /// from `Content-Length` before reading, else while reading), within `body_timeout_ms`.
    /// Every route that reads a body reads it through here, so none can be held open by a
    /// client that announces a body and trickles it or never sends it.
    pub async fn body_bytes(&self) -> Result<Bytes, BodyReadError> {
        let limit = crate::MAX_REQUEST_BODY_BYTES;
        let declared = self
            .headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(BodyReadError::TooLarge { limit });
        }
        let taken = self.body.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some(body) = taken else { return Err(BodyReadError::AlreadyRead) };
        let within = std::time::Duration::from_millis(self.state.config.body_timeout_ms.max(1));
        match tokio::time::timeout(within, read_limited(body, limit)).await {
            Err(_) => {
                if let Some(metrics) = &self.state.metrics {
                    metrics.connection_closed(telemetry::BODY_TIMEOUT);
                }
                Err(BodyReadError::TimedOut { ms: within.as_millis() })
            }
            Ok(Ok(bytes)) => Ok(bytes),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(BodyReadError::TooLarge { limit }),
            Ok(Err(e)) => Err(BodyReadError::Broken(e.to_string())),
        }
    }
}

/// Why [`Ctx::body_bytes`] has no body to give.
#[derive(Debug, thiserror::Error)]
pub enum BodyReadError {
    /// Over the limit (413).
    #[error("the body is larger than {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Not received whole within `body_timeout_ms` (400 `invalid_request`).
    #[error("the body was not received within {ms} ms")]
    TimedOut {
        /// The timeout, in milliseconds.
        ms: u128,
    },
    /// A handler already took it.
    #[error("the body was already read")]
    AlreadyRead,
    /// The connection failed while it was received.
    #[error("{0}")]
    Broken(String),
}

/// Collects at most `limit` bytes of `body`; the limit is enforced frame by frame while
/// reading, so an oversized body is refused before it is all received.
fn read_limited(body: Body, limit: usize) -> BoxFuture<'static, Result<Bytes, BoxError>> {
    Box::pin(async move { Ok(http_body_util::Limited::new(body, limit).collect().await?.to_bytes()) })
}
