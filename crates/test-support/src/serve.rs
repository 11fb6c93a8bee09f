//! Well-behaved peers on 127.0.0.1, on wiremock: each server runs on a thread of its own and
//! keeps every request it gets. Each is a new server (not one of wiremock's pool), so a port
//! is never handed on to another test, and one kept by [`Pages::leak`] takes no pool place.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// How long `/slow/...` fixture pages wait before answering.
pub const SLOW_DELAY: Duration = Duration::from_millis(1500);

/// A static site from `fixtures/sites/<name>/` on 127.0.0.1 (a [`Pages`] server). `/slow/<file>`
/// serves the same file after [`SLOW_DELAY`]; `slow_hits` counts requests that reached such
/// a path.
pub struct FixtureSite {
    pub addr: SocketAddr,
    pub slow_hits: Arc<AtomicUsize>,
    pub pages: Pages,
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
    let root = fixtures_dir(name);
    let slow_hits = Arc::new(AtomicUsize::new(0));
    let hits = slow_hits.clone();
    let pages = Pages::serve(move |req: &Request| serve_file(&root, req.url.path(), &hits)).await;
    FixtureSite { addr: pages.addr(), slow_hits, pages }
}

fn serve_file(root: &Path, path: &str, slow_hits: &AtomicUsize) -> ResponseTemplate {
    let mut path = path.trim_start_matches('/');
    let mut delay = Duration::ZERO;
    if let Some(rest) = path.strip_prefix("slow/") {
        slow_hits.fetch_add(1, Ordering::SeqCst);
        delay = SLOW_DELAY;
        path = rest;
    }
    if path.is_empty() {
        path = "index.html";
    }
    let file = root.join(path);
    let read = if path.contains("..") { Err(std::io::ErrorKind::NotFound.into()) } else { std::fs::read(&file) };
    let Ok(body) = read else {
        return ResponseTemplate::new(404)
            .set_body_raw("<html><title>Not found</title></html>", "text/html")
            .set_delay(delay);
    };
    let ct = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    };
    ResponseTemplate::new(200).set_body_raw(body, ct).set_delay(delay)
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
        let server = MockServer::builder().start().await;
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

    /// A server whose every answer comes from `respond`, called with each request (wiremock
    /// keeps them all: [`requests`](Pages::requests)). `respond` must not block; a late
    /// answer is [`ResponseTemplate::set_delay`].
    pub async fn serve<F>(respond: F) -> Pages
    where
        F: Fn(&Request) -> ResponseTemplate + Send + Sync + 'static,
    {
        let server = MockServer::builder().start().await;
        Mock::given(any()).respond_with(respond).mount(&server).await;
        Pages { server }
    }

    /// Keeps the server for the rest of the test process and gives its address: for a
    /// helper that hands out only the address.
    pub fn leak(self) -> SocketAddr {
        let addr = self.addr();
        std::mem::forget(self);
        addr
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
        self.requests().await.iter().filter(|r| r.url.path() == path).count()
    }

    /// The requests received so far, in order of arrival.
    pub async fn requests(&self) -> Vec<Request> {
        self.server.received_requests().await.unwrap_or_default()
    }
}
