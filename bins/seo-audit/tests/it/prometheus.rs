//! The real thing (docs/DEPLOYMENT.md, "Monitoring"): Debian's `prometheus` scrapes `serve
//! --metrics-listen` every second from a temporary directory and sees the audits the test
//! made; `promtool` passes the exposition and the alerting rules of `docs/monitoring/`, and
//! every expression of the Grafana dashboard there evaluates. Then SIGTERM: `/readyz`
//! answers 503 while an audit still runs, the audit answers, the process exits 0.
//!
//! Without the `prometheus` binary the first test is skipped, unless
//! `SEO_AUDIT_REQUIRE_PROMETHEUS=1` (CI sets it), which makes it fail instead.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{self, KillOnDrop};

const PAGE: &str = "<!doctype html><html lang=\"en\"><head><title>A page of the Prometheus test fixture</title>\
<meta name=\"description\" content=\"A small page.\"></head><body><h1>Fixture</h1><p>Some words.</p></body></html>";

/// How long the test waits for Prometheus at most (its start, its first scrapes).
const PATIENCE: Duration = Duration::from_secs(120);

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/monitoring")
}

/// Whether `prometheus` and `promtool` can run; panics when they cannot and
/// `SEO_AUDIT_REQUIRE_PROMETHEUS=1`.
fn prometheus_available() -> bool {
    let runs = |bin: &str| Command::new(bin).arg("--version").output().is_ok_and(|o| o.status.success());
    let there = runs("prometheus") && runs("promtool");
    if !there {
        assert!(
            std::env::var("SEO_AUDIT_REQUIRE_PROMETHEUS").as_deref() != Ok("1"),
            "SEO_AUDIT_REQUIRE_PROMETHEUS=1 but prometheus or promtool does not run (apt-get install prometheus)"
        );
        eprintln!("skipped: prometheus and promtool are not installed (apt-get install prometheus)");
    }
    there
}

/// `serve` with the metrics listener on a free port; the child and its two addresses.
fn spawn_with_metrics(data: &Path, extra: &[&str]) -> (Child, String, String) {
    let mut child = common::bin(data)
        .args(["serve", "--listen", "127.0.0.1:0", "--allow-target", "127.0.0.1", "--metrics-listen", "127.0.0.1:0"])
        .args(extra)
        .env("SEO_AUDIT_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start seo-audit serve");
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    let addr = common::listening_addr(&mut out);
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let metrics = line.trim_end().strip_prefix("metrics on http://").unwrap_or_else(|| panic!("{line:?}"));
    let metrics = metrics.strip_suffix("/metrics").unwrap_or_else(|| panic!("{line:?}")).to_string();
    (child, addr, metrics)
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap()
}

async fn get(client: &reqwest::Client, url: String) -> (u16, String) {
    let resp = client.get(url).send().await.unwrap();
    (resp.status().as_u16(), resp.text().await.unwrap())
}

fn audit_path(target: &str) -> String {
    let q: String = url::form_urlencoded::byte_serialize(target.as_bytes()).collect();
    format!("/api/v1/audit?url={q}")
}

/// A free loopback port (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `data` of an instant query: `status` must be `success`.
async fn query(client: &reqwest::Client, prometheus: &str, expr: &str) -> Value {
    let resp = client.get(format!("http://{prometheus}/api/v1/query")).query(&[("query", expr)]).send().await.unwrap();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["status"], "success", "{expr}: {body}");
    body["data"].clone()
}

/// The value of a query whose answer is one sample.
async fn scalar(client: &reqwest::Client, prometheus: &str, expr: &str) -> Option<f64> {
    let data = query(client, prometheus, expr).await;
    let result = data["result"].as_array()?;
    assert!(result.len() <= 1, "{expr}: {data}");
    result.first().and_then(|r| r["value"][1].as_str()).map(|v| v.parse().unwrap())
}

/// Every `expr` of a Grafana dashboard, however deep.
fn expressions(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("expr", Value::String(e)) => out.push(e.clone()),
                    _ => expressions(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| expressions(i, out)),
        _ => {}
    }
}

fn promtool(args: &[&str], stdin: Option<&str>) -> String {
    let mut cmd = Command::new("promtool");
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "promtool {args:?}: {text}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_prometheus_scrapes_the_service() {
    if !prometheus_available() {
        return;
    }
    let site = test_support::ThreadServer::start(|request| {
        Some(if request.path == "/robots.txt" { test_support::status(404) } else { test_support::html(PAGE) })
    });
    let dir = tempfile::tempdir().unwrap();
    let (child, addr, metrics) =
        spawn_with_metrics(&dir.path().join("data"), &["--rate-limit-anonymous", "2", "--max-concurrent-audits", "3"]);
    let _serve = KillOnDrop(child);
    let http = client();

    // One audit that succeeds, one of a blocked target (both charged), one the limiter refuses.
    let (ok, body) =
        get(&http, format!("http://{addr}{}", audit_path(&format!("http://127.0.0.1:{}/", site.port())))).await;
    assert_eq!(ok, 200, "{body}");
    let (blocked, body) = get(&http, format!("http://{addr}{}", audit_path("http://10.255.255.1/"))).await;
    assert_eq!(blocked, 422, "{body}");
    assert!(body.contains("blocked_target"), "{body}");
    let (refused, body) = get(&http, format!("http://{addr}{}", audit_path("http://10.255.255.2/"))).await;
    assert_eq!(refused, 429, "{body}");

    // promtool reads the exposition as Prometheus does, and lints it.
    let (status, exposition) = get(&http, format!("http://{metrics}/metrics")).await;
    assert_eq!(status, 200);
    promtool(&["check", "metrics"], Some(&exposition));
    let rules = docs().join("alerts.yml");
    let checked = promtool(&["check", "rules", rules.to_str().unwrap()], None);
    assert!(checked.contains("SUCCESS"), "{checked}");

    // Prometheus in a temporary directory, scraping every second, with the alerting rules.
    let prom_dir = tempfile::tempdir().unwrap();
    let prom_addr = format!("127.0.0.1:{}", free_port());
    let config = prom_dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - {}\nscrape_configs:\n  - job_name: seo-audit\n    static_configs:\n      - targets: ['{metrics}']\n",
            rules.display()
        ),
    )
    .unwrap();
    let log = prom_dir.path().join("prometheus.log");
    let prometheus = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", prom_dir.path().join("tsdb").display()))
        .arg(format!("--web.listen-address={prom_addr}"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start prometheus");
    let _prometheus = KillOnDrop(prometheus);

    // Its first successful scrape of the target.
    let started = Instant::now();
    loop {
        let ready = match http.get(format!("http://{prom_addr}/-/ready")).send().await {
            Ok(r) if r.status() == 200 => scalar(&http, &prom_addr, "up{job=\"seo-audit\"}").await == Some(1.0),
            _ => false,
        };
        if ready {
            break;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "Prometheus never scraped the service: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The counters at the values the test caused.
    let at = |expr: &'static str| {
        let (http, prom_addr) = (&http, &prom_addr);
        async move { scalar(http, prom_addr, expr).await }
    };
    assert_eq!(at("seo_audit_audits_total{job=\"seo-audit\",outcome=\"ok\"}").await, Some(1.0));
    assert_eq!(at("seo_audit_audits_total{job=\"seo-audit\",outcome=\"blocked_target\"}").await, Some(1.0));
    assert_eq!(at("sum(seo_audit_audits_total{job=\"seo-audit\"})").await, Some(2.0));
    assert_eq!(at("seo_audit_rate_limited_total{job=\"seo-audit\",tier=\"anonymous\"}").await, Some(1.0));
    assert_eq!(at("seo_audit_rate_limited_total{job=\"seo-audit\",tier=\"free\"}").await, Some(0.0));
    assert_eq!(
        at("seo_audit_http_requests_total{job=\"seo-audit\",route=\"/api/v1/audit\",method=\"GET\",status_class=\"4xx\"}")
            .await,
        Some(2.0)
    );
    assert_eq!(
        at("seo_audit_http_requests_total{job=\"seo-audit\",route=\"/api/v1/audit\",method=\"GET\",status_class=\"2xx\"}")
            .await,
        Some(1.0)
    );
    assert_eq!(at("seo_audit_audit_slots{job=\"seo-audit\"}").await, Some(3.0));
    assert_eq!(at("seo_audit_database_up{job=\"seo-audit\"}").await, Some(1.0));
    assert_eq!(at("count(seo_audit_build_info{job=\"seo-audit\"})").await, Some(1.0));
    assert!(at("process_resident_memory_bytes{job=\"seo-audit\"}").await.unwrap() > 0.0);
    assert!(at("process_open_fds{job=\"seo-audit\"}").await.unwrap() > 0.0);
    let p95 = "histogram_quantile(0.95, sum by (le) (seo_audit_audit_phase_duration_seconds_bucket{job=\"seo-audit\",phase=\"analysis\"}))";
    assert!(at(p95).await.unwrap() > 0.0);

    // Every expression of the dashboard evaluates.
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(docs().join("grafana-dashboard.json")).unwrap()).unwrap();
    let mut exprs = Vec::new();
    expressions(&dashboard, &mut exprs);
    assert!(exprs.len() >= 15, "{exprs:?}");
    for expr in &exprs {
        query(&http, &prom_addr, expr).await;
    }
    // The rules were loaded and evaluate.
    let rules: Value = http.get(format!("http://{prom_addr}/api/v1/rules")).send().await.unwrap().json().await.unwrap();
    let loaded = rules["data"]["groups"][0]["rules"].as_array().map_or(0, Vec::len);
    assert_eq!(loaded, 7, "{rules}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_fails_from_sigterm_while_audits_finish() {
    // The page answers only once the test saw readiness fail: no timing decides the outcome.
    let release = test_support::Gate::new();
    let hits = Arc::new(AtomicUsize::new(0));
    let site = {
        let (release, hits) = (release.clone(), hits.clone());
        test_support::ThreadServer::start(move |request| {
            if request.path == "/robots.txt" {
                return Some(test_support::status(404));
            }
            hits.fetch_add(1, Ordering::SeqCst);
            release.wait();
            Some(test_support::html(PAGE))
        })
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr, metrics) = spawn_with_metrics(dir.path(), &[]);
    let http = client();
    assert_eq!(get(&http, format!("http://{metrics}/readyz")).await.0, 200);
    assert_eq!(get(&http, format!("http://{addr}/readyz")).await.0, 200);

    let audit = {
        let (http, url) =
            (http.clone(), format!("http://{addr}{}", audit_path(&format!("http://127.0.0.1:{}/", site.port()))));
        tokio::spawn(async move { get(&http, url).await })
    };
    while hits.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());

    // The metrics listener answers until the process exits: readiness turns 503.
    let (status, body) = loop {
        let (status, body) = get(&http, format!("http://{metrics}/readyz")).await;
        if status != 200 {
            break (status, body);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("\"draining\""), "{body}");
    assert_eq!(get(&http, format!("http://{metrics}/livez")).await.0, 200);
    let (_, exposition) = get(&http, format!("http://{metrics}/metrics")).await;
    assert!(exposition.contains("\nseo_audit_draining 1\n"), "{exposition}");
    assert!(!audit.is_finished(), "the audit ended before its page answered");

    release.open();
    let (status, body) = audit.await.unwrap();
    assert_eq!(status, 200, "{body}");
    let exit = tokio::task::spawn_blocking(move || child.wait().unwrap()).await.unwrap();
    assert!(exit.success(), "exit status {exit:?}");
}
