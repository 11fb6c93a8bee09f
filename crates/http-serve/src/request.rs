//! Reading a request, whatever the service: the client address behind trusted proxies, the
//! query string, the request id, the body within a size limit and a deadline, and the log
//! form of a URI with a secret parameter redacted.

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Uri};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;

/// Error type of request bodies.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// A request body of any origin (a socket, or a test's `Full`).
pub type Body = UnsyncBoxBody<Bytes, BodyError>;

/// A failure while receiving a request body. (A concrete type: with `BoxError` itself the
/// compiler cannot prove the body-reading future `Send`.)
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BodyError(pub String);

/// Why [`read_body`] (or a service holding the body) has no body to give.
#[derive(Debug, thiserror::Error)]
pub enum BodyReadError {
    /// Over the limit (413).
    #[error("the body is larger than {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Not received whole within the deadline (400 `invalid_request`).
    #[error("the body was not received within {ms} ms")]
    TimedOut {
        /// The timeout, in milliseconds.
        ms: u128,
    },
    /// The server holds its [`BodyBudget`] of bodies being received already (503
    /// `overloaded`): the body is refused rather than held.
    #[error("the server is receiving {budget} bytes of request bodies already")]
    Busy {
        /// The budget, in bytes.
        budget: usize,
    },
    /// A handler already took it.
    #[error("the body was already read")]
    AlreadyRead,
    /// The connection failed while it was received.
    #[error("{0}")]
    Broken(String),
}

/// The bytes of request bodies one server may hold while it receives them, across all its
/// connections and streams (docs/SECURITY.md, "Request bodies"). Each request may send up
/// to its size limit, slowly, and HTTP/2 multiplexes many requests on a connection: without
/// a budget for all of them together, six connections from one address held 1.5 GB.
#[derive(Debug, Clone)]
pub struct BodyBudget {
    held: Arc<AtomicUsize>,
    total: usize,
}

impl BodyBudget {
    /// A budget of `total` bytes.
    pub fn new(total: usize) -> BodyBudget {
        BodyBudget { held: Arc::new(AtomicUsize::new(0)), total }
    }

    /// Bytes held by bodies being received now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Acquire)
    }

    /// The budget, in bytes.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Takes `n` more bytes for `hold`, or `false` when the budget has not that many left.
    fn take(&self, hold: &mut Held, n: usize) -> bool {
        let taken = self.held.fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
            held.checked_add(n).filter(|after| *after <= self.total)
        });
        if taken.is_ok() {
            hold.bytes += n;
        }
        taken.is_ok()
    }
}

/// Bytes one body holds of its [`BodyBudget`], given back when dropped (the body is read
/// whole, refused or abandoned).
struct Held<'a> {
    budget: &'a BodyBudget,
    bytes: usize,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// Reads `body` whole: at most `limit` bytes (refused from the `Content-Length` of `headers`
/// before reading, else while reading, frame by frame), within `within`, each frame taken
/// from `budget` as it arrives (refused with [`BodyReadError::Busy`] when the budget is
/// spent). A client that announces a body and trickles it or never sends it cannot hold the
/// reader longer, and all the clients together cannot hold more than the budget. The
/// budget is given back when the body is read: what a handler does next with it (parse it,
/// then drop it) does not wait on the client.
pub async fn read_body(
    body: Body,
    headers: &HeaderMap,
    limit: usize,
    within: Duration,
    budget: &BodyBudget,
) -> Result<Bytes, BodyReadError> {
    let declared = headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(BodyReadError::TooLarge { limit });
    }
    // Within `limit` from here.
    let declared = declared.and_then(|n| usize::try_from(n).ok());
    let read = async move {
        let mut body = body;
        let mut held = Held { budget, bytes: 0 };
        let mut whole = bytes::BytesMut::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| BodyReadError::Broken(e.to_string()))?;
            let Ok(data) = frame.into_data() else { continue };
            if whole.len() + data.len() > limit {
                return Err(BodyReadError::TooLarge { limit });
            }
            if !budget.take(&mut held, data.len()) {
                return Err(BodyReadError::Busy { budget: budget.total });
            }
            append(&mut whole, &data, declared);
        }
        Ok(whole.freeze())
    };
    match tokio::time::timeout(within, read).await {
        Err(_) => Err(BodyReadError::TimedOut { ms: within.as_millis() }),
        Ok(result) => result,
    }
}

/// Bytes of a body received before its buffer is sized to the body's declared
/// `Content-Length`: one HTTP/2 stream window.
const SIZED_AFTER: usize = 64 * 1024;

/// Appends a frame of a body to the bytes received so far. Growing by doubling passes a body
/// through buffers of half, a quarter... of its size, and the allocator keeps their pages:
/// 32 stalled HTTP/2 bodies of 1 MB grew the process by 74 to 88 MiB read so, by 59 MiB
/// with their buffers sized once (docs/SECURITY.md, "Request bodies"). So once a body has sent
/// [`SIZED_AFTER`] bytes, its buffer is sized to its declared length (within the limit,
/// checked before). Not before: a client must send bytes the budget counts before the rest
/// is reserved, so at most the budget over [`SIZED_AFTER`] bodies (256 with 16 MiB) have a
/// reservation at once, and an untouched reservation costs no memory (with pages of the
/// normal size: the binary turns transparent huge pages off, since one huge page made 2 MiB
/// of a reservation resident for its first bytes).
fn append(whole: &mut bytes::BytesMut, data: &[u8], declared: Option<usize>) {
    let after = whole.len() + data.len();
    if let Some(declared) = declared {
        if after >= SIZED_AFTER && declared >= after && whole.capacity() < declared {
            whole.reserve(declared - whole.len());
        }
    }
    whole.extend_from_slice(data);
}

/// Whether the request says its body is JSON (`Content-Type: application/json`, parameters
/// allowed).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

/// First value of a query parameter, percent-decoded.
pub fn query_param(uri: &Uri, name: &str) -> Option<String> {
    let q = uri.query()?;
    url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}

/// Names of all query parameters, percent-decoded.
pub fn query_names(uri: &Uri) -> Vec<String> {
    let q = uri.query().unwrap_or("");
    url::form_urlencoded::parse(q.as_bytes()).map(|(k, _)| k.into_owned()).collect()
}

/// The client's `x-request-id` when it is a sane token (1 to 64 characters of letters,
/// digits and `-_.:`), else a new UUID.
pub fn request_id(headers: &HeaderMap) -> String {
    headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
        })
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string())
}

/// Path and query for the log, with the value of every parameter named one of `secrets`
/// (compared percent-decoded and without case) replaced by `REDACTED`.
pub fn redact(uri: &Uri, secrets: &[&str]) -> String {
    let path = uri.path();
    let Some(query) = uri.query() else { return path.to_string() };
    let parts: Vec<String> = query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            let decoded: String = url::form_urlencoded::parse(name.as_bytes()).map(|(k, _)| k.into_owned()).collect();
            if secrets.iter().any(|secret| decoded.eq_ignore_ascii_case(secret)) {
                format!("{name}=REDACTED")
            } else {
                pair.to_string()
            }
        })
        .collect();
    format!("{path}?{}", parts.join("&"))
}

/// The client address: the socket peer, or, when the peer is a trusted proxy, the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut chain: Vec<IpAddr> = Vec::new();
    for v in headers.get_all("x-forwarded-for") {
        let Ok(v) = v.to_str() else { return peer };
        for part in v.split(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) => chain.push(ip),
                // A garbled chain tells nothing reliable: fall back to the proxy itself.
                Err(_) => return peer,
            }
        }
    }
    chain.into_iter().rev().find(|ip| !trusted.contains(ip)).unwrap_or(peer)
}

/// The authority (`host[:port]`, lowercased) the request names when it names this machine: a
/// loopback name or address, or `listen` (the address the server listens on, unless
/// unspecified). HTTP/1.1 names the host in `Host`; HTTP/2 (what browsers speak over TLS) in
/// the request's `:authority`, which is the URI's. Any other authority is `None`: a forged
/// header must not make a service link to another site.
pub fn local_authority(headers: &HeaderMap, uri: &Uri, listen: IpAddr) -> Option<String> {
    let host = headers.get(http::header::HOST).and_then(|v| v.to_str().ok());
    let authority = match host {
        Some(host) => host.parse::<http::uri::Authority>().ok()?,
        None => uri.authority()?.clone(),
    };
    let name = authority.host().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    let trusted = name == "localhost"
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback() || (!listen.is_unspecified() && ip == listen));
    trusted.then(|| authority.as_str().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_redact(uri: &str, expected: &str) {
        assert_eq!(redact(&uri.parse().unwrap(), &["x-api-key", "share"]), expected, "{uri}");
    }

    #[test]
    fn keys_are_redacted_from_logged_paths() {
        check_redact("/api/v1/usage", "/api/v1/usage");
        check_redact("/api/v1/usage?x-api-key=sa_secret", "/api/v1/usage?x-api-key=REDACTED");
        check_redact("/a?url=x&x-api-key=sa_secret&b=1", "/a?url=x&x-api-key=REDACTED&b=1");
        check_redact("/a?x%2Dapi%2Dkey=sa_secret", "/a?x%2Dapi%2Dkey=REDACTED");
        check_redact("/a?X-API-KEY=sa_secret&x-api-key", "/a?X-API-KEY=REDACTED&x-api-key=REDACTED");
        // Every name given: a share link's token is a credential too.
        check_redact("/crawls/cr_1?sort=score&share=sh_x.1.sig", "/crawls/cr_1?sort=score&share=REDACTED");
        check_redact("/crawls/cr_1?shared=1", "/crawls/cr_1?shared=1");
    }

    fn check(peer: &str, xff: &[&str], trusted: &[&str], expected: &str) {
        let mut headers = HeaderMap::new();
        for v in xff {
            headers.append("x-forwarded-for", v.parse().unwrap());
        }
        let trusted: Vec<IpAddr> = trusted.iter().map(|s| s.parse().unwrap()).collect();
        let got = client_ip(peer.parse().unwrap(), &headers, &trusted);
        assert_eq!(got.to_string(), expected, "{peer} {xff:?} {trusted:?}");
    }

    #[test]
    fn forwarded_for_only_from_trusted_proxies() {
        check("1.2.3.4", &["9.9.9.9"], &[], "1.2.3.4");
        check("1.2.3.4", &["9.9.9.9"], &["10.0.0.1"], "1.2.3.4");
        check("10.0.0.1", &["9.9.9.9"], &["10.0.0.1"], "9.9.9.9");
        check("10.0.0.1", &["6.6.6.6, 9.9.9.9"], &["10.0.0.1"], "9.9.9.9");
        check("10.0.0.1", &["6.6.6.6", "9.9.9.9, 10.0.0.2"], &["10.0.0.1", "10.0.0.2"], "9.9.9.9");
        check("10.0.0.1", &[], &["10.0.0.1"], "10.0.0.1");
        check("10.0.0.1", &["garbage"], &["10.0.0.1"], "10.0.0.1");
        check("::1", &["2001:db8::1"], &["::1"], "2001:db8::1");
    }

    #[tokio::test]
    async fn bodies_are_read_within_their_limit() {
        let body = |s: &'static str| {
            http_body_util::Full::new(Bytes::from_static(s.as_bytes())).map_err(|e| match e {}).boxed_unsync()
        };
        let within = Duration::from_secs(5);
        let budget = BodyBudget::new(1 << 20);
        let got = read_body(body("{}"), &HeaderMap::new(), 2, within, &budget).await;
        assert_eq!(got.unwrap(), Bytes::from_static(b"{}"));
        let got = read_body(body("{\"a\":1}"), &HeaderMap::new(), 2, within, &budget).await;
        assert!(matches!(got, Err(BodyReadError::TooLarge { limit: 2 })), "{got:?}");
        let mut declared = HeaderMap::new();
        declared.insert(http::header::CONTENT_LENGTH, http::HeaderValue::from_static("100"));
        let got = read_body(body(""), &declared, 2, within, &budget).await;
        assert!(matches!(got, Err(BodyReadError::TooLarge { limit: 2 })), "{got:?}");
        // Every body read gave its bytes back.
        assert_eq!(budget.held(), 0);
    }

    /// A body with a declared length is held in one buffer of that length once it has sent
    /// a stream window of it; before that, and without a declared length, the buffer grows
    /// as it must.
    #[test]
    fn a_declared_body_is_sized_once_after_its_first_window() {
        let frame = [b' '; 16 * 1024];
        let declared = 1_000_000;
        let mut whole = bytes::BytesMut::new();
        let mut undeclared = bytes::BytesMut::new();
        let mut reallocations_after_the_window = 0;
        while whole.len() + frame.len() <= declared {
            let before = whole.capacity();
            append(&mut whole, &frame, Some(declared));
            append(&mut undeclared, &frame, None);
            if whole.len() < SIZED_AFTER {
                assert!(whole.capacity() < declared, "reserved before the first window: {}", whole.len());
            } else {
                assert_eq!(whole.capacity(), declared, "at {} bytes", whole.len());
                if before != whole.capacity() {
                    reallocations_after_the_window += 1;
                }
            }
        }
        assert_eq!(reallocations_after_the_window, 1);
        // Without a declared length, the buffer doubled past the body.
        assert!(undeclared.capacity() > declared, "{}", undeclared.capacity());
        // A body longer than it declared still reads whole.
        append(&mut whole, &frame, Some(declared));
        assert_eq!(whole.len(), (declared / frame.len() + 1) * frame.len());
    }

    #[tokio::test]
    async fn bodies_together_stay_within_the_budget() {
        let within = Duration::from_secs(5);
        let budget = BodyBudget::new(10);
        // A body still arriving holds what it received so far.
        let (mut sender, receiving) = test_channel();
        let first = tokio::spawn({
            let budget = budget.clone();
            async move { read_body(receiving, &HeaderMap::new(), 100, within, &budget).await }
        });
        sender.send_data(Bytes::from_static(b"12345678")).await.unwrap();
        while budget.held() < 8 {
            tokio::task::yield_now().await;
        }
        // A second body that would take the budget over is refused, and gives back what it
        // took.
        let (mut second_sender, second) = test_channel();
        second_sender.send_data(Bytes::from_static(b"1")).await.unwrap();
        second_sender.send_data(Bytes::from_static(b"234")).await.unwrap();
        drop(second_sender);
        let got = read_body(second, &HeaderMap::new(), 100, within, &budget).await;
        assert!(matches!(got, Err(BodyReadError::Busy { budget: 10 })), "{got:?}");
        assert_eq!(budget.held(), 8);
        drop(sender);
        assert_eq!(first.await.unwrap().unwrap(), Bytes::from_static(b"12345678"));
        assert_eq!(budget.held(), 0);
    }

    /// A body whose frames the test sends one by one.
    fn test_channel() -> (http_body_util::channel::Sender<Bytes, BodyError>, Body) {
        let (sender, body) = http_body_util::Channel::<Bytes, BodyError>::new(4);
        (sender, body.boxed_unsync())
    }

    #[test]
    fn only_this_machine_is_a_local_authority() {
        let check = |host: &str, listen: &str, expected: Option<&str>| {
            let mut headers = HeaderMap::new();
            headers.insert(http::header::HOST, host.parse().unwrap());
            let got = local_authority(&headers, &Uri::from_static("/"), listen.parse().unwrap());
            assert_eq!(got.as_deref(), expected, "{host} on {listen}");
        };
        check("LocalHost:8080", "0.0.0.0", Some("localhost:8080"));
        check("127.0.0.1:3000", "0.0.0.0", Some("127.0.0.1:3000"));
        check("[::1]:3000", "::", Some("[::1]:3000"));
        check("10.0.0.5:80", "10.0.0.5", Some("10.0.0.5:80"));
        check("10.0.0.5:80", "0.0.0.0", None);
        check("evil.example", "127.0.0.1", None);
        let uri = Uri::from_static("https://localhost:8443/");
        assert_eq!(
            local_authority(&HeaderMap::new(), &uri, "0.0.0.0".parse().unwrap()).as_deref(),
            Some("localhost:8443")
        );
    }

    #[test]
    fn queries_are_decoded() {
        let uri: Uri = "/a?url=https%3A%2F%2Fa.example%2F&b=1&b=2".parse().unwrap();
        assert_eq!(query_param(&uri, "url").as_deref(), Some("https://a.example/"));
        assert_eq!(query_param(&uri, "b").as_deref(), Some("1"));
        assert_eq!(query_param(&uri, "c"), None);
        assert_eq!(query_names(&uri), ["url", "b", "b"]);
    }
}
