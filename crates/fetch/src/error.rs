//! The one error type of the crate and its mapping to the API's error codes.

use std::error::Error as StdError;
use std::net::IpAddr;

/// Everything that can go wrong while validating a URL or fetching a target.
///
/// Each variant maps to exactly one API error code ([`Error::code`]) and HTTP status
/// ([`Error::http_status`]), as listed in docs/API.md ("Conventions of every endpoint"), so
/// the server needs no knowledge of the variants. Messages are lowercase without a final
/// period, and say what happened to the *target*; they contain nothing about the service
/// itself. The messages are sent to clients, so they never name the address a name
/// resolved to (that would make the service a DNS oracle into its own network; the fields
/// keep it for the log), and every text that comes from a target (a `Location`, a content
/// type, a transport error) is cut to [`MAX_ECHO_CHARS`] characters by [`clip`].
///
/// The type is `Clone` because the guarded DNS resolver hands its errors through reqwest
/// and they are recovered from the error's source chain by reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL is not acceptable: not parseable, a scheme other than http/https,
    /// user name or password present, longer than [`crate::MAX_URL_LEN`] bytes, or no
    /// host. The string says which rule was broken.
    #[error("invalid url: {}", clip(.0))]
    InvalidUrl(String),

    /// The address guard refused the target: it is (or resolves only to) a loopback,
    /// private, link-local, multicast or otherwise non-public address, or it is a
    /// `localhost` name. Also returned when a redirect leads to such a target.
    ///
    /// The message names the host as given; when the host is a name that resolved to a
    /// refused address, it says only that, never the address or its kind.
    #[error("blocked target {}: {}", clip(host), public_reason(host, addr, reason))]
    Blocked {
        /// The host as it appeared in the URL (a name or an address literal).
        host: String,
        /// The refused address, when the refusal was about an address and not a name.
        addr: Option<IpAddr>,
        /// Why it was refused, e.g. `loopback` or `private (rfc 1918)`.
        reason: &'static str,
    },

    /// The host name could not be resolved to any address.
    #[error("dns lookup failed for {}: {}", clip(host), clip(reason))]
    Dns {
        /// The name that failed to resolve.
        host: String,
        /// What the resolver said.
        reason: String,
    },

    /// No TCP connection could be made (refused, reset, unreachable network).
    #[error("connection failed: {}", clip(.0))]
    Connect(String),

    /// The TLS handshake failed (bad certificate, protocol mismatch).
    #[error("tls failed: {}", clip(.0))]
    Tls(String),

    /// The target redirected more often than allowed.
    #[error("more than {limit} redirects")]
    TooManyRedirects {
        /// The number of redirects that may be followed.
        limit: usize,
    },

    /// A redirect led back to a URL already visited in the same fetch.
    #[error("redirect loop at {}", clip(url))]
    RedirectLoop {
        /// The URL that was about to be visited a second time.
        url: String,
    },

    /// A redirect's `Location` could not be followed: not a URL, or one that
    /// [`crate::validate_url`]'s rules refuse (another scheme, credentials, too long).
    #[error("invalid redirect to {:?}: {}", clip(location), clip(reason))]
    InvalidRedirect {
        /// The `Location` header as sent (lossily decoded).
        location: String,
        /// Which rule it broke.
        reason: String,
    },

    /// The target did not answer completely within the time limit (connect or total).
    #[error("target did not answer in time")]
    Timeout,

    /// The page answered with a content type that is not HTML.
    #[error("content type {:?} is not html", clip(content_type))]
    NotHtml {
        /// The `Content-Type` header as sent.
        content_type: String,
    },

    /// The body, after decompression, is larger than the limit.
    #[error("body larger than {limit} bytes")]
    TooLarge {
        /// The limit in bytes that was exceeded.
        limit: usize,
    },

    /// Any other failure while talking HTTP to the target (malformed response,
    /// broken body, bad compression).
    #[error("http error: {}", clip(.0))]
    Http(String),

    /// The fetcher itself is misconfigured (bad allow-list entry, bad header name given
    /// by the caller, client construction failure). Not the target's fault.
    #[error("fetch configuration error: {}", clip(.0))]
    Config(String),
}

impl Error {
    /// The API error code of this error (docs/API.md, "Conventions of every endpoint").
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidUrl(_) => "invalid_url",
            Error::Blocked { .. } => "blocked_target",
            Error::Dns { .. }
            | Error::Connect(_)
            | Error::Tls(_)
            | Error::TooManyRedirects { .. }
            | Error::RedirectLoop { .. }
            | Error::InvalidRedirect { .. }
            | Error::Http(_) => "target_unreachable",
            Error::Timeout => "target_timeout",
            Error::NotHtml { .. } => "not_html",
            Error::TooLarge { .. } => "target_too_large",
            Error::Config(_) => "internal",
        }
    }

    /// The HTTP status the API answers with for this error (400, 422, 502, 504; 500 for
    /// [`Error::Config`]).
    pub fn http_status(&self) -> u16 {
        match self.code() {
            "invalid_url" => 400,
            "blocked_target" | "not_html" | "target_too_large" => 422,
            "target_unreachable" => 502,
            "target_timeout" => 504,
            _ => 500,
        }
    }

    /// The address guard refused the target (`blocked_target`).
    pub fn is_blocked(&self) -> bool {
        matches!(self, Error::Blocked { .. })
    }

    /// The target was too slow (`target_timeout`).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout)
    }

    /// The URL itself was refused before any network activity (`invalid_url`).
    pub fn is_invalid_url(&self) -> bool {
        matches!(self, Error::InvalidUrl(_))
    }

    /// The target could not be reached or spoke broken HTTP: DNS, connection, TLS,
    /// redirect failures (`target_unreachable`).
    pub fn is_unreachable(&self) -> bool {
        self.code() == "target_unreachable"
    }

    /// The page is not HTML (`not_html`).
    pub fn is_not_html(&self) -> bool {
        matches!(self, Error::NotHtml { .. })
    }

    /// The body exceeded the size limit (`target_too_large`).
    pub fn is_too_large(&self) -> bool {
        matches!(self, Error::TooLarge { .. })
    }

    /// Classifies a reqwest error.
    ///
    /// Our own resolver's errors (a blocked or unresolvable name) arrive wrapped by hyper
    /// and reqwest, so the source chain is searched for them first; they must surface as
    /// themselves, not as a generic connection failure.
    pub(crate) fn from_reqwest(err: reqwest::Error) -> Error {
        let mut source: Option<&(dyn StdError + 'static)> = Some(&err);
        while let Some(current) = source {
            if let Some(own) = find_in(current) {
                return own;
            }
            source = current.source();
        }
        if err.is_timeout() {
            return Error::Timeout;
        }
        let detail = describe_sources(&err);
        if err.is_connect() {
            Error::Connect(detail)
        } else {
            Error::Http(detail)
        }
    }
}

/// Most characters of a target's text (a header, a `Location`, a title) an error message
/// repeats; [`clip`] cuts the rest.
pub const MAX_ECHO_CHARS: usize = 200;

/// `text` cut to [`MAX_ECHO_CHARS`] characters (on a character boundary), with `…` after
/// the cut; unchanged when it is not longer.
///
/// ```
/// assert_eq!(fetch::clip("short"), "short");
/// let long = "é".repeat(300);
/// let cut = fetch::clip(&long);
/// assert_eq!(cut.chars().count(), fetch::MAX_ECHO_CHARS + 1);
/// assert!(cut.ends_with('…'));
/// ```
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// The reason a client may read: the guard's own reason when the host is the refused
/// address itself (or no address was involved); a fixed sentence when a name resolved to
/// it, so that the answer tells nothing of what the name resolves to. Offline mode refuses
/// every address alike, so its reason tells nothing either and is kept.
fn public_reason(host: &str, addr: &Option<IpAddr>, reason: &'static str) -> &'static str {
    match addr {
        Some(ip)
            if reason != crate::guard::OFFLINE_REASON
                && host.trim_start_matches('[').trim_end_matches(']') != ip.to_string() =>
        {
            "the name does not resolve to a public address"
        }
        _ => reason,
    }
}

/// Looks at one link of a source chain for an error we know how to classify. An
/// `io::Error` does not list its wrapped error as its source, so it is opened explicitly.
fn find_in(err: &(dyn StdError + 'static)) -> Option<Error> {
    if let Some(own) = err.downcast_ref::<Error>() {
        return Some(own.clone());
    }
    if let Some(tls) = err.downcast_ref::<rustls::Error>() {
        return Some(Error::Tls(tls.to_string().to_lowercase()));
    }
    if let Some(io) = err.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref() {
            return find_in(inner);
        }
    }
    None
}

/// The messages of the error's sources, without reqwest's own top line (which repeats the
/// URL), joined with `": "`.
fn describe_sources(err: &reqwest::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut source = err.source();
    while let Some(current) = source {
        let text = current.to_string();
        // Wrappers often repeat their cause's text; keep each message once.
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = current.source();
    }
    if parts.is_empty() {
        err.to_string().to_lowercase()
    } else {
        parts.join(": ").to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(err: Error, code: &str, status: u16, message: &str) {
        assert_eq!((err.code(), err.http_status()), (code, status), "{err:?}");
        assert_eq!(err.to_string(), message);
        assert!(!message.ends_with('.'));
    }

    #[test]
    fn codes_statuses_and_messages() {
        check(Error::InvalidUrl("credentials in url".into()), "invalid_url", 400, "invalid url: credentials in url");
        check(
            Error::Blocked {
                host: "169.254.169.254".into(),
                addr: Some(IpAddr::from([169, 254, 169, 254])),
                reason: "link-local (cloud metadata)",
            },
            "blocked_target",
            422,
            "blocked target 169.254.169.254: link-local (cloud metadata)",
        );
        check(
            Error::Blocked { host: "localhost".into(), addr: None, reason: "localhost name" },
            "blocked_target",
            422,
            "blocked target localhost: localhost name",
        );
        check(
            Error::Dns { host: "a.invalid".into(), reason: "no addresses".into() },
            "target_unreachable",
            502,
            "dns lookup failed for a.invalid: no addresses",
        );
        check(
            Error::Connect("connection refused".into()),
            "target_unreachable",
            502,
            "connection failed: connection refused",
        );
        check(Error::Tls("bad certificate".into()), "target_unreachable", 502, "tls failed: bad certificate");
        check(Error::TooManyRedirects { limit: 5 }, "target_unreachable", 502, "more than 5 redirects");
        check(Error::RedirectLoop { url: "http://a/".into() }, "target_unreachable", 502, "redirect loop at http://a/");
        check(
            Error::InvalidRedirect { location: "ftp://a/".into(), reason: "unsupported scheme \"ftp\"".into() },
            "target_unreachable",
            502,
            "invalid redirect to \"ftp://a/\": unsupported scheme \"ftp\"",
        );
        check(Error::Timeout, "target_timeout", 504, "target did not answer in time");
        check(
            Error::NotHtml { content_type: "image/png".into() },
            "not_html",
            422,
            "content type \"image/png\" is not html",
        );
        check(Error::TooLarge { limit: 5 }, "target_too_large", 422, "body larger than 5 bytes");
        check(Error::Http("bad chunk".into()), "target_unreachable", 502, "http error: bad chunk");
        check(Error::Config("bad entry".into()), "internal", 500, "fetch configuration error: bad entry");
    }

    #[test]
    fn names_never_reveal_what_they_resolve_to() {
        let err =
            Error::Blocked { host: "rebind.test".into(), addr: Some(IpAddr::from([127, 0, 0, 1])), reason: "loopback" };
        assert_eq!(err.to_string(), "blocked target rebind.test: the name does not resolve to a public address");
        let v6 = Error::Blocked { host: "[::1]".into(), addr: Some("::1".parse().unwrap()), reason: "loopback" };
        assert_eq!(v6.to_string(), "blocked target [::1]: loopback");
        let v6_name = Error::Blocked { host: "six.test".into(), addr: Some("fd00::1".parse().unwrap()), reason: "ula" };
        assert!(!v6_name.to_string().contains("fd00"), "{v6_name}");
    }

    #[test]
    fn clip_cuts_on_a_character_boundary() {
        assert_eq!(clip(""), "");
        let exact = "a".repeat(MAX_ECHO_CHARS);
        assert_eq!(clip(&exact), exact.as_str());
        assert!(matches!(clip(&exact), std::borrow::Cow::Borrowed(_)));
        let over = format!("{exact}b");
        assert_eq!(clip(&over), format!("{exact}…"));
        // Multi-byte characters: counted as characters, never split.
        let wide = "€😀".repeat(150);
        let cut = clip(&wide);
        assert_eq!(cut.chars().count(), MAX_ECHO_CHARS + 1);
        assert!(cut.starts_with("€😀€"));
        assert!(cut.ends_with("😀…"), "{cut}");
    }

    #[test]
    fn target_texts_are_cut_in_messages() {
        let location = format!("ftp://{}", "x".repeat(300_000));
        let errors = [
            Error::InvalidRedirect { location: location.clone(), reason: "unsupported scheme \"ftp\"".into() },
            Error::RedirectLoop { url: location.clone() },
            Error::NotHtml { content_type: location.clone() },
            Error::Http(location.clone()),
            Error::Connect(location.clone()),
            Error::Tls(location.clone()),
            Error::Dns { host: location.clone(), reason: location.clone() },
            Error::InvalidUrl(location.clone()),
            Error::Blocked { host: location.clone(), addr: None, reason: "localhost name" },
        ];
        for err in errors {
            let message = err.to_string();
            assert!(message.chars().count() <= 2 * MAX_ECHO_CHARS + 80, "{} chars: {err:?}", message.len());
            assert!(message.contains('…'), "{message}");
        }
    }

    #[test]
    fn predicates_follow_the_codes() {
        let all = [
            Error::InvalidUrl(String::new()),
            Error::Blocked { host: String::new(), addr: None, reason: "" },
            Error::Connect(String::new()),
            Error::Timeout,
            Error::NotHtml { content_type: String::new() },
            Error::TooLarge { limit: 0 },
        ];
        for err in all {
            let flags = [
                err.is_invalid_url(),
                err.is_blocked(),
                err.is_unreachable(),
                err.is_timeout(),
                err.is_not_html(),
                err.is_too_large(),
            ];
            assert_eq!(flags.iter().filter(|f| **f).count(), 1, "{err:?}");
        }
    }
}
