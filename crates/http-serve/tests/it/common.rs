//! A trivial service under `http_serve` on 127.0.0.1:0, shared by the test modules.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
pub use http_serve::Limits;

/// How long `/slow` waits before answering.
pub const SLOW_DELAY: Duration = Duration::from_millis(1500);

/// A running server and its base URL.
pub struct TestServer {
    pub server: http_serve::Server,
    pub base: String,
}

impl TestServer {
    /// Serves 200 `{"ok":true}` on every path (`/slow` after [`SLOW_DELAY`]) under the
    /// default limits as `tweak` leaves them.
    pub async fn start(tweak: impl FnOnce(&mut Limits)) -> TestServer {
        TestServer::start_with(None, tweak).await
    }

    /// [`TestServer::start`] serving HTTPS with `tls` when given.
    pub async fn start_with(tls: Option<http_serve::Tls>, tweak: impl FnOnce(&mut Limits)) -> TestServer {
        let mut limits = Limits::default();
        tweak(&mut limits);
        let mut listener = http_serve::Listener::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        if let Some(tls) = tls {
            listener = listener.with_tls(tls);
        }
        let server = http_serve::serve(
            listener,
            limits,
            |req: http::Request<hyper::body::Incoming>, _peer: SocketAddr| async move {
                if req.uri().path() == "/slow" {
                    tokio::time::sleep(SLOW_DELAY).await;
                }
                let mut resp = http::Response::new(Full::new(Bytes::from_static(br#"{"ok":true}"#)));
                resp.headers_mut()
                    .insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
                resp
            },
        );
        let base = format!("{}://{}", server.scheme(), server.local_addr());
        TestServer { server, base }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// The status of a GET on a new connection.
    pub async fn get_status(&self, path: &str) -> u16 {
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        client.get(self.url(path)).send().await.unwrap().status().as_u16()
    }
}
