//! The one mapping from protocol failures to JSON-RPC codes and HTTP statuses.

use serde_json::{json, Value};

use crate::jsonrpc::{self, ErrorObject};
use crate::version::{Era, SUPPORTED_VERSIONS};

/// Why a present `x-api-key` header was refused. The server decides; the crate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRejection {
    /// No key with this value exists (HTTP 401).
    Unknown,
    /// The key exists but was disabled or revoked (HTTP 403).
    Disabled,
    /// The key exists but its expiry date has passed (HTTP 403).
    Expired,
}

/// A request the crate refuses with a JSON-RPC error.
///
/// Tool failures are not errors: they are tool results with `isError: true`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The body is not JSON.
    #[error("parse error: {0}")]
    Parse(String),
    /// The body is JSON but not a single JSON-RPC request object.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// No such method in the request's era.
    #[error("method not found: {0}")]
    MethodNotFound(String),
    /// The params do not fit the method (unknown tool or prompt, bad cursor, ...).
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// A modern request whose `_meta` lacks `protocolVersion` or `clientCapabilities`.
    #[error("invalid params: {0}")]
    InvalidMeta(String),
    /// A mirrored header disagrees with the body, or is missing.
    #[error("header mismatch: {0}")]
    HeaderMismatch(String),
    /// The protocol version asked for is not supported.
    #[error("unsupported protocol version {requested:?}")]
    UnsupportedVersion {
        /// The version the client asked for, as sent.
        requested: String,
    },
    /// `resources/read` of a URI the server does not have.
    #[error("resource not found: {uri}")]
    ResourceNotFound {
        /// The URI asked for.
        uri: String,
    },
    /// A present `x-api-key` was refused.
    #[error("{}", key_message(*.0))]
    KeyRejected(KeyRejection),
}

fn key_message(rejection: KeyRejection) -> &'static str {
    match rejection {
        KeyRejection::Unknown => "the x-api-key header names no known API key",
        KeyRejection::Disabled => "this API key is disabled",
        KeyRejection::Expired => "this API key has expired",
    }
}

impl Error {
    /// The JSON-RPC error code for this failure in the given era.
    pub fn code(&self, era: Era) -> i32 {
        match self {
            Error::Parse(_) => jsonrpc::PARSE_ERROR,
            Error::InvalidRequest(_) => jsonrpc::INVALID_REQUEST,
            Error::MethodNotFound(_) => jsonrpc::METHOD_NOT_FOUND,
            Error::InvalidParams(_) | Error::InvalidMeta(_) => jsonrpc::INVALID_PARAMS,
            Error::HeaderMismatch(_) => jsonrpc::HEADER_MISMATCH,
            Error::UnsupportedVersion { .. } => jsonrpc::UNSUPPORTED_VERSION,
            Error::ResourceNotFound { .. } => match era {
                Era::Modern => jsonrpc::INVALID_PARAMS,
                Era::Legacy => jsonrpc::RESOURCE_NOT_FOUND_LEGACY,
            },
            Error::KeyRejected(KeyRejection::Unknown) => jsonrpc::UNAUTHORIZED,
            Error::KeyRejected(_) => jsonrpc::FORBIDDEN,
        }
    }

    /// The HTTP status that carries this error.
    ///
    /// Transport-level failures (unparseable body, header rules, versions) are 400 in
    /// both eras. Errors a method handler produces are HTTP 200 so that SDKs surface them
    /// as JSON-RPC errors rather than transport failures, except an unknown method on the
    /// modern path, which MCP 2026-07-28 answers with 404.
    pub fn http_status(&self, era: Era) -> u16 {
        match self {
            Error::Parse(_)
            | Error::InvalidRequest(_)
            | Error::InvalidMeta(_)
            | Error::HeaderMismatch(_)
            | Error::UnsupportedVersion { .. } => 400,
            Error::MethodNotFound(_) => match era {
                Era::Modern => 404,
                Era::Legacy => 200,
            },
            Error::InvalidParams(_) | Error::ResourceNotFound { .. } => 200,
            Error::KeyRejected(KeyRejection::Unknown) => 401,
            Error::KeyRejected(_) => 403,
        }
    }

    /// The `data` member of the error object, when the error has structured detail.
    pub fn data(&self) -> Option<Value> {
        match self {
            Error::UnsupportedVersion { requested } => {
                Some(json!({ "supported": SUPPORTED_VERSIONS, "requested": requested }))
            }
            Error::ResourceNotFound { uri } => Some(json!({ "uri": uri })),
            Error::KeyRejected(rejection) => Some(json!({ "reason": match rejection {
                KeyRejection::Unknown => "unknown_key",
                KeyRejection::Disabled => "key_disabled",
                KeyRejection::Expired => "key_expired",
            }})),
            _ => None,
        }
    }

    /// The JSON-RPC error object for this failure in the given era.
    pub fn to_object(&self, era: Era) -> ErrorObject {
        ErrorObject { code: self.code(era), message: self.to_string(), data: self.data() }
    }

    /// True for the failures that are about the API key (HTTP 401 or 403).
    pub fn is_auth(&self) -> bool {
        matches!(self, Error::KeyRejected(_))
    }

    /// True for failures of the HTTP-level checks (400): parse, shape, headers, version.
    pub fn is_transport(&self) -> bool {
        self.http_status(Era::Legacy) == 400
    }
}
