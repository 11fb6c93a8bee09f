//! Response building: every JSON answer goes through [`json_response`], so every one
//! carries `Content-Type: application/json; charset=utf-8`.

use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body_util::Full;

/// The response type of every route.
pub type Response = http::Response<Full<Bytes>>;

/// Content type of every JSON answer (docs/API.md).
pub const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// A JSON response with the given status.
pub fn json_response(status: StatusCode, value: &impl serde::Serialize) -> Response {
    // Serialising our own plain-data types cannot fail; the fallback keeps the promise of
    // a JSON body anyway.
    let body = serde_json::to_vec(value).unwrap_or_else(|_| {
        br#"{"ok":false,"api_version":"v1","error":{"code":"internal","message":"The response could not be encoded."}}"#
            .to_vec()
    });
    let mut resp = http::Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    resp
}

/// A 200 response of JSON already serialised (`body` is sent as it is).
pub fn ok_json_text(body: String) -> Response {
    let mut resp = http::Response::new(Full::new(Bytes::from(body)));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    resp
}

/// A 200 JSON response.
pub fn ok_json(value: &impl serde::Serialize) -> Response {
    json_response(StatusCode::OK, value)
}
