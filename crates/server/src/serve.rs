//! The listening socket of the service: binding, the engines' start, and the service
//! function handed to `http_serve`, which runs the accept loop, HTTP/1.1 and HTTP/2 and
//! the connection bounds (docs/SECURITY.md, "Connection bounds") under the [`Limits`] of
//! the [`Config`].

use std::net::SocketAddr;
use std::time::Duration;

use http_serve::Limits;
pub use http_serve::{shutdown_signal, ShutdownHandle};
use hyper::body::Incoming;

use crate::config::Config;
use crate::ctx::PeerAddr;
use crate::router::handle;
use crate::state::{AppState, StateError};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database or fetcher could not be set up.
    #[error(transparent)]
    State(#[from] StateError),
    /// The address could not be bound ("cannot listen on ADDR: ...").
    #[error(transparent)]
    Bind(#[from] http_serve::BindError),
    /// The task that opens the database failed.
    #[error("start-up failed: {0}")]
    Start(String),
    /// Only one of `tls_cert` and `tls_key` is set.
    #[error("{given} is set without {missing}: HTTPS needs both (--tls-cert FILE --tls-key FILE)")]
    TlsHalf {
        /// The setting given.
        given: &'static str,
        /// The one missing.
        missing: &'static str,
    },
    /// The certificate or key cannot be read or used.
    #[error(transparent)]
    Tls(#[from] http_serve::TlsError),
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    inner: http_serve::Server,
    state: AppState,
    /// The metrics listener (`metrics_listen`), when set.
    metrics: Option<http_serve::Server>,
}

impl Server {
    /// The bound address (the real port when the configuration asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.inner.local_addr()
    }

    /// `https` when the server speaks TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        self.inner.scheme()
    }

    /// A handle that shuts the server down from elsewhere (a signal handler).
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.inner.shutdown_handle()
    }

    /// The bound address of the metrics listener, when `metrics_listen` is set.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(http_serve::Server::local_addr)
    }

    /// The state the server runs with.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Shuts down gracefully: waits until every connection has finished, or until the
    /// grace period (`shutdown_grace_ms`) is over, when the remaining ones are closed.
    /// `/readyz` answers 503 from the call on; the metrics listener answers until the end.
    pub async fn shutdown(self) {
        self.state.start_draining();
        self.inner.shutdown_handle().shutdown();
        self.wait().await;
    }

    /// Waits until the server has stopped (after a [`ShutdownHandle::shutdown`]), then
    /// closes the metrics listener.
    pub async fn wait(self) {
        self.inner.wait().await;
        if let Some(metrics) = self.metrics {
            metrics.shutdown().await;
        }
    }
}

/// Reads the certificate and key of `config` (before anything else starts, so that a
/// wrong file is one line at start), binds `config.listen`, opens the database and serves
/// until shut down. Returns once the socket accepts connections.
///
/// Without a configured base URL (it is still [`app::DEFAULT_BASE_URL`]) the base URL
/// becomes the address actually bound, with the scheme served (`https://` with TLS), so the
/// user agent's `/bot` link and the discovery documents point at this server even with
/// `--listen 127.0.0.1:0` (an unspecified address such as `0.0.0.0` is shown as
/// `127.0.0.1`). Behind a proxy or a domain, set it.
pub async fn serve(mut config: Config) -> Result<Server, ServeError> {
    let listener = bind(&config, config.listen).await?;
    if config.base_url == app::DEFAULT_BASE_URL {
        config.base_url = listener.url();
    }
    // Opening the database blocks (disk, or a PostgreSQL connection whose client must not
    // run on an async worker thread): it runs on the blocking pool.
    let state = match tokio::task::spawn_blocking(move || AppState::new(config)).await {
        Ok(state) => state?,
        Err(e) => return Err(ServeError::Start(e.to_string())),
    };
    serve_listener(state, listener).await
}

/// [`serve`] with a state built by the caller (its base URL as it is; TLS as its settings
/// say).
pub async fn serve_state(state: AppState, listen: SocketAddr) -> Result<Server, ServeError> {
    let listener = bind(&state.config, listen).await?;
    serve_listener(state, listener).await
}

/// The listener of `listen`, serving HTTPS when `config` names a certificate and key.
async fn bind(config: &Config, listen: SocketAddr) -> Result<http_serve::Listener, ServeError> {
    let tls = match (&config.tls_cert, &config.tls_key) {
        (None, None) => None,
        (Some(cert), Some(key)) => {
            // Reading the PEM files is file I/O: on the blocking pool, not the reactor.
            let (cert, key) = (cert.clone(), key.clone());
            let read = tokio::task::spawn_blocking(move || http_serve::Tls::from_pem_files(&cert, &key));
            Some(read.await.map_err(|e| ServeError::Start(format!("reading the TLS files: {e}")))??)
        }
        (Some(_), None) => return Err(ServeError::TlsHalf { given: "tls_cert", missing: "tls_key" }),
        (None, Some(_)) => return Err(ServeError::TlsHalf { given: "tls_key", missing: "tls_cert" }),
    };
    let listener = http_serve::Listener::bind(listen).await?;
    Ok(match tls {
        Some(tls) => listener.with_tls(tls),
        None => listener,
    })
}

async fn serve_listener(state: AppState, listener: http_serve::Listener) -> Result<Server, ServeError> {
    // The metrics listener first: an address it cannot bind is an error at start.
    let metrics = match (state.config.metrics_listen, &state.metrics) {
        (Some(addr), Some(m)) => Some(crate::scrape::serve(state.clone(), m.clone(), addr).await?),
        _ => None,
    };
    let shutdown = ShutdownHandle::new();
    let rx = shutdown.subscribe();
    {
        // However the shutdown comes (a signal, a handle), readiness fails from then on.
        let (state, mut rx) = (state.clone(), shutdown.subscribe());
        tokio::spawn(async move {
            if rx.wait_for(|stop| *stop).await.is_ok() {
                state.start_draining();
            }
        });
    }
    // Runs a previous process left running are settled before new work starts.
    state.workflows.recover().await;
    // Runs of replicas that died are adopted when their lease runs out.
    state.workflows.spawn_sweeper(rx.clone());
    // Crawls likewise: resumed from their frontier at start-up, adopted when a lease runs out.
    state.crawls.recover().await;
    state.crawls.spawn_sweeper(rx.clone());
    // Crawl schedules live in the database: a run due while no replica ran starts now, once.
    state.schedules.spawn(rx.clone());
    state.monitors.spawn(rx.clone());
    // The SQLite file is checked now and then, so a damaged one is reported by the status
    // endpoints even when no request has read a damaged page yet.
    state.app.spawn_integrity_checks(rx.clone());
    // Audits and crawls past their retention are deleted in the background.
    state.app.spawn_retention(state.config.retention(), rx.clone());
    // Deliveries a previous process left in the webhook outbox are resumed at once.
    state.webhooks.start(Some(rx));
    let service = {
        let state = state.clone();
        move |mut req: http::Request<Incoming>, peer: SocketAddr| {
            req.extensions_mut().insert(PeerAddr(peer));
            req.extensions_mut().insert(crate::host::PublicListener);
            handle(state.clone(), req)
        }
    };
    let events: std::sync::Arc<dyn http_serve::ConnectionEvents> = match &state.metrics {
        Some(m) => m.clone(),
        None => std::sync::Arc::new(http_serve::NoEvents),
    };
    let inner = http_serve::serve_observed(listener, limits(&state.config), service, shutdown, events);
    Ok(Server { inner, state, metrics })
}

/// The connection bounds of `config` (docs/SECURITY.md, "Connection bounds").
fn limits(config: &Config) -> Limits {
    Limits {
        max_connections: config.max_connections,
        max_connections_per_ip: config.max_connections_per_ip,
        // Trusted proxies carry many clients: they count only toward the global cap.
        uncapped_peers: config.trusted_proxies.clone(),
        // A client is the network the anonymous quota counts (`crate::anonymous_network`).
        ipv6_prefix: config.anonymous_ipv6_prefix,
        header_timeout: Duration::from_millis(config.header_timeout_ms),
        idle_timeout: Duration::from_millis(config.idle_timeout_ms),
        shutdown_grace: Duration::from_millis(config.shutdown_grace_ms),
        max_header_bytes: http_serve::MAX_HEADER_BYTES,
    }
}
