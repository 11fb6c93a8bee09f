//! Faults around the real server on loopback: its database file disappearing or turning
//! read-only under it, targets that misbehave at the HTTP level, clients that trickle or
//! vanish. Each case asserts the documented answer and that the server stays healthy.

use crate::common;

use std::io::ErrorKind;
use std::path::PathBuf;
use std::time::Duration;

use common::*;
use test_support::{RawServer, Reply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn db_path(t: &TestServer) -> PathBuf {
    t.server.state().config.db_path()
}

/// `/api/status` answers `ok` (200) or `degraded` (503), always in the documented shape.
async fn check_status(t: &TestServer, healthy: bool) {
    let a = t.get("/api/status").await;
    a.assert_common();
    validate_documented("GET", "/api/status", &a);
    let expected = if healthy { (200, "ok", "up") } else { (503, "degraded", "down") };
    assert_eq!(
        (a.status, a.body["status"].as_str().unwrap_or(""), a.body["db"].as_str().unwrap_or("")),
        expected,
        "{}",
        a.raw
    );
    // `ok` and `api_version` as on every JSON answer; `ok` follows the health.
    assert_eq!((&a.body["ok"], &a.body["api_version"]), (&serde_json::json!(healthy), &serde_json::json!("v1")));
}

/// With the database unavailable an audit (anonymous or keyed, single or batch) is refused
/// with 500 `internal` before anything is fetched, and nothing is stored.
async fn check_audits_refused(t: &TestServer, page: &str, key: &str) {
    let before = t.db(|s| s.count_audits()).unwrap();
    let anonymous = Answer::from(t.client.get(t.audit_url(page, "")).send().await.unwrap()).await;
    anonymous.assert_error(500, "internal");
    validate_documented("GET", "/api/v1/audit", &anonymous);
    let keyed = Answer::from(t.client.get(t.audit_url(page, "")).header("x-api-key", key).send().await.unwrap()).await;
    keyed.assert_error(500, "internal");
    let batch = Answer::from(
        t.client.post(t.url("/api/v1/audit/batch")).json(&serde_json::json!({ "urls": [page] })).send().await.unwrap(),
    )
    .await;
    batch.assert_error(500, "internal");
    // The body names the request id the cause was logged with (the header's).
    for a in [&anonymous, &keyed, &batch] {
        let id = a.header("x-request-id").expect("x-request-id");
        assert_eq!(a.body["error"]["details"]["request_id"], id, "{}", a.raw);
        assert!(a.body["error"]["message"].as_str().unwrap().contains(id), "{}", a.raw);
    }
    assert!(!anonymous.raw.contains(".db"), "no internals in the body: {}", anonymous.raw);
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), before, "nothing stored while the database was away");
}

async fn check_audit_works(t: &TestServer, page: &str) {
    let before = t.db(|s| s.count_audits()).unwrap();
    let a = Answer::from(t.client.get(t.audit_url(page, "")).send().await.unwrap()).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), before + 1);
}

/// How the database file is taken away, and how it is given back (None: it cannot be).
type Break = fn(&std::path::Path) -> std::io::Result<()>;

fn moved(p: &std::path::Path) -> PathBuf {
    p.with_extension("db.moved")
}

#[tokio::test]
async fn database_file_taken_away_and_given_back() {
    let site = fixture_site("server-basic").await;
    let page = site.url("/index.html");
    let cases: Vec<(&str, Break, Option<Break>)> = vec![
        ("renamed away", |p| std::fs::rename(p, moved(p)), Some(|p| std::fs::rename(moved(p), p))),
        (
            "replaced by a directory",
            |p| {
                std::fs::rename(p, moved(p))?;
                std::fs::create_dir(p)
            },
            Some(|p| {
                std::fs::remove_dir(p)?;
                std::fs::rename(moved(p), p)
            }),
        ),
        // chmod 0444 also reads as read-only when the tests run as root (where it would not
        // stop SQLite writing through its open descriptors).
        ("made read-only", |p| set_mode(p, 0o444), Some(|p| set_mode(p, 0o644))),
        // Deleted, then first an empty file at the path (refused: not our database), then a
        // copy of the database restored from a backup (the store reconnects to it).
        (
            "deleted",
            |p| {
                // A consistent backup (what is still in the write-ahead log included).
                let store = store::Store::open(p).map_err(std::io::Error::other)?;
                store.backup(p.with_extension("db.backup")).map_err(std::io::Error::other)?;
                std::fs::remove_file(p)
            },
            None,
        ),
    ];
    for (what, take, give) in cases {
        let t = TestServer::start(|_| {}).await;
        let (key, _) = t.key(|_| {});
        let db = db_path(&t);
        check_status(&t, true).await;
        check_audit_works(&t, &page).await;

        take(&db).unwrap_or_else(|e| panic!("{what}: {e}"));
        check_status(&t, false).await;
        check_audits_refused(&t, &page, &key).await;

        match give {
            Some(give) => {
                give(&db).unwrap_or_else(|e| panic!("{what}: {e}"));
                check_status(&t, true).await;
                check_audit_works(&t, &page).await;
            }
            None => {
                std::fs::write(&db, b"").unwrap();
                check_status(&t, false).await;
                std::fs::remove_file(&db).unwrap();
                std::fs::copy(db.with_extension("db.backup"), &db).unwrap();
                check_status(&t, true).await;
                check_audit_works(&t, &page).await;
                // The key made before the deletion is in the restored copy.
                let resp = t.client.get(t.url("/api/v1/usage")).header("x-api-key", key.as_str()).send().await.unwrap();
                let status = resp.status();
                assert_eq!(status, 200, "{what}: the restored database knows the key: {}", resp.text().await.unwrap());
            }
        }
        t.server.shutdown().await;
    }
}

fn set_mode(p: &std::path::Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode))
}

/// A target that misbehaves below HTML: every path is one behaviour.
async fn bad_target() -> std::net::SocketAddr {
    let half = format!("<!doctype html><html><head><title>Half a page</title></head><body>{}", "x".repeat(500));
    // A head that promises four times the body that follows.
    let cut_short = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{half}",
        half.len() * 4
    )
    .into_bytes();
    let raw = |bytes: Vec<u8>, hold: Duration| Reply::Raw { bytes, hold };
    let mut routes = vec![
        ("/stall".to_string(), raw(cut_short.clone(), Duration::from_secs(5))),
        ("/short".to_string(), raw(cut_short, Duration::ZERO)),
        (
            "/garbage".to_string(),
            raw(b"\x00\x01\x02 this is not HTTP at all \xff\xfe\r\n\r\n".to_vec(), Duration::ZERO),
        ),
    ];
    // A redirect chain longer than any redirect limit.
    for n in 0..100 {
        let hop = format!("HTTP/1.1 302 Found\r\nLocation: /loop/{}\r\nContent-Length: 0\r\n\r\n", n + 1);
        routes.push((format!("/loop/{n}"), raw(hop.into_bytes(), Duration::ZERO)));
    }
    let routes = routes.iter().map(|(path, reply)| (path.as_str(), reply.clone())).collect();
    RawServer::start("127.0.0.1", routes).await.addr
}

#[tokio::test]
async fn misbehaving_targets() {
    let target = bad_target().await;
    // `.invalid` never resolves (RFC 6761), with or without a network.
    let t = TestServer::start(|_| {}).await;
    let cases: Vec<(String, u16, &str)> = vec![
        (format!("http://{target}/stall"), 504, "target_timeout"),
        (format!("http://{target}/short"), 502, "target_unreachable"),
        (format!("http://{target}/garbage"), 502, "target_unreachable"),
        (format!("http://{target}/loop/0"), 502, "target_unreachable"),
        ("http://nowhere.invalid/".to_string(), 502, "target_unreachable"),
    ];
    for (url, status, code) in &cases {
        let a = Answer::from(t.client.get(t.audit_url(url, "")).send().await.unwrap()).await;
        a.assert_error(*status, code);
        validate_documented("GET", "/api/v1/audit", &a);
        check_status(&t, true).await;
    }
    // The same failures inside a batch are per-item errors of a 200 answer.
    let urls: Vec<&String> = cases.iter().map(|(u, _, _)| u).collect();
    let batch = Answer::from(
        t.client.post(t.url("/api/v1/audit/batch")).json(&serde_json::json!({ "urls": urls })).send().await.unwrap(),
    )
    .await;
    assert_eq!(batch.status, 200, "{}", batch.raw);
    validate_documented("POST", "/api/v1/audit/batch", &batch);
    let raw = batch.raw.clone();
    for (_, _, code) in &cases {
        assert!(raw.contains(code), "{code} in {raw}");
    }
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 0, "failed audits are not stored");
}

/// Sends `head`, then `body` a few bytes at a time; returns what the server answered.
async fn trickle(addr: std::net::SocketAddr, head: String, body: Vec<u8>) -> String {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut rd, mut wr) = stream.into_split();
    let writer = tokio::spawn(async move {
        wr.write_all(head.as_bytes()).await?;
        for chunk in body.chunks(3) {
            wr.write_all(chunk).await?;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok::<_, std::io::Error>(())
    });
    let mut answer = Vec::new();
    // Generous: the bound under test is the server's, this one only keeps a broken server
    // from hanging the test.
    let read = tokio::time::timeout(Duration::from_secs(30), rd.read_to_end(&mut answer)).await;
    writer.abort();
    match read {
        Ok(Ok(_)) => {}
        Ok(Err(e)) if e.kind() == ErrorKind::ConnectionReset => {}
        Ok(Err(e)) => panic!("reading the answer: {e}"),
        Err(_) => panic!("the server never cut off the slow client"),
    }
    String::from_utf8_lossy(&answer).to_string()
}

#[tokio::test]
async fn slow_and_vanishing_clients() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| {
        c.body_timeout_ms = 500;
        c.header_timeout_ms = 500;
    })
    .await;
    let addr = t.server.local_addr();
    let body = serde_json::json!({ "urls": [site.url("/index.html")] }).to_string().into_bytes();

    // A body trickled in for far longer than the body time limit.
    let slow_body = body.repeat(20);
    let head = format!(
        "POST /api/v1/audit/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        slow_body.len()
    );
    let answer = trickle(addr, head, slow_body).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("invalid_request") && answer.contains("nosniff"), "{answer}");
    check_status(&t, true).await;

    // Headers trickled in: hyper's header read timeout closes the connection (408 or a
    // plain close, both end the request).
    let slow_head = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_string() + &"X-Pad: y\r\n".repeat(100);
    let answer = trickle(addr, String::new(), slow_head.into_bytes()).await;
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 408"), "{answer}");
    check_status(&t, true).await;

    // Clients that vanish: mid-body, and while their audit is being fetched.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/v1/audit/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(&body[..body.len() / 2]).await.unwrap();
    drop(s);
    let mut s = TcpStream::connect(addr).await.unwrap();
    let slow_page: String = url::form_urlencoded::byte_serialize(site.url("/slow/index.html").as_bytes()).collect();
    s.write_all(format!("GET /api/v1/audit?url={slow_page} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes())
        .await
        .unwrap();
    while site.slow_hits.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(s);
    check_status(&t, true).await;
    check_audit_works(&t, &site.url("/about.html")).await;
}

/// A PostgreSQL that goes away under a running service: `/api/status` answers 503 `down`
/// within its ping bound, an audit fails cleanly with the documented error shape and nothing
/// half-stored, and once the database is back the service recovers by itself (the pool
/// reconnects): status 200 again and audits stored. A server of its own, since it is stopped.
#[tokio::test]
async fn postgres_going_away_and_coming_back() {
    let Some(pg) = tokio::task::spawn_blocking(test_support::TempPostgres::start).await.unwrap() else { return };
    let pg = std::sync::Arc::new(pg);
    let url = pg.fresh_database();
    let site = fixture_site("server-basic").await;
    let page = site.url("/index.html");
    let t = TestServer::start(|c| c.database_url = url).await;
    check_status(&t, true).await;
    check_audit_works(&t, &page).await;

    let down = pg.clone();
    tokio::task::spawn_blocking(move || down.stop()).await.unwrap();
    let started = std::time::Instant::now();
    check_status(&t, false).await;
    assert!(started.elapsed() < Duration::from_secs(5), "the status answered within its ping bound");
    // An audit meanwhile is either served without being stored (the result does not
    // depend on the database; docs/API.md, "Stored audits") or refused with 503: never a
    // hang, a panic or internals in the body.
    let a = Answer::from(t.client.get(t.audit_url(&page, "")).send().await.unwrap()).await;
    a.assert_common();
    assert!(a.status == 200 || a.status == 503, "{}", a.raw);
    assert!(!a.raw.contains("postgres"), "no internals in the body: {}", a.raw);

    let up = pg.clone();
    tokio::task::spawn_blocking(move || up.start_again()).await.unwrap();
    let mut healthy = false;
    for _ in 0..50 {
        if t.get("/api/status").await.status == 200 {
            healthy = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(healthy, "the service did not recover after the database came back");
    check_status(&t, true).await;
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1, "nothing was stored while the database was away");
    check_audit_works(&t, &page).await;
}

/// A crawl whose PostgreSQL goes away while it runs, for longer than a pooled connection is
/// waited for, and comes back: the crawl is not ended as failed (the database, not the
/// site, was at fault); the sweep resumes it from its frontier once its lease has run out,
/// the resumed run puts back in the queue the pages the interrupted run left `fetching`,
/// and the crawl completes with every page recorded and audited once (docs/ARCHITECTURE.md,
/// "Replicas"). The server's pool waits 5 s for a connection, so with the database away
/// for 7 s the interrupted run's last write meets a database that is back: ended there as
/// `failed`, the crawl would stay so.
#[tokio::test]
async fn a_crawl_goes_on_after_its_postgres_goes_away_and_comes_back() {
    const PAGES: usize = 24;
    let Some(pg) = tokio::task::spawn_blocking(test_support::TempPostgres::start).await.unwrap() else { return };
    let pg = std::sync::Arc::new(pg);
    let url = pg.fresh_database();
    // `/` links to every other page; every page answers after 0.6 s, so that with 4 fetches
    // in flight the crawl takes about 4 s, and fetches are in flight when the database goes.
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let path = request.url.path();
        if path == "/robots.txt" || path.starts_with("/sitemap") {
            return test_support::ResponseTemplate::new(404);
        }
        let links: String = (1..PAGES).map(|n| format!("<a href='/p{n}'>Page {n}</a>")).collect();
        let body = format!("<html lang=en><title>The page {path} of the shop</title><h1>Shop</h1>{links}</html>");
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html").set_delay(Duration::from_millis(600))
    })
    .await;
    let t = TestServer::start(|c| {
        c.database_url = url.clone();
        c.lease_ms = 1_000;
    })
    .await;
    let a = Answer::from(
        t.client
            .post(t.url("/api/v1/crawls"))
            .json(&serde_json::json!({ "url": format!("http://{}/", site.addr()), "sitemaps": false }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let crawl_of = |id: String| t.db(move |s| s.get_crawl(&id)).unwrap();
    let counts = |state: &str| {
        let sql = format!("SELECT count(*) FROM crawl_pages WHERE crawl_id = '{id}' AND state = '{state}'");
        pg.psql(&url, &sql).trim().parse::<usize>().unwrap()
    };
    for _ in 0..600 {
        if counts("done") >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(counts("done") >= 3 && counts("done") < PAGES, "the crawl should be under way");

    let down = pg.clone();
    tokio::task::spawn_blocking(move || down.restart_after(Duration::from_secs(7))).await.unwrap();

    let mut crawl = crawl_of(id.clone());
    for _ in 0..600 {
        if crawl.finished_at.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        crawl = crawl_of(id.clone());
    }
    assert_eq!(crawl.state, store::CrawlState::Completed, "{crawl:?}");
    assert!(crawl.resumes >= 1, "the outage should have interrupted the run: {crawl:?}");
    // Every page once, done and audited; none left queued or `fetching`.
    assert_eq!((counts("done"), counts("queued"), counts("fetching"), counts("failed")), (PAGES, 0, 0, 0));
    let sql = format!("SELECT count(DISTINCT url), count(*), count(score) FROM crawl_pages WHERE crawl_id = '{id}'");
    assert_eq!(pg.psql(&url, &sql).trim(), format!("{PAGES}|{PAGES}|{PAGES}"));
    check_status(&t, true).await;
}
