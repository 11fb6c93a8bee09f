//! The request headers, cookies and HTTP basic auth of a crawl of a staging site
//! (docs/API.md, "Staging sites"), and the one rule of where they go: to the crawled site's
//! own host, never to another.

use std::fmt;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, COOKIE};
use url::Url;

/// Headers (cookies and basic auth included) a crawl carries at most.
pub const MAX_SITE_HEADERS: usize = 20;

/// Bytes of all a crawl's headers together at most (names and values, cookies and basic auth
/// included): well under the 16 KiB many servers take of a request's head in all.
pub const MAX_SITE_HEADER_BYTES: usize = 8 * 1024;

/// Header names a caller may not set, lower case: those the HTTP client owns (`Host`,
/// `Content-Length`, `Transfer-Encoding`, the hop-by-hop headers of RFC 9110 §7.6.1, `TE`,
/// `Trailer`, `Upgrade`, `Expect`), `Accept-Encoding` (the client decodes only what it asks
/// for), `Proxy-Authorization` (no proxy is used), and `User-Agent` (chosen by the crawl's
/// `user_agent`, which robots.txt matching follows) and `Cookie` (given as cookies).
pub const REFUSED_SITE_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "upgrade",
    "expect",
    "accept-encoding",
    "user-agent",
    "cookie",
];

/// Why a header, cookie or basic auth of a crawl is refused. It names the header, never its
/// value: values are secrets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteHeaderError {
    /// Which of the request's fields is at fault: `headers`, `cookies` or `basic_auth`.
    pub field: &'static str,
    /// The header's name, when one is at fault (as given, at most 100 characters).
    pub header: Option<String>,
    /// What is wrong, as a sentence without the value.
    pub reason: String,
}

impl fmt::Display for SiteHeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.header {
            Some(name) => write!(f, "{name}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for SiteHeaderError {}

/// The headers a crawl sends to its site: checked (names, values, the refused names, at most
/// [`MAX_SITE_HEADERS`] and [`MAX_SITE_HEADER_BYTES`]), each value marked sensitive so that
/// the HTTP client never shows it. Its `Debug` shows the header names only.
///
/// A [`crate::Fetcher`] made with [`crate::Fetcher::for_site`] sends them on every request
/// to the site's host ([`SiteHeaders::applies_to`]), hop by hop: a redirect to another host
/// drops them, and link checks ([`crate::Fetcher::check_link`]) and posts never carry them.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct SiteHeaders {
    headers: HeaderMap,
    cookies: Vec<String>,
    basic_auth: Option<(String, String)>,
    bytes: usize,
    count: usize,
}

impl fmt::Debug for SiteHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.keys().map(HeaderName::as_str).collect();
        f.debug_struct("SiteHeaders")
            .field("headers", &names)
            .field("cookies", &self.cookies.len())
            .field("basic_auth", &self.basic_auth.is_some())
            .finish()
    }
}

fn short(name: &str) -> String {
    name.chars().take(100).collect()
}

impl SiteHeaders {
    /// None yet.
    pub fn new() -> SiteHeaders {
        SiteHeaders::default()
    }

    /// Whether there is nothing to send.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The header names set (cookies as `cookie`, basic auth as `authorization`), lower
    /// case: what may be said of them.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.headers.keys().map(|n| n.as_str().to_string()).collect();
        if !self.cookies.is_empty() {
            names.push("cookie".to_string());
        }
        if self.basic_auth.is_some() {
            names.push("authorization".to_string());
        }
        names
    }

    fn take(&mut self, field: &'static str, header: Option<&str>, bytes: usize) -> Result<(), SiteHeaderError> {
        let refuse = |reason: String| SiteHeaderError { field, header: header.map(short), reason };
        if self.count >= MAX_SITE_HEADERS {
            return Err(refuse(format!("at most {MAX_SITE_HEADERS} headers, cookies and basic auth together")));
        }
        if self.bytes.saturating_add(bytes) > MAX_SITE_HEADER_BYTES {
            return Err(refuse(format!("at most {MAX_SITE_HEADER_BYTES} bytes of headers, cookies and basic auth")));
        }
        self.count += 1;
        self.bytes += bytes;
        Ok(())
    }

    /// Adds the header `name: value` (a name given twice is sent twice).
    ///
    /// # Errors
    /// A name that is not an HTTP token or is refused ([`REFUSED_SITE_HEADERS`]), a value
    /// with control characters, an `Authorization` beside basic auth, or past the bounds.
    pub fn header(&mut self, name: &str, value: &str) -> Result<(), SiteHeaderError> {
        // What is not a header name is not named back: it may be a value given by mistake.
        let parsed = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| SiteHeaderError {
            field: "headers",
            header: None,
            reason: "a header name is a token (letters, digits, `-`...)".into(),
        })?;
        let refuse =
            |reason: &str| SiteHeaderError { field: "headers", header: Some(short(name)), reason: reason.into() };
        if REFUSED_SITE_HEADERS.contains(&parsed.as_str()) {
            return Err(refuse(match parsed.as_str() {
                "user-agent" => "the user agent is chosen with user_agent",
                "cookie" => "cookies are given with cookies",
                _ => "the service sets this header itself",
            }));
        }
        if parsed == AUTHORIZATION && self.basic_auth.is_some() {
            return Err(refuse("basic_auth sets it already"));
        }
        let mut value = HeaderValue::from_str(value.trim())
            .map_err(|_| refuse("the value has characters a header may not carry"))?;
        value.set_sensitive(true);
        self.take("headers", Some(name), parsed.as_str().len() + value.len() + 4)?;
        self.headers.append(parsed, value);
        Ok(())
    }

    /// Adds a cookie `name=value`; the cookies go in one `Cookie` header, in their order.
    ///
    /// # Errors
    /// Not `name=value` with a name of token characters, a value with `;`, control characters
    /// or spaces, or past the bounds.
    pub fn cookie(&mut self, cookie: &str) -> Result<(), SiteHeaderError> {
        let cookie = cookie.trim();
        let (name, value) = cookie.split_once('=').unwrap_or((cookie, ""));
        // A cookie without a proper name is not named back: it may be all value.
        if !cookie.contains('=') || name.is_empty() || HeaderName::from_bytes(name.as_bytes()).is_err() {
            let reason = "a cookie is name=value, the name a token".into();
            return Err(SiteHeaderError { field: "cookies", header: None, reason });
        }
        let refuse =
            |reason: &str| SiteHeaderError { field: "cookies", header: Some(short(name)), reason: reason.into() };
        // RFC 6265 §4.1.1: a cookie value has no control characters, spaces, `"`, `,`, `;`
        // or `\` (a quoted value keeps its quotes).
        let inner = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        if !inner.bytes().all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b',' | b';' | b'\\')) {
            return Err(refuse("the value has characters a cookie may not carry"));
        }
        self.take("cookies", Some(name), cookie.len() + 2)?;
        self.cookies.push(cookie.to_string());
        Ok(())
    }

    /// Sets HTTP basic auth (RFC 7617): `user` and `password`, sent as `Authorization: Basic`.
    ///
    /// # Errors
    /// Set twice, beside an `Authorization` header, a user name with `:` or control
    /// characters, a password with control characters, or past the bounds.
    pub fn basic_auth(&mut self, user: &str, password: &str) -> Result<(), SiteHeaderError> {
        let refuse = |reason: &str| SiteHeaderError { field: "basic_auth", header: None, reason: reason.into() };
        if self.basic_auth.is_some() || self.headers.contains_key(AUTHORIZATION) {
            return Err(refuse("given twice (an Authorization header, or basic auth, is set already)"));
        }
        if user.is_empty() || user.contains(':') || user.chars().any(char::is_control) {
            return Err(refuse("the user name is empty, or has a colon or control characters"));
        }
        if password.chars().any(char::is_control) {
            return Err(refuse("the password has control characters"));
        }
        // The header is `Basic ` and the base64 of `user:password`: 4 bytes for each 3.
        let encoded = (user.len() + password.len() + 1).div_ceil(3) * 4;
        self.take("basic_auth", None, "authorization".len() + "Basic ".len() + encoded + 4)?;
        self.basic_auth = Some((user.to_string(), password.to_string()));
        Ok(())
    }

    /// Adds them to `request`.
    pub(crate) fn apply(&self, mut request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request = request.headers(self.headers.clone());
        if !self.cookies.is_empty() {
            if let Ok(mut value) = HeaderValue::from_str(&self.cookies.join("; ")) {
                value.set_sensitive(true);
                request = request.header(COOKIE, value);
            }
        }
        if let Some((user, password)) = &self.basic_auth {
            // reqwest marks the header it makes sensitive.
            request = request.basic_auth(user, Some(password));
        }
        request
    }
}

/// [`SiteHeaders`] bound to the crawled site: the start URL's scheme, host and port.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct BoundSite {
    pub(crate) start: Url,
    pub(crate) headers: SiteHeaders,
}

impl fmt::Debug for BoundSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoundSite").field("origin", &self.start.origin()).field("headers", &self.headers).finish()
    }
}

impl BoundSite {
    /// Whether a request to `url` carries the headers: see [`applies_to`].
    pub(crate) fn applies_to(&self, url: &Url) -> bool {
        applies_to(&self.start, url)
    }
}

/// Whether a request to `url` carries the headers of a crawl that started at `start`: when
/// it is on the start's host (the same name, compared without case, or the same address),
/// with the same scheme and port, or over `https` on its default port when the start was
/// `http` on its default port (a site that moves to https keeps its staging password). Never
/// to another host, another port, a `www.` twin, or from `https` down to `http`, where the
/// network could read them.
pub fn applies_to(start: &Url, url: &Url) -> bool {
    let (Some(a), Some(b)) = (start.host_str(), url.host_str()) else { return false };
    if !a.trim_end_matches('.').eq_ignore_ascii_case(b.trim_end_matches('.')) {
        return false;
    }
    if start.scheme() == url.scheme() {
        return start.port_or_known_default() == url.port_or_known_default();
    }
    start.scheme() == "http" && url.scheme() == "https" && start.port().is_none() && url.port().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn they_go_to_the_start_host_only() {
        let start = url("http://staging.example.com/");
        for yes in [
            "http://staging.example.com/a?b",
            "http://STAGING.example.com:80/robots.txt",
            "https://staging.example.com/sitemap.xml",
        ] {
            assert!(applies_to(&start, &url(yes)), "{yes}");
        }
        for no in [
            "http://www.staging.example.com/",
            "http://example.com/",
            "http://staging.example.com:8080/",
            "https://staging.example.com:8443/",
            "http://staging.example.com.evil.test/",
            "ftp://staging.example.com/",
        ] {
            assert!(!applies_to(&start, &url(no)), "{no}");
        }
        let tls = url("https://staging.example.com/");
        assert!(!applies_to(&tls, &url("http://staging.example.com/")), "never down to http");
        let port = url("http://127.0.0.1:8080/");
        assert!(applies_to(&port, &url("http://127.0.0.1:8080/x")));
        assert!(!applies_to(&port, &url("http://127.0.0.1:8081/x")));
    }

    #[test]
    fn refused_names_and_bounds() {
        let mut h = SiteHeaders::new();
        for name in ["Host", "content-length", "Connection", "Transfer-Encoding", "User-Agent", "Cookie", "TE"] {
            let e = h.header(name, "x").unwrap_err();
            assert_eq!((e.field, e.header.as_deref()), ("headers", Some(name)), "{e}");
        }
        assert_eq!(h.header("bad name", "x").unwrap_err().field, "headers");
        assert!(h.header("X-Staging", "line\nbreak").is_err());
        h.header("X-Staging", "secret-token").unwrap();
        h.cookie("session=abc123").unwrap();
        for bad in ["novalue", "=x", "a=b;c=d", "a=b c"] {
            assert_eq!(h.cookie(bad).unwrap_err().field, "cookies", "{bad}");
        }
        h.basic_auth("preview", "p:ss").unwrap();
        assert_eq!(h.basic_auth("again", "x").unwrap_err().field, "basic_auth");
        assert!(h.header("Authorization", "Bearer x").is_err());
        assert_eq!(h.names(), ["x-staging", "cookie", "authorization"]);
        let shown = format!("{h:?}");
        assert!(!shown.contains("secret-token") && !shown.contains("abc123") && !shown.contains("p:ss"), "{shown}");

        let mut many = SiteHeaders::new();
        for i in 0..MAX_SITE_HEADERS {
            many.header(&format!("x-h{i}"), "v").unwrap();
        }
        assert!(many.header("x-one-more", "v").unwrap_err().reason.contains("at most 20"));
        let mut big = SiteHeaders::new();
        let value = "v".repeat(MAX_SITE_HEADER_BYTES);
        assert!(big.header("x-big", &value).unwrap_err().reason.contains("bytes"));
        let e = big.cookie(&format!("k={value}")).unwrap_err();
        assert!(!e.to_string().contains(&value[..50]), "a refusal never echoes a value");
        let mut no_user = SiteHeaders::new();
        assert!(no_user.basic_auth("a:b", "c").is_err());
        assert!(no_user.basic_auth("", "c").is_err());
    }
}
