//! Connection bounds of the real server on a loopback port (docs/SECURITY.md, "Connection
//! bounds"): the settings reach the connection layer (head and idle timeouts, the caps),
//! a request running longer than the head timeout is answered, and bodies that never come
//! are answered with the body-timeout error on every route that reads one. The bounds
//! themselves, with thousands of stalled sockets, are tested in `crates/http-serve/tests`.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use crate::common::*;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, StreamBody};
use hyper::body::Frame;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Reads until the server closes the connection (EOF, or a reset); the time it took, or
/// `None` if it was still open after `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                // The server's HTTP/2 SETTINGS, or an answer: not a close yet.
                Ok(_) => continue,
            }
        }
    })
    .await
    .ok()?;
    Some(start.elapsed())
}

/// A TCP connection to `addr` from the local address `from`.
async fn connect_from(from: IpAddr, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(addr).await.unwrap()
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

#[tokio::test]
async fn a_request_running_longer_than_the_head_timeout_is_answered() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| {
        c.header_timeout_ms = 300;
        c.fetch.total_timeout_ms = 10_000;
    })
    .await;
    // The page answers after 1.5 s: five head timeouts with a request in flight.
    let url = t.audit_url(&site.url("/slow/index.html"), "");
    let answer = Answer::from(t.client.get(url).send().await.unwrap()).await;
    assert_eq!(answer.status, 200, "{}", answer.raw);
}

type H2Sender = hyper::client::conn::http2::SendRequest<BoxBody<Bytes, Infallible>>;

/// An HTTP/2 (prior knowledge) connection to the server; the task driving it ends when
/// the server closes the connection.
async fn h2_connect(addr: SocketAddr) -> (H2Sender, tokio::task::JoinHandle<()>) {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream)).await.unwrap();
    let driver = tokio::spawn(async move {
        let _ = conn.await;
    });
    (sender, driver)
}

fn empty_body() -> BoxBody<Bytes, Infallible> {
    Empty::new().boxed()
}

/// A request body that is announced (no END_STREAM) and never sent.
fn never_sent_body() -> BoxBody<Bytes, Infallible> {
    StreamBody::new(futures_util::stream::pending::<Result<Frame<Bytes>, Infallible>>()).boxed()
}

/// Sends a request and reads the answer's status and body.
async fn h2_send(sender: &mut H2Sender, req: http::Request<BoxBody<Bytes, Infallible>>) -> (u16, serde_json::Value) {
    sender.ready().await.unwrap();
    let resp = tokio::time::timeout(Duration::from_secs(20), sender.send_request(req)).await.unwrap().unwrap();
    let status = resp.status().as_u16();
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null))
}

#[tokio::test]
async fn the_head_and_idle_timeouts_of_the_settings_hold() {
    let (head, idle) = (Duration::from_millis(1000), Duration::from_millis(1500));
    let t = TestServer::start(|c| {
        c.header_timeout_ms = ms(head) as u64;
        c.idle_timeout_ms = ms(idle) as u64;
    })
    .await;
    let addr = t.server.local_addr();
    // A socket that sends nothing: closed at the head timeout.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let lifetime = closed_within(&mut silent, head + Duration::from_secs(10)).await.expect("closed without a head");
    assert!(lifetime >= head - Duration::from_millis(300), "closed after {lifetime:?}");
    assert!(lifetime <= head + Duration::from_secs(4), "closed after {lifetime:?}");
    // An HTTP/2 connection after its answer: closed at the idle timeout.
    let (mut sender, driver) = h2_connect(addr).await;
    let req = http::Request::get(t.url("/api/status")).body(empty_body()).unwrap();
    let (status, _) = h2_send(&mut sender, req).await;
    assert_eq!(status, 200);
    let answered = Instant::now();
    tokio::time::timeout(idle + Duration::from_secs(10), driver).await.expect("closed when idle").unwrap();
    let lifetime = answered.elapsed();
    assert!(lifetime >= idle - Duration::from_millis(200), "closed after {lifetime:?}");
    assert!(lifetime <= idle + Duration::from_secs(4), "closed after {lifetime:?}");
}

#[tokio::test]
async fn bodies_that_never_come_get_the_body_timeout_error_on_mcp_and_rest_routes() {
    let body_timeout = Duration::from_millis(1000);
    let t = TestServer::start(|c| c.body_timeout_ms = ms(body_timeout) as u64).await;
    let addr = t.server.local_addr();
    let within = format!("not received within {} ms", ms(body_timeout));

    // HTTP/2: a stream whose DATA never comes.
    let (mut sender, _driver) = h2_connect(addr).await;
    let started = Instant::now();
    let req = http::Request::post(t.url("/api/mcp"))
        .header("content-type", "application/json")
        .body(never_sent_body())
        .unwrap();
    let (status, body) = h2_send(&mut sender, req).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], mcp_protocol::INVALID_REQUEST, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains(&within), "{body}");
    assert!(started.elapsed() < body_timeout + Duration::from_secs(4), "{:?}", started.elapsed());
    let req = http::Request::post(t.url("/api/v1/audit/batch"))
        .header("content-type", "application/json")
        .body(never_sent_body())
        .unwrap();
    let (status, body) = h2_send(&mut sender, req).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("invalid_request")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains(&within), "{body}");

    // HTTP/1.1: a Content-Length and no body, and a body trickled a byte at a time.
    for trickle in [false, true] {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let started = Instant::now();
        s.write_all(
            b"POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        )
        .await
        .unwrap();
        let (mut reader, mut writer) = s.into_split();
        let trickler = tokio::spawn(async move {
            if trickle {
                while writer.write_all(b" ").await.is_ok() {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
            writer
        });
        let mut answer = Vec::new();
        let read = tokio::time::timeout(body_timeout + Duration::from_secs(10), reader.read_to_end(&mut answer)).await;
        trickler.abort();
        assert!(read.is_ok(), "no answer and no close (trickle: {trickle})");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "trickle {trickle}: {answer}");
        assert!(answer.contains(&within) && answer.contains("-32600"), "trickle {trickle}: {answer}");
        assert!(started.elapsed() < body_timeout + Duration::from_secs(4), "{:?}", started.elapsed());
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_caps_are_closed_at_once() {
    // Linux routes all of 127.0.0.0/8 to loopback: each address is another client.
    let ip = |last: u8| IpAddr::from([127, 0, 0, last]);
    let t = TestServer::start(|c| {
        // Only the caps may close these sockets here.
        c.header_timeout_ms = 60_000;
        c.max_connections = 6;
        c.max_connections_per_ip = 3;
    })
    .await;
    let addr = t.server.local_addr();
    let client_from = |last: u8| reqwest::Client::builder().no_proxy().local_address(ip(last)).build().unwrap();
    let status_from = |last: u8| {
        let client = client_from(last);
        let url = t.url("/api/status");
        async move { client.get(url).send().await.map(|r| r.status().as_u16()).map_err(|e| e.to_string()) }
    };

    // A client at its cap: its next connection is closed at once, others are answered.
    // (Connections are accepted in the order they were made, so the held ones count first.)
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from(ip(1), addr).await);
    }
    let mut extra = connect_from(ip(1), addr).await;
    let lifetime = closed_within(&mut extra, Duration::from_secs(10)).await.expect("closed over the per-IP cap");
    assert!(lifetime < Duration::from_secs(5), "{lifetime:?}");
    assert_eq!(status_from(2).await, Ok(200));
    // The held sockets are still open: the cap closed the new one, not the old ones.
    let mut probe = [0u8; 1];
    assert!(held[0].try_read(&mut probe).is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock));

    // Six in all: every client is refused until one closes.
    for _ in 0..3 {
        held.push(connect_from(ip(3), addr).await);
    }
    let mut extra = connect_from(ip(4), addr).await;
    let lifetime = closed_within(&mut extra, Duration::from_secs(10)).await.expect("closed over the global cap");
    assert!(lifetime < Duration::from_secs(5), "{lifetime:?}");

    // Once the held sockets close, the first client is served again (the server sees the
    // closes as it reads them: wait for that, bounded).
    held.clear();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match status_from(1).await {
            Ok(200) => break,
            other => assert!(Instant::now() < deadline, "still refused: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sends raw HTTP/1.1 `request` and reads the whole answer (the request closes the connection).
async fn raw_answer(addr: SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// A loopback listener answers only requests that name it (DNS-rebinding protection,
/// docs/SECURITY.md): on REST routes, pages and `/api/mcp`, a missing `Host`, a foreign
/// one, an absolute-form target and an HTTP/2 `:authority` naming another host are refused
/// with 403.
#[tokio::test]
async fn a_loopback_server_answers_only_requests_that_name_it() {
    let t = TestServer::start(|_| {}).await;
    let addr = t.server.local_addr();
    let port = addr.port();
    let mcp_body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let mcp = |target: &str, host: &str| {
        format!(
            "POST {target} HTTP/1.1\r\n{host}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{mcp_body}",
            mcp_body.len()
        )
    };
    let get = |target: &str, host: &str| format!("GET {target} HTTP/1.1\r\n{host}Connection: close\r\n\r\n");
    let own = format!("Host: 127.0.0.1:{port}\r\n");
    // Named as itself: answered.
    for request in [get("/api/status", &own), get("/", "Host: localhost\r\n"), mcp("/api/mcp", &own)] {
        let answer = raw_answer(addr, &request).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{request}\n{answer}");
    }
    let cases = [
        ("no Host", "/api/status", String::new()),
        ("a foreign Host", "/api/status", "Host: evil.example\r\n".to_string()),
        ("two Hosts", "/api/status", format!("{own}{own}")),
        ("an absolute-form target", "http://evil.example/api/status", own.clone()),
    ];
    for (what, target, host) in &cases {
        for path in ["/api/status", "/", "/api/v1/audit?url=https%3A%2F%2Fexample.com%2F"] {
            let target = target.replace("/api/status", path);
            let answer = raw_answer(addr, &get(&target, host)).await;
            assert!(answer.starts_with("HTTP/1.1 403"), "{what}, {path}: {answer}");
            assert!(answer.contains(r#""code":"forbidden""#) && answer.contains(r#""reason":"host""#), "{answer}");
        }
        let target = target.replace("/api/status", "/api/mcp");
        let answer = raw_answer(addr, &mcp(&target, host)).await;
        assert!(answer.starts_with("HTTP/1.1 403"), "{what}, /api/mcp: {answer}");
    }
    // HTTP/2 (h2c, prior knowledge): the :authority decides.
    let (mut sender, _driver) = h2_connect(addr).await;
    let ours = http::Request::get(format!("http://127.0.0.1:{port}/api/status")).body(empty_body()).unwrap();
    assert_eq!(h2_send(&mut sender, ours).await.0, 200);
    let foreign = http::Request::get("http://evil.example/api/status").body(empty_body()).unwrap();
    let (status, body) = h2_send(&mut sender, foreign).await;
    assert_eq!((status, &body["error"]["details"]["reason"]), (403, &serde_json::json!("host")), "{body}");
    let foreign = http::Request::post("http://evil.example/api/mcp")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(http_body_util::Full::new(Bytes::from(mcp_body)).boxed())
        .unwrap();
    let (status, body) = h2_send(&mut sender, foreign).await;
    assert_eq!(status, 403, "/api/mcp: {body}");
}
