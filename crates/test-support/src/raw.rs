//! Misbehaving peers: an HTTP/1.1 server on raw sockets, on a loopback port, with one canned
//! answer per path.
//!
//! Raw tokio rather than hyper: the tests need answers no well-behaved server gives
//! (stalling, endless bodies, a gzip bomb, arbitrary header bytes, bytes that are not HTTP,
//! answers cut short, connections reset).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server answers on one path.
#[derive(Clone)]
pub enum Reply {
    /// A complete answer with `Content-Length` and `Connection: close`.
    Full { status: u16, headers: Vec<(String, String)>, body: Vec<u8> },
    /// Reads the request and never answers.
    Stall,
    /// Sends the headers, then body bytes until the client goes away.
    Endless { headers: Vec<(String, String)> },
    /// Reads the request and resets the connection (TCP RST) without answering.
    Reset,
    /// Writes these bytes as they are (garbage, a head promising more body than follows),
    /// keeps the connection open for `hold`, then closes it.
    Raw { bytes: Vec<u8>, hold: Duration },
}

/// An HTML page with `Content-Type: text/html; charset=utf-8`.
pub fn html(body: &str) -> Reply {
    typed("text/html; charset=utf-8", body.as_bytes())
}

/// A 200 answer with the given content type and body bytes.
pub fn typed(content_type: &str, body: &[u8]) -> Reply {
    Reply::Full { status: 200, headers: vec![("Content-Type".into(), content_type.into())], body: body.to_vec() }
}

/// An answer of `status` with an empty body.
pub fn status(status: u16) -> Reply {
    Reply::Full { status, headers: Vec::new(), body: Vec::new() }
}

/// A redirect to `location`.
pub fn redirect(status: u16, location: &str) -> Reply {
    Reply::Full { status, headers: vec![("Location".into(), location.into())], body: Vec::new() }
}

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// When its head had arrived.
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// The server: see the module documentation.
pub struct RawServer {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl RawServer {
    /// Starts a server on `ip` (a loopback address) at a free port.
    pub async fn start(ip: &str, routes: Vec<(&str, Reply)>) -> RawServer {
        let listener = TcpListener::bind((ip, 0)).await.expect("bind test server");
        let addr = listener.local_addr().expect("local addr");
        let routes: Arc<Vec<(String, Reply)>> = Arc::new(routes.into_iter().map(|(p, r)| (p.to_string(), r)).collect());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let routes = Arc::clone(&routes);
                let seen = Arc::clone(&seen);
                tokio::spawn(async move {
                    let _ = serve(stream, &routes, &seen).await;
                });
            }
        });
        RawServer { addr, requests }
    }

    /// A peer that speaks first: on every connection it writes `bytes` at once, without
    /// reading anything (so it records no request), and closes after `hold`. For a client
    /// that expects another protocol (a TLS handshake answered with plain HTTP).
    pub async fn speaking_first(ip: &str, bytes: &[u8], hold: Duration) -> RawServer {
        let listener = TcpListener::bind((ip, 0)).await.expect("bind test server");
        let addr = listener.local_addr().expect("local addr");
        let bytes = bytes.to_vec();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let bytes = bytes.clone();
                tokio::spawn(async move {
                    let _ = stream.write_all(&bytes).await;
                    tokio::time::sleep(hold).await;
                });
            }
        });
        RawServer { addr, requests: Arc::default() }
    }

    /// `http://<addr><path>`.
    pub fn url(&self, path: &str) -> url::Url {
        url::Url::parse(&format!("http://{}{}", self.addr, path)).expect("test url")
    }

    /// The requests received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }
}

async fn serve(mut stream: TcpStream, routes: &[(String, Reply)], seen: &Mutex<Vec<Recorded>>) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let head_end = loop {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let at = Instant::now();
    let (method, path, headers) = parse_head(&buf[..head_end]);
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    seen.lock().expect("lock").push(Recorded { method, path: path.clone(), headers, body, at });

    let reply = routes.iter().find(|(p, _)| *p == path).map(|(_, r)| r.clone()).unwrap_or_else(|| Reply::Full {
        status: 404,
        headers: vec![("Content-Type".into(), "text/plain".into())],
        body: b"not found".to_vec(),
    });
    match reply {
        Reply::Full { status, headers, body } => {
            let mut out = format!("HTTP/1.1 {status} X\r\n").into_bytes();
            for (name, value) in &headers {
                out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
            out.extend_from_slice(format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(&body);
            stream.write_all(&out).await?;
            stream.shutdown().await?;
        }
        Reply::Stall => {
            tokio::time::sleep(Duration::from_secs(60)).await;
        }
        Reply::Reset => {
            // SO_LINGER 0: closing sends RST instead of FIN.
            stream.set_zero_linger()?;
            drop(stream);
        }
        Reply::Endless { headers } => {
            let mut out = b"HTTP/1.1 200 OK\r\n".to_vec();
            for (name, value) in &headers {
                out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
            out.extend_from_slice(b"Connection: close\r\n\r\n");
            stream.write_all(&out).await?;
            let block = vec![b'a'; 16 * 1024];
            loop {
                stream.write_all(&block).await?;
            }
        }
        Reply::Raw { bytes, hold } => {
            stream.write_all(&bytes).await?;
            stream.flush().await?;
            tokio::time::sleep(hold).await;
            stream.shutdown().await?;
        }
    }
    Ok(())
}

/// The method, the path and the headers (names in lower case) of a request head.
pub(crate) fn parse_head(head: &[u8]) -> (String, String, Vec<(String, String)>) {
    let head = String::from_utf8_lossy(head);
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (method, path, headers)
}
