//! JSON-RPC 2.0 and MCP semantics of the agent-tool endpoint (`POST /api/mcp`), with no
//! HTTP and no I/O: the server hands over headers, body and the key verdict, and gets back
//! a status, a JSON body and headers to add.
//!
//! - [`handle`] answers one request for a [`Registry`] (the server's tools, resources,
//!   prompts, quota hook and the async calls that do the work) and returns a [`Reply`].
//! - Definitions: [`ToolDef`] (with a [`Category`]: write tools need a key with the `mcp`
//!   scope, enforced here), [`ResourceDef`], [`ResourceTemplateDef`], [`PromptDef`];
//!   outcomes: [`ToolResult`], [`ResourceContents`], [`PromptMessages`].
//! - [`Error`] is the one mapping from failures to JSON-RPC codes and HTTP statuses.
//! - [`check_definitions`] lints a registry (tool names, schemas, duplicates) for the
//!   server's tests.
//!
//! # Eras
//! The same endpoint serves the stateless 2026-07-28 protocol ("modern") and the 2025
//! `initialize` handshake ("legacy"):
//! - **Modern** when `MCP-Protocol-Version: 2026-07-28` is sent or `params._meta` carries
//!   `io.modelcontextprotocol/protocolVersion`. Checks, in order: JSON (400, -32700; a batch
//!   array 400, -32600), `_meta` with protocol version and client capabilities (400, -32602),
//!   mirrored headers `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` (400, -32020; names
//!   case-insensitive, values case-sensitive, trimmed, `=?base64?...?=` decoded), a supported
//!   version (400, -32022), a known method (404, -32601). Results carry
//!   `resultType: "complete"` and `_meta["io.modelcontextprotocol/serverInfo"]`.
//! - **Legacy** without such a header (taken as 2025-03-26) or with a 2025 / 2024-11-05 one;
//!   any other header value on a request without `_meta` is 400, -32022. `Mcp-Method` and
//!   `Mcp-Name` are not required. `initialize` echoes a legacy version or answers 2025-11-25;
//!   notifications and id-less messages are 202 with no body; `ping` is `{}`. Method errors
//!   (unknown method, -32602, resource not found -32002) travel with HTTP 200, which is what
//!   the 2025 SDKs expect.
//! - The **simple form** (`{method, params}` without `jsonrpc`) follows the same rules and is
//!   answered as JSON-RPC 2.0 with `id: null` (or its own id when it sent one).
//! - `server/discover` answers in both eras, because the Python client probes it first.
//! - List results, `resources/read` and `server/discover` carry `ttlMs` and `cacheScope` in
//!   both eras; lists page with opaque cursors (an invalid cursor is -32602).
//! - A present but refused key ([`Auth::Rejected`]) answers every method with 401 (-32001)
//!   or 403 (-32003), echoing the id. A write tool without an `mcp`-scoped key, invalid
//!   arguments (checked against the tool's input schema, `pattern` aside), and a call over
//!   quota are tool results with `isError: true` (HTTP 200), the latter with `x-ratelimit-*`
//!   and `Retry-After` in [`Reply::headers`] and advice that follows the caller's
//!   [`Standing`] (create a key, ask for a higher tier, or wait for the window).
//!
//! # Example
//! ```
//! use std::collections::BTreeMap;
//! use mcp_protocol::*;
//! use serde_json::{json, Map, Value};
//!
//! struct Demo { catalog: Catalog }
//!
//! impl Registry for Demo {
//!     fn catalog(&self) -> &Catalog { &self.catalog }
//!     async fn take_quota(&self, _tool: &str, _ctx: &CallContext<'_>) -> Quota { Quota::Unlimited }
//!     async fn call_tool(&self, _name: &str, args: Map<String, Value>, _ctx: &CallContext<'_>) -> ToolResult {
//!         ToolResult::success(json!({ "echo": args.get("url") }))
//!     }
//!     async fn read_resource(&self, _uri: &str) -> Option<ResourceContents> { None }
//!     fn get_prompt(&self, _name: &str, _args: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
//!         Err("no prompts".into())
//!     }
//! }
//!
//! let mut catalog = Catalog::new(ServerInfo::new("demo", "2.0.0", "Echoes URLs."));
//! catalog.tools.push(ToolDef {
//!     name: "echo".into(),
//!     title: "Echo".into(),
//!     description: "Echoes its url argument.".into(),
//!     input_schema: json!({ "type": "object", "properties": { "url": { "type": "string" } }, "required": ["url"] }),
//!     output_schema: json!({ "type": "object" }),
//!     annotations: ToolAnnotations { read_only_hint: true, open_world_hint: false, destructive_hint: None, idempotent_hint: None },
//!     category: Category::Public,
//! });
//! let demo = Demo { catalog };
//! let headers = vec![
//!     ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
//!     ("Mcp-Method".to_string(), "tools/call".to_string()),
//!     ("Mcp-Name".to_string(), "echo".to_string()),
//! ];
//! let body = json!({
//!     "jsonrpc": "2.0", "id": 1, "method": "tools/call",
//!     "params": {
//!         "name": "echo", "arguments": { "url": "https://example.com/" },
//!         "_meta": {
//!             "io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!             "io.modelcontextprotocol/clientCapabilities": {}
//!         }
//!     }
//! }).to_string();
//! let auth = Auth::Anonymous;
//! let request = McpRequest { headers: &headers, body: body.as_bytes(), auth: &auth };
//! // Any executor will do; the server runs this inside its tokio task.
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let mut f = std::pin::pin!(f);
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
//! # }
//! let reply = block_on(handle(&request, &demo));
//! assert_eq!(reply.status, 200);
//! let result = &reply.body.unwrap()["result"];
//! assert_eq!(result["structuredContent"], json!({ "echo": "https://example.com/" }));
//! assert_eq!(result["resultType"], "complete");
//! ```

mod args;
mod cursor;
mod defs;
pub mod discovery;
mod error;
mod handler;
mod headers;
mod jsonrpc;
mod lint;
mod registry;
mod schema;
#[doc(hidden)]
pub mod testing;
mod version;

#[cfg(test)]
mod tests;

pub use defs::{
    CacheScope, Category, PromptArgument, PromptDef, PromptMessage, PromptMessages, ResourceContents, ResourceDef,
    ResourceTemplateDef, Role, ServerInfo, ToolAnnotations, ToolDef, ToolResult, DEFAULT_PAGE_SIZE, DEFAULT_TTL_MS,
};
pub use error::{Error, KeyRejection};
pub use handler::{handle, McpRequest, Reply};
pub use headers::{
    decode_header_value, is_json_content_type, is_local_authority, is_local_origin, HEADER_METHOD, HEADER_NAME,
    HEADER_PROTOCOL_VERSION,
};
pub use jsonrpc::{
    failure, success, ErrorObject, Failure as JsonRpcError, Id, Request as JsonRpcRequest, RequestParams,
    Response as JsonRpcResponse, Success as JsonRpcSuccess, Version2, FORBIDDEN, HEADER_MISMATCH, INTERNAL_ERROR,
    INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RESOURCE_NOT_FOUND_LEGACY, UNAUTHORIZED,
    UNSUPPORTED_VERSION,
};
pub use lint::check_definitions;
pub use registry::{Auth, CallContext, Catalog, Quota, RateLimit, Registry, Standing, KEY_HELP, MCP_SCOPE};
pub use schema::{input_schema, output_schema, Meta, AUDITS, READ_ONLY_LOCAL};
pub use version::{
    negotiate_version, Era, ASSUMED_VERSION_WITHOUT_HEADER, DEFAULT_LEGACY_VERSION, LEGACY_VERSIONS,
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO, MODERN_VERSION,
    SUPPORTED_VERSIONS,
};
