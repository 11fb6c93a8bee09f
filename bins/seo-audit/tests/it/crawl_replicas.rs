//! A crawl on two replicas of one PostgreSQL database (docs/API.md, "Site crawl":
//! persistence and replicas): the replica running it is SIGKILLed mid-crawl; the other one
//! takes it over when its lease runs out and completes it, each page audited once and only
//! the pages that were in flight fetched again; and with both replicas alive, a crawl
//! started on each, every page is fetched exactly once (a crawl is driven by the replica
//! that holds its lease; the other's sweep leaves it alone while the lease is renewed).

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::common::{command, eventually, listening_addr, request};
use crate::crawl_restart::{site, site_on, OPEN_PAGES, PAGES};
use test_support::Gate;

/// The replicas' lease: a dead replica's crawl is taken over about this long after its last
/// renewal.
const LEASE_MS: u64 = 1_000;

/// The fetch time limit of the replicas of the test where one dies: the request slots of a
/// killed replica come back after the fetcher's limit and a margin, so a short limit keeps
/// the takeover's wait for them short (the site answers at once once its gate is open).
const SHORT_FETCH_LIMIT_MS: u64 = 3_000;

/// A replica with the default fetch time limit.
fn replica(url: &str) -> (Child, String) {
    replica_with(url, &[])
}

/// A replica with these settings (`SEO_AUDIT_*` variables) added.
fn replica_with(url: &str, settings: &[(&str, String)]) -> (Child, String) {
    let mut child = command()
        .args(["--database", url, "serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .args(["--allow-target", "127.0.0.2"])
        .env("SEO_AUDIT_LOG", "warn")
        .env("SEO_AUDIT_LEASE_MS", LEASE_MS.to_string())
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
    (child, addr)
}

fn get(addr: &str, key: &str, path: &str) -> Value {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n").unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    serde_json::from_str(raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default()).unwrap_or(Value::Null)
}

#[test]
fn a_crawl_whose_replica_dies_is_completed_by_another() {
    // The test process's PostgreSQL (`None`: not installed, the test skips).
    let Some(server) = test_support::TempPostgres::shared() else { return };
    let url = server.fresh_database();
    let out = command().args(["--database", &url, "migrate"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = command().args(["--database", &url, "keys", "create", "--name", "crawler"]).output().unwrap();
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let gate = Gate::new();
    let (port, hits) = site(gate.clone());
    let short = SHORT_FETCH_LIMIT_MS.to_string();
    let settings = [("SEO_AUDIT_FETCH_TOTAL_TIMEOUT_MS", short.clone()), ("SEO_AUDIT_TEXT_TIMEOUT_MS", short)];
    let (mut a, addr_a) = replica_with(&url, &settings);
    let (mut b, addr_b) = replica_with(&url, &settings);

    let home = format!("http://127.0.0.1:{port}/");
    let (status, started) =
        request(&addr_a, &key, "POST", "/api/v1/crawls", Some(&json!({ "url": home, "sitemaps": false })));
    assert_eq!(status, 202, "{started}");
    let id = started["crawl"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/v1/crawls/{id}");
    // B sees A's crawl; A has done the open pages and holds the others in flight.
    eventually("the open pages", Duration::from_secs(30), || {
        let crawl = get(&addr_b, &key, &path);
        (crawl["crawl"]["progress"]["pages_done"] == 1 + OPEN_PAGES as u64).then_some(())
    });
    a.kill().unwrap();
    a.wait().unwrap();
    gate.open();

    let done = eventually("the crawl's end on B", Duration::from_secs(60), || {
        let crawl = get(&addr_b, &key, &path)["crawl"].clone();
        (crawl["state"] == "completed" && crawl["site_score"].is_u64()).then_some(crawl)
    });
    b.kill().unwrap();
    b.wait().unwrap();
    assert_eq!(done["progress"]["pages_done"], 1 + PAGES as u64, "{done}");
    assert_eq!(done["progress"]["pages_failed"], 0, "{done}");
    let hits = hits.lock().unwrap().clone();
    // The home page: fetched once, by the start's check, whose page A's crawl took.
    assert_eq!(hits.get("/"), Some(&1), "{hits:?}");
    for i in 0..PAGES {
        let n = hits.get(&format!("/p{i}")).copied().unwrap_or(0);
        if i < OPEN_PAGES {
            assert_eq!(n, 1, "/p{i} was done by A: B does not fetch it again ({hits:?})");
        } else {
            assert!((1..=2).contains(&n), "/p{i} fetched {n} times ({hits:?})");
        }
    }
    let twice = (0..PAGES).filter(|i| hits.get(&format!("/p{i}")) == Some(&2)).count();
    assert!(twice <= 4, "only the pages in flight on A are fetched again: {hits:?}");
    // Each page recorded (fetched and audited) once, A's before the kill and B's after.
    assert_eq!(records(server, &url, &id), vec![1; 1 + PAGES]);
}

/// How many times crawl `id` recorded each of its URLs, in crawl order.
fn records(server: &test_support::TempPostgres, url: &str, id: &str) -> Vec<u32> {
    let out = server.psql(url, &format!("SELECT records FROM crawl_pages WHERE crawl_id = '{id}' ORDER BY rowid"));
    out.lines().map(|l| l.parse().unwrap_or_else(|_| panic!("{out}"))).collect()
}

#[test]
fn with_both_replicas_alive_each_page_is_fetched_once() {
    let Some(server) = test_support::TempPostgres::shared() else { return };
    let url = server.fresh_database();
    let out = command().args(["--database", &url, "migrate"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = command().args(["--database", &url, "keys", "create", "--name", "crawler"]).output().unwrap();
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (mut a, addr_a) = replica(&url);
    let (mut b, addr_b) = replica(&url);

    // Two sites, a crawl of each started on a different replica; the held pages keep both
    // crawls running for several leases, through several sweeps of each replica. The sites
    // are two hosts: politeness bounds the requests in flight to one host (ports aside)
    // across crawls and replicas, and one crawl's held pages would hold the slots the
    // other's open pages wait for.
    let gate = Gate::new();
    let ips = ["127.0.0.1", "127.0.0.2"];
    let sites = ips.map(|ip| site_on(ip, gate.clone()));
    let mut ids = Vec::new();
    for (((port, _), addr), ip) in sites.iter().zip([&addr_a, &addr_b]).zip(ips) {
        let home = format!("http://{ip}:{port}/");
        let (status, started) =
            request(addr, &key, "POST", "/api/v1/crawls", Some(&json!({ "url": home, "sitemaps": false })));
        assert_eq!(status, 202, "{started}");
        ids.push(started["crawl"]["id"].as_str().unwrap().to_string());
    }
    for id in &ids {
        eventually("the open pages", Duration::from_secs(30), || {
            let crawl = get(&addr_a, &key, &format!("/api/v1/crawls/{id}"));
            (crawl["crawl"]["progress"]["pages_done"] == 1 + OPEN_PAGES as u64).then_some(())
        });
    }
    std::thread::sleep(Duration::from_millis(3 * LEASE_MS));
    gate.open();
    for id in &ids {
        let done = eventually("the crawl's end", Duration::from_secs(60), || {
            let crawl = get(&addr_b, &key, &format!("/api/v1/crawls/{id}"))["crawl"].clone();
            (crawl["state"] == "completed" && crawl["site_score"].is_u64()).then_some(crawl)
        });
        assert_eq!(done["progress"]["pages_done"], 1 + PAGES as u64, "{done}");
        assert_eq!(records(server, &url, id), vec![1; 1 + PAGES], "each page recorded once");
    }
    a.kill().unwrap();
    a.wait().unwrap();
    b.kill().unwrap();
    b.wait().unwrap();
    for (_, hits) in &sites {
        let hits = hits.lock().unwrap().clone();
        // The home page: fetched once, by the start's check, whose page the crawl takes.
        assert_eq!(hits.get("/"), Some(&1), "{hits:?}");
        for i in 0..PAGES {
            assert_eq!(hits.get(&format!("/p{i}")), Some(&1), "/p{i} fetched once ({hits:?})");
        }
    }
}
