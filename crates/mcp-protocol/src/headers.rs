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

/// Whether a `Content-Type` value names `application/json` (parameters such as `charset`
/// ignored): the only body the endpoint reads.
pub fn is_json_content_type(value: Option<&str>) -> bool {
    value.and_then(|v| v.split(';').next()).is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

// DNS-rebinding protection of a server on loopback: a `Host` or `Origin` naming another host
// means a page elsewhere reached the local server through a rebound name.

/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port.
pub fn is_local_authority(authority: &str) -> bool {
    let authority = authority.trim().to_ascii_lowercase();
    let host = if let Some(rest) = authority.strip_prefix('[') {
        match rest.split_once(']') {
            Some((h, port)) if port.is_empty() || is_port(port) => h.to_string(),
            _ => return false,
        }
    } else {
        match authority.split_once(':') {
            Some((h, port)) if is_port(port) => h.to_string(),
            Some(_) => return false,
            None => authority,
        }
    };
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1")
}

fn is_port(s: &str) -> bool {
    let digits = s.strip_prefix(':').unwrap_or(s);
    !digits.is_empty() && digits.len() <= 5 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// An `Origin` of `http(s)://` a local authority; `null` and other schemes are refused.
pub fn is_local_origin(origin: &str) -> bool {
    let origin = origin.trim();
    let rest = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://"));
    rest.is_some_and(|authority| !authority.contains('/') && is_local_authority(authority))
}

#[cfg(test)]
mod rebinding_tests {
    use super::*;

    fn check(value: &str, origin: bool, expected: bool) {
        let got = if origin { is_local_origin(value) } else { is_local_authority(value) };
        assert_eq!(got, expected, "{value} (origin: {origin})");
    }

    #[test]
    fn local_hosts_and_origins() {
        check("127.0.0.1:8080", false, true);
        check("localhost", false, true);
        check("LOCALHOST:3000", false, true);
        check("[::1]:8080", false, true);
        check("[::1]", false, true);
        check("evil.example.com", false, false);
        check("127.0.0.1.evil.com", false, false);
        check("localhost.evil.com:80", false, false);
        check("127.0.0.1:80x", false, false);
        check("[::2]:80", false, false);
        check("", false, false);
        check("http://localhost:3000", true, true);
        check("https://127.0.0.1", true, true);
        check("http://evil.example.com", true, false);
        check("null", true, false);
        check("file://localhost", true, false);
        check("http://localhost/x", true, false);
    }
}
