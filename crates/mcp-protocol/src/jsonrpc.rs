//! JSON-RPC 2.0 wire types: ids, error objects, response envelopes.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The body is not valid JSON.
pub const PARSE_ERROR: i32 = -32700;
/// The body is JSON but not a request object (a batch array, a missing method, ...).
pub const INVALID_REQUEST: i32 = -32600;
/// The method does not exist in the request's era.
pub const METHOD_NOT_FOUND: i32 = -32601;
/// Unknown tool or prompt, missing prompt argument, bad cursor, missing `_meta`,
/// and (modern era) resource not found.
pub const INVALID_PARAMS: i32 = -32602;
/// Reserved by JSON-RPC for server faults; the crate itself never produces it, the
/// server may use it when it has to answer a JSON-RPC error of its own.
pub const INTERNAL_ERROR: i32 = -32603;
/// An API key was sent but names no known key (HTTP 401). Server-defined code.
pub const UNAUTHORIZED: i32 = -32001;
/// Resource not found, as the 2025 revisions of MCP report it (legacy era only).
pub const RESOURCE_NOT_FOUND_LEGACY: i32 = -32002;
/// An API key was sent but is disabled or expired (HTTP 403). Server-defined code.
pub const FORBIDDEN: i32 = -32003;
/// `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` disagrees with the body.
pub const HEADER_MISMATCH: i32 = -32020;
/// The requested protocol version is not one this server speaks.
pub const UNSUPPORTED_VERSION: i32 = -32022;

/// A JSON-RPC request id: a string, an integer, or null.
///
/// Fractional numbers, booleans, arrays and objects are not ids; a request carrying
/// one is answered with [`INVALID_REQUEST`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Id {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
    /// `null`: used for the simple form and for errors about unparseable requests.
    Null,
}

impl Id {
    /// Reads an id from its JSON value; `None` when the value cannot be an id.
    pub fn from_value(value: &Value) -> Option<Id> {
        match value {
            Value::Null => Some(Id::Null),
            Value::String(s) => Some(Id::String(s.clone())),
            Value::Number(n) => n.as_i64().map(Id::Number),
            _ => None,
        }
    }
}

/// The `error` member of a JSON-RPC response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// One of the code constants of this crate.
    pub code: i32,
    /// One human sentence.
    pub message: String,
    /// Structured detail (`{uri}`, `{supported, requested}`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// A successful JSON-RPC response message.
pub fn success(id: &Id, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// A JSON-RPC error response message.
pub fn failure(id: &Id, error: &ErrorObject) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}
