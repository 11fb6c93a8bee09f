//! A small load generator for the audit endpoint, and the engine's own throughput to
//! compare with.
//!
//! ```text
//! # 1. a fixture site on loopback
//! cargo run --release -p server --example load -- fixture 127.0.0.1:9100
//! # 2. the service, with limits raised
//! SEO_AUDIT_RATE_LIMIT_ANONYMOUS=100000000 SEO_AUDIT_MAX_CONCURRENT_AUDITS=64 SEO_AUDIT_AUDIT_QUEUE=4096 \
//!   target/release/seo-audit serve --listen 127.0.0.1:9200 --data /tmp/load-data --allow-target 127.0.0.1
//! # 3. load: 64 connections for 20 s; reads the server's peak RSS from /proc/PID/status
//! cargo run --release -p server --example load -- run http://127.0.0.1:9200 http://127.0.0.1:9100/index.html 64 20 PID
//! # 4. the engine alone on the same page: one thread, then one per core
//! cargo run --release -p server --example load -- engine fixtures/sites/server-basic/index.html 5
//! # the same, each audit freed by another thread (what an audit freed away from the thread
//! # that made it costs: docs/PERFORMANCE.md, "The service")
//! LOAD_DROP_ELSEWHERE=1 cargo run --release -p server --example load -- engine fixtures/sites/load/article.html 4
//! ```

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::{TokioExecutor, TokioIo};

/// The allocator the service runs with (`bins/seo-audit`), so that `load engine` measures
/// the engine as it runs inside the service.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn usage() -> ! {
    eprintln!(
        "usage:\n  load fixture ADDR [DIR]\n  load run SERVER PAGE_URL CONNECTIONS SECONDS [SERVER_PID]\n  load engine HTML_FILE SECONDS"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| usage());
    match args.first().map(String::as_str) {
        Some("fixture") => {
            let dir = args
                .get(2)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites/server-basic"));
            runtime().block_on(fixture(arg(1), dir));
        }
        Some("run") => {
            let conns: usize = arg(3).parse().unwrap_or_else(|_| usage());
            let secs: u64 = arg(4).parse().unwrap_or_else(|_| usage());
            runtime().block_on(run(arg(1), arg(2), conns, Duration::from_secs(secs), args.get(5).cloned()));
        }
        Some("engine") => {
            let secs: u64 = arg(2).parse().unwrap_or_else(|_| usage());
            engine(PathBuf::from(arg(1)), Duration::from_secs(secs));
        }
        _ => usage(),
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime")
}

/// Serves the files of `dir` (read once at start, then from memory).
async fn fixture(addr: String, dir: PathBuf) {
    let mut files = std::collections::HashMap::new();
    for entry in std::fs::read_dir(&dir).expect("read the fixture directory").flatten() {
        if entry.path().is_file() {
            let name = format!("/{}", entry.file_name().to_string_lossy());
            files.insert(name, Bytes::from(std::fs::read(entry.path()).expect("read a fixture file")));
        }
    }
    let files = Arc::new(files);
    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
    println!("fixture site on http://{}", listener.local_addr().expect("addr"));
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let files = files.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                let path = req.uri().path().to_string();
                let body = files.get(&path).cloned();
                async move {
                    let resp = match body {
                        Some(body) => http::Response::builder()
                            .header(
                                "content-type",
                                if path.ends_with("robots.txt") { "text/plain" } else { "text/html" },
                            )
                            .body(Full::new(body)),
                        None => http::Response::builder().status(404).body(Full::new(Bytes::new())),
                    };
                    Ok::<_, Infallible>(resp.expect("response"))
                }
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// `conns` workers, each with its own keep-alive connection, request the audit of `page`
/// back to back for `duration`.
async fn run(server: String, page: String, conns: usize, duration: Duration, pid: Option<String>) {
    let q: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let url = format!("{server}/api/v1/audit?url={q}&format=compact");
    let stop = Arc::new(AtomicBool::new(false));
    let errors = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..conns)
        .map(|_| {
            let url = url.clone();
            let stop = stop.clone();
            let errors = errors.clone();
            tokio::spawn(async move {
                let client = reqwest::Client::builder().no_proxy().pool_max_idle_per_host(1).build().expect("client");
                let mut latencies = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    match client.get(&url).send().await {
                        Ok(resp) if resp.status() == 200 => {
                            let _ = resp.bytes().await;
                            latencies.push(t.elapsed());
                        }
                        _ => {
                            errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                latencies
            })
        })
        .collect();
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut all: Vec<Duration> = Vec::new();
    for w in workers {
        all.extend(w.await.unwrap_or_default());
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1))).copied();
    let ms = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
    println!("connections      {conns}");
    println!("duration_s       {elapsed:.1}");
    println!("audits_ok        {}", all.len());
    println!("errors           {}", errors.load(Ordering::Relaxed));
    println!("audits_per_s     {:.1}", all.len() as f64 / elapsed);
    println!("p50_ms           {:.1}", ms(pct(0.50)));
    println!("p99_ms           {:.1}", ms(pct(0.99)));
    if let Some(pid) = pid {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        for line in status.lines().filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS")) {
            println!("server_{}", line.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
}

/// Parse + audit of the same bytes in a loop: one thread, then one per core.
fn engine(file: PathBuf, duration: Duration) {
    let html = Arc::new(std::fs::read(&file).expect("read the page"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let started = Instant::now();
        // With LOAD_DROP_ELSEWHERE, each audit is sent to one more thread that frees it.
        let elsewhere = std::env::var_os("LOAD_DROP_ELSEWHERE").is_some();
        let (bin, dropped) = std::sync::mpsc::channel::<audit_core::Audit>();
        let dropper = std::thread::spawn(move || dropped.into_iter().for_each(drop));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let html = html.clone();
                let bin = bin.clone();
                std::thread::spawn(move || {
                    let mut n = 0u64;
                    let t = Instant::now();
                    while t.elapsed() < duration {
                        let http = audit_core::HttpFacts::new().with_status(200);
                        let audit =
                            audit_core::audit(audit_core::Page::parse("http://127.0.0.1/index.html", &html, http));
                        std::hint::black_box(audit.to_compact("2026-01-01T00:00:00.000Z"));
                        if elsewhere {
                            let _ = bin.send(audit);
                        }
                        n += 1;
                    }
                    n
                })
            })
            .collect();
        let total: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        drop(bin);
        let _ = dropper.join();
        println!(
            "engine threads={threads:<2} audits_per_s {:.1} ({} bytes page)",
            total as f64 / started.elapsed().as_secs_f64(),
            html.len()
        );
    }
}
