//! `validate_url`: the `invalid_url` rules of docs/API.md ("GET /api/v1/audit").

use fetch::{validate_url, MAX_URL_LEN};

/// `Some(expected serialisation)` when accepted, `None` when refused as `invalid_url`.
fn check(input: &str, expected: Option<&str>) {
    match (validate_url(input), expected) {
        (Ok(url), Some(want)) => assert_eq!(url.as_str(), want, "{input:?}"),
        (Err(err), None) => {
            assert!(err.is_invalid_url(), "{input:?}: {err}");
            assert_eq!((err.code(), err.http_status()), ("invalid_url", 400));
        }
        (got, want) => panic!("{input:?}: expected {want:?}, got {got:?}"),
    }
}

#[test]
fn accepted() {
    check("https://example.com/", Some("https://example.com/"));
    check("http://example.com", Some("http://example.com/"));
    check("  https://example.com/a?b=c#d  ", Some("https://example.com/a?b=c#d"));
    check("HTTPS://EXAMPLE.COM/Path", Some("https://example.com/Path"));
    check("https://bücher.example/", Some("https://xn--bcher-kva.example/"));
    check("http://8.8.8.8:8080/x", Some("http://8.8.8.8:8080/x"));
    check("http://[2606:4700::1111]/", Some("http://[2606:4700::1111]/"));
    // No scheme: https is assumed.
    check("example.com", Some("https://example.com/"));
    check("example.com/pricing?x=1", Some("https://example.com/pricing?x=1"));
    check("example.com:8443/a", Some("https://example.com:8443/a"));
    check("localhost:3000", Some("https://localhost:3000/"));
    check("//example.com/a", Some("https://example.com/a"));
    // WHATWG parsing, as in a browser's address bar: extra slashes are dropped.
    check("http:///path", Some("http://path/"));
}

#[test]
fn refused() {
    check("", None);
    check("   ", None);
    check("ftp://example.com/", None);
    check("file:///etc/passwd", None);
    check("mailto:someone@example.com", None);
    check("javascript:alert(1)", None);
    check("data:text/html,hi", None);
    check("ws://example.com/", None);
    check("http://user@example.com/", None);
    check("http://user:secret@example.com/", None);
    check("https://:secret@example.com/", None);
    check("http://", None);
    check("http://exa mple.com/", None);
    check("http://[::1/", None);
    check("http://example.com:99999/", None);
    check("http://300.1.1.1/", None);
}

#[test]
fn length_limit() {
    let base = "https://example.com/";
    let at_limit = format!("{base}{}", "a".repeat(MAX_URL_LEN - base.len()));
    check(&at_limit, Some(&at_limit));
    let over = format!("{base}{}", "a".repeat(MAX_URL_LEN - base.len() + 1));
    check(&over, None);
    // Short as typed, over the limit once percent-encoded.
    let expands = format!("{base}{}", "é".repeat(MAX_URL_LEN / 3));
    assert!(expands.len() <= MAX_URL_LEN);
    check(&expands, None);
}
