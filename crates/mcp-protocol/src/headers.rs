//! Header lookup and value normalisation for the mirrored MCP headers.

use base64::Engine as _;

/// `MCP-Protocol-Version` request header.
pub const HEADER_PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// `Mcp-Method` request header (modern requests mirror the JSON-RPC method in it).
pub const HEADER_METHOD: &str = "mcp-method";
/// `Mcp-Name` request header (mirrors `params.name` or `params.uri`).
pub const HEADER_NAME: &str = "mcp-name";

/// The first value of a header, its name matched case-insensitively.
pub(crate) fn find<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// The value a client meant to send: surrounding white space removed and the
/// `=?base64?...?=` form decoded as UTF-8 (clients use it for non-ASCII names).
///
/// `None` when the value claims to be base64 but is not valid base64 of UTF-8 text;
/// such a value equals nothing, so it always counts as a mismatch.
///
/// ```
/// use mcp_protocol::decode_header_value;
/// assert_eq!(decode_header_value("  tools/list "), Some("tools/list".to_string()));
/// assert_eq!(decode_header_value("=?base64?dG9vbHMvbGlzdA==?="), Some("tools/list".to_string()));
/// assert_eq!(decode_header_value("=?base64?***?="), None);
/// ```
pub fn decode_header_value(raw: &str) -> Option<String> {
    let value = raw.trim_matches(|c| c == ' ' || c == '\t');
    let Some(encoded) = strip_base64_wrapper(value) else {
        return Some(value.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(encoded.trim()))
        .ok()?;
    String::from_utf8(bytes).ok()
}

fn strip_base64_wrapper(value: &str) -> Option<&str> {
    const PREFIX: &str = "=?base64?";
    const SUFFIX: &str = "?=";
    let head = value.get(..PREFIX.len())?;
    if !head.eq_ignore_ascii_case(PREFIX) || value.len() < PREFIX.len() + SUFFIX.len() {
        return None;
    }
    value[PREFIX.len()..].strip_suffix(SUFFIX)
}
