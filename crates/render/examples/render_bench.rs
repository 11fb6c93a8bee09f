//! Rendered pages per second with a pool of headless-Chromium tabs, on a realistic
//! client-rendered page served on loopback (docs/PERFORMANCE.md, "Rendered audits").
//!
//! ```text
//! cargo run --release -p render --example render_bench -- [SECONDS] [TABS] [CLIENTS]
//! cargo run --release -p render --example render_bench -- serve SECONDS
//! ```
//! The first form measures: the first render (browser start included), the time of one
//! render on a warm browser (median of 9), then SECONDS (default 20) of CLIENTS (default 4)
//! concurrent callers on a pool of TABS (default 2) tabs. The second serves the page for
//! SECONDS and prints its URL, to run another tool (Lighthouse) on the same page.

use std::time::{Duration, Instant};

use render::{RenderConfig, Renderer};
use test_support::{typed, RawServer, Reply};

/// A shop category page whose product grid, title, description and canonical are built by
/// a script from a JSON answer, with a stylesheet, images and a bundle of realistic size.
fn site() -> Vec<(&'static str, Reply)> {
    let mut nav = String::new();
    for i in 0..20 {
        nav.push_str(&format!("<li><a href=\"/category/{i}\">Category {i}</a></li>"));
    }
    let page = format!(
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loading…</title><link rel="stylesheet" href="/style.css">
<script defer src="/app.js"></script></head>
<body><header><img src="/img/logo.svg" alt="Shop" width="120" height="40"><nav><ul>{nav}</ul></nav></header>
<main id="app"><div class="spinner">Loading products…</div></main>
<footer><p>© Example shop</p><a href="/about">About</a> <a href="/contact">Contact</a></footer></body></html>"#
    );
    let mut css = String::new();
    for i in 0..400 {
        css.push_str(&format!(".c{i} {{ margin: {i}px; padding: 2px {i}px; color: #{:06x}; }}\n", i * 2654));
    }
    let mut products = Vec::new();
    for i in 0..24 {
        products.push(format!(
            r#"{{"id":{i},"name":"Trail running shoe model {i}","price":{}.99,"text":"A light, cushioned shoe for long runs on rough ground, with a grippy sole and a breathable upper. Model {i} comes in five colours."}}"#,
            60 + i
        ));
    }
    let products = format!("[{}]", products.join(","));
    let mut filler = String::new();
    for i in 0..600 {
        filler.push_str(&format!("function helper{i}(a, b) {{ return (a * {i} + b) % 97; }}\n"));
    }
    let app = format!(
        r#"{filler}
fetch('/api/products.json').then(r => r.json()).then(items => {{
  document.title = 'Trail running shoes – Example shop';
  const meta = document.createElement('meta');
  meta.name = 'description';
  meta.content = 'Trail running shoes for every distance: ' + items.length + ' models, free returns.';
  document.head.appendChild(meta);
  const canonical = document.createElement('link');
  canonical.rel = 'canonical';
  canonical.href = location.origin + '/category/trail-running-shoes';
  document.head.appendChild(canonical);
  const main = document.getElementById('app');
  main.innerHTML = '<h1>Trail running shoes</h1><p>Shoes for trails, mountains and mud.</p>';
  const grid = document.createElement('ul');
  for (const item of items) {{
    const li = document.createElement('li');
    li.innerHTML = '<a href="/product/' + item.id + '"><img src="/img/p' + (item.id % 4) + '.svg" alt="' + item.name + '" width="200" height="200"><h2>' + item.name + '</h2></a><p>' + item.text + '</p><span>$' + item.price + '</span>';
    grid.appendChild(li);
  }}
  main.appendChild(grid);
}});
"#
    );
    let svg = |fill: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="{fill}"/></svg>"#
        )
    };
    vec![
        ("/", typed("text/html; charset=utf-8", page.as_bytes())),
        ("/style.css", typed("text/css", css.as_bytes())),
        ("/app.js", typed("application/javascript", app.as_bytes())),
        ("/api/products.json", typed("application/json", products.as_bytes())),
        ("/img/logo.svg", typed("image/svg+xml", svg("#234").as_bytes())),
        ("/img/p0.svg", typed("image/svg+xml", svg("#a33").as_bytes())),
        ("/img/p1.svg", typed("image/svg+xml", svg("#3a3").as_bytes())),
        ("/img/p2.svg", typed("image/svg+xml", svg("#33a").as_bytes())),
        ("/img/p3.svg", typed("image/svg+xml", svg("#aa3").as_bytes())),
    ]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let server = RawServer::start("127.0.0.1", site()).await;
    let url = server.url("/");
    if args.first().map(String::as_str) == Some("serve") {
        let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(600);
        println!("{url}");
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        return;
    }
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let tabs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let clients: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4);

    let fetch_config =
        fetch::FetchConfig { allow_targets: vec![server.addr.to_string()], ..fetch::FetchConfig::default() };
    let fetcher = fetch::Fetcher::new(fetch_config).expect("fetcher");
    let config = RenderConfig { tabs, ..RenderConfig::default() };
    let renderer = match Renderer::new(config, fetcher) {
        Ok(renderer) => renderer,
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(2);
        }
    };

    let started = Instant::now();
    let first = renderer.render(&url).await.expect("first render");
    println!("first render (browser start included): {:.0} ms", started.elapsed().as_secs_f64() * 1000.0);
    assert!(first.html.contains("Trail running shoe model 23"), "the page was not rendered");
    assert!(!first.timed_out, "the page did not settle");
    println!(
        "page: {} bytes rendered, {} requests through the proxy, {} blocked",
        first.html.len(),
        first.requests,
        first.blocked.len()
    );

    let mut one = Vec::new();
    for _ in 0..9 {
        let page = renderer.render(&url).await.expect("render");
        one.push(page.elapsed);
    }
    one.sort();
    println!(
        "one render, warm browser: median {:.0} ms (min {:.0}, max {:.0})",
        one[4].as_secs_f64() * 1000.0,
        one[0].as_secs_f64() * 1000.0,
        one[8].as_secs_f64() * 1000.0
    );

    let pid = renderer.browser_pid().await.expect("a browser runs");
    let cpu_before = cpu_ticks(pid);
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut workers = Vec::new();
    for _ in 0..clients {
        let renderer = renderer.clone();
        let url = url.clone();
        workers.push(tokio::spawn(async move {
            let (mut done, mut failed, mut overloaded) = (0u32, 0u32, 0u32);
            while Instant::now() < until {
                match renderer.render(&url).await {
                    Ok(page) if page.html.contains("Trail running shoe model 23") => done += 1,
                    Err(render::RenderError::Overloaded) => overloaded += 1,
                    _ => failed += 1,
                }
            }
            (done, failed, overloaded)
        }));
    }
    let measured = Instant::now();
    let (mut done, mut failed, mut overloaded) = (0, 0, 0);
    for worker in workers {
        let (d, f, o) = worker.await.expect("worker");
        done += d;
        failed += f;
        overloaded += o;
    }
    let elapsed = measured.elapsed().as_secs_f64();
    let cpu = cpu_ticks(pid).saturating_sub(cpu_before) as f64 / ticks_per_second();
    println!(
        "{tabs} tabs, {clients} clients, {elapsed:.1} s: {done} pages rendered, {:.2} pages/s ({failed} failed, {overloaded} overloaded)",
        f64::from(done) / elapsed
    );
    if done > 0 {
        println!(
            "CPU (this process, the browser and its children): {cpu:.1} s, {:.0} ms per page; at most {:.2} pages/s on {} idle cores",
            cpu * 1000.0 / f64::from(done),
            std::thread::available_parallelism().map_or(1, |n| n.get()) as f64 * f64::from(done) / cpu,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        );
    }
}

/// CPU time in clock ticks used so far by this process, the browser `pid` and every
/// descendant of it, including children that have exited (`cutime`, `cstime`).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = |p: u32| std::fs::read_to_string(format!("/proc/{p}/stat")).ok();
    let fields = |text: &str| -> Vec<u64> {
        let rest = text.rsplit_once(')').map_or("", |(_, r)| r);
        rest.split_whitespace().map(|f| f.parse().unwrap_or(0)).collect()
    };
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if let Some(text) = stat(child) {
            // After the comm: state, ppid, ... utime (index 11), stime, cutime, cstime.
            let f = fields(&text);
            if f.len() > 14 {
                parents.push((child, f[1] as u32, f[11] + f[12] + f[13] + f[14]));
            }
        }
    }
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(parents.iter().filter(|(_, p, _)| *p == parent).map(|(c, _, _)| *c));
        i += 1;
    }
    let own = std::process::id();
    parents.iter().filter(|(c, _, _)| tree.contains(c) || *c == own).map(|(_, _, t)| t).sum()
}

fn ticks_per_second() -> f64 {
    // Linux reports /proc times in USER_HZ, 100 on every common configuration.
    100.0
}
