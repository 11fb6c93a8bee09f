//! Well-behaved peers on 127.0.0.1.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::{TokioExecutor, TokioIo};
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Serves `handler` on 127.0.0.1:0 (HTTP/1.1 and HTTP/2), one task per connection: the
/// loopback sites, receivers and fake providers whose answers need code.
pub async fn serve_loopback<F, Fut>(handler: F) -> SocketAddr
where
    F: Fn(http::Request<hyper::body::Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = http::Response<Full<Bytes>>> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let handler = handler.clone();
            let service = hyper::service::service_fn(move |req| {
                let handler = handler.clone();
                async move { Ok::<_, Infallible>(handler(req).await) }
            });
            tokio::spawn(async move {
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

/// How long `/slow/...` fixture pages wait before answering.
pub const SLOW_DELAY: Duration = Duration::from_millis(1500);

/// A static site from `fixtures/sites/<name>/` on 127.0.0.1. `/slow/<file>` serves the same
/// file after [`SLOW_DELAY`]; `slow_hits` counts requests that reached such a path.
pub struct FixtureSite {
    pub addr: SocketAddr,
    pub slow_hits: Arc<AtomicUsize>,
}

impl FixtureSite {
    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

/// `fixtures/sites/<name>` of the repository.
pub fn fixtures_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites").join(name)
}

/// Serves `fixtures/sites/<name>/` (see [`FixtureSite`]).
pub async fn fixture_site(name: &str) -> FixtureSite {
    let root = Arc::new(fixtures_dir(name));
    let slow_hits = Arc::new(AtomicUsize::new(0));
    let hits = slow_hits.clone();
    let addr = serve_loopback(move |req| {
        let root = root.clone();
        let hits = hits.clone();
        async move { serve_file(&root, req.uri().path(), &hits).await }
    })
    .await;
    FixtureSite { addr, slow_hits }
}

async fn serve_file(root: &Path, path: &str, slow_hits: &AtomicUsize) -> http::Response<Full<Bytes>> {
    let mut path = path.trim_start_matches('/');
    if let Some(rest) = path.strip_prefix("slow/") {
        slow_hits.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(SLOW_DELAY).await;
        path = rest;
    }
    if path.is_empty() {
        path = "index.html";
    }
    let file = root.join(path);
    let read = if path.contains("..") { Err(std::io::ErrorKind::NotFound.into()) } else { std::fs::read(&file) };
    let Ok(body) = read else {
        return http::Response::builder()
            .status(404)
            .header("content-type", "text/html")
            .body(Full::new(Bytes::from_static(b"<html><title>Not found</title></html>")))
            .expect("response");
    };
    let ct = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    };
    http::Response::builder().header("content-type", ct).body(Full::new(Bytes::from(body))).expect("response")
}

/// In-memory HTML pages on 127.0.0.1 that count the requests of each path; any other path
/// answers 404 `not found` (text/plain). Reach them as `http://localhost:PORT/...` ([`url`])
/// so their host is a domain name.
///
/// [`url`]: Pages::url
pub struct Pages {
    server: MockServer,
}

impl Pages {
    pub async fn start(pages: Vec<(&str, String)>) -> Pages {
        let server = MockServer::start().await;
        for (at, body) in pages {
            Mock::given(path(at))
                .respond_with(ResponseTemplate::new(200).set_body_raw(body, "text/html; charset=utf-8"))
                .mount(&server)
                .await;
        }
        Mock::given(any())
            .respond_with(ResponseTemplate::new(404).set_body_raw("not found", "text/plain"))
            .with_priority(u8::MAX)
            .mount(&server)
            .await;
        Pages { server }
    }

    /// The address it listens on (127.0.0.1).
    pub fn addr(&self) -> SocketAddr {
        *self.server.address()
    }

    /// `http://localhost:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://localhost:{}{}", self.addr().port(), path)
    }

    /// Requests that reached `path` so far.
    pub async fn hits(&self, path: &str) -> usize {
        let requests = self.server.received_requests().await.unwrap_or_default();
        requests.iter().filter(|r| r.url.path() == path).count()
    }
}
