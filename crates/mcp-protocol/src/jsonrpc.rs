//! JSON-RPC 2.0 wire types: ids, error objects, response envelopes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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

impl JsonSchema for Id {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JsonRpcId".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "integer", "null"] })
    }
}

/// The `error` member of a JSON-RPC response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "JsonRpcErrorObject")]
pub struct ErrorObject {
    /// -32700 parse, -32600 invalid request, -32601 method not found, -32602 invalid params
    /// (also: resource not found on the modern path), -32603 internal, -32001 unknown key,
    /// -32002 resource not found (legacy), -32003 key disabled or expired, -32020 header
    /// mismatch, -32022 unsupported protocol version
    pub code: i32,
    /// One human sentence.
    pub message: String,
    /// Structured detail (`{uri}`, `{supported, requested}`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// The `jsonrpc` member: always `"2.0"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Version2;

impl Serialize for Version2 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str("2.0")
    }
}

impl<'de> Deserialize<'de> for Version2 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Version2, D::Error> {
        match String::deserialize(d)?.as_str() {
            "2.0" => Ok(Version2),
            other => Err(serde::de::Error::custom(format!("jsonrpc must be \"2.0\", not {other:?}"))),
        }
    }
}

impl JsonSchema for Version2 {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JsonRpcVersion".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "const": "2.0" })
    }
}

/// One JSON-RPC 2.0 request or notification, or the simple form `{method, params}` without
/// `jsonrpc` (answered with `id: null`). Modern (2026-07-28) requests carry `params._meta`
/// with `io.modelcontextprotocol/protocolVersion` and
/// `io.modelcontextprotocol/clientCapabilities`. (The handler reads requests leniently, to
/// answer each malformed one with its own error; this type describes what it accepts.)
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(rename = "JsonRpcRequest")]
pub struct Request {
    /// `"2.0"`; absent in the simple form.
    #[serde(default)]
    #[schemars(with = "Version2")]
    pub jsonrpc: Option<Version2>,
    /// Absent for a notification.
    #[serde(default)]
    #[schemars(with = "Id")]
    pub id: Option<Id>,
    /// The method.
    #[schemars(extend("examples" = ["initialize", "tools/list", "tools/call", "resources/read", "prompts/get", "server/discover"]))]
    pub method: String,
    /// The method's parameters.
    #[serde(default)]
    #[schemars(with = "RequestParams")]
    pub params: Option<RequestParams>,
}

/// The parameters of a request, by method.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(rename = "JsonRpcParams")]
pub struct RequestParams {
    /// The tool or prompt (`tools/call`, `prompts/get`).
    #[serde(default)]
    #[schemars(with = "String")]
    pub name: Option<String>,
    /// The tool's or prompt's arguments.
    #[serde(default)]
    #[schemars(with = "Map<String, Value>")]
    pub arguments: Option<Map<String, Value>>,
    /// The resource (`resources/read`).
    #[serde(default)]
    #[schemars(with = "String")]
    pub uri: Option<String>,
    /// Where a list continues.
    #[serde(default)]
    #[schemars(with = "String")]
    pub cursor: Option<String>,
    /// Protocol metadata (modern requests).
    #[serde(default, rename = "_meta")]
    #[schemars(with = "Map<String, Value>")]
    pub meta: Option<Map<String, Value>>,
}

/// A successful JSON-RPC response message.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "JsonRpcSuccess")]
pub struct Success {
    /// `"2.0"`.
    pub jsonrpc: Version2,
    /// The request's id.
    pub id: Id,
    /// The method's result. A tools/call result is `{content: [{type: text, text}],
    /// structuredContent?, isError}`; a tool's own failure (missing key, bad URL,
    /// unreachable page, over quota) is `isError: true` with HTTP 200.
    #[schemars(with = "Map<String, Value>")]
    pub result: Value,
}

/// A JSON-RPC error response message.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "JsonRpcError")]
pub struct Failure {
    /// `"2.0"`.
    pub jsonrpc: Version2,
    /// The request's id; `null` when the request could not be read.
    pub id: Id,
    /// What went wrong.
    pub error: ErrorObject,
}

/// Any JSON-RPC response message.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "JsonRpcResponse")]
pub enum Response {
    /// The method's result.
    Success(Success),
    /// Its error.
    Failure(Failure),
}

/// A successful JSON-RPC response message.
pub fn success(id: &Id, result: Value) -> Value {
    to_value(&Success { jsonrpc: Version2, id: id.clone(), result })
}

/// A JSON-RPC error response message.
pub fn failure(id: &Id, error: &ErrorObject) -> Value {
    to_value(&Failure { jsonrpc: Version2, id: id.clone(), error: error.clone() })
}

fn to_value<T: Serialize>(message: &T) -> Value {
    // Ids, codes, strings and JSON values always serialise.
    serde_json::to_value(message).unwrap_or(Value::Null)
}
