//! Building an answer whatever the service: a body of a given type with its caching and
//! security headers.

use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body_util::Full;

/// An answer with `status`, `body`, `Content-Type: content_type`, `Cache-Control: cache` and
/// the `headers` given (security headers, for example).
pub fn with_headers(
    status: StatusCode,
    body: String,
    content_type: &'static str,
    cache: &'static str,
    headers: &[(&'static str, &'static str)],
) -> http::Response<Full<Bytes>> {
    let mut resp = http::Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() = status;
    let all = resp.headers_mut();
    all.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    all.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    for (name, value) in headers {
        all.insert(*name, HeaderValue::from_static(value));
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_set() {
        let resp =
            with_headers(StatusCode::NOT_FOUND, "x".into(), "text/plain", "no-store", &[("x-frame-options", "DENY")]);
        assert_eq!(resp.status(), StatusCode::NOT_FOUND);
        assert_eq!(resp.headers()[header::CONTENT_TYPE], "text/plain");
        assert_eq!(resp.headers()[header::CACHE_CONTROL], "no-store");
        assert_eq!(resp.headers()["x-frame-options"], "DENY");
    }
}
