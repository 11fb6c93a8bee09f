//! The guarded forward proxy a headless browser must use for every request
//! (docs/ARCHITECTURE.md, "Rendering: the render crate").
//!
//! A browser fetches on its own: documents, scripts, XHR and `fetch()`, frames, images,
//! websockets. None of that may reach what the fetcher may not reach, so the browser is
//! started with this proxy as its only way out (loopback included) and the proxy applies the
//! fetcher's [`AddressGuard`] to every target, resolves names through the fetcher's resolver
//! ([`Fetcher::resolve`]) and connects only to an address that passed the guard.
//!
//! It speaks the two forms a browser sends to an HTTP proxy:
//! - absolute-form requests for plain `http:` (`GET http://host:port/path HTTP/1.1`): the
//!   request is passed on with `Connection: close`, and the answer is read back within the
//!   body limit ([`ProxyLimits::max_body_bytes`]);
//! - `CONNECT host:port` tunnels for `https:` and `wss:` (and Chromium's `ws:`): the target
//!   is guarded like any other; what flows through the tunnel is encrypted, so only the
//!   total byte limit applies to it.
//!
//! Every connection counts toward [`ProxyLimits::max_total_bytes`]. A refused request gets a
//! `403` with a one-line body (an unreachable one a `502`) and is recorded in the
//! [`ProxyLog`] of this proxy. One proxy serves one render: what it records belongs to that
//! render, and dropping it closes the listener and every connection still open.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use url::{Host, Url};

use crate::{ConnectFailure, Error, FetchConfig, Fetcher, TimeoutPhase};

/// Longest request or answer head the proxy reads, in bytes.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// The limits of a [`GuardedProxy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyLimits {
    /// Largest body of one plain-HTTP answer; a longer one is cut and recorded as refused.
    pub max_body_bytes: usize,
    /// Most bytes passed to the browser over the proxy's life (all answers and tunnels).
    pub max_total_bytes: u64,
    /// Longest wait for a connection to a target.
    pub connect_timeout: Duration,
    /// Longest wait for a request head from the browser or an answer head from a target.
    pub head_timeout: Duration,
}

impl ProxyLimits {
    /// The fetcher's limits: its body limit per answer, ten bodies in all, its connect
    /// timeout, and its total timeout for a head.
    pub fn of(config: &FetchConfig) -> ProxyLimits {
        ProxyLimits {
            max_body_bytes: config.max_body_bytes,
            max_total_bytes: (config.max_body_bytes as u64).saturating_mul(10),
            connect_timeout: config.connect_timeout,
            head_timeout: config.total_timeout,
        }
    }
}

/// One request the proxy did not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyEvent {
    /// The URL the browser asked for: the full URL for plain `http:`, `https://host:port`
    /// for a tunnel (the path travels encrypted).
    pub url: String,
    /// Why: the guard's refusal, a limit, or the failure to reach the target.
    pub error: Error,
}

/// What a proxy saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyLog {
    /// Requests and tunnels the browser asked for, refused ones included.
    pub requests: u32,
    /// Refused by the address guard or cut by a limit, in order.
    pub refused: Vec<ProxyEvent>,
    /// Allowed but not reachable (name lookup, connection, time), in order.
    pub failed: Vec<ProxyEvent>,
    /// Bytes passed to the browser.
    pub bytes: u64,
}

/// A forward proxy on `127.0.0.1` that lets a browser reach only what `fetcher` may reach.
/// Serves until dropped.
#[derive(Debug)]
pub struct GuardedProxy {
    addr: SocketAddr,
    state: Arc<State>,
    task: JoinHandle<()>,
}

#[derive(Debug)]
struct State {
    fetcher: Fetcher,
    limits: ProxyLimits,
    log: Mutex<ProxyLog>,
    bytes: AtomicU64,
}

impl State {
    fn record(&self, refused: bool, url: String, error: Error) {
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        let event = ProxyEvent { url, error };
        if refused {
            log.refused.push(event);
        } else {
            log.failed.push(event);
        }
    }

    fn count_request(&self) {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).requests += 1;
    }
}

impl GuardedProxy {
    /// Starts a proxy on `127.0.0.1` at a free port.
    ///
    /// # Errors
    /// When no loopback port can be bound.
    pub async fn start(fetcher: Fetcher, limits: ProxyLimits) -> io::Result<GuardedProxy> {
        let listener = TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(State { fetcher, limits, log: Mutex::default(), bytes: AtomicU64::new(0) });
        let serving = Arc::clone(&state);
        let task = tokio::spawn(async move {
            // The connections live in this set: when the proxy is dropped, this task is
            // aborted and the set with it, which aborts every connection.
            let mut connections = JoinSet::new();
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((stream, _)) = accepted else { continue };
                        let state = Arc::clone(&serving);
                        connections.spawn(async move { serve(&state, stream).await });
                    }
                    Some(_) = connections.join_next(), if !connections.is_empty() => {}
                }
            }
        });
        Ok(GuardedProxy { addr, state, task })
    }

    /// The address the proxy listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`, the form of a browser's `--proxy-server`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What the proxy has seen so far.
    pub fn log(&self) -> ProxyLog {
        let mut log = self.state.log.lock().unwrap_or_else(|p| p.into_inner()).clone();
        log.bytes = self.state.bytes.load(Ordering::Relaxed);
        log
    }
}

impl Drop for GuardedProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A parsed request or answer head.
struct Head {
    /// The first line, split at spaces: method, target, version (or version, status, reason).
    line: Vec<String>,
    /// Header names and values as sent.
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Reads a head (up to the blank line) and returns it with the bytes that followed it.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> io::Result<Option<(Head, Vec<u8>)>> {
    let mut buf = Vec::with_capacity(4096);
    let end = loop {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
        if buf.len() > MAX_HEAD_BYTES {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "head too long"));
        }
    };
    let text = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or_default().splitn(3, ' ').map(str::to_string).collect();
    let headers = lines
        .filter(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Ok(Some((Head { line, headers }, buf[end..].to_vec())))
}

/// A short plain-text answer to the browser, closing the connection.
async fn answer(client: &mut TcpStream, status: &str, text: &str) {
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = client.write_all(reply.as_bytes()).await;
    let _ = client.shutdown().await;
}

async fn serve(state: &State, mut client: TcpStream) {
    let limits = state.limits;
    let head = match tokio::time::timeout(limits.head_timeout, read_head(&mut client)).await {
        Ok(Ok(Some(head))) => head,
        Ok(Err(_)) => return answer(&mut client, "400 Bad Request", "Not an HTTP request.").await,
        _ => return,
    };
    let (head, rest) = head;
    let [method, target, ..] = head.line.as_slice() else {
        return answer(&mut client, "400 Bad Request", "Not an HTTP request.").await;
    };
    state.count_request();
    if method.eq_ignore_ascii_case("CONNECT") {
        let shown = format!("https://{target}");
        let Ok(url) = Url::parse(&format!("https://{target}/")) else {
            let error = Error::InvalidUrl(format!("the tunnel target {target:?} is not host:port"));
            return refuse(state, &mut client, shown, error).await;
        };
        let upstream = match connect(state, &url).await {
            Ok(upstream) => upstream,
            Err(error) => return refuse(state, &mut client, shown, error).await,
        };
        if client.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n").await.is_err() {
            return;
        }
        tunnel(state, client, upstream, rest, &shown).await;
    } else {
        let url = match Url::parse(target) {
            Ok(url) if url.scheme() == "http" => url,
            _ => {
                let error = Error::InvalidUrl(format!("the proxy passes on absolute http URLs only, not {target:?}"));
                return refuse(state, &mut client, crate::clip(target).into_owned(), error).await;
            }
        };
        let shown = url.to_string();
        let upstream = match connect(state, &url).await {
            Ok(upstream) => upstream,
            Err(error) => return refuse(state, &mut client, shown, error).await,
        };
        forward(state, client, upstream, method, &url, &head, rest).await;
    }
}

/// Records a request that was not passed on and answers the browser: `403` for a refusal
/// (guard, URL shape), `502` for a target that could not be reached.
async fn refuse(state: &State, client: &mut TcpStream, url: String, error: Error) {
    let refused = error.is_blocked() || matches!(error, Error::InvalidUrl(_));
    let text = format!("seo-audit's proxy did not pass this request on. {error}");
    state.record(refused, url, error);
    let status = if refused { "403 Forbidden" } else { "502 Bad Gateway" };
    answer(client, status, &text).await;
}

/// Guards `url`, resolves its host through the fetcher, and connects to the first address
/// that passed the guard.
async fn connect(state: &State, url: &Url) -> Result<TcpStream, Error> {
    let guard = state.fetcher.guard();
    guard.check_url(url)?;
    let port = url.port_or_known_default().unwrap_or(80);
    let (host, addrs): (String, Vec<IpAddr>) = match url.host() {
        Some(Host::Ipv4(v4)) => (v4.to_string(), vec![IpAddr::V4(v4)]),
        Some(Host::Ipv6(v6)) => (format!("[{v6}]"), vec![IpAddr::V6(v6)]),
        Some(Host::Domain(name)) => (name.to_string(), state.fetcher.resolve(name).await?),
        None => return Err(Error::InvalidUrl("it has no host".into())),
    };
    let limit = state.limits.connect_timeout;
    let mut last = None;
    // Address literals passed `check_url` with their port; names were filtered by the
    // resolver, as every fetch's are.
    for ip in addrs {
        match tokio::time::timeout(limit, TcpStream::connect((ip, port))).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(err)) => last = Some(connect_error(&host, &err)),
            Err(_) => {
                last = Some(Error::Timeout {
                    host: host.clone(),
                    phase: TimeoutPhase::Connect,
                    limit_ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                })
            }
        }
    }
    Err(last.unwrap_or_else(|| Error::Connect {
        host,
        failure: ConnectFailure::Other,
        http_url: None,
        detail: "no address".into(),
    }))
}

fn connect_error(host: &str, err: &io::Error) -> Error {
    let failure = match err.kind() {
        io::ErrorKind::ConnectionRefused => ConnectFailure::Refused,
        io::ErrorKind::ConnectionReset => ConnectFailure::Reset,
        io::ErrorKind::ConnectionAborted | io::ErrorKind::UnexpectedEof => ConnectFailure::Closed,
        io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => ConnectFailure::NoRoute,
        _ => ConnectFailure::Other,
    };
    Error::Connect { host: host.to_string(), failure, http_url: None, detail: err.to_string() }
}

/// Adds `n` bytes to the proxy's total; `false` once the total is over the limit.
fn charge(state: &State, n: usize) -> bool {
    let total = state.bytes.fetch_add(n as u64, Ordering::Relaxed) + n as u64;
    total <= state.limits.max_total_bytes
}

fn total_limit_error(state: &State) -> Error {
    Error::TooLarge { limit: usize::try_from(state.limits.max_total_bytes).unwrap_or(usize::MAX) }
}

/// Copies a tunnel both ways until either side closes or the total byte limit is reached.
async fn tunnel(state: &State, client: TcpStream, upstream: TcpStream, rest: Vec<u8>, shown: &str) {
    let (mut client_read, mut client_write) = client.into_split();
    let (mut upstream_read, mut upstream_write) = upstream.into_split();
    let outbound = async {
        if upstream_write.write_all(&rest).await.is_err() {
            return;
        }
        let _ = tokio::io::copy(&mut client_read, &mut upstream_write).await;
        let _ = upstream_write.shutdown().await;
    };
    let inbound = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match upstream_read.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if !charge(state, n) {
                state.record(true, shown.to_string(), total_limit_error(state));
                break;
            }
            if client_write.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
        let _ = client_write.shutdown().await;
    };
    // The tunnel ends when the answering side is done; the browser's side may stay open.
    tokio::select! {
        () = inbound => {}
        () = async { outbound.await; std::future::pending::<()>().await } => {}
    }
}

/// Headers that belong to one connection (RFC 9110 §7.6.1) and are not passed on.
fn hop_by_hop(name: &str) -> bool {
    ["connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate", "te", "upgrade"]
        .iter()
        .any(|h| name.eq_ignore_ascii_case(h))
}

/// Passes one plain-HTTP request on and its answer back, within the limits.
async fn forward(
    state: &State,
    client: TcpStream,
    mut upstream: TcpStream,
    method: &str,
    url: &Url,
    head: &Head,
    rest: Vec<u8>,
) {
    let shown = url.to_string();
    let mut request = format!("{method} {} HTTP/1.1\r\n", &url[url::Position::BeforePath..url::Position::AfterQuery]);
    for (name, value) in &head.headers {
        if !hop_by_hop(name) {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    request.push_str("Connection: close\r\n\r\n");
    if upstream.write_all(request.as_bytes()).await.is_err() || upstream.write_all(&rest).await.is_err() {
        return;
    }
    let (mut client_read, mut client_write) = client.into_split();
    let (mut upstream_read, mut upstream_write) = upstream.into_split();
    // The request body, if any, follows as the browser sends it.
    let outbound = async {
        let _ = tokio::io::copy(&mut client_read, &mut upstream_write).await;
        std::future::pending::<()>().await;
    };
    let inbound = async {
        let limits = state.limits;
        let (answer_head, body_start) = loop {
            let read = tokio::time::timeout(limits.head_timeout, read_head(&mut upstream_read)).await;
            let (answer_head, body_start) = match read {
                Ok(Ok(Some(found))) => found,
                Ok(Ok(None)) | Ok(Err(_)) => {
                    let host = url.host_str().unwrap_or_default().to_string();
                    let error = Error::Http { host, detail: "no valid answer head".into() };
                    state.record(false, shown.clone(), error);
                    return;
                }
                Err(_) => {
                    let host = url.host_str().unwrap_or_default().to_string();
                    let limit_ms = u64::try_from(limits.head_timeout.as_millis()).unwrap_or(u64::MAX);
                    state.record(false, shown.clone(), Error::Timeout { host, phase: TimeoutPhase::Answer, limit_ms });
                    return;
                }
            };
            let status: u16 = answer_head.line.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            // An interim answer (100 Continue) is passed on and the real one awaited.
            if (100..200).contains(&status) && status != 101 {
                let mut interim = format!("{}\r\n", answer_head.line.join(" "));
                for (name, value) in &answer_head.headers {
                    interim.push_str(&format!("{name}: {value}\r\n"));
                }
                interim.push_str("\r\n");
                if client_write.write_all(interim.as_bytes()).await.is_err() {
                    return;
                }
                continue;
            }
            break (answer_head, body_start);
        };
        let status: u16 = answer_head.line.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut out = format!("{}\r\n", answer_head.line.join(" "));
        for (name, value) in &answer_head.headers {
            if !hop_by_hop(name) {
                out.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        out.push_str("Connection: close\r\n\r\n");
        if !charge(state, out.len()) {
            state.record(true, shown.clone(), total_limit_error(state));
            return;
        }
        if client_write.write_all(out.as_bytes()).await.is_err() {
            return;
        }
        let bodiless = method.eq_ignore_ascii_case("HEAD") || status == 204 || status == 304;
        let chunked =
            answer_head.header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        let length: Option<u64> =
            if chunked { None } else { answer_head.header("content-length").and_then(|v| v.parse().ok()) };
        let mut remaining = if bodiless { Some(0) } else { length };
        let mut sent: usize = 0;
        let mut pending = body_start;
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            if remaining == Some(0) {
                break;
            }
            let chunk: &[u8] = if !pending.is_empty() {
                &pending
            } else {
                match upstream_read.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => &buf[..n],
                }
            };
            let take = remaining.map_or(chunk.len(), |r| chunk.len().min(usize::try_from(r).unwrap_or(usize::MAX)));
            let chunk = &chunk[..take];
            sent += chunk.len();
            if sent > limits.max_body_bytes {
                state.record(true, shown.clone(), Error::TooLarge { limit: limits.max_body_bytes });
                break;
            }
            if !charge(state, chunk.len()) {
                state.record(true, shown.clone(), total_limit_error(state));
                break;
            }
            if client_write.write_all(chunk).await.is_err() {
                break;
            }
            remaining = remaining.map(|r| r - take as u64);
            pending = Vec::new();
        }
        let _ = client_write.shutdown().await;
    };
    tokio::select! {
        () = inbound => {}
        () = outbound => {}
    }
}
