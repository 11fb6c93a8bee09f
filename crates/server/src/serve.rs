//! The listening socket: accept loop, HTTP/1.1 and HTTP/2 (auto-detected), graceful
//! shutdown.

use std::convert::Infallible;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::router::{handle, PeerAddr};
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

    /// Shuts down gracefully and waits until every connection has finished.
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
/// Without a configured base URL (it is still [`fetch::DEFAULT_BASE_URL`]) the base URL
/// becomes the address actually bound, so the user agent's `/bot` link and the discovery
/// documents point at this server even with `--listen 127.0.0.1:0` (an unspecified address
/// such as `0.0.0.0` is shown as `127.0.0.1`). Behind a proxy or a domain, set it.
pub async fn serve(mut config: Config) -> Result<Server, ServeError> {
    let listen = config.listen;
    let listener = TcpListener::bind(listen).await.map_err(|source| ServeError::Bind { addr: listen, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: listen, source })?;
    if config.base_url == fetch::DEFAULT_BASE_URL {
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
    crate::workflows::recover(&state).await;
    crate::scheduler::spawn(state.clone(), rx.clone());
    let task = tokio::spawn(accept_loop(listener, state.clone(), rx));
    Ok(Server { addr, shutdown: ShutdownHandle(Arc::new(tx)), task, state })
}

async fn accept_loop(listener: TcpListener, state: AppState, mut stop: watch::Receiver<bool>) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(state.config.header_timeout_ms.max(1)))
        // Request heads over this size are refused with 431 (hyper's default is ~400 KB).
        .max_buf_size(MAX_HEADER_BYTES);
    builder.http2().max_header_list_size(MAX_HEADER_BYTES as u32);
    let graceful = GracefulShutdown::new();
    let grace = Duration::from_millis(state.config.shutdown_grace_ms);

    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let state = state.clone();
                    let service = hyper::service::service_fn(move |mut req: http::Request<Incoming>| {
                        req.extensions_mut().insert(PeerAddr(peer));
                        let state = state.clone();
                        async move { Ok::<_, Infallible>(handle(state, req).await) }
                    });
                    let conn = builder.serve_connection(TokioIo::new(stream), service).into_owned();
                    let conn = graceful.watch(conn);
                    tokio::spawn(async move {
                        if let Err(e) = conn.await {
                            tracing::debug!(error = %e, %peer, "connection ended with an error");
                        }
                    });
                }
                Err(e) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            _ = stop.changed() => break,
        }
    }
    drop(listener);
    tracing::info!(connections = graceful.count(), "shutting down: finishing requests in flight");
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(grace) => tracing::warn!("shutdown grace period over; closing remaining connections"),
    }
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
