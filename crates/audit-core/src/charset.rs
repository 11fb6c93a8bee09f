//! Turning the bytes of a response into text.
//!
//! Browsers take the encoding from a byte-order mark, then the `Content-Type` header, then a
//! `<meta charset>` found by a prescan of the first bytes. Real pages get the declaration wrong
//! surprisingly often: the corpus holds UTF-8 pages that declare Shift_JIS or gb2312. Decoding
//! such a page as declared would garble every non-ASCII character, so valid UTF-8 wins over a
//! declaration that says otherwise; text that is not valid UTF-8 is decoded as declared.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use serde::Serialize;

/// How many leading bytes the `<meta charset>` prescan looks at (the HTML standard says 1024;
/// real pages put long comments and scripts first, so we look further).
pub const META_PRESCAN_BYTES: usize = 8192;

/// Where the encoding used to decode the page came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CharsetSource {
    /// A byte-order mark at the start of the body.
    Bom,
    /// The `charset` parameter of the `Content-Type` header.
    Header,
    /// A `<meta charset>` or `<meta http-equiv="content-type">` in the document.
    Meta,
    /// The bytes were valid UTF-8 although something else was declared.
    Utf8Override,
    /// Nothing declared: UTF-8 when valid, else windows-1252 as browsers do.
    Default,
}

/// The outcome of decoding: the text plus what was declared and what was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Charset {
    /// Canonical name of the encoding used (`UTF-8`, `Shift_JIS`, ...).
    pub used: String,
    /// Where `used` came from.
    pub source: CharsetSource,
    /// The charset label of the `Content-Type` header, if any.
    pub header: Option<String>,
    /// The charset label found in the document's `<meta>`, if any.
    pub meta: Option<String>,
}

/// Decodes `bytes` into a string following the rules in the module documentation.
pub fn decode(bytes: &[u8], content_type: Option<&str>) -> (String, Charset) {
    let header = content_type.and_then(charset_param);
    let meta = prescan_meta(&bytes[..bytes.len().min(META_PRESCAN_BYTES)]);
    let mut charset =
        Charset { used: String::new(), source: CharsetSource::Default, header: header.clone(), meta: meta.clone() };

    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        charset.used = encoding.name().to_string();
        charset.source = CharsetSource::Bom;
        return (text.into_owned(), charset);
    }

    let declared = header
        .as_deref()
        .and_then(|l| Encoding::for_label(l.as_bytes()).map(|e| (e, CharsetSource::Header)))
        .or_else(|| meta.as_deref().and_then(|l| Encoding::for_label(l.as_bytes()).map(|e| (e, CharsetSource::Meta))));

    let valid_utf8 = std::str::from_utf8(bytes).ok();
    let (encoding, source) = match (declared, valid_utf8) {
        // A page cannot be UTF-16 once we got here (no BOM) in practice; a UTF-16 label in a
        // meta tag is treated as UTF-8 by browsers too.
        (Some((enc, src)), _) if enc == UTF_8 || enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE => {
            (UTF_8, src)
        }
        (Some((_, _)), Some(_)) if has_non_ascii(bytes) => (UTF_8, CharsetSource::Utf8Override),
        (Some((enc, src)), _) => (enc, src),
        (None, Some(_)) => (UTF_8, CharsetSource::Default),
        (None, None) => (WINDOWS_1252, CharsetSource::Default),
    };
    charset.used = encoding.name().to_string();
    charset.source = source;
    if let (true, Some(s)) = (encoding == UTF_8, valid_utf8) {
        return (s.to_string(), charset);
    }
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    (text.into_owned(), charset)
}

fn has_non_ascii(bytes: &[u8]) -> bool {
    bytes.iter().any(|b| *b >= 0x80)
}

/// The `charset=` parameter of a `Content-Type` value, unquoted.
pub fn charset_param(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// Finds a charset declared by `<meta charset=...>` or
/// `<meta http-equiv="Content-Type" content="...; charset=...">` in the leading bytes.
fn prescan_meta(bytes: &[u8]) -> Option<String> {
    let lower: Vec<u8> = bytes.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(pos) = find(&lower[from..], b"<meta") {
        let start = from + pos;
        let end = lower[start..].iter().position(|b| *b == b'>').map_or(lower.len(), |p| start + p);
        let tag = &lower[start..end];
        if let Some(cs) = find(tag, b"charset") {
            let rest = &tag[cs + b"charset".len()..];
            let rest = trim_start(rest);
            if let Some(rest) = rest.strip_prefix(b"=") {
                let rest = trim_start(rest);
                let value: Vec<u8> = rest
                    .iter()
                    .copied()
                    .skip_while(|b| *b == b'"' || *b == b'\'')
                    .take_while(|b| !matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>' | b'\t' | b'\n' | b'\r'))
                    .collect();
                if !value.is_empty() {
                    return String::from_utf8(value).ok();
                }
            }
        }
        from = end.max(start + 1);
        if from >= lower.len() {
            break;
        }
    }
    None
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bytes: &[u8], content_type: Option<&str>, text: &str, used: &str, source: CharsetSource) {
        let (decoded, cs) = decode(bytes, content_type);
        assert!(decoded.contains(text), "{decoded:?} lacks {text:?}");
        assert_eq!(cs.used, used);
        assert_eq!(cs.source, source);
    }

    #[test]
    fn decoding_cases() {
        check(b"<p>caf\xe9</p>", Some("text/html; charset=ISO-8859-1"), "café", "windows-1252", CharsetSource::Header);
        check(b"<meta charset=\"iso-8859-1\"><p>caf\xe9</p>", None, "café", "windows-1252", CharsetSource::Meta);
        check(b"<p>caf\xe9</p>", None, "café", "windows-1252", CharsetSource::Default);
        check("<p>café</p>".as_bytes(), None, "café", "UTF-8", CharsetSource::Default);
        check(
            b"\xef\xbb\xbf<p>caf\xc3\xa9</p>",
            Some("text/html; charset=iso-8859-1"),
            "café",
            "UTF-8",
            CharsetSource::Bom,
        );
        check("<meta charset=Shift_JIS><p>日本語</p>".as_bytes(), None, "日本語", "UTF-8", CharsetSource::Utf8Override);
        // Real Shift_JIS bytes for 日本 declared in the header.
        check(
            b"<p>\x93\xfa\x96\x7b</p>",
            Some("text/html;charset=\"Shift_JIS\""),
            "日本",
            "Shift_JIS",
            CharsetSource::Header,
        );
        check(
            b"<meta http-equiv='Content-Type' content='text/html; charset=gb2312'><p>\xd6\xd0\xce\xc4</p>",
            None,
            "中文",
            "GBK",
            CharsetSource::Meta,
        );
        // UTF-16 with a BOM.
        check(b"\xff\xfe<\0p\0>\0h\0i\0", None, "<p>hi", "UTF-16LE", CharsetSource::Bom);
        // Garbage labels fall back.
        check(b"<p>ok</p>", Some("text/html; charset=nonsense"), "ok", "UTF-8", CharsetSource::Default);
    }

    #[test]
    fn charset_param_cases() {
        assert_eq!(charset_param("text/html; charset=UTF-8").as_deref(), Some("UTF-8"));
        assert_eq!(charset_param("text/html;CHARSET='x'").as_deref(), Some("x"));
        assert_eq!(charset_param("text/html"), None);
        assert_eq!(charset_param("text/html; charset="), None);
    }
}
