//! The one error type of the crate: each failure classified by what failed (the URL, the
//! address guard, name lookup, connection, TLS, time, the answer), its sentence for people,
//! and its API error code and status.

use std::error::Error as StdError;
use std::fmt;
use std::net::IpAddr;
use std::time::Duration;
use vocab::ErrorCode;

use url::Url;

/// The setting that lets the address guard through a target, named in every refusal
/// (docs/API.md, "Errors").
pub const ALLOW_TARGET_SETTING: &str = "SEO_AUDIT_ALLOW_TARGETS";

/// Why a connection failed or broke off (an [`Error::Connect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConnectFailure {
    /// Nothing accepts connections at the address and port.
    Refused,
    /// The target reset the connection.
    Reset,
    /// The target closed the connection before its answer was complete.
    Closed,
    /// No network route leads to the target.
    NoRoute,
    /// Any other connection failure.
    Other,
}

/// Why a TLS handshake failed (an [`Error::Tls`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlsFailure {
    /// The target answered in plain HTTP: it does not speak TLS at that port.
    PlainHttp,
    /// The certificate has expired (or is not valid yet).
    Expired,
    /// The certificate is for another name.
    WrongName,
    /// The certificate is not signed by a trusted authority.
    Untrusted,
    /// Any other handshake failure.
    Other,
}

/// Which time limit ran out (an [`Error::Timeout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeoutPhase {
    /// Connecting (TCP and TLS) took longer than the connect limit.
    Connect,
    /// The whole answer (all redirects and the body) took longer than the total limit.
    Answer,
}

/// Why a name lookup failed (an [`Error::Dns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DnsFailure {
    /// The name does not exist, or has no address.
    NoSuchName,
    /// The DNS servers did not answer.
    NoAnswer,
    /// The name is under `.invalid` (RFC 6761 §6.4), which never resolves.
    Reserved,
    /// Offline mode: a name not on the allow-list is not looked up.
    Offline,
}

/// Everything that can go wrong while validating a URL or fetching a target.
///
/// Each variant maps to exactly one API error code ([`Error::code`]) and HTTP status
/// ([`Error::http_status`]), as listed in docs/API.md ("Errors"), so the server needs no
/// knowledge of the variants.
///
/// `Display` is the sentence sent to people (docs/API.md, "Errors": a capital first letter,
/// a final period): it names the host and what failed (name lookup, connection, TLS, time
/// limit, the answer) in our words, never a library's, and where there is something to do,
/// says what. [`Error::detail`] holds the libraries' cause chain for the log. The sentences
/// never name the address a name resolved to (that would make the service a DNS oracle into
/// its own network; the fields keep it for the log), and every text that comes from a target
/// (a `Location`, a content type) is cut to [`MAX_ECHO_CHARS`] characters by [`clip`].
///
/// The type is `Clone` because the guarded DNS resolver hands its errors through reqwest
/// and they are recovered from the error's source chain by reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL is not acceptable: not parseable, a scheme other than http/https,
    /// user name or password present, longer than [`crate::MAX_URL_LEN`] bytes, or no
    /// host. The string says which rule was broken.
    #[error("{}", Sentence(self))]
    InvalidUrl(String),

    /// The address guard refused the target: it is (or resolves only to) a loopback,
    /// private, link-local, multicast or otherwise non-public address, or it is a
    /// `localhost` name. Also returned when a redirect leads to such a target.
    ///
    /// The message names the host as given; when the host is a name that resolved to a
    /// refused address, it says only that, never the address or its kind.
    #[error("{}", Sentence(self))]
    Blocked {
        /// The host as it appeared in the URL (a name or an address literal).
        host: String,
        /// The refused address, when the refusal was about an address and not a name.
        addr: Option<IpAddr>,
        /// Why it was refused, e.g. `loopback` or `private (rfc 1918)`.
        reason: &'static str,
    },

    /// The host name could not be resolved to any address.
    #[error("{}", Sentence(self))]
    Dns {
        /// The name that failed to resolve.
        host: String,
        /// Why.
        failure: DnsFailure,
        /// What the resolver said, for the log.
        detail: String,
    },

    /// No TCP connection could be made, or it broke off before the answer was complete.
    #[error("{}", Sentence(self))]
    Connect {
        /// The host (and port, when not the scheme's) of the URL.
        host: String,
        /// What happened.
        failure: ConnectFailure,
        /// For an `https://` URL on port 443, the same URL with `http://`, suggested when the
        /// connection is refused: a bare host is tried with `https://` first, and a site
        /// that serves only HTTP has nothing listening on 443.
        http_url: Option<String>,
        /// The libraries' cause chain, for the log.
        detail: String,
    },

    /// The TLS handshake failed.
    #[error("{}", Sentence(self))]
    Tls {
        /// The host (and port, when not the scheme's) of the URL.
        host: String,
        /// What went wrong.
        failure: TlsFailure,
        /// The same URL with `http://`, suggested to the user.
        http_url: String,
        /// The libraries' cause chain, for the log.
        detail: String,
    },

    /// The target redirected more often than allowed.
    #[error("{}", Sentence(self))]
    TooManyRedirects {
        /// The number of redirects that may be followed.
        limit: usize,
    },

    /// A redirect led back to a URL already visited in the same fetch.
    #[error("{}", Sentence(self))]
    RedirectLoop {
        /// The URL that was about to be visited a second time.
        url: String,
    },

    /// A redirect's `Location` could not be followed: not a URL, or one that
    /// [`crate::validate_url`]'s rules refuse (another scheme, credentials, too long).
    #[error("{}", Sentence(self))]
    InvalidRedirect {
        /// The `Location` header as sent (lossily decoded).
        location: String,
        /// Which rule it broke.
        reason: String,
    },

    /// The target did not answer completely within a time limit.
    #[error("{}", Sentence(self))]
    Timeout {
        /// The host (and port, when not the scheme's) of the URL.
        host: String,
        /// Which limit ran out.
        phase: TimeoutPhase,
        /// The limit, in milliseconds.
        limit_ms: u64,
    },

    /// The page answered with a content type that is not HTML.
    #[error("{}", Sentence(self))]
    NotHtml {
        /// The `Content-Type` header as sent.
        content_type: String,
    },

    /// The answer is compressed in an encoding this service does not decode (it decodes
    /// gzip, deflate, brotli and zstd).
    #[error("{}", Sentence(self))]
    Encoding {
        /// The `Content-Encoding` header as sent.
        encoding: String,
    },

    /// The body, after decompression, is larger than the limit.
    #[error("{}", Sentence(self))]
    TooLarge {
        /// The limit in bytes that was exceeded.
        limit: usize,
    },

    /// Any other failure while talking HTTP to the target (malformed response, broken
    /// body, bad compression).
    #[error("{}", Sentence(self))]
    Http {
        /// The host (and port, when not the scheme's) of the URL.
        host: String,
        /// The libraries' cause chain, for the log.
        detail: String,
    },

    /// The fetcher itself is misconfigured (bad allow-list entry, bad header name given
    /// by the caller, client construction failure). Not the target's fault.
    #[error("{}", Sentence(self))]
    Config(String),
}

/// The sentence of an [`Error`], its `Display`.
struct Sentence<'a>(&'a Error);

impl fmt::Display for Sentence<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Error::InvalidUrl(reason) => write!(f, "The URL is not valid: {}.", clip(reason)),
            Error::Blocked { host, addr, reason } => blocked_sentence(f, host, addr, reason),
            Error::Dns { host, failure, .. } => {
                let host = clip(host);
                match failure {
                    DnsFailure::NoSuchName => write!(
                        f,
                        "Name lookup failed: {host} does not exist in DNS or has no address. Check the spelling of the address."
                    ),
                    DnsFailure::NoAnswer => {
                        write!(f, "Name lookup for {host} failed: the DNS servers did not answer. Try again later.")
                    }
                    DnsFailure::Reserved => {
                        write!(f, "Name lookup failed: {host} is under .invalid, a domain that never resolves.")
                    }
                    DnsFailure::Offline => write!(
                        f,
                        "Name lookup for {host} was not made: this service runs offline and reaches only the targets its operator allows with --allow-target ({ALLOW_TARGET_SETTING})."
                    ),
                }
            }
            Error::Connect { host, failure, http_url, .. } => {
                let host = clip(host);
                match failure {
                    ConnectFailure::Refused => match http_url {
                        Some(http_url) => write!(
                            f,
                            "The connection to {host} was refused: nothing accepts HTTPS connections there (port 443). If the site has no HTTPS, try {}.",
                            clip(http_url)
                        ),
                        None => write!(
                            f,
                            "The connection to {host} was refused: nothing accepts connections at that address and port. Check the address and port."
                        ),
                    },
                    ConnectFailure::Reset => {
                        write!(f, "The connection to {host} was reset before the answer was complete.")
                    }
                    ConnectFailure::Closed => {
                        write!(f, "The connection to {host} was closed before the answer was complete.")
                    }
                    ConnectFailure::NoRoute => write!(f, "The connection to {host} failed: no network route leads there."),
                    ConnectFailure::Other => write!(f, "The connection to {host} failed."),
                }
            }
            Error::Tls { host, failure, http_url, .. } => {
                let host = clip(host);
                let why = match failure {
                    TlsFailure::PlainHttp => "it answered in plain HTTP, not HTTPS",
                    TlsFailure::Expired => "its certificate has expired or is not valid yet",
                    TlsFailure::WrongName => "its certificate is for another name",
                    TlsFailure::Untrusted => "its certificate is not signed by a trusted authority",
                    TlsFailure::Other => "the handshake broke off",
                };
                write!(
                    f,
                    "The TLS handshake with {host} failed: {why}. If the site has no working HTTPS, try {}.",
                    clip(http_url)
                )
            }
            Error::TooManyRedirects { limit } => write!(
                f,
                "The target redirected more than {limit} times, the most this service follows; audit the address the redirects lead to."
            ),
            Error::RedirectLoop { url } => {
                write!(f, "The target's redirects lead in a loop, back to {}; the page cannot be reached.", clip(url))
            }
            Error::InvalidRedirect { location, reason } => write!(
                f,
                "The target redirected to {:?}, which cannot be followed: {}.",
                clip(location).as_ref(),
                clip(reason)
            ),
            Error::Timeout { host, phase, limit_ms } => {
                let host = clip(host);
                let limit = seconds(*limit_ms);
                match phase {
                    TimeoutPhase::Connect => write!(f, "The connection to {host} timed out after {limit}."),
                    TimeoutPhase::Answer => write!(f, "The answer from {host} did not arrive within {limit}, the time limit."),
                }
            }
            Error::NotHtml { content_type } => write!(
                f,
                "The target answered with content type {:?}, not an HTML page; only HTML pages can be audited.",
                clip(content_type).as_ref()
            ),
            Error::Encoding { encoding } => write!(
                f,
                "The target answered in content encoding {:?}, which this service does not decode; it reads gzip, deflate, brotli, zstd and uncompressed answers.",
                clip(encoding).as_ref()
            ),
            Error::TooLarge { limit } => {
                write!(f, "The answer is larger than {}, the most this service reads (after decompression).", size(*limit))
            }
            Error::Http { host, .. } => write!(f, "The answer from {} is not valid HTTP.", clip(host)),
            Error::Config(reason) => write!(f, "The fetcher is misconfigured: {}.", clip(reason)),
        }
    }
}

impl Error {
    /// The API error code of this error (docs/API.md, "Errors").
    pub fn error_code(&self) -> ErrorCode {
        match self {
            Error::InvalidUrl(_) => ErrorCode::InvalidUrl,
            Error::Blocked { .. } => ErrorCode::BlockedTarget,
            Error::Dns { .. }
            | Error::Connect { .. }
            | Error::Tls { .. }
            | Error::TooManyRedirects { .. }
            | Error::RedirectLoop { .. }
            | Error::InvalidRedirect { .. }
            | Error::Http { .. } => ErrorCode::TargetUnreachable,
            Error::Timeout { .. } => ErrorCode::TargetTimeout,
            Error::NotHtml { .. } | Error::Encoding { .. } => ErrorCode::NotHtml,
            Error::TooLarge { .. } => ErrorCode::TargetTooLarge,
            Error::Config(_) => ErrorCode::Internal,
        }
    }

    /// The wire name of [`Error::error_code`].
    pub fn code(&self) -> &'static str {
        self.error_code().as_str()
    }

    /// The HTTP status the API answers with for this error (400, 422, 502, 504; 500 for
    /// [`Error::Config`]).
    pub fn http_status(&self) -> u16 {
        match self.error_code() {
            ErrorCode::InvalidUrl => 400,
            ErrorCode::BlockedTarget | ErrorCode::NotHtml | ErrorCode::TargetTooLarge => 422,
            ErrorCode::TargetUnreachable => 502,
            ErrorCode::TargetTimeout => 504,
            _ => 500,
        }
    }

    /// What the libraries said (the cause chain), for the log only; `None` when the
    /// sentence says all there is.
    pub fn detail(&self) -> Option<&str> {
        match self {
            Error::Dns { detail, .. }
            | Error::Connect { detail, .. }
            | Error::Tls { detail, .. }
            | Error::Http { detail, .. } => Some(detail).filter(|d| !d.is_empty()).map(String::as_str),
            Error::Config(reason) => Some(reason),
            _ => None,
        }
    }

    /// The address guard refused the target (`blocked_target`).
    pub fn is_blocked(&self) -> bool {
        matches!(self, Error::Blocked { .. })
    }

    /// The target was too slow (`target_timeout`).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout { .. })
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

    /// No answer came at all: name lookup, connection or TLS failed, or time ran out (what
    /// RFC 9309 calls an unreachable robots.txt).
    pub fn is_no_answer(&self) -> bool {
        matches!(self, Error::Dns { .. } | Error::Connect { .. } | Error::Tls { .. } | Error::Timeout { .. })
    }

    /// The page is not HTML (`not_html`).
    pub fn is_not_html(&self) -> bool {
        matches!(self, Error::NotHtml { .. })
    }

    /// The body exceeded the size limit (`target_too_large`).
    pub fn is_too_large(&self) -> bool {
        matches!(self, Error::TooLarge { .. })
    }

    /// The total time limit ran out while fetching `url`.
    pub(crate) fn timeout(url: &Url, limit: Duration) -> Error {
        Error::Timeout { host: host_of(url), phase: TimeoutPhase::Answer, limit_ms: millis(limit) }
    }

    /// Classifies a reqwest error; `connect_timeout` is the connect limit it was sent with.
    ///
    /// Our own resolver's errors (a blocked or unresolvable name) arrive wrapped by hyper
    /// and reqwest, so the source chain is searched for them first; they must surface as
    /// themselves, not as a generic connection failure. Then TLS and socket errors are
    /// recognised by type, never by their text, except hyper's "incomplete message".
    pub(crate) fn from_reqwest(err: reqwest::Error, connect_timeout: Duration) -> Error {
        let url = err.url().cloned();
        let host = url.as_ref().map(host_of).unwrap_or_default();
        let detail = describe_sources(&err);
        let mut source: Option<&(dyn StdError + 'static)> = Some(&err);
        while let Some(current) = source {
            match find_in(current) {
                Some(Found::Own(own)) => return own,
                Some(Found::Tls(failure)) => {
                    let http_url = url.as_ref().map(http_twin).unwrap_or_default();
                    return Error::Tls { host, failure, http_url, detail };
                }
                Some(Found::Socket(failure)) => {
                    let http_url = url.as_ref().filter(|u| u.scheme() == "https" && u.port().is_none()).map(http_twin);
                    return Error::Connect { host, failure, http_url, detail };
                }
                Some(Found::SocketTimeout) => {
                    return Error::Timeout { host, phase: TimeoutPhase::Connect, limit_ms: millis(connect_timeout) }
                }
                None => {}
            }
            source = current.source();
        }
        if err.is_timeout() {
            return Error::Timeout { host, phase: TimeoutPhase::Connect, limit_ms: millis(connect_timeout) };
        }
        if detail.contains("connection closed before message completed") {
            return Error::Connect { host, failure: ConnectFailure::Closed, http_url: None, detail };
        }
        if err.is_connect() {
            Error::Connect { host, failure: ConnectFailure::Other, http_url: None, detail }
        } else {
            Error::Http { host, detail }
        }
    }
}

// The guard's reasons for a refusal that the sentences below tell apart. They live with the
// error rather than in guard.rs, which reports them, so that the guard depends on the error
// type and not the other way round.
/// Why offline mode refuses a target.
pub(crate) const OFFLINE_REASON: &str = "offline mode: not on the allow-list";
/// Why a `localhost` name is refused.
pub(crate) const LOCAL_NAME_REASON: &str = "localhost name";
/// Why a name listed at other ports only is refused.
pub(crate) const OTHER_PORT_REASON: &str = "port not on the allow-list";

/// The refusal of the address guard, with the setting that would allow the target.
fn blocked_sentence(f: &mut fmt::Formatter<'_>, host: &str, addr: &Option<IpAddr>, reason: &str) -> fmt::Result {
    let shown = clip(host);
    let name_resolved = matches!(addr, Some(ip)
        if reason != OFFLINE_REASON && host.trim_start_matches('[').trim_end_matches(']') != ip.to_string());
    let is_local_name = addr.is_none() && reason == LOCAL_NAME_REASON;
    let allow = if is_local_name { "localhost".into() } else { shown.clone() };
    // A name the allow-list names at other ports only is refused with the sentence of any
    // name that leads inward: saying it is allowed elsewhere would show a caller an entry
    // of the operator's allow-list (docs/SECURITY.md, "The address guard").
    if name_resolved || reason == OTHER_PORT_REASON {
        write!(f, "The address guard refused {shown}: the name does not resolve to a public address.")?;
    } else if reason == OFFLINE_REASON {
        write!(f, "The address guard refused {shown}: this service runs offline and reaches only the targets its operator allows.")?;
    } else if is_local_name {
        write!(
            f,
            "The address guard refused {shown}: localhost names are not fetched, and an allowed 127.0.0.1 or ::1 does not cover them."
        )?;
    } else {
        write!(f, "The address guard refused {shown}, which is not a public address: {reason}.")?;
    }
    write!(f, " The operator of this service can allow it with --allow-target {allow} ({ALLOW_TARGET_SETTING}).")
}

/// What a link of the source chain tells.
enum Found {
    Own(Error),
    Tls(TlsFailure),
    Socket(ConnectFailure),
    SocketTimeout,
}

/// Looks at one link of a source chain for an error we know how to classify. An
/// `io::Error` does not list its wrapped error as its source, so it is opened explicitly.
fn find_in(err: &(dyn StdError + 'static)) -> Option<Found> {
    if let Some(own) = err.downcast_ref::<Error>() {
        return Some(Found::Own(own.clone()));
    }
    if let Some(tls) = err.downcast_ref::<rustls::Error>() {
        return Some(Found::Tls(tls_failure(tls)));
    }
    if let Some(io) = err.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref() {
            if let Some(found) = find_in(inner) {
                return Some(found);
            }
        }
        use std::io::ErrorKind as K;
        return match io.kind() {
            K::ConnectionRefused => Some(Found::Socket(ConnectFailure::Refused)),
            K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe => Some(Found::Socket(ConnectFailure::Reset)),
            K::UnexpectedEof => Some(Found::Socket(ConnectFailure::Closed)),
            K::HostUnreachable | K::NetworkUnreachable | K::AddrNotAvailable => {
                Some(Found::Socket(ConnectFailure::NoRoute))
            }
            K::TimedOut => Some(Found::SocketTimeout),
            _ => None,
        };
    }
    None
}

fn tls_failure(err: &rustls::Error) -> TlsFailure {
    use rustls::CertificateError as C;
    match err {
        rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType)
        | rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidEmptyPayload)
        | rustls::Error::InvalidMessage(rustls::InvalidMessage::MessageTooLarge) => TlsFailure::PlainHttp,
        rustls::Error::InvalidCertificate(cert) => match cert {
            C::Expired | C::NotValidYet | C::ExpiredContext { .. } | C::NotValidYetContext { .. } => {
                TlsFailure::Expired
            }
            C::NotValidForName | C::NotValidForNameContext { .. } => TlsFailure::WrongName,
            C::UnknownIssuer | C::BadSignature | C::Revoked => TlsFailure::Untrusted,
            _ => TlsFailure::Other,
        },
        _ => TlsFailure::Other,
    }
}

/// The host of `url` as a user reads it: the name or address, with the port when it is
/// not the scheme's default.
pub(crate) fn host_of(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    }
}

/// `url` with the `http` scheme (and without a path), what a user of an http-only site
/// should try; the port stays as given.
fn http_twin(url: &Url) -> String {
    format!("http://{}/", host_of(url))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `15000` → `15 seconds`, `800` → `0.8 seconds`.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        let s = ms / 1000;
        format!("{s} second{}", if s == 1 { "" } else { "s" })
    } else {
        format!("{} seconds", ms as f64 / 1000.0)
    }
}

/// `5242880` → `5 MiB`, `16384` → `16 KiB`, else bytes.
fn size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
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

/// The messages of the error's sources, without reqwest's own top line (which repeats the
/// URL), joined with `": "`: the cause chain for the log.
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
        err.to_string()
    } else {
        parts.join(": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(err: Error, code: &str, status: u16, message: &str) {
        assert_eq!((err.code(), err.http_status()), (code, status), "{err:?}");
        assert_eq!(err.to_string(), message);
        assert_sentence(message);
    }

    /// docs/API.md, "Errors": a capital first letter, a final period.
    fn assert_sentence(message: &str) {
        assert!(message.starts_with(|c: char| c.is_uppercase()), "{message}");
        assert!(message.ends_with('.'), "{message}");
    }

    fn connect(failure: ConnectFailure) -> Error {
        Error::Connect {
            host: "shop.example:8080".into(),
            failure,
            http_url: None,
            detail: "tcp connect error (os error 111)".into(),
        }
    }

    fn tls(failure: TlsFailure) -> Error {
        Error::Tls {
            host: "shop.example".into(),
            failure,
            http_url: "http://shop.example/".into(),
            detail: "received corrupt message of type InvalidContentType".into(),
        }
    }

    #[test]
    fn codes_statuses_and_messages() {
        check(
            Error::InvalidUrl("it contains a user name or password".into()),
            "invalid_url",
            400,
            "The URL is not valid: it contains a user name or password.",
        );
        check(
            Error::Blocked {
                host: "169.254.169.254".into(),
                addr: Some(IpAddr::from([169, 254, 169, 254])),
                reason: "link-local (cloud metadata)",
            },
            "blocked_target",
            422,
            "The address guard refused 169.254.169.254, which is not a public address: link-local (cloud metadata). \
             The operator of this service can allow it with --allow-target 169.254.169.254 (SEO_AUDIT_ALLOW_TARGETS).",
        );
        check(
            Error::Blocked { host: "localhost".into(), addr: None, reason: LOCAL_NAME_REASON },
            "blocked_target",
            422,
            "The address guard refused localhost: localhost names are not fetched, and an allowed 127.0.0.1 or ::1 \
             does not cover them. The operator of this service can allow it with --allow-target localhost \
             (SEO_AUDIT_ALLOW_TARGETS).",
        );
        // A name listed at another port reads as any name leading inward, and a name that
        // resolved inward never names its address: neither shows the allow-list or the
        // network.
        let inward = "The address guard refused intranet.example: the name does not resolve to a public address. The \
             operator of this service can allow it with --allow-target intranet.example (SEO_AUDIT_ALLOW_TARGETS).";
        check(
            Error::Blocked { host: "intranet.example".into(), addr: None, reason: OTHER_PORT_REASON },
            "blocked_target",
            422,
            inward,
        );
        check(
            Error::Blocked {
                host: "intranet.example".into(),
                addr: Some(IpAddr::from([10, 0, 0, 7])),
                reason: "private (rfc 1918)",
            },
            "blocked_target",
            422,
            inward,
        );
        check(
            Error::Blocked { host: "app.localhost".into(), addr: None, reason: LOCAL_NAME_REASON },
            "blocked_target",
            422,
            "The address guard refused app.localhost: localhost names are not fetched, and an allowed 127.0.0.1 or \
             ::1 does not cover them. The operator of this service can allow it with --allow-target localhost \
             (SEO_AUDIT_ALLOW_TARGETS).",
        );
        check(
            Error::Dns { host: "a.invalid".into(), failure: DnsFailure::Reserved, detail: String::new() },
            "target_unreachable",
            502,
            "Name lookup failed: a.invalid is under .invalid, a domain that never resolves.",
        );
        check(
            Error::Dns { host: "shop.example".into(), failure: DnsFailure::NoSuchName, detail: "x".into() },
            "target_unreachable",
            502,
            "Name lookup failed: shop.example does not exist in DNS or has no address. Check the spelling of the address.",
        );
        check(
            connect(ConnectFailure::Refused),
            "target_unreachable",
            502,
            "The connection to shop.example:8080 was refused: nothing accepts connections at that address and port. \
             Check the address and port.",
        );
        check(
            Error::Connect {
                host: "shop.example".into(),
                failure: ConnectFailure::Refused,
                http_url: Some("http://shop.example/".into()),
                detail: String::new(),
            },
            "target_unreachable",
            502,
            "The connection to shop.example was refused: nothing accepts HTTPS connections there (port 443). If the \
             site has no HTTPS, try http://shop.example/.",
        );
        check(
            connect(ConnectFailure::Reset),
            "target_unreachable",
            502,
            "The connection to shop.example:8080 was reset before the answer was complete.",
        );
        check(
            tls(TlsFailure::PlainHttp),
            "target_unreachable",
            502,
            "The TLS handshake with shop.example failed: it answered in plain HTTP, not HTTPS. If the site has no \
             working HTTPS, try http://shop.example/.",
        );
        check(
            Error::TooManyRedirects { limit: 5 },
            "target_unreachable",
            502,
            "The target redirected more than 5 times, the most this service follows; audit the address the redirects \
             lead to.",
        );
        check(
            Error::RedirectLoop { url: "http://a/".into() },
            "target_unreachable",
            502,
            "The target's redirects lead in a loop, back to http://a/; the page cannot be reached.",
        );
        check(
            Error::InvalidRedirect {
                location: "ftp://a/".into(),
                reason: "the scheme \"ftp\" is not http or https".into(),
            },
            "target_unreachable",
            502,
            "The target redirected to \"ftp://a/\", which cannot be followed: the scheme \"ftp\" is not http or https.",
        );
        check(
            Error::Timeout { host: "shop.example".into(), phase: TimeoutPhase::Answer, limit_ms: 15_000 },
            "target_timeout",
            504,
            "The answer from shop.example did not arrive within 15 seconds, the time limit.",
        );
        check(
            Error::Timeout { host: "shop.example".into(), phase: TimeoutPhase::Connect, limit_ms: 800 },
            "target_timeout",
            504,
            "The connection to shop.example timed out after 0.8 seconds.",
        );
        check(
            Error::NotHtml { content_type: "image/png".into() },
            "not_html",
            422,
            "The target answered with content type \"image/png\", not an HTML page; only HTML pages can be audited.",
        );
        check(
            Error::TooLarge { limit: 5 * 1024 * 1024 },
            "target_too_large",
            422,
            "The answer is larger than 5 MiB, the most this service reads (after decompression).",
        );
        check(
            Error::Http { host: "shop.example".into(), detail: "bad chunk".into() },
            "target_unreachable",
            502,
            "The answer from shop.example is not valid HTTP.",
        );
        check(Error::Config("bad entry".into()), "internal", 500, "The fetcher is misconfigured: bad entry.");
    }

    #[test]
    fn every_kind_of_failure_is_a_sentence_of_ours() {
        let mut all = vec![];
        for f in [
            ConnectFailure::Refused,
            ConnectFailure::Reset,
            ConnectFailure::Closed,
            ConnectFailure::NoRoute,
            ConnectFailure::Other,
        ] {
            all.push(connect(f));
        }
        for f in [
            TlsFailure::PlainHttp,
            TlsFailure::Expired,
            TlsFailure::WrongName,
            TlsFailure::Untrusted,
            TlsFailure::Other,
        ] {
            all.push(tls(f));
        }
        for f in [DnsFailure::NoSuchName, DnsFailure::NoAnswer, DnsFailure::Reserved, DnsFailure::Offline] {
            all.push(Error::Dns { host: "shop.example".into(), failure: f, detail: "os error 2".into() });
        }
        for err in all {
            let message = err.to_string();
            assert_sentence(&message);
            assert!(message.contains("shop.example"), "names the host: {message}");
            for leak in ["os error", "client error", "tcp connect", "InvalidContentType", "corrupt message"] {
                assert!(!message.contains(leak), "{message}");
            }
            // The cause chain is kept for the log.
            assert!(err.detail().is_some(), "{err:?}");
        }
        // Every TLS failure suggests the http:// address.
        assert!(tls(TlsFailure::Expired).to_string().ends_with("try http://shop.example/."));
    }

    #[test]
    fn names_never_reveal_what_they_resolve_to() {
        let err =
            Error::Blocked { host: "rebind.test".into(), addr: Some(IpAddr::from([127, 0, 0, 1])), reason: "loopback" };
        assert!(
            err.to_string()
                .starts_with("The address guard refused rebind.test: the name does not resolve to a public address."),
            "{err}"
        );
        assert!(!err.to_string().contains("127.0.0.1") && !err.to_string().contains("loopback"), "{err}");
        let v6 = Error::Blocked { host: "[::1]".into(), addr: Some("::1".parse().unwrap()), reason: "loopback" };
        assert!(v6
            .to_string()
            .starts_with("The address guard refused [::1], which is not a public address: loopback."));
        let v6_name = Error::Blocked { host: "six.test".into(), addr: Some("fd00::1".parse().unwrap()), reason: "ula" };
        assert!(!v6_name.to_string().contains("fd00"), "{v6_name}");
    }

    #[test]
    fn limits_read_as_people_write_them() {
        assert_eq!(seconds(15_000), "15 seconds");
        assert_eq!(seconds(1_000), "1 second");
        assert_eq!(seconds(800), "0.8 seconds");
        assert_eq!(size(5 * 1024 * 1024), "5 MiB");
        assert_eq!(size(16 * 1024), "16 KiB");
        assert_eq!(size(1000), "1000 bytes");
        let url = Url::parse("https://[::1]:8443/a?b").unwrap();
        assert_eq!(host_of(&url), "[::1]:8443");
        assert_eq!(http_twin(&url), "http://[::1]:8443/");
        assert_eq!(http_twin(&Url::parse("https://shop.example/x").unwrap()), "http://shop.example/");
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
            Error::InvalidRedirect {
                location: location.clone(),
                reason: "the scheme \"ftp\" is not http or https".into(),
            },
            Error::RedirectLoop { url: location.clone() },
            Error::NotHtml { content_type: location.clone() },
            Error::Http { host: location.clone(), detail: String::new() },
            Error::Connect {
                host: location.clone(),
                failure: ConnectFailure::Other,
                http_url: None,
                detail: String::new(),
            },
            Error::Dns { host: location.clone(), failure: DnsFailure::NoSuchName, detail: String::new() },
            Error::InvalidUrl(location.clone()),
            Error::Blocked { host: location.clone(), addr: None, reason: "localhost name" },
        ];
        for err in errors {
            let message = err.to_string();
            assert!(message.chars().count() <= 2 * MAX_ECHO_CHARS + 260, "{} chars: {err:?}", message.len());
            assert!(message.contains('…'), "{message}");
        }
    }

    #[test]
    fn predicates_follow_the_codes() {
        let all = [
            Error::InvalidUrl(String::new()),
            Error::Blocked { host: String::new(), addr: None, reason: "" },
            Error::Connect {
                host: String::new(),
                failure: ConnectFailure::Refused,
                http_url: None,
                detail: String::new(),
            },
            Error::Timeout { host: String::new(), phase: TimeoutPhase::Answer, limit_ms: 1 },
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
