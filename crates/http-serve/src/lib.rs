//! Bounded HTTP serving on a TCP socket: HTTP/1.1 and HTTP/2 (auto-detected) through hyper,
//! with the connection bounds of docs/SECURITY.md ("Connection bounds") and a graceful
//! shutdown. It knows nothing of what it serves: the caller passes a service function of a
//! request and its peer address.
//!
//! - [`Listener::bind`] binds an address; [`serve`] runs the accept loop on it under
//!   [`Limits`] and returns a running [`Server`] (its real address, a [`ShutdownHandle`]).
//! - Each connection is admitted under the global and per-IP caps or closed at once, and
//!   a watchdog holds it to a deadline for its first request head, an idle timeout and the
//!   shutdown ([`conn`]); a failing `accept` (a full descriptor table) backs off.
//! - [`Listener::with_tls`] serves HTTPS instead ([`tls`]): the handshake is done under the
//!   same caps and within the same deadline as the first request head.
//! - [`shutdown_signal`] resolves on SIGINT or SIGTERM.
//! - [`request`] reads a request (client address behind trusted proxies, query string,
//!   request id, the body within a limit and a deadline); [`router`] finds the row of a
//!   static routing table for a method and path (404, 405 and its `Allow`, `HEAD` as `GET`);
//!   [`response`] builds an answer with its caching and security headers.
//! - [`serve_observed`] tells a [`ConnectionEvents`] hook (the service's metrics) about each
//!   connection: opened, ended, refused or closed by the server and why ([`CloseReason`]).
//!
//! hyper-util's `GracefulShutdown` is not used: it takes each connection over, while the
//! watchdog of a connection must itself be able to ask it to close (idle) and to cut it (no
//! request head, end of the grace period).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use http_body_util::Full;
//! let listener = http_serve::Listener::bind("127.0.0.1:0".parse()?).await?;
//! let server = http_serve::serve(listener, http_serve::Limits::default(), |_req, peer| async move {
//!     http::Response::new(Full::new(bytes::Bytes::from(format!("hello {peer}"))))
//! });
//! println!("listening on http://{}", server.local_addr());
//! http_serve::shutdown_signal().await;
//! server.shutdown().await; // stop accepting, finish requests in flight
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod conn;
pub mod request;
pub mod response;
pub mod router;
pub mod tls;

pub use tls::{Tls, TlsError};

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::{Body, Incoming};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use conn::CLOSE_WAIT;

/// Why the server closed a connection on its own ([`ConnectionEvents::closed_by_server`]).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum CloseReason {
    /// Refused at accept: the server holds its maximum of connections.
    Cap,
    /// Refused at accept: the client holds its maximum of connections.
    CapPerIp,
    /// No complete request head (or TLS handshake) within the head timeout.
    HeadTimeout,
    /// The TLS handshake failed (plain HTTP on the HTTPS port, a distrusted certificate).
    TlsHandshake,
    /// No request in flight for the idle timeout.
    #[strum(serialize = "idle_timeout")]
    Idle,
}

impl CloseReason {
    /// Every reason.
    pub const ALL: &'static [CloseReason] = <CloseReason as strum::VariantArray>::VARIANTS;

    /// The reason's name as a metric label.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Receives the connection events of a server ([`serve_observed`]): a metrics hook that
/// keeps this crate free of any metrics library. Called on the accept loop and the
/// connections' tasks: an implementation must be cheap and never block.
pub trait ConnectionEvents: Send + Sync + 'static {
    /// A connection was admitted (it counts as open until [`ConnectionEvents::ended`]).
    fn opened(&self) {}
    /// An admitted connection ended, for whatever reason.
    fn ended(&self) {}
    /// The server refused or closed a connection on its own.
    fn closed_by_server(&self, _reason: CloseReason) {}
}

/// The [`ConnectionEvents`] that count nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoEvents;

impl ConnectionEvents for NoEvents {}

/// An admitted connection, counted open until dropped.
struct Counted(Arc<dyn ConnectionEvents>);

impl Counted {
    fn closed_by_server(&self, reason: CloseReason) {
        self.0.closed_by_server(reason);
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.ended();
    }
}

/// Default largest request head (request line and headers), in bytes.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// What every connection is held to (docs/SECURITY.md, "Connection bounds").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once; 0: only the open-file limit. Never more than the open-file
    /// limit leaves ([`conn::effective_max_connections`]).
    pub max_connections: usize,
    /// Connections open at once from one client; 0: no per-client cap.
    pub max_connections_per_ip: usize,
    /// Peers counted only toward the global cap (trusted reverse proxies, which carry many
    /// clients).
    pub uncapped_peers: Vec<IpAddr>,
    /// Bits of an IPv6 address that name one client for the per-client cap (1 to 128).
    pub ipv6_prefix: u8,
    /// Time to send a request head: the first from the accept, the next ones from the end of
    /// the previous answer (and from their first byte); else the connection is closed.
    pub header_timeout: Duration,
    /// Time a connection may stay with no request in flight before it is closed (HTTP/2:
    /// GOAWAY).
    pub idle_timeout: Duration,
    /// Time requests in flight get to finish after a shutdown, before their connections
    /// are closed.
    pub shutdown_grace: Duration,
    /// Largest request head in bytes; a larger one is refused with 431 (HTTP/1.1).
    pub max_header_bytes: usize,
}

impl Default for Limits {
    /// The defaults of docs/SECURITY.md, "Bounded bodies and times".
    fn default() -> Self {
        Limits {
            max_connections: 10_000,
            max_connections_per_ip: 256,
            uncapped_peers: Vec::new(),
            ipv6_prefix: 64,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(30),
            max_header_bytes: MAX_HEADER_BYTES,
        }
    }
}

/// An address could not be bound.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {source}")]
pub struct BindError {
    /// The address.
    pub addr: SocketAddr,
    /// Why.
    pub source: std::io::Error,
}

/// A bound TCP socket and its address, serving HTTP or, [`with_tls`](Self::with_tls), HTTPS.
#[derive(Debug)]
pub struct Listener {
    inner: TcpListener,
    addr: SocketAddr,
    tls: Option<Tls>,
}

impl Listener {
    /// Binds `addr` (port 0: any free port) and listens with a queue of
    /// [`conn::LISTEN_BACKLOG`] connections.
    pub async fn bind(addr: SocketAddr) -> Result<Listener, BindError> {
        let error = |source| BindError { addr, source };
        let socket = if addr.is_ipv4() { TcpSocket::new_v4() } else { TcpSocket::new_v6() }.map_err(error)?;
        // As `TcpListener::bind` does on Unix: a restarted server may bind the port while
        // sockets of the previous one linger in TIME_WAIT.
        #[cfg(unix)]
        socket.set_reuseaddr(true).map_err(error)?;
        socket.bind(addr).map_err(error)?;
        let inner = socket.listen(conn::LISTEN_BACKLOG).map_err(error)?;
        let bound = inner.local_addr().map_err(error)?;
        Ok(Listener { inner, addr: bound, tls: None })
    }

    /// The bound address (the real port when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves HTTPS with `tls` on this socket (HTTP/2 or HTTP/1.1, as ALPN settles).
    pub fn with_tls(mut self, tls: Tls) -> Listener {
        self.tls = Some(tls);
        self
    }

    /// `https` with TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        scheme(self.tls.is_some())
    }

    /// `SCHEME://ADDR` of the bound address, an unspecified IP (`0.0.0.0`, `::`) shown as
    /// loopback: where a client on this machine reaches the server.
    pub fn url(&self) -> String {
        let mut addr = self.addr;
        if addr.ip().is_unspecified() {
            addr.set_ip(if addr.is_ipv4() { Ipv4Addr::LOCALHOST.into() } else { Ipv6Addr::LOCALHOST.into() });
        }
        format!("{}://{addr}", self.scheme())
    }
}

fn scheme(tls: bool) -> &'static str {
    if tls {
        "https"
    } else {
        "http"
    }
}

/// Triggers a graceful shutdown of a running [`Server`]; cheap to clone.
#[derive(Debug, Clone)]
pub struct ShutdownHandle(Arc<watch::Sender<bool>>);

impl ShutdownHandle {
    /// A handle not yet triggered, for [`serve_with_shutdown`] (background tasks can
    /// [`subscribe`](Self::subscribe) before the server starts).
    pub fn new() -> ShutdownHandle {
        ShutdownHandle(Arc::new(watch::channel(false).0))
    }

    /// Stops accepting connections; requests in flight finish.
    pub fn shutdown(&self) {
        self.0.send_replace(true);
    }

    /// A receiver whose value turns `true` at shutdown.
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.0.subscribe()
    }
}

impl Default for ShutdownHandle {
    fn default() -> Self {
        ShutdownHandle::new()
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    scheme: &'static str,
    shutdown: ShutdownHandle,
    task: JoinHandle<()>,
}

impl Server {
    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `https` when the listener serves TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        self.scheme
    }

    /// A handle that shuts the server down from elsewhere (a signal handler).
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.shutdown.clone()
    }

    /// Shuts down gracefully: waits until every connection has finished, or until the
    /// grace period ([`Limits::shutdown_grace`]) is over, when the remaining ones are closed.
    pub async fn shutdown(self) {
        self.shutdown.shutdown();
        self.wait().await;
    }

    /// Waits until the server has stopped (after a [`ShutdownHandle::shutdown`]).
    pub async fn wait(self) {
        if let Err(e) = self.task.await {
            tracing::error!(error = %e, "server task failed");
        }
    }
}

/// Serves `service` on `listener` under `limits` until shut down; see
/// [`serve_with_shutdown`]. Must be called within a tokio runtime.
pub fn serve<F, Fut, B>(listener: Listener, limits: Limits, service: F) -> Server
where
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    serve_with_shutdown(listener, limits, service, ShutdownHandle::new())
}

/// Serves `service` on `listener` under `limits` until `shutdown` is triggered. The service
/// is called once per request, with the peer's socket address, when its head is complete;
/// the request counts as in flight until the returned future resolves (writing the body out
/// is idle time). Raises the open-file soft limit ([`conn::raise_fd_limit`]) before it
/// returns, so the limit is in force (and can be lowered again by an embedding program or a
/// test) once the server is up. Must be called within a tokio runtime.
pub fn serve_with_shutdown<F, Fut, B>(
    listener: Listener,
    limits: Limits,
    service: F,
    shutdown: ShutdownHandle,
) -> Server
where
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    serve_observed(listener, limits, service, shutdown, Arc::new(NoEvents))
}

/// [`serve_with_shutdown`], telling `events` about every connection: opened, ended, and
/// refused or closed by the server with its [`CloseReason`].
pub fn serve_observed<F, Fut, B>(
    listener: Listener,
    limits: Limits,
    service: F,
    shutdown: ShutdownHandle,
    events: Arc<dyn ConnectionEvents>,
) -> Server
where
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let fd_limit = conn::raise_fd_limit();
    let (addr, scheme) = (listener.addr, listener.scheme());
    let tls = listener.tls.as_ref().map(Tls::acceptor);
    let stop = shutdown.subscribe();
    let task = tokio::spawn(accept_loop(listener.inner, tls, limits, Arc::new(service), stop, fd_limit, events));
    Server { addr, scheme, shutdown, task }
}

/// What the accept loop tells its connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Running,
    /// Finish the requests in flight, take no new ones, close.
    Graceful,
    /// The grace period is over: close now.
    Now,
}

/// The timeouts every connection is held to.
#[derive(Debug, Clone, Copy)]
struct Timeouts {
    head: Duration,
    idle: Duration,
}

async fn accept_loop<F, Fut, B>(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    limits: Limits,
    service: Arc<F>,
    mut stop: watch::Receiver<bool>,
    fd_limit: Option<u64>,
    events: Arc<dyn ConnectionEvents>,
) where
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let one_ms = Duration::from_millis(1);
    let timeouts = Timeouts { head: limits.header_timeout.max(one_ms), idle: limits.idle_timeout.max(one_ms) };
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        // Bounds every head once its first byte is in; the first head of a connection is
        // also bounded from the accept by the connection's watchdog (`serve_connection`).
        .header_read_timeout(timeouts.head)
        // Request heads over this size are refused with 431 (hyper's default is ~400 KB).
        .max_buf_size(limits.max_header_bytes);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(u32::try_from(limits.max_header_bytes).unwrap_or(u32::MAX))
        .keep_alive_interval(conn::H2_KEEPALIVE_INTERVAL)
        .keep_alive_timeout(conn::H2_KEEPALIVE_TIMEOUT)
        .max_concurrent_streams(conn::H2_MAX_STREAMS)
        .initial_stream_window_size(conn::H2_STREAM_WINDOW)
        .initial_connection_window_size(conn::H2_CONNECTION_WINDOW);
    let builder = Arc::new(builder);

    let max_connections = conn::effective_max_connections(limits.max_connections, fd_limit);
    if limits.max_connections == 0 || max_connections < limits.max_connections {
        tracing::info!(
            configured = limits.max_connections,
            max_connections,
            fd_limit,
            "connection cap set by the open-file limit"
        );
    }
    let admission = conn::Admission::new(
        max_connections,
        limits.max_connections_per_ip,
        limits.uncapped_peers.clone(),
        limits.ipv6_prefix,
    );
    // Every connection task holds a clone of `alive`; `gone` yields `None` once all of
    // them (and this original) are dropped, which is how shutdown knows they are done.
    let (alive, mut gone) = mpsc::channel::<()>(1);
    let (stop_conns, conns_stop) = watch::channel(Stop::Running);
    let mut backoff = conn::AcceptBackoff::new();
    let mut refusals = conn::LogThrottle::new();

    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: pause instead of spinning, and let
                // a shutdown through meanwhile.
                let pause = backoff.failed(&e);
                tokio::select! {
                    () = tokio::time::sleep(pause) => continue,
                    _ = stop.changed() => break,
                }
            }
        };
        backoff.succeeded();
        let permit = match admission.admit(peer.ip()) {
            Ok(permit) => permit,
            Err(refused) => {
                // Closed at once: a queue of refused sockets would be the resource an
                // attacker fills instead.
                drop(stream);
                events.closed_by_server(match refused {
                    conn::Refused::Total => CloseReason::Cap,
                    conn::Refused::PerIp => CloseReason::CapPerIp,
                });
                if let Some(refused_since_last_line) = refusals.event(Instant::now()) {
                    tracing::warn!(
                        %peer,
                        cap = ?refused,
                        refused = refused_since_last_line,
                        open = admission.open(),
                        "connection refused over the cap (at most one such line per {} s)",
                        conn::LOG_INTERVAL.as_secs()
                    );
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        events.opened();
        let counted = Counted(events.clone());
        tokio::spawn(serve_connection(
            stream,
            tls.clone(),
            peer,
            service.clone(),
            builder.clone(),
            timeouts,
            conns_stop.clone(),
            (permit, alive.clone(), counted),
        ));
    }
    drop(listener);
    drop(alive);
    tracing::info!(connections = admission.open(), "shutting down: finishing requests in flight");
    stop_conns.send_replace(Stop::Graceful);
    if tokio::time::timeout(limits.shutdown_grace, gone.recv()).await.is_ok() {
        tracing::info!("all connections closed");
        return;
    }
    tracing::warn!(connections = admission.open(), "shutdown grace period over; closing remaining connections");
    stop_conns.send_replace(Stop::Now);
    // Each connection task returns as soon as it sees `Now`; the bound only guards against
    // a task that is not being polled.
    let _ = tokio::time::timeout(CLOSE_WAIT, gone.recv()).await;
}

/// Serves one accepted connection until it ends, is idle or silent too long, or the server
/// stops. Holds `held` (its admission permit, its share of the shutdown count) until then.
/// With `tls`, the handshake comes first, within the head deadline of the accept: a client
/// that opens a socket and sends nothing is closed at the same time over HTTPS as over HTTP.
#[allow(clippy::too_many_arguments)]
async fn serve_connection<F, Fut, B>(
    stream: TcpStream,
    tls: Option<tokio_rustls::TlsAcceptor>,
    peer: SocketAddr,
    handler: Arc<F>,
    builder: Arc<auto::Builder<TokioExecutor>>,
    timeouts: Timeouts,
    mut stop: watch::Receiver<Stop>,
    held: (conn::Permit, mpsc::Sender<()>, Counted),
) where
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let activity = conn::Activity::new(Instant::now());
    let Some(acceptor) = tls else {
        return serve_io(stream, peer, handler, builder, timeouts, stop, activity, held).await;
    };
    let deadline = activity.opened() + timeouts.head;
    let handshake = tokio::select! {
        done = tokio::time::timeout_at(deadline.into(), acceptor.accept(stream)) => done,
        // A shutdown drops handshakes in progress: no request of theirs is in flight.
        _ = stop.wait_for(|s| *s != Stop::Running) => {
            tracing::debug!(%peer, "TLS handshake dropped at shutdown");
            return;
        }
    };
    match handshake {
        Ok(Ok(stream)) => serve_io(stream, peer, handler, builder, timeouts, stop, activity, held).await,
        // Plain HTTP on the HTTPS port, a client that distrusts the certificate, a scanner:
        // the socket is closed, nothing else is disturbed.
        Ok(Err(e)) => {
            held.2.closed_by_server(CloseReason::TlsHandshake);
            tracing::debug!(error = %e, %peer, "TLS handshake failed");
        }
        Err(_) => {
            held.2.closed_by_server(CloseReason::HeadTimeout);
            tracing::debug!(%peer, "no TLS handshake within the head timeout; closed");
        }
    }
}

/// Serves HTTP on one connection's byte stream (plain TCP, or TLS after the handshake)
/// under its watchdog: see [`serve_connection`].
#[allow(clippy::too_many_arguments)]
async fn serve_io<S, F, Fut, B>(
    stream: S,
    peer: SocketAddr,
    handler: Arc<F>,
    builder: Arc<auto::Builder<TokioExecutor>>,
    timeouts: Timeouts,
    mut stop: watch::Receiver<Stop>,
    activity: Arc<conn::Activity>,
    held: (conn::Permit, mpsc::Sender<()>, Counted),
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    F: Fn(http::Request<Incoming>, SocketAddr) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = http::Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |req: http::Request<Incoming>| {
            // Called once a request head is complete: from here the request is in flight
            // until its handler ends.
            let in_flight = activity.begin();
            let answer = handler(req, peer);
            async move {
                let resp = answer.await;
                drop(in_flight);
                Ok::<_, Infallible>(resp)
            }
        })
    };
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let mut due = match activity.verdict(Instant::now(), timeouts.head, timeouts.idle) {
        conn::Verdict::Until(at) => at,
        _ => Instant::now(),
    };
    // Set once the connection was asked to close (idle or shutdown).
    let mut closing = false;
    loop {
        tokio::select! {
            ended = conn.as_mut() => {
                if let Err(e) = ended {
                    tracing::debug!(error = %e, %peer, "connection ended with an error");
                }
                break;
            }
            () = tokio::time::sleep_until(due.into()) => {
                let now = Instant::now();
                if closing {
                    // Asked to close and still open: requests in flight finish (at
                    // shutdown the grace period bounds them), anything else is cut.
                    if activity.in_flight() == 0 {
                        tracing::debug!(%peer, "connection did not close in time; cut");
                        break;
                    }
                    due = now + CLOSE_WAIT;
                    continue;
                }
                match activity.verdict(now, timeouts.head, timeouts.idle) {
                    conn::Verdict::Until(at) => due = at,
                    conn::Verdict::NoHead => {
                        // No request to answer: dropping the connection closes the socket.
                        held.2.closed_by_server(CloseReason::HeadTimeout);
                        tracing::debug!(%peer, "no complete request head in time; closed");
                        break;
                    }
                    conn::Verdict::Idle => {
                        // HTTP/1.1 closes at once; HTTP/2 sends GOAWAY, which tells the
                        // client which requests were taken, so none is lost in the race.
                        held.2.closed_by_server(CloseReason::Idle);
                        conn.as_mut().graceful_shutdown();
                        closing = true;
                        due = now + CLOSE_WAIT;
                    }
                }
            }
            changed = stop.changed() => {
                let what = if changed.is_ok() { *stop.borrow_and_update() } else { Stop::Now };
                match what {
                    Stop::Running => {}
                    Stop::Graceful => {
                        if !closing {
                            conn.as_mut().graceful_shutdown();
                            closing = true;
                            due = Instant::now() + CLOSE_WAIT;
                        }
                    }
                    Stop::Now => break,
                }
            }
        }
    }
    drop(held);
}

/// Resolves on SIGINT or SIGTERM (SIGINT only where SIGTERM does not exist).
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_reasons_round_trip_by_their_labels() {
        let names: Vec<&str> = CloseReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(names, ["cap", "cap_per_ip", "head_timeout", "tls_handshake", "idle_timeout"]);
        for &r in CloseReason::ALL {
            assert_eq!(r.as_str().parse::<CloseReason>().ok(), Some(r));
        }
    }

    #[tokio::test]
    async fn a_listener_on_every_address_is_reached_on_loopback() {
        let listener = Listener::bind("0.0.0.0:0".parse().unwrap()).await.unwrap();
        let port = listener.local_addr().port();
        assert_eq!(listener.url(), format!("http://127.0.0.1:{port}"));
        let listener = Listener::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        assert_eq!(listener.url(), format!("http://{}", listener.local_addr()));
    }
}
