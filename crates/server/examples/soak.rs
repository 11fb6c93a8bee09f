//! A mixed-traffic soak run: audits, batches, agent-tool calls, badges and usage snapshots at
//! once, for minutes, against a running server. It reports per kind the successes, 429s and
//! errors with p50/p99 latency, samples the server's RSS every 10 s, and checks that the rate
//! limiter is exact: in every complete one-minute window of the limited key, exactly `limit`
//! requests are granted, each with a distinct `x-ratelimit-remaining`.
//!
//! ```text
//! soak SERVER PAGE_URL SECONDS SERVER_PID BIG_KEY LIMITED_KEY LIMIT [CONNECTIONS]
//! ```
//! `BIG_KEY` carries the bulk of the traffic (create it with a high `--rate-limit`);
//! `LIMITED_KEY` (rate limit `LIMIT`) is hammered by a few workers to prove the limiter.
//! See docs/PERFORMANCE.md for the full command sequence.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

#[derive(Default)]
struct Tally {
    ok: u64,
    limited: u64,
    errors: u64,
    latencies: Vec<Duration>,
    first_errors: Vec<String>,
}

type Tallies = Arc<Mutex<BTreeMap<&'static str, Tally>>>;

fn usage() -> ! {
    eprintln!("usage: soak SERVER PAGE_URL SECONDS SERVER_PID BIG_KEY LIMITED_KEY LIMIT [CONNECTIONS]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| usage());
    let seconds: u64 = arg(2).parse().unwrap_or_else(|_| usage());
    let limit: u64 = arg(6).parse().unwrap_or_else(|_| usage());
    let conns: usize = args.get(7).and_then(|c| c.parse().ok()).unwrap_or(32);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let ok =
        runtime.block_on(soak(arg(0), arg(1), Duration::from_secs(seconds), arg(3), (arg(4), arg(5)), limit, conns));
    std::process::exit(if ok { 0 } else { 1 });
}

fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmRSS"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// One request of a kind; returns the status (0 for a transport error) and the response.
async fn request(
    client: &reqwest::Client,
    server: &str,
    page_q: &str,
    page: &str,
    key: &str,
    kind: &'static str,
    i: u64,
) -> Result<reqwest::Response, String> {
    let req = match kind {
        "audit" => client.get(format!("{server}/api/v1/audit?url={page_q}&format=compact")).header("x-api-key", key),
        "batch" => client.post(format!("{server}/api/v1/audit/batch")).header("x-api-key", key).json(
            &json!({"urls": [page, format!("{page}?v={}", i % 7), format!("{page}?w={}", i % 5)], "format": "compact"}),
        ),
        "mcp" => {
            let call = if i % 2 == 0 {
                json!({"name": "get_seo_concept", "arguments": {"concept": "canonical"}})
            } else {
                json!({"name": "seo_audit", "arguments": {"url": page}})
            };
            client
                .post(format!("{server}/api/mcp"))
                .header("x-api-key", key)
                .json(&json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call}))
        }
        "badge" => client.get(format!("{server}/api/widget?domain=example.com&size=small")),
        "usage" => client.get(format!("{server}/api/v1/usage")).header("x-api-key", key),
        _ => client.get(format!("{server}/api/status")),
    };
    req.send().await.map_err(|e| e.to_string())
}

async fn soak(
    server: String,
    page: String,
    duration: Duration,
    pid: String,
    (big_key, limited_key): (String, String),
    limit: u64,
    conns: usize,
) -> bool {
    let page_q: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let tallies: Tallies = Arc::default();
    // Mix of the bulk traffic, by weight out of 10.
    const MIX: [&str; 10] = ["audit", "audit", "audit", "audit", "batch", "mcp", "mcp", "badge", "badge", "usage"];
    let mut workers = Vec::new();
    for w in 0..conns {
        let (server, page, page_q, key, stop, tallies) =
            (server.clone(), page.clone(), page_q.clone(), big_key.clone(), stop.clone(), tallies.clone());
        workers.push(tokio::spawn(async move {
            let client = reqwest::Client::builder().no_proxy().build().expect("client");
            let mut i = w as u64;
            while !stop.load(Ordering::Relaxed) {
                let kind = MIX[(i % MIX.len() as u64) as usize];
                let t = Instant::now();
                let outcome = request(&client, &server, &page_q, &page, &key, kind, i).await;
                let elapsed = t.elapsed();
                let (status, text) = match outcome {
                    Ok(r) => {
                        let s = r.status().as_u16();
                        (s, r.text().await.unwrap_or_default())
                    }
                    Err(e) => (0, e),
                };
                // A tool call over quota or failing is an HTTP 200 with isError: count it as such.
                let tool_error = kind == "mcp" && text.contains("\"isError\":true");
                let mut t = tallies.lock().unwrap_or_else(|p| p.into_inner());
                let tally = t.entry(kind).or_default();
                match status {
                    200 | 201 if !tool_error => {
                        tally.ok += 1;
                        tally.latencies.push(elapsed);
                    }
                    429 => tally.limited += 1,
                    _ => {
                        tally.errors += 1;
                        if tally.first_errors.len() < 3 {
                            tally
                                .first_errors
                                .push(format!("{status}: {}", text.chars().take(200).collect::<String>()));
                        }
                    }
                }
                i += conns as u64;
            }
        }));
    }
    // The limiter probe: 4 workers on one limited key; remember for each granted request its
    // window (by the reset instant) and its remaining count.
    let grants: Arc<Mutex<BTreeMap<u64, Vec<u64>>>> = Arc::default();
    let denied = Arc::new(Mutex::new(0u64));
    for _ in 0..4 {
        let (server, page_q, key, stop, grants, denied) =
            (server.clone(), page_q.clone(), limited_key.clone(), stop.clone(), grants.clone(), denied.clone());
        workers.push(tokio::spawn(async move {
            let client = reqwest::Client::builder().no_proxy().build().expect("client");
            while !stop.load(Ordering::Relaxed) {
                let Ok(resp) = client
                    .get(format!("{server}/api/v1/audit?url={page_q}&format=compact"))
                    .header("x-api-key", &key)
                    .send()
                    .await
                else {
                    continue;
                };
                let header = |n: &str| resp.headers().get(n).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
                let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
                match (resp.status().as_u16(), header("x-ratelimit-remaining"), header("x-ratelimit-reset")) {
                    (200, Some(remaining), Some(reset)) => {
                        // The window ends at now + reset; round to the minute it closes.
                        let window = (now + reset + 30) / 60;
                        grants.lock().unwrap_or_else(|p| p.into_inner()).entry(window).or_default().push(remaining);
                    }
                    (429, _, Some(reset)) => {
                        *denied.lock().unwrap_or_else(|p| p.into_inner()) += 1;
                        tokio::time::sleep(Duration::from_millis((reset * 1000).clamp(50, 500))).await;
                    }
                    _ => {}
                }
            }
        }));
    }
    let started = Instant::now();
    let mut rss = Vec::new();
    while started.elapsed() < duration {
        rss.push((started.elapsed().as_secs(), rss_kib(&pid)));
        tokio::time::sleep(Duration::from_secs(10).min(duration.saturating_sub(started.elapsed()))).await;
    }
    rss.push((started.elapsed().as_secs(), rss_kib(&pid)));
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        let _ = w.await;
    }
    let secs = started.elapsed().as_secs_f64();

    let mut ok = true;
    println!("duration_s {secs:.0}, connections {conns} + 4 limiter probes");
    println!("{:<7} {:>9} {:>8} {:>7} {:>8} {:>8} {:>8}", "kind", "ok", "429", "errors", "ok/s", "p50_ms", "p99_ms");
    let tallies = tallies.lock().unwrap_or_else(|p| p.into_inner());
    for (kind, t) in tallies.iter() {
        let mut l = t.latencies.clone();
        l.sort();
        let pct = |p: f64| {
            l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
                .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
        };
        println!(
            "{kind:<7} {:>9} {:>8} {:>7} {:>8.1} {:>8.1} {:>8.1}",
            t.ok,
            t.limited,
            t.errors,
            t.ok as f64 / secs,
            pct(0.5),
            pct(0.99)
        );
        for e in &t.first_errors {
            println!("        error: {e}");
        }
        ok &= t.errors == 0;
    }
    println!(
        "rss_kib over time (s: KiB): {}",
        rss.iter().map(|(s, k)| format!("{s}:{k}")).collect::<Vec<_>>().join(" ")
    );
    let grants = grants.lock().unwrap_or_else(|p| p.into_inner());
    let windows: Vec<_> = grants.iter().collect();
    // The first and last windows are partial (the run starts and stops inside them).
    let complete = windows.len().saturating_sub(2);
    let mut exact = 0;
    for (window, remaining) in windows.iter().skip(1).take(complete) {
        let mut r = (*remaining).clone();
        r.sort_unstable();
        let expected: Vec<u64> = (0..limit).collect();
        if r == expected {
            exact += 1;
        } else {
            ok = false;
            println!("limiter window {window}: {} grants, remaining values not 0..{limit} exactly", r.len());
        }
    }
    println!(
        "limiter: {exact}/{complete} complete windows granted exactly {limit} (distinct remaining 0..{}), {} denied",
        limit.saturating_sub(1),
        denied.lock().unwrap_or_else(|p| p.into_inner())
    );
    ok
}
