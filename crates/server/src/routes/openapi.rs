//! `GET /openapi.json`: the OpenAPI 3.1 document of every route ([`OPENAPI_JSON`]).

use http::{header, HeaderValue};

use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::JSON_CONTENT_TYPE;

/// The OpenAPI document, kept in `src/openapi.json` so later areas add paths by editing
/// JSON; a test checks it against the routing table and real responses.
pub const OPENAPI_JSON: &str = include_str!("../openapi.json");

/// The document as a value.
pub fn document() -> serde_json::Value {
    serde_json::from_str(OPENAPI_JSON).unwrap_or(serde_json::Value::Null)
}

/// `GET /openapi.json`.
pub fn get(_ctx: Ctx) -> HandlerFuture {
    Box::pin(async {
        let mut resp =
            http::Response::new(http_body_util::Full::new(bytes::Bytes::from_static(OPENAPI_JSON.as_bytes())));
        resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
        Ok::<_, ApiError>(resp)
    })
}
