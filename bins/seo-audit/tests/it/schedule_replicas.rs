//! A crawl schedule on two replicas of one PostgreSQL database (docs/API.md, "Scheduled
//! crawls"): each time the schedule is made due, both replicas' schedulers look for it and
//! exactly one run starts, one crawl, the site's pages fetched once; and the schedule made
//! on one replica survives that replica's end (the other runs it).

use std::collections::HashMap;
use std::io::BufReader;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use crate::common::{command, eventually, listening_addr, request};

fn replica(url: &str) -> (Child, String) {
    let mut child = command()
        .args(["--database", url, "serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1"])
        .env("SEO_AUDIT_LOG", "warn")
        .env("SEO_AUDIT_LEASE_MS", "1000")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let addr = listening_addr(&mut BufReader::new(child.stdout.as_mut().expect("piped stdout")));
    (child, addr)
}

/// A two-page site; the crawler's requests are counted by path.
fn site() -> (u16, Arc<Mutex<HashMap<String, usize>>>) {
    let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let log = hits.clone();
    let site = test_support::ThreadServer::start(move |request| {
        let path = request.path.as_str();
        let ours =
            request.headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("user-agent") && v.starts_with("SeoAuditBot/"));
        if ours {
            *log.lock().unwrap().entry(path.to_string()).or_default() += 1;
        }
        let body = match path {
            "/" => {
                "<!doctype html><html lang=en><head><title>Home of the scheduled site</title></head>\
                <body><h1>Home</h1><p><a href=\"/a\">Page A</a></p></body></html>"
            }
            "/a" => {
                "<!doctype html><html lang=en><head><title>Page A of the scheduled site</title></head>\
                <body><h1>A</h1><p><a href=\"/\">Home</a></p></body></html>"
            }
            _ => return Some(test_support::status(404)),
        };
        Some(test_support::html(body))
    });
    (site.port(), hits)
}

/// Makes schedule `id` due now (its time moved into the past).
fn make_due(server: &test_support::TempPostgres, url: &str, id: &str) {
    let sql =
        format!("UPDATE crawl_schedules SET next_run_at = '2000-01-01T00:00:00.000Z' WHERE id = '{id}' RETURNING id");
    assert_eq!(server.psql(url, &sql).trim(), id);
}

#[test]
fn each_due_run_starts_once_across_two_replicas() {
    // The test process's PostgreSQL (`None`: not installed, the test skips).
    let Some(server) = test_support::TempPostgres::shared() else { return };
    let url = server.fresh_database();
    let out = command().args(["--database", &url, "migrate"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = command().args(["--database", &url, "keys", "create", "--name", "scheduler"]).output().unwrap();
    let key = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (port, hits) = site();
    let (mut a, addr_a) = replica(&url);
    let (mut b, addr_b) = replica(&url);

    let home = format!("http://127.0.0.1:{port}/");
    let body = json!({ "crawl": { "url": home, "sitemaps": false }, "frequency": "daily", "time": "05:00" });
    let (status, made) = request(&addr_a, &key, "POST", "/api/v1/crawl-schedules", Some(&body));
    assert_eq!(status, 201, "{made}");
    let id = made["schedule"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/v1/crawl-schedules/{id}");

    for run in 1..=3_u64 {
        // Due now, for both replicas' schedulers (each looks every half second).
        make_due(server, &url, &id);
        let crawl = eventually("the run's start", Duration::from_secs(30), || {
            let (_, s) = request(&addr_b, &key, "GET", &path, None);
            (s["schedule"]["runs"] == run).then(|| s["schedule"]["last_crawl_id"].as_str().unwrap().to_string())
        });
        eventually("the run's crawl to end", Duration::from_secs(60), || {
            let (_, c) = request(&addr_a, &key, "GET", &format!("/api/v1/crawls/{crawl}"), None);
            (c["crawl"]["state"] == "completed").then_some(())
        });
    }
    // Three runs, three crawls: no run started twice.
    let count = server.psql(&url, "SELECT COUNT(*) FROM crawls");
    assert_eq!(count.trim(), "3", "{count}");
    let (_, s) = request(&addr_a, &key, "GET", &path, None);
    assert_eq!(s["schedule"]["runs"], 3, "{s}");
    {
        let hits = hits.lock().unwrap();
        // Each run: the start page checked, then crawled; `/a` crawled.
        assert_eq!(hits.get("/"), Some(&6), "{hits:?}");
        assert_eq!(hits.get("/a"), Some(&3), "{hits:?}");
    }

    // The replica that made the schedule ends; the other runs it (schedules live in the
    // database).
    a.kill().unwrap();
    a.wait().unwrap();
    make_due(server, &url, &id);
    eventually("the fourth run, on B", Duration::from_secs(30), || {
        let (_, s) = request(&addr_b, &key, "GET", &path, None);
        (s["schedule"]["runs"] == 4).then_some(())
    });
    b.kill().unwrap();
    b.wait().unwrap();
}
