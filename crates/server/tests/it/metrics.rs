//! The Prometheus metrics of `metrics_listen` in process (docs/API.md, "Metrics, liveness and
//! readiness"): a bounded number of series however many distinct pages and paths are asked
//! for, no label carrying a URL, path, query or key, the metrics listener apart from the
//! public port, liveness and readiness. The real Prometheus scraping the real binary is
//! `bins/seo-audit/tests/it/prometheus.rs`.

use futures_util::StreamExt as _;

use std::time::Duration;

use crate::common::{fixture_site, Answer, TestServer};

const PAGE: &str = "<!doctype html><html lang=\"en\"><head><title>A page of the metrics cardinality test</title>\
<meta name=\"description\" content=\"One of a thousand pages.\"></head><body><h1>Metrics</h1><p>Words.</p></body></html>";

async fn start() -> TestServer {
    TestServer::start(|c| c.metrics_listen = Some("127.0.0.1:0".parse().unwrap())).await
}

async fn scrape(t: &TestServer) -> String {
    let addr = t.server.metrics_addr().expect("a metrics listener");
    let resp = t.client.get(format!("http://{addr}/metrics")).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let ctype = resp.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ctype.starts_with("text/plain; version=0.0.4"), "{ctype}");
    resp.text().await.unwrap()
}

/// The series of an exposition: every sample line's name and labels.
fn series(exposition: &str) -> Vec<String> {
    let mut names: Vec<String> = exposition
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.rsplit_once(' ').map_or(l, |(name, _)| name).to_string())
        .collect();
    names.sort();
    names
}

/// The value of the sample named exactly `name` (labels included), 0 when absent.
fn value(exposition: &str, name: &str) -> f64 {
    exposition
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

#[tokio::test]
async fn a_thousand_distinct_targets_add_no_series() {
    let site = test_support::ThreadServer::start(|request| {
        Some(if request.path == "/robots.txt" { test_support::status(404) } else { test_support::html(PAGE) })
    });
    let t = start().await;
    let audit = |i: usize| {
        let target = format!("http://127.0.0.1:{}/page-{i}/deep?q=term{i}", site.port());
        t.client.get(t.audit_url(&target, "")).send()
    };
    // Unmatched paths and a query on a matched one, all distinct.
    let others = |i: usize| t.client.get(t.url(&format!("/no-such-route-{i}?user=u{i}"))).send();

    for i in 0..5 {
        audit(i).await.unwrap();
        others(i).await.unwrap();
    }
    let early = scrape(&t).await;
    let early_series = series(&early);

    let answers: Vec<u16> = futures_util::stream::iter(5..1000)
        .map(|i| async move {
            let a = audit(i).await.unwrap().status().as_u16();
            let _ = others(i).await.unwrap();
            a
        })
        .buffer_unordered(8)
        .collect()
        .await;
    assert!(answers.iter().all(|s| *s == 200), "{answers:?}");

    let late = scrape(&t).await;
    assert_eq!(series(&late), early_series, "series appeared after the first few requests");
    for line in late.lines() {
        for private in ["127.0.0.1", "page-", "term", "no-such-route", "user="] {
            assert!(!line.contains(private), "a label carries {private:?}: {line}");
        }
    }
    let requests = |route: &str, class: &str| {
        value(
            &late,
            &format!("seo_audit_http_requests_total{{route=\"{route}\",method=\"GET\",status_class=\"{class}\"}}"),
        )
    };
    assert_eq!(requests("/api/v1/audit", "2xx"), 1000.0, "{late}");
    assert_eq!(value(&late, "seo_audit_audits_total{outcome=\"ok\"}"), 1000.0, "{late}");
    assert_eq!(requests("unmatched", "4xx"), 1000.0, "{late}");
}

#[tokio::test]
async fn audits_are_counted_by_outcome_and_phase() {
    let site = test_support::ThreadServer::start(|request| {
        Some(if request.path == "/robots.txt" { test_support::status(404) } else { test_support::html(PAGE) })
    });
    let t = start().await;
    let ok = t.client.get(t.audit_url(&format!("http://127.0.0.1:{}/", site.port()), "")).send().await.unwrap();
    assert_eq!(ok.status(), 200);
    let blocked = t.client.get(t.audit_url("http://10.255.255.1/", "")).send().await.unwrap();
    assert_eq!(blocked.status(), 422);
    let m = scrape(&t).await;
    assert_eq!(value(&m, "seo_audit_audits_total{outcome=\"ok\"}"), 1.0, "{m}");
    assert_eq!(value(&m, "seo_audit_audits_total{outcome=\"blocked_target\"}"), 1.0, "{m}");
    for phase in ["fetch", "analysis", "store"] {
        let count = value(&m, &format!("seo_audit_audit_phase_duration_seconds_count{{phase=\"{phase}\"}}"));
        // The blocked audit ends in its fetch.
        assert_eq!(count, if phase == "fetch" { 2.0 } else { 1.0 }, "{phase}: {m}");
    }
    assert!(value(&m, "seo_audit_database_call_duration_seconds_count") >= 1.0, "{m}");
    assert_eq!(value(&m, "seo_audit_database_up"), 1.0);
    assert_eq!(value(&m, "seo_audit_audit_slots"), 16.0);
    let build = format!(
        "seo_audit_build_info{{version=\"{}\",ruleset_version=\"{}\"}}",
        env!("CARGO_PKG_VERSION"),
        audit_core::RULESET_VERSION
    );
    assert_eq!(value(&m, &build), 1.0, "{m}");
    assert!(value(&m, "process_resident_memory_bytes") > 0.0, "{m}");
    assert!(value(&m, "process_open_fds") > 0.0, "{m}");
}

#[tokio::test]
async fn liveness_and_readiness_cost_no_quota_and_readiness_fails_once_draining() {
    let t = TestServer::start(|c| {
        c.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
        c.rate_limits.anonymous = 1;
    })
    .await;
    for _ in 0..3 {
        for path in ["/livez", "/readyz"] {
            let a = t.get(path).await;
            assert_eq!(a.status, 200, "{path}: {:?}", a.body);
            assert_eq!(a.body["status"], if path == "/livez" { "live" } else { "ready" });
            assert!(a.header("x-ratelimit-limit").is_none(), "{path} answers quota headers");
            crate::common::validate_documented("GET", path, &a);
        }
    }
    // The same on the metrics listener.
    let metrics = t.server.metrics_addr().unwrap();
    let on_metrics = t.client.get(format!("http://{metrics}/readyz")).send().await.unwrap();
    assert_eq!(on_metrics.status(), 200);
    let nothing_else = t.client.get(format!("http://{metrics}/api/status")).send().await.unwrap();
    assert_eq!(nothing_else.status(), 404);
    // The public port serves no metrics.
    assert_eq!(t.get("/metrics").await.status, 404);

    t.server.state().start_draining();
    let a = t.get("/readyz").await;
    assert_eq!((a.status, a.body["status"].as_str()), (503, Some("draining")));
    crate::common::validate_documented("GET", "/readyz", &a);
    assert_eq!(t.get("/livez").await.status, 200);
    let m = scrape(&t).await;
    assert_eq!(value(&m, "seo_audit_draining"), 1.0);
}

#[tokio::test]
async fn without_metrics_listen_nothing_is_kept() {
    let t = TestServer::start(|_| {}).await;
    assert!(t.server.metrics_addr().is_none());
    assert!(t.server.state().metrics.is_none());
    assert_eq!(t.get("/readyz").await.status, 200);
}

#[tokio::test]
async fn the_rate_limiter_refusals_are_counted_by_tier() {
    let t = TestServer::start(|c| {
        c.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
        c.rate_limits.anonymous = 1;
    })
    .await;
    crate::common::away_from_minute_boundary().await;
    let first = t.get(&t.audit_url("http://10.255.255.1/", "")[t.base.len()..]).await;
    assert_eq!(first.status, 422);
    let second = t.get(&t.audit_url("http://10.255.255.1/", "")[t.base.len()..]).await;
    assert_eq!(second.status, 429);
    let m = scrape(&t).await;
    assert_eq!(value(&m, "seo_audit_rate_limited_total{tier=\"anonymous\"}"), 1.0, "{m}");
    assert_eq!(value(&m, "seo_audit_rate_limited_total{tier=\"free\"}"), 0.0, "{m}");
}

/// Polls the exposition until `name` reaches `want` (the accept loop and the watchdogs run on
/// their own tasks); fails with the exposition after a generous bound.
async fn until(t: &TestServer, name: &str, want: f64) -> String {
    let started = std::time::Instant::now();
    loop {
        let m = scrape(t).await;
        if value(&m, name) == want {
            return m;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "{name} never reached {want}: {m}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn connections_are_counted_open_refused_and_closed_by_reason() {
    let t = TestServer::start(|c| {
        c.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
        c.max_connections_per_ip = 1;
        c.header_timeout_ms = 300;
        c.body_timeout_ms = 300;
    })
    .await;
    let addr = t.server.local_addr();
    // A connection that sends nothing holds the client's one place ...
    let silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    until(&t, "seo_audit_http_connections_open", 1.0).await;
    // ... so the next one is refused at accept.
    let refused = tokio::net::TcpStream::connect(addr).await.unwrap();
    until(&t, "seo_audit_http_connections_closed_total{reason=\"cap_per_ip\"}", 1.0).await;
    // The silent one is closed once its head deadline is over.
    until(&t, "seo_audit_http_connections_closed_total{reason=\"head_timeout\"}", 1.0).await;
    let m = until(&t, "seo_audit_http_connections_open", 0.0).await;
    assert_eq!(value(&m, "seo_audit_http_connections_closed_total{reason=\"cap\"}"), 0.0, "{m}");
    drop((silent, refused));

    // A body announced and never sent: 400 once the body timeout is over, counted.
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        b"POST /api/v1/audit/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    until(&t, "seo_audit_http_connections_closed_total{reason=\"body_timeout\"}", 1.0).await;
}

/// A site crawl counts the URLs it fetched by outcome, and the crawls running while it runs
/// (back to 0 once it ended); the labels are outcomes, never URLs.
#[tokio::test]
async fn crawl_pages_are_counted_by_outcome() {
    let t = start().await;
    let site = fixture_site("site-crawl-rest").await;
    let a = Answer::from(
        t.client.post(t.url("/api/v1/crawls")).json(&serde_json::json!({"url": site.url("/")})).send().await.unwrap(),
    )
    .await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let mut done = serde_json::Value::Null;
    for _ in 0..600 {
        let s = t.get(&format!("/api/v1/crawls/{id}")).await;
        if s.body["crawl"]["finished_at"].is_string() {
            done = s.body["crawl"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(done["state"], "completed", "{done}");
    // The crawl's end is written before the gauge falls: wait for it.
    let text = until(&t, "seo_audit_crawls_running", 0.0).await;
    let outcome = |o: &str| value(&text, &format!("seo_audit_crawl_pages_total{{outcome=\"{o}\"}}"));
    let fetched: f64 = app::observe::CRAWL_PAGE_OUTCOMES.iter().map(|o| outcome(o)).sum();
    let progress = &done["progress"];
    let answered = progress["pages_done"].as_f64().unwrap() + progress["pages_failed"].as_f64().unwrap();
    assert_eq!(fetched, answered, "every URL fetched is counted once:\n{text}");
    assert!(outcome("audited") >= 3.0, "{text}");
    assert!(outcome("error_status") >= 1.0, "the page that answers 404: {text}");
    assert!(outcome("failed") >= 1.0, "the page that timed out: {text}");
    assert!(!text.contains(&site.url("/")), "no URL in a label");
}
