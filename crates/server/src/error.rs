//! The one mapping from failures to HTTP: [`ApiError`] (status, code, message, details)
//! and its JSON body `{"ok": false, "api_version": "v1", "error": {...}}` (docs/API.md,
//! "Conventions of every endpoint").

pub use api::{ErrorBody, ErrorDetail, ERROR_CODES};
use app::ErrorCode;
use http::{HeaderValue, StatusCode};
use serde_json::{json, Value};

use crate::response::{json_response, Response};

/// An error answer of the REST API.
///
/// Handlers return it and the dispatcher turns it into the response, so every route
/// speaks the same error model. `internal` errors carry a generic message; the cause is
/// logged once with the request id and never sent.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable snake_case error code; docs/API.md lists each endpoint's.
    pub code: ErrorCode,
    /// One human sentence.
    pub message: String,
    /// Optional machine-readable details (`{"parameter": "url"}`).
    pub details: Option<Box<Value>>,
    /// Extra headers of this answer (`Allow`, `Retry-After`).
    pub headers: Vec<(http::HeaderName, HeaderValue)>,
    /// Cause of an `internal` error, for the log only.
    pub cause: Option<String>,
}

impl ApiError {
    /// An error with a code and message; its status is the code's ([`status_of`]).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: status_of(code),
            code,
            message: message.into(),
            details: None,
            headers: Vec::new(),
            cause: None,
        }
    }

    /// Adds machine-readable details.
    pub fn with_details(mut self, details: Value) -> ApiError {
        self.details = Some(Box::new(details));
        self
    }

    /// Adds a header to the answer.
    pub fn with_header(mut self, name: http::HeaderName, value: HeaderValue) -> ApiError {
        self.headers.push((name, value));
        self
    }

    /// 400 `invalid_request`.
    pub fn invalid_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::InvalidRequest, message)
    }

    /// 400 `missing_parameter` naming the parameter in `details.parameter`.
    pub fn missing_parameter(name: &str) -> ApiError {
        app::Refusal::missing_parameter(name).into()
    }

    /// 401 `unauthorized`.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Unauthorized, message)
    }

    /// 403 `forbidden` with `details.reason` (`disabled`, `expired`, `scope`).
    pub fn forbidden(reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Forbidden, message).with_details(json!({ "reason": reason }))
    }

    /// 404 `not_found`.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::NotFound, message)
    }

    /// 405 `method_not_allowed` with the `Allow` header.
    pub fn method_not_allowed(allow: &[&str]) -> ApiError {
        let allow = allow.join(", ");
        let value = HeaderValue::from_str(&allow).unwrap_or_else(|_| HeaderValue::from_static("GET"));
        ApiError::new(ErrorCode::MethodNotAllowed, format!("This route answers only {allow}."))
            .with_header(http::header::ALLOW, value)
    }

    /// 413 `payload_too_large`.
    pub fn payload_too_large(limit: usize) -> ApiError {
        ApiError::new(ErrorCode::PayloadTooLarge, format!("The request body is larger than {limit} bytes."))
            .with_details(json!({ "limit_bytes": limit }))
    }

    /// 415 `unsupported_media_type`.
    pub fn unsupported_media_type() -> ApiError {
        ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "The request body must be JSON, sent with Content-Type: application/json.",
        )
    }

    /// 503 `overloaded`.
    pub fn overloaded() -> ApiError {
        ApiError::new(ErrorCode::Overloaded, app::OVERLOADED_MESSAGE)
            .with_header(http::header::RETRY_AFTER, HeaderValue::from_static("5"))
    }

    /// 500 `internal`: the cause goes to the log, never to the client.
    pub fn internal(cause: impl std::fmt::Display) -> ApiError {
        let mut e = ApiError::new(ErrorCode::Internal, app::INTERNAL_MESSAGE);
        e.cause = Some(cause.to_string());
        e
    }

    /// An `internal` error naming the request id its cause was logged with, in the message
    /// and in `details.request_id`.
    pub fn with_request_id(mut self, request_id: &str) -> ApiError {
        self.message = format!(
            "An internal error occurred; it has been logged with the request id {request_id}, which the operator can look up."
        );
        self.with_details(json!({ "request_id": request_id }))
    }

    /// The JSON body of this error.
    pub fn body(&self) -> Value {
        let body = ErrorBody {
            ok: false,
            api_version: audit_core::API_VERSION,
            error: ErrorDetail { code: self.code.as_str(), message: &self.message, details: self.details.as_deref() },
        };
        serde_json::to_value(body).unwrap_or(Value::Null)
    }

    /// The response: status, JSON body, extra headers.
    pub fn into_response(self) -> Response {
        let mut resp = json_response(self.status, &self.body());
        for (name, value) in self.headers {
            resp.headers_mut().insert(name, value);
        }
        resp
    }
}

impl From<app::FetchError> for ApiError {
    fn from(e: app::FetchError) -> ApiError {
        app::AppError::Fetch(e).into()
    }
}

impl From<app::AppError> for ApiError {
    /// The one mapping of the application's failures to HTTP (docs/API.md, "Errors"): the
    /// code, sentence and details are the application's, the status is chosen here.
    fn from(e: app::AppError) -> ApiError {
        use app::AppError;
        if let AppError::Overloaded = e {
            return ApiError::overloaded();
        }
        if e.error_code() == app::ErrorCode::Internal {
            return ApiError::internal(e);
        }
        // The answer never names the address a name resolved to (docs/SECURITY.md, "The
        // address guard"); the operator's log does.
        if let AppError::Fetch(app::FetchError::Blocked { host, addr: Some(addr), reason }) = &e {
            tracing::info!(host = %app::clip(host), %addr, reason, "target blocked by the address guard");
        }
        let mut error = ApiError::new(e.error_code(), e.message());
        // The libraries' cause chain goes to the log with the request id (the router logs
        // `cause`), never to the client.
        error.cause = e.log_detail();
        match e.details() {
            Some(details) => error.with_details(details),
            None => error,
        }
    }
}

/// The HTTP status of each error code: the one place a failure's status is chosen
/// (docs/API.md, "Errors"); the code is the application's, the agent tools and the command
/// line map it to statuses of their own.
pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::InvalidRequest | ErrorCode::MissingParameter | ErrorCode::InvalidUrl => StatusCode::BAD_REQUEST,
        ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::Conflict => StatusCode::CONFLICT,
        ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::BlockedTarget | ErrorCode::NotHtml | ErrorCode::TargetTooLarge => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::TargetUnreachable | ErrorCode::UpstreamError | ErrorCode::TargetStatus => StatusCode::BAD_GATEWAY,
        ErrorCode::NotConfigured | ErrorCode::Overloaded => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::TargetTimeout => StatusCode::GATEWAY_TIMEOUT,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<app::Refusal> for ApiError {
    /// A request refused as sent, with the refusal's code and details.
    fn from(r: app::Refusal) -> ApiError {
        let e = ApiError::new(r.code, r.message);
        match r.details {
            Some(details) => ApiError { details: Some(details), ..e },
            None => e,
        }
    }
}

impl From<app::StoreError> for ApiError {
    /// Every store failure is the service's own problem: 500 `internal`, cause logged.
    fn from(e: app::StoreError) -> ApiError {
        ApiError::internal(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(e: ApiError, status: u16, code: &str) {
        assert_eq!(e.status.as_u16(), status, "{e:?}");
        assert_eq!(e.code.as_str(), code);
        let body = e.body();
        assert_eq!(body["ok"], false);
        assert_eq!(body["api_version"], "v1");
        assert_eq!(body["error"]["code"], code);
        assert!(body["error"]["message"].as_str().is_some_and(|m| m.ends_with('.')));
    }

    #[test]
    fn codes_and_statuses() {
        check(ApiError::invalid_request("Bad."), 400, "invalid_request");
        check(ApiError::missing_parameter("url"), 400, "missing_parameter");
        check(ApiError::unauthorized("No."), 401, "unauthorized");
        check(ApiError::forbidden("disabled", "No."), 403, "forbidden");
        check(ApiError::not_found("No."), 404, "not_found");
        check(ApiError::method_not_allowed(&["GET"]), 405, "method_not_allowed");
        check(app::AppError::refused(app::ErrorCode::Conflict, "Not now.").into(), 409, "conflict");
        check(ApiError::payload_too_large(10), 413, "payload_too_large");
        check(ApiError::unsupported_media_type(), 415, "unsupported_media_type");
        check(ApiError::overloaded(), 503, "overloaded");
        check(ApiError::internal("secret detail"), 500, "internal");
        let timeout =
            app::FetchError::Timeout { host: "a.example".into(), phase: app::TimeoutPhase::Answer, limit_ms: 15_000 };
        check(timeout.into(), 504, "target_timeout");
        check(app::FetchError::InvalidUrl("x".into()).into(), 400, "invalid_url");
        let refused = ApiError::from(app::FetchError::Connect {
            host: "a.example".into(),
            failure: app::ConnectFailure::Refused,
            http_url: None,
            detail: "tcp connect error: connection refused (os error 111)".into(),
        });
        check(refused.clone(), 502, "target_unreachable");
        assert!(!refused.body().to_string().contains("os error"), "{:?}", refused.body());
        assert!(refused.cause.as_deref().is_some_and(|c| c.contains("os error 111")), "the log keeps the cause");
        check(app::FetchError::TooLarge { limit: 1 }.into(), 422, "target_too_large");
        check(app::FetchError::Config("x".into()).into(), 500, "internal");
    }

    #[test]
    fn application_errors() {
        use app::AppError;
        check(AppError::Overloaded.into(), 503, "overloaded");
        check(AppError::internal("x").into(), 500, "internal");
        check(AppError::NotConfigured { invalid: false }.into(), 503, "not_configured");
        check(AppError::CompetitorStatus(404).into(), 502, "target_status");
        let off = ApiError::from(AppError::RenderNotConfigured("no chromium on PATH".into()));
        check(off.clone(), 503, "not_configured");
        assert_eq!(off.body()["error"]["details"]["install"], app::RENDER_INSTALL);
        assert!(!off.body().to_string().contains("PATH"), "the cause goes to the log only");
        check(AppError::RenderTimeout(std::time::Duration::from_secs(10)).into(), 504, "target_timeout");
        check(AppError::RenderFailed("crashed".into()).into(), 502, "upstream_error");
        check(AppError::RenderStartFailed("exited".into()).into(), 502, "upstream_error");
        let e = ApiError::from(AppError::Provider(ai_visibility::ProviderError::Status { status: 500 }));
        check(e.clone(), 502, "upstream_error");
        assert_eq!(e.body()["error"]["details"], json!({ "reason": "status", "upstream_status": 500 }));
    }

    #[test]
    fn internal_errors_hide_their_cause() {
        let e = ApiError::internal("password=hunter2");
        assert!(!e.body().to_string().contains("hunter2"));
        assert_eq!(e.cause.as_deref(), Some("password=hunter2"));
    }
}
