//! The metrics listener of `metrics_listen` (docs/API.md, "Metrics, liveness and
//! readiness"): `GET /metrics` renders [`telemetry::Metrics`] with the gauges of the
//! present read from the state, and `GET /livez` and `GET /readyz` answer as on the public
//! port.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, StatusCode};
use http_body_util::Full;

use crate::ctx::PeerAddr;
use crate::state::AppState;
use telemetry::{Metrics, Present, CONTENT_TYPE};

/// The exposition of `metrics` for `state`: the database pinged, the webhook outbox read and
/// the exposition rendered (it reads the process's figures from /proc) on the blocking pool.
pub async fn exposition(state: &AppState, metrics: &Arc<Metrics>) -> String {
    let database_up = state.app.ping().await.is_ok();
    let webhooks_pending = if database_up {
        let webhooks = state.webhooks.clone();
        tokio::task::spawn_blocking(move || webhooks.stats().held).await.ok()
    } else {
        None
    };
    let present = Present {
        queued: state.app.audits_waiting(),
        busy: state.app.audits_running(),
        slots: state.config.max_concurrent_audits.max(1),
        draining: state.is_draining(),
        database_up,
        webhooks_pending,
    };
    let metrics = metrics.clone();
    tokio::task::spawn_blocking(move || metrics.render(&present)).await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "metrics exposition failed");
        String::new()
    })
}

/// The metrics listener: `GET /metrics` (the exposition), and `GET /livez` and
/// `GET /readyz` as on the public port (so a balancer or orchestrator can probe either).
/// Anything else is 404. The histograms are drained every 5 s meanwhile.
pub(crate) async fn serve(
    state: AppState,
    metrics: Arc<Metrics>,
    addr: SocketAddr,
) -> Result<http_serve::Server, http_serve::BindError> {
    let listener = http_serve::Listener::bind(addr).await?;
    let limits = http_serve::Limits { shutdown_grace: Duration::from_secs(1), ..http_serve::Limits::default() };
    let shutdown = http_serve::ShutdownHandle::new();
    let mut stop = shutdown.subscribe();
    let drained = metrics.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            tokio::select! {
                _ = every.tick() => drained.upkeep(),
                _ = stop.changed() => return,
            }
        }
    });
    let service = move |req: http::Request<hyper::body::Incoming>, peer: SocketAddr| {
        let (state, metrics) = (state.clone(), metrics.clone());
        async move {
            match (req.method(), req.uri().path()) {
                (&Method::GET | &Method::HEAD, "/metrics") => {
                    let body = exposition(&state, &metrics).await;
                    let mut resp = http::Response::new(Full::new(Bytes::from(body)));
                    resp.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static(CONTENT_TYPE));
                    resp
                }
                (_, "/livez" | "/readyz") => {
                    let mut req = req;
                    req.extensions_mut().insert(PeerAddr(peer));
                    crate::router::handle(state, req).await
                }
                _ => {
                    let mut resp = http::Response::new(Full::new(Bytes::from_static(b"not found\n")));
                    *resp.status_mut() = StatusCode::NOT_FOUND;
                    resp
                }
            }
        }
    };
    Ok(http_serve::serve_with_shutdown(listener, limits, service, shutdown))
}
