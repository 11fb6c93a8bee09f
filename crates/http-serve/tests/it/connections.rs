//! Connection bounds on a loopback port (docs/SECURITY.md, "Connection bounds"): sockets
//! that never complete a request head are closed at the head timeout, idle HTTP/1.1 and
//! HTTP/2 connections at the idle timeout, a request running longer than the head timeout
//! is answered, and the connection caps close extra sockets at once, while a normal client
//! is still answered. Over HTTPS: HTTP/2 and HTTP/1.1 by ALPN, plain HTTP on the HTTPS port
//! refused without harm, and TLS handshakes held to the same head timeout and caps.
//!
//! `cargo test -p http-serve --test it connections:: -- --nocapture` prints the figures
//! recorded in docs/SECURITY.md.
//!
//! It raises this process's open-file limit (which harms no other test) and opens thousands
//! of sockets: the crate's test binary holds nothing else that runs in its process.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use crate::common::*;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The HTTP/2 connection preface and an empty SETTINGS frame: all a client sends before
/// its first request.
const H2_PREFACE_AND_SETTINGS: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

/// Ways of opening a connection and then sending nothing more.
const STALLED_OPENINGS: &[(&str, &[u8])] = &[
    ("silent", b""),
    ("one byte, P", b"P"),
    ("partial HTTP/2 preface", b"PRI * HTTP/2.0\r\n"),
    ("HTTP/2 preface and SETTINGS, no request", H2_PREFACE_AND_SETTINGS),
    ("partial HTTP/1.1 head", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
];

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_stalled_sockets_are_closed_on_time_and_a_client_is_still_answered() {
    // Both ends of every socket are in this process: two descriptors each, and a margin
    // for the runtime.
    let fd_limit = http_serve::conn::raise_fd_limit().unwrap_or(1024);
    let count = usize::try_from((fd_limit.saturating_sub(600) / 2).min(6000)).unwrap();
    assert!(count >= 200, "open-file limit {fd_limit} is too low for this test");
    let head = Duration::from_millis(1000);
    let t = TestServer::start(|l| {
        l.header_timeout = head;
        // Only the head deadline may close these sockets here; the caps have their own test.
        l.max_connections = 0;
        l.max_connections_per_ip = 0;
    })
    .await;
    let addr = t.server.local_addr();

    let started = Instant::now();
    let mut waiters = tokio::task::JoinSet::new();
    for i in 0..count {
        let (kind, bytes) = STALLED_OPENINGS[i % STALLED_OPENINGS.len()];
        let mut s = TcpStream::connect(addr).await.unwrap();
        let opened = Instant::now();
        s.write_all(bytes).await.unwrap();
        waiters.spawn(async move {
            let closed = closed_within(&mut s, head + Duration::from_secs(20)).await;
            (kind, closed.map(|_| opened.elapsed()))
        });
    }
    let opening = started.elapsed();

    // A normal client, with every stalled socket open or being closed around it.
    let asked = Instant::now();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let answer = client.get(t.url("/")).send().await.unwrap();
    let answered = asked.elapsed();
    assert_eq!(answer.status(), 200);
    assert!(answered < Duration::from_secs(1), "the client waited {answered:?}");

    let mut lifetimes = Vec::with_capacity(count);
    while let Some(done) = waiters.join_next().await {
        let (kind, lifetime) = done.unwrap();
        let lifetime = lifetime.unwrap_or_else(|| panic!("a {kind} socket was still open after {:?}", head * 21));
        // Not before the head timeout (no cap closed it), and not long after it.
        assert!(lifetime >= head - Duration::from_millis(300), "a {kind} socket was closed after {lifetime:?}");
        assert!(lifetime <= head + Duration::from_secs(4), "a {kind} socket was closed after {lifetime:?}");
        lifetimes.push(lifetime);
    }
    lifetimes.sort();
    let median = lifetimes[lifetimes.len() / 2];
    eprintln!(
        "{count} stalled sockets ({} kinds) opened in {} ms; a normal client answered in {} ms; \
         the server closed them {}..{} ms after they opened (median {} ms; head timeout {} ms)",
        STALLED_OPENINGS.len(),
        ms(opening),
        ms(answered),
        ms(lifetimes[0]),
        ms(lifetimes[lifetimes.len() - 1]),
        ms(median),
        ms(head),
    );
    // On a new connection: the first one, idle meanwhile, was closed after the head timeout
    // (the deadline of its next request head), and reusing it would race that close.
    assert_eq!(t.get_status("/").await, 200);
}

#[tokio::test]
async fn a_request_running_longer_than_the_head_timeout_is_answered() {
    let t = TestServer::start(|l| l.header_timeout = Duration::from_millis(300)).await;
    // The handler answers after 1.5 s: five head timeouts with a request in flight.
    assert_eq!(t.get_status("/slow").await, 200);
}

#[tokio::test]
async fn an_idle_http1_keep_alive_connection_is_closed_after_the_idle_or_head_timeout() {
    // An HTTP/1.1 connection waiting for its next request is closed by whichever comes
    // first: the idle timeout, or the head timeout of that next request (hyper starts it
    // when the previous answer is out).
    let wait = Duration::from_millis(1500);
    for (header_ms, idle_ms) in [(10_000, ms(wait) as u64), (ms(wait) as u64, 60_000)] {
        let t = TestServer::start(|l| {
            l.header_timeout = Duration::from_millis(header_ms);
            l.idle_timeout = Duration::from_millis(idle_ms);
        })
        .await;
        let mut s = TcpStream::connect(t.server.local_addr()).await.unwrap();
        // Two requests on the connection: it is kept alive between them.
        for _ in 0..2 {
            s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await.unwrap();
            let head = read_http1_answer(&mut s).await;
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        }
        let lifetime = closed_within(&mut s, wait + Duration::from_secs(10)).await.expect("closed when idle");
        assert!(lifetime >= wait - Duration::from_millis(200), "closed after {lifetime:?}");
        assert!(lifetime <= wait + Duration::from_secs(4), "closed after {lifetime:?}");
        eprintln!(
            "idle HTTP/1.1 connection closed {} ms after its last answer (head timeout {header_ms} ms, idle timeout {idle_ms} ms)",
            ms(lifetime)
        );
    }
}

/// Reads one HTTP/1.1 answer with a `Content-Length` body; returns its head.
async fn read_http1_answer(s: &mut TcpStream) -> String {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf)).await.unwrap().unwrap();
        assert!(n > 0, "closed before a whole answer: {}", String::from_utf8_lossy(&data));
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return text;
            }
        }
    }
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

/// Sends a request and reads the answer's status and body.
async fn h2_send(sender: &mut H2Sender, req: http::Request<BoxBody<Bytes, Infallible>>) -> (u16, Bytes) {
    sender.ready().await.unwrap();
    let resp = tokio::time::timeout(Duration::from_secs(20), sender.send_request(req)).await.unwrap().unwrap();
    let status = resp.status().as_u16();
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, body)
}

#[tokio::test]
async fn an_idle_http2_connection_is_closed_after_the_idle_timeout() {
    let idle = Duration::from_millis(1500);
    let t = TestServer::start(|l| {
        l.header_timeout = Duration::from_secs(10);
        l.idle_timeout = idle;
    })
    .await;
    let (mut sender, driver) = h2_connect(t.server.local_addr()).await;
    let req = http::Request::get(t.url("/")).body(empty_body()).unwrap();
    let (status, _) = h2_send(&mut sender, req).await;
    assert_eq!(status, 200);
    let answered = Instant::now();
    tokio::time::timeout(idle + Duration::from_secs(10), driver).await.expect("closed when idle").unwrap();
    let lifetime = answered.elapsed();
    assert!(lifetime >= idle - Duration::from_millis(200), "closed after {lifetime:?}");
    assert!(lifetime <= idle + Duration::from_secs(4), "closed after {lifetime:?}");
    assert!(sender.is_closed());
    eprintln!("idle HTTP/2 connection closed {} ms after its last answer (idle timeout {} ms)", ms(lifetime), ms(idle));
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_caps_are_closed_at_once() {
    // Linux routes all of 127.0.0.0/8 to loopback: each address is another client.
    let ip = |last: u8| IpAddr::from([127, 0, 0, last]);
    let t = TestServer::start(|l| {
        // Only the caps may close these sockets here.
        l.header_timeout = Duration::from_secs(60);
        l.max_connections = 6;
        l.max_connections_per_ip = 3;
    })
    .await;
    let addr = t.server.local_addr();
    let client_from = |last: u8| reqwest::Client::builder().no_proxy().local_address(ip(last)).build().unwrap();
    let status_from = |last: u8| {
        let client = client_from(last);
        let url = t.url("/");
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

/// A burst of connections waits in the kernel's listen queue until the server takes them:
/// the socket listens with a queue of [`http_serve::conn::LISTEN_BACKLOG`]. With tokio's
/// default of 1,024, the kernel dropped the SYNs of a burst past it, and each client so
/// dropped (any client, not only the one making the burst) waited a 1 s retransmission.
/// Here 2,000 connections are made to a bound socket that accepts nothing yet: each gets a
/// place in the queue.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_connections_waits_in_the_listen_queue() {
    // The kernel caps the queue at `net.core.somaxconn` (4,096 since Linux 5.4): the burst
    // is kept within it, and within the open files this process may hold.
    let somaxconn = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .unwrap_or(128);
    let fd_limit = usize::try_from(http_serve::conn::raise_fd_limit().unwrap_or(1024)).unwrap_or(usize::MAX);
    let burst = 2_000.min(somaxconn).min(fd_limit.saturating_sub(256));
    if burst <= 1_024 {
        eprintln!(
            "a burst of {burst} (somaxconn {somaxconn}, open-file limit {fd_limit}) fits tokio's default queue too"
        );
    }
    let listener = http_serve::Listener::bind(([127, 0, 0, 1], 0).into()).await.unwrap();
    let addr = listener.local_addr();
    let mut connects = tokio::task::JoinSet::new();
    for _ in 0..burst {
        // Bounded only so that a connection left out of the queue fails the test rather
        // than hangs it: nothing accepts, so a full queue stays full.
        connects.spawn(tokio::time::timeout(Duration::from_secs(20), TcpStream::connect(addr)));
    }
    let mut held = Vec::new();
    while let Some(done) = connects.join_next().await {
        let connected = done.unwrap().expect("a connection of the burst found the listen queue full");
        held.push(connected.unwrap());
    }
    assert_eq!(held.len(), burst);
    drop(listener);
}

/// A server certificate chain signed by a test root, as the server's [`http_serve::Tls`].
fn test_tls(dir: &std::path::Path) -> (test_support::tls::TestCerts, http_serve::Tls) {
    let certs = test_support::tls::TestCerts::generate(dir);
    let tls = http_serve::Tls::from_pem_files(&certs.chain, &certs.key).expect("the test chain and key");
    (certs, tls)
}

#[tokio::test]
async fn https_serves_http2_and_http1_by_alpn_and_plain_http_on_its_port_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let (certs, tls) = test_tls(dir.path());
    let t = TestServer::start_with(Some(tls), |_| {}).await;
    let addr = t.server.local_addr();
    assert_eq!(t.server.scheme(), "https");
    assert!(t.base.starts_with("https://127.0.0.1:"), "{}", t.base);

    let get = |client: reqwest::Client, url: String| async move {
        let resp = client.get(url).send().await.expect("an HTTPS answer");
        let version = resp.version();
        (resp.status().as_u16(), version, resp.text().await.unwrap())
    };
    // A client offering both gets HTTP/2; one offering only HTTP/1.1 gets that.
    let h2 = get(certs.client().build().unwrap(), t.url("/")).await;
    assert_eq!(h2, (200, http::Version::HTTP_2, r#"{"ok":true}"#.to_string()));
    let h1 = get(certs.client().http1_only().build().unwrap(), t.url("/")).await;
    assert_eq!(h1, (200, http::Version::HTTP_11, r#"{"ok":true}"#.to_string()));
    // The certificate names localhost too.
    let by_name = get(certs.client().build().unwrap(), format!("https://localhost:{}/", addr.port())).await;
    assert_eq!(by_name.0, 200);

    // Plain HTTP on the HTTPS port: no HTTP answer, the connection is closed.
    let plain = reqwest::Client::builder().no_proxy().build().unwrap().get(format!("http://{addr}/")).send().await;
    assert!(plain.is_err(), "{plain:?}");
    let mut raw = TcpStream::connect(addr).await.unwrap();
    raw.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), raw.read_to_end(&mut answer))
        .await
        .expect("closed after a plain HTTP request")
        .ok();
    assert!(!answer.starts_with(b"HTTP/"), "{:?}", String::from_utf8_lossy(&answer));
    // A client that does not trust the test root refuses the server's certificate.
    let untrusting = reqwest::Client::builder().no_proxy().build().unwrap().get(t.url("/")).send().await;
    assert!(untrusting.is_err(), "{untrusting:?}");

    // None of that disturbed the server.
    let again = get(certs.client().build().unwrap(), t.url("/")).await;
    assert_eq!(again.0, 200);
    t.server.shutdown().await;
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_handshakes_are_held_to_the_head_timeout_and_count_against_the_caps() {
    let dir = tempfile::tempdir().unwrap();
    let (certs, tls) = test_tls(dir.path());
    let head = Duration::from_millis(1000);
    let t = TestServer::start_with(Some(tls), |l| {
        l.header_timeout = head;
        l.max_connections_per_ip = 1;
    })
    .await;
    let addr = t.server.local_addr();
    // Linux routes all of 127.0.0.0/8 to loopback: each address is another client.
    let ip = |last: u8| IpAddr::from([127, 0, 0, last]);
    let status_from = |last: u8| {
        let client = certs.client().local_address(ip(last)).build().unwrap();
        let url = t.url("/");
        async move { client.get(url).send().await.map(|r| r.status().as_u16()).map_err(|e| e.to_string()) }
    };
    // A TLS record header announcing a ClientHello, and nothing of the ClientHello.
    let stalled_hello: &[u8] = b"\x16\x03\x01\x02\x00";
    // Each case has clients of its own: a client's last connection of a case may still be
    // open on the server's side when the next case starts.
    let cases = [("silent", &b""[..], 10), ("ClientHello begun, never finished", stalled_hello, 20)];
    for (what, opening, client) in cases {
        let mut stalled = connect_from(ip(client), addr).await;
        stalled.write_all(opening).await.unwrap();
        // Its handshake holds its client's one connection: that client's next one is
        // closed at once (connections are accepted in the order they were made), another
        // client is served.
        assert!(status_from(client).await.is_err(), "{what}: a second connection of a client at its cap was served");
        assert_eq!(status_from(client + 1).await, Ok(200), "{what}");
        // Closed at the head timeout, counted from the accept.
        let lifetime = closed_within(&mut stalled, head + Duration::from_secs(10)).await.expect("closed");
        assert!(lifetime >= head - Duration::from_millis(300), "{what}: closed after {lifetime:?}");
        assert!(lifetime <= head + Duration::from_secs(4), "{what}: closed after {lifetime:?}");
        eprintln!("TLS connection, {what}: closed {} ms after it opened (head timeout {} ms)", ms(lifetime), ms(head));
        // Its slot is free again.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match status_from(client).await {
                Ok(200) => break,
                other => assert!(Instant::now() < deadline, "{what}: still refused: {other:?}"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
