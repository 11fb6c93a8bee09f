//! The listening socket: accept loop, HTTP/1.1 and HTTP/2 (auto-detected), connection
//! bounds ([`crate::conn`]), graceful shutdown.
//!
//! hyper-util's `GracefulShutdown` is not used: it takes each connection over, while the
//! watchdog of [`serve_connection`] must itself be able to ask a connection to close (idle)
//! and to cut it (no request head, end of the grace period).

use std::convert::Infallible;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::conn::{self, CLOSE_WAIT};
use crate::ctx::PeerAddr;
use crate::router::handle;
use crate::state::{AppState, StateError};

/// Largest request head (request line and headers) accepted, in bytes.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database or fetcher could not be set up.
    #[error(transparent)]
    State(#[from] StateError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// Triggers a graceful shutdown of a running [`Server`]; cheap to clone.
#[derive(Debug, Clone)]
pub struct ShutdownHandle(Arc<watch::Sender<bool>>);

impl ShutdownHandle {
    /// Stops accepting connections; requests in flight finish.
    pub fn shutdown(&self) {
        self.0.send_replace(true);
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    shutdown: ShutdownHandle,
    task: JoinHandle<()>,
    state: AppState,
}

impl Server {
    /// The bound address (the real port when the configuration asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// A handle that shuts the server down from elsewhere (a signal handler).
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.shutdown.clone()
    }

    /// The state the server runs with.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Shuts down gracefully: waits until every connection has finished, or until the
    /// grace period (`shutdown_grace_ms`) is over, when the remaining ones are closed.
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

/// Opens the database of `config`, binds `config.listen` and serves until shut down.
/// Returns once the socket accepts connections.
///
/// Without a configured base URL (it is still [`app::DEFAULT_BASE_URL`]) the base URL
/// becomes the address actually bound, so the user agent's `/bot` link and the discovery
/// documents point at this server even with `--listen 127.0.0.1:0` (an unspecified address
/// such as `0.0.0.0` is shown as `127.0.0.1`). Behind a proxy or a domain, set it.
pub async fn serve(mut config: Config) -> Result<Server, ServeError> {
    let listen = config.listen;
    let listener = TcpListener::bind(listen).await.map_err(|source| ServeError::Bind { addr: listen, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: listen, source })?;
    if config.base_url == app::DEFAULT_BASE_URL {
        config.base_url = bound_base_url(addr);
    }
    let state = AppState::new(config)?;
    serve_listener(state, listener, addr).await
}

/// `http://ADDR` of a bound address, with an unspecified IP replaced by loopback.
fn bound_base_url(mut addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() { Ipv4Addr::LOCALHOST.into() } else { Ipv6Addr::LOCALHOST.into() });
    }
    format!("http://{addr}")
}

/// [`serve`] with a state built by the caller (its base URL as it is).
pub async fn serve_state(state: AppState, listen: SocketAddr) -> Result<Server, ServeError> {
    let listener = TcpListener::bind(listen).await.map_err(|source| ServeError::Bind { addr: listen, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: listen, source })?;
    serve_listener(state, listener, addr).await
}

async fn serve_listener(state: AppState, listener: TcpListener, addr: SocketAddr) -> Result<Server, ServeError> {
    let (tx, rx) = watch::channel(false);
    // Runs a previous process left running are settled before new work starts.
    state.workflows.recover().await;
    state.monitors.spawn(rx.clone());
    // Deliveries a previous process left in the webhook outbox are resumed at once.
    state.webhooks.start(Some(rx.clone()));
    // Raised before `serve` returns, not in the accept task: the limit is in force (and can
    // be lowered again by an embedding program or a test) once the server is up.
    let fd_limit = conn::raise_fd_limit();
    let task = tokio::spawn(accept_loop(listener, state.clone(), rx, fd_limit));
    Ok(Server { addr, shutdown: ShutdownHandle(Arc::new(tx)), task, state })
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

async fn accept_loop(listener: TcpListener, state: AppState, mut stop: watch::Receiver<bool>, fd_limit: Option<u64>) {
    let config = &state.config;
    let timeouts = Timeouts {
        head: Duration::from_millis(config.header_timeout_ms.max(1)),
        idle: Duration::from_millis(config.idle_timeout_ms.max(1)),
    };
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        // Bounds every head once its first byte is in; the first head of a connection is
        // also bounded from the accept by the connection's watchdog (`serve_connection`).
        .header_read_timeout(timeouts.head)
        // Request heads over this size are refused with 431 (hyper's default is ~400 KB).
        .max_buf_size(MAX_HEADER_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(MAX_HEADER_BYTES as u32)
        .keep_alive_interval(conn::H2_KEEPALIVE_INTERVAL)
        .keep_alive_timeout(conn::H2_KEEPALIVE_TIMEOUT);
    let builder = Arc::new(builder);

    let max_connections = conn::effective_max_connections(config.max_connections, fd_limit);
    if config.max_connections == 0 || max_connections < config.max_connections {
        tracing::info!(
            configured = config.max_connections,
            max_connections,
            fd_limit,
            "connection cap set by the open-file limit"
        );
    }
    let admission = conn::Admission::new(
        max_connections,
        config.max_connections_per_ip,
        config.trusted_proxies.clone(),
        config.anonymous_ipv6_prefix,
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
        tokio::spawn(serve_connection(
            stream,
            peer,
            state.clone(),
            builder.clone(),
            timeouts,
            conns_stop.clone(),
            (permit, alive.clone()),
        ));
    }
    drop(listener);
    drop(alive);
    let grace = Duration::from_millis(state.config.shutdown_grace_ms);
    tracing::info!(connections = admission.open(), "shutting down: finishing requests in flight");
    stop_conns.send_replace(Stop::Graceful);
    if tokio::time::timeout(grace, gone.recv()).await.is_ok() {
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
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    state: AppState,
    builder: Arc<auto::Builder<TokioExecutor>>,
    timeouts: Timeouts,
    mut stop: watch::Receiver<Stop>,
    held: (conn::Permit, mpsc::Sender<()>),
) {
    let activity = conn::Activity::new(Instant::now());
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |mut req: http::Request<Incoming>| {
            // Called once a request head is complete: from here the request is in flight
            // until its handler ends.
            let in_flight = activity.begin();
            req.extensions_mut().insert(PeerAddr(peer));
            let state = state.clone();
            async move {
                let resp = handle(state, req).await;
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
                        tracing::debug!(%peer, "no complete request head in time; closed");
                        break;
                    }
                    conn::Verdict::Idle => {
                        // HTTP/1.1 closes at once; HTTP/2 sends GOAWAY, which tells the
                        // client which requests were taken, so none is lost in the race.
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
