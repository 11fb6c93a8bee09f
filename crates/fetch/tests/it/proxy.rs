//! The guarded forward proxy of rendered audits (`fetch::proxy`), driven by a raw client
//! the way a browser drives it: absolute-form requests and CONNECT tunnels.

use std::net::IpAddr;

use fetch::proxy::{GuardedProxy, ProxyLimits};
use fetch::{FetchConfig, Fetcher};
use test_support::{html, RawServer, Reply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A fetcher that may reach `allowed` (an address with its port) on loopback, with fixed
/// DNS answers.
fn fetcher(allowed: &[String], dns: Vec<(String, Vec<IpAddr>)>) -> Fetcher {
    let config = FetchConfig { allow_targets: allowed.to_vec(), dns_overrides: dns, ..FetchConfig::default() };
    Fetcher::new(config).unwrap()
}

fn limits() -> ProxyLimits {
    ProxyLimits::of(&FetchConfig::default())
}

/// Sends `request` to the proxy and reads until it closes the connection.
async fn exchange(proxy: &GuardedProxy, request: &str) -> String {
    let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn an_allowed_plain_request_is_passed_on() {
    let site = RawServer::start("127.0.0.1", vec![("/page?q=1", html("<p>hello</p>"))]).await;
    let proxy = GuardedProxy::start(fetcher(&[site.addr.to_string()], vec![]), limits()).await.unwrap();
    let request = format!(
        "GET http://{}/page?q=1 HTTP/1.1\r\nHost: {}\r\nProxy-Connection: keep-alive\r\nAccept: text/html\r\n\r\n",
        site.addr, site.addr
    );
    let answer = exchange(&proxy, &request).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("Connection: close\r\n"), "{answer}");
    assert!(answer.ends_with("<p>hello</p>"), "{answer}");
    let seen = site.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/page?q=1");
    assert_eq!(seen[0].header("connection"), Some("close"));
    assert_eq!(seen[0].header("proxy-connection"), None);
    assert_eq!(seen[0].header("accept"), Some("text/html"));
    let log = proxy.log();
    assert_eq!(log.requests, 1);
    assert!(log.refused.is_empty() && log.failed.is_empty(), "{log:?}");
    assert!(log.bytes > 0);
}

#[tokio::test]
async fn an_inner_target_is_refused_in_both_forms_and_never_reached() {
    let site = RawServer::start("127.0.0.1", vec![]).await;
    let inner = RawServer::start("127.0.0.1", vec![("/", html("secret"))]).await;
    let proxy = GuardedProxy::start(fetcher(&[site.addr.to_string()], vec![]), limits()).await.unwrap();

    let plain = exchange(&proxy, &format!("GET http://{}/ HTTP/1.1\r\nHost: {}\r\n\r\n", inner.addr, inner.addr)).await;
    assert!(plain.starts_with("HTTP/1.1 403"), "{plain}");
    assert!(plain.contains("address guard refused 127.0.0.1"), "{plain}");
    let tunnel = exchange(&proxy, &format!("CONNECT {} HTTP/1.1\r\nHost: {}\r\n\r\n", inner.addr, inner.addr)).await;
    assert!(tunnel.starts_with("HTTP/1.1 403"), "{tunnel}");

    assert!(inner.requests().is_empty());
    let log = proxy.log();
    assert_eq!(log.requests, 2);
    let urls: Vec<&str> = log.refused.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(urls, vec![format!("http://{}/", inner.addr), format!("https://{}", inner.addr)]);
    assert!(log.refused.iter().all(|e| e.error.is_blocked()), "{log:?}");
}

#[tokio::test]
async fn names_are_resolved_through_the_fetcher_and_judged() {
    let site = RawServer::start("127.0.0.1", vec![("/", html("named"))]).await;
    let loopback: IpAddr = "127.0.0.1".parse().unwrap();
    let dns = vec![("site.test".to_string(), vec![loopback]), ("inner.test".to_string(), vec![loopback])];
    let proxy = GuardedProxy::start(fetcher(&["site.test".to_string()], dns), limits()).await.unwrap();
    let port = site.addr.port();

    let allowed = exchange(&proxy, &format!("GET http://site.test:{port}/ HTTP/1.1\r\nHost: site.test\r\n\r\n")).await;
    assert!(allowed.starts_with("HTTP/1.1 200") && allowed.ends_with("named"), "{allowed}");
    let refused =
        exchange(&proxy, &format!("GET http://inner.test:{port}/ HTTP/1.1\r\nHost: inner.test\r\n\r\n")).await;
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains("does not resolve to a public address"), "{refused}");
    assert_eq!(site.requests().len(), 1);
}

#[tokio::test]
async fn an_allowed_tunnel_carries_bytes_both_ways() {
    let site = RawServer::start("127.0.0.1", vec![("/t", html("through the tunnel"))]).await;
    let proxy = GuardedProxy::start(fetcher(&[site.addr.to_string()], vec![]), limits()).await.unwrap();
    let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
    stream
        .write_all(format!("CONNECT {} HTTP/1.1\r\nHost: {}\r\n\r\n", site.addr, site.addr).as_bytes())
        .await
        .unwrap();
    let mut head = [0u8; 39];
    stream.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 200 Connection Established\r\n\r\n");
    stream.write_all(b"GET /t HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer).ends_with("through the tunnel"));
    assert_eq!(site.requests()[0].path, "/t");
}

#[tokio::test]
async fn an_answer_over_the_body_limit_is_cut_and_recorded() {
    let endless = Reply::Endless { headers: vec![("Content-Type".into(), "text/html".into())] };
    let site = RawServer::start("127.0.0.1", vec![("/big", endless)]).await;
    let limits = ProxyLimits { max_body_bytes: 64 * 1024, ..limits() };
    let proxy = GuardedProxy::start(fetcher(&[site.addr.to_string()], vec![]), limits).await.unwrap();
    let answer = exchange(&proxy, &format!("GET http://{}/big HTTP/1.1\r\nHost: x\r\n\r\n", site.addr)).await;
    let body = answer.split_once("\r\n\r\n").unwrap().1;
    assert!(body.len() <= 64 * 1024, "{}", body.len());
    let log = proxy.log();
    assert_eq!(log.refused.len(), 1, "{log:?}");
    assert_eq!(log.refused[0].error, fetch::Error::TooLarge { limit: 64 * 1024 });
}

#[tokio::test]
async fn the_total_byte_limit_holds_across_requests() {
    let page = "x".repeat(10_000);
    let site = RawServer::start("127.0.0.1", vec![("/p", html(&page))]).await;
    let limits = ProxyLimits { max_total_bytes: 15_000, ..limits() };
    let proxy = GuardedProxy::start(fetcher(&[site.addr.to_string()], vec![]), limits).await.unwrap();
    let request = format!("GET http://{}/p HTTP/1.1\r\nHost: x\r\n\r\n", site.addr);
    let first = exchange(&proxy, &request).await;
    assert!(first.ends_with(&page));
    let second = exchange(&proxy, &request).await;
    assert!(!second.ends_with(&page), "{} bytes", second.len());
    let log = proxy.log();
    assert_eq!(log.refused.len(), 1, "{log:?}");
    assert!(log.refused[0].error.is_too_large());
    assert!(log.bytes > 15_000);
}

#[tokio::test]
async fn an_unreachable_target_is_a_502_and_recorded_as_failed() {
    let port = test_support::closed_port();
    let allowed = format!("127.0.0.1:{port}");
    let proxy = GuardedProxy::start(fetcher(std::slice::from_ref(&allowed), vec![]), limits()).await.unwrap();
    let answer = exchange(&proxy, &format!("GET http://{allowed}/ HTTP/1.1\r\nHost: x\r\n\r\n")).await;
    assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
    let log = proxy.log();
    assert!(log.refused.is_empty());
    assert_eq!(log.failed.len(), 1);
    assert!(log.failed[0].error.is_unreachable(), "{log:?}");
}

#[tokio::test]
async fn only_http_and_tunnels_are_spoken() {
    let proxy = GuardedProxy::start(fetcher(&[], vec![]), limits()).await.unwrap();
    for request in
        ["GET /relative HTTP/1.1\r\n\r\n", "GET file:///etc/passwd HTTP/1.1\r\n\r\n", "GET ftp://x/ HTTP/1.1\r\n\r\n"]
    {
        let answer = exchange(&proxy, request).await;
        assert!(answer.starts_with("HTTP/1.1 403"), "{request:?}: {answer}");
    }
    let log = proxy.log();
    assert_eq!(log.refused.len(), 3);
    assert!(log.refused.iter().all(|e| e.error.is_invalid_url()), "{log:?}");
}
