//! Protocol versions, eras and `initialize` negotiation.

/// The stateless MCP revision this server implements natively.
pub const MODERN_VERSION: &str = "2026-07-28";

/// Versions a 2025-era (`initialize` handshake) client may speak; `initialize` echoes them.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// What `initialize` answers when the client asks for a version it does not list
/// in [`LEGACY_VERSIONS`]. Never [`MODERN_VERSION`]: 2025 SDKs abort on it.
pub const DEFAULT_LEGACY_VERSION: &str = "2025-11-25";

/// The version a request without `MCP-Protocol-Version` header is taken to speak,
/// as the 2025 transport specification prescribes for backwards compatibility.
pub const ASSUMED_VERSION_WITHOUT_HEADER: &str = "2025-03-26";

/// Versions listed by `server/discover` and in `-32022` errors (docs/API.md,
/// "POST /api/mcp: the agent-tool endpoint").
pub const SUPPORTED_VERSIONS: &[&str] = &[MODERN_VERSION, "2025-11-25", "2025-06-18", "2025-03-26"];

/// `_meta` key carrying a modern request's protocol version.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying a modern request's client capabilities (an object).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key carrying a modern request's optional client info.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key under which every modern result names the server.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Which generation of MCP a request belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28: `_meta` on every request, no handshake, mirrored headers.
    Modern,
    /// 2024-11-05 .. 2025-11-25: `initialize` handshake; also the simple form.
    Legacy,
}

/// The version `initialize` answers for the version the client proposed.
///
/// ```
/// assert_eq!(mcp_protocol::negotiate_version(Some("2025-06-18")), "2025-06-18");
/// assert_eq!(mcp_protocol::negotiate_version(Some("2026-07-28")), "2025-11-25");
/// assert_eq!(mcp_protocol::negotiate_version(None), "2025-11-25");
/// ```
pub fn negotiate_version(requested: Option<&str>) -> &'static str {
    requested.and_then(|r| LEGACY_VERSIONS.iter().find(|v| **v == r)).copied().unwrap_or(DEFAULT_LEGACY_VERSION)
}
