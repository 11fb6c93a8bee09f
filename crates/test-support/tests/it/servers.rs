//! The loopback servers: what the tests of the workspace rely on.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use test_support::{fixture_site, html, status, Pages, ResponseTemplate, ThreadServer, SLOW_DELAY};

/// One HTTP/1.1 GET over a fresh connection: the whole answer, or the error of connecting.
fn get(port: u16, path: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test: yes\r\n\r\n")?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    Ok(answer)
}

#[test]
fn the_thread_server_records_counts_and_comes_back_on_its_port() {
    let mut server =
        ThreadServer::start(|r| Some(if r.path == "/robots.txt" { status(404) } else { html("<title>Hi</title>") }));
    let port = server.port();
    let answer = get(port, "/a").unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with("<title>Hi</title>"), "{answer}");
    assert!(get(port, "/robots.txt").unwrap().starts_with("HTTP/1.1 404 "));
    get(port, "/a").unwrap();
    assert_eq!((server.hits("/a"), server.hits("/robots.txt"), server.served()), (2, 1, 2));
    let first = &server.requests()[0];
    assert_eq!((first.method.as_str(), first.header("x-test")), ("GET", Some("yes")));

    server.stop();
    assert!(get(port, "/a").is_err(), "refused while stopped");
    server.restart();
    assert_eq!(server.port(), port);
    assert!(get(port, "/b").unwrap().starts_with("HTTP/1.1 200 OK\r\n"));
    assert_eq!(server.hits("/b"), 1, "the same record after the restart");
}

#[tokio::test]
async fn pages_answer_from_code_and_keep_the_requests() {
    let pages = Pages::serve(|r: &test_support::wiremock::Request| {
        ResponseTemplate::new(201).set_body_string(format!("you asked for {}", r.url.path()))
    })
    .await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let answer = client.post(pages.url("/hook")).body("payload").send().await.unwrap();
    assert_eq!(answer.status(), 201);
    assert_eq!(answer.text().await.unwrap(), "you asked for /hook");
    let requests = pages.requests().await;
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].body, b"payload");
    assert_eq!(pages.hits("/hook").await, 1);
}

#[tokio::test]
async fn a_fixture_site_serves_its_files_and_slow_ones_late() {
    let site = fixture_site("server-basic").await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let home = client.get(site.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
    assert_eq!(home.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(client.get(site.url("/no-such-file.html")).send().await.unwrap().status(), 404);
    let started = Instant::now();
    let slow = client.get(site.url("/slow/")).send().await.unwrap();
    assert_eq!(slow.status(), 200);
    assert!(started.elapsed() >= SLOW_DELAY - Duration::from_millis(50), "{:?}", started.elapsed());
    assert_eq!(site.slow_hits.load(std::sync::atomic::Ordering::SeqCst), 1);
}
