//! The site crawl benchmark (docs/PERFORMANCE.md, "Site crawl"): a loopback site of generated
//! pages of realistic size (`fixtures/sites/load/article.html`, 86 KB, made distinct per page
//! and linked into a site), crawled and audited by the crawl runner of `seo-audit crawl`, set
//! against the engine's own audit throughput measured in the same run.
//!
//! ```sh
//! cargo build --release -p seo-audit --example crawl_bench
//! T=target/release/examples/crawl_bench
//! # crawl PAGES pages with IN_FLIGHT requests per host, after ENGINE_SECONDS of engine alone
//! $T run 2000 16 5
//! # the same over a temporary SQLite store, as `seo-audit crawl` and the service crawl (the
//! # frontier, pages and inlinks written as the crawl goes), then the site rules over it;
//! # the store opened as the command line's (no syncs), or with CRAWL_BENCH_DURABLE=1 as the
//! # service's
//! $T run 2000 16 5 store
//! # the same, with each thread's CPU time at the end
//! CRAWL_BENCH_THREADS=1 $T run 2000 16 5
//! # serve a PAGES-page site until stopped (for `seo-audit crawl` and python-seo-analyzer)
//! $T serve 200
//! # serve PAGES pages of about KB kilobytes each, long texts with a link every 60 words
//! # (docs/SCALING.md, "Large pages": the command line's peak RSS with pages at the size limit)
//! $T serve-large 8 4900
//! # serve PAGES pages of about 20 KB, each with 40 links, made from the path at each request
//! # (docs/PERFORMANCE.md, "A million pages": no files, whatever PAGES is)
//! $T serve-generated 1000000
//! ```
//!
//! The pages of `run`, `serve` and `serve-large` are written to a temporary directory at
//! start and served from it by a small HTTP/1.1 server of its own (a thread per connection,
//! nothing kept of a request); those of `serve-generated` are made on the fly by the same
//! server. Nothing is committed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use app::crawl::{CrawlOptions, CrawlSink, Progress};
use audit_core::Audit;
use crawl::{CrawledPage, Limits, MemoryStore, Scope, ScopeConfig};
use test_support::rss_mib;

/// The allocator of `seo-audit` (its `main.rs`), so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Links from a page to the next level of the site (a tree of this fan-out: 2,000 pages are 3
/// clicks deep).
const FAN_OUT: usize = 40;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("run") => run(
            arg(1, 2000) as usize,
            arg(2, 16) as usize,
            Duration::from_secs(arg(3, 5)),
            args.get(4).map(String::as_str) == Some("store"),
        ),
        Some("serve") => {
            let dir = tempfile::tempdir().expect("temp dir");
            let pages = arg(1, 200) as usize;
            generate(dir.path(), pages);
            let port = serve(dir.path().to_path_buf());
            println!("http://127.0.0.1:{port}/ ({pages} pages)");
            wait_for_stop();
        }
        Some("serve-large") => {
            let dir = tempfile::tempdir().expect("temp dir");
            let (pages, kb) = (arg(1, 8) as usize, arg(2, 4900) as usize);
            generate_large(dir.path(), pages, kb * 1000);
            let port = serve(dir.path().to_path_buf());
            println!("http://127.0.0.1:{port}/ ({pages} pages of about {kb} KB)");
            wait_for_stop();
        }
        Some("serve-generated") => {
            let pages = arg(1, 1_000_000);
            let port = serve_with(move |path| generated_number(path, pages).map(|n| generated_page(n, pages)));
            println!("http://127.0.0.1:{port}/ ({pages} generated pages)");
            wait_for_stop();
        }
        _ => eprintln!(
            "usage:\n  crawl_bench run PAGES IN_FLIGHT ENGINE_SECONDS [store]\n  crawl_bench serve PAGES\n  \
             crawl_bench serve-large PAGES KB\n  crawl_bench serve-generated PAGES"
        ),
    }
}

/// Returns at SIGINT or SIGTERM, so that a `serve` ends by removing its site's temporary
/// directory: the scripts stop the server with `kill`, and a server that slept until killed
/// left its pages behind (165 MB a run for 2,000 pages).
fn wait_for_stop() {
    use tokio::signal::unix::{signal, SignalKind};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime for signals");
    runtime.block_on(async {
        let mut terminate = signal(SignalKind::terminate()).expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
    });
}

/// Writes `pages` pages: `p/0.html` (served at `/`) to `p/{pages-1}.html`. Page `i` is the load
/// page with its own title, heading, description, canonical and first paragraph; its 40
/// navigation links lead to pages `40i+1..=40i+40` (the next level), its 108 "related"
/// links to pages spread over the site, its 30 partner links elsewhere.
fn generate(dir: &Path, pages: usize) {
    let template =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites/load/article.html"))
            .expect("read fixtures/sites/load/article.html");
    std::fs::create_dir_all(dir.join("p")).expect("mkdir");
    let path = |n: usize| if n == 0 { "/".to_string() } else { format!("/p/{n}") };
    for i in 0..pages {
        let mut html = template.replace(
            "How to season a cast iron skillet, step by step",
            &format!("Cast iron guide {i}: how to season a skillet, step by step"),
        );
        html = html.replace(
            "Season a cast iron skillet the right way:",
            &format!("Guide number {i}. Season a cast iron skillet the right way:"),
        );
        html = html.replace("https://www.example.com/guides/season-cast-iron", &path(i));
        html = html.replacen("<p>", &format!("<p>This is guide {i} of {pages}. "), 1);
        let mut nav = 0;
        let mut related = 0;
        let mut out = String::with_capacity(html.len());
        let mut rest = html.as_str();
        while let Some(at) = rest.find("href=\"/") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 6..];
            let end = after.find('"').unwrap_or(0);
            let target = &after[..end];
            let to = if target.starts_with("/section/") {
                nav += 1;
                Some((i * FAN_OUT + nav) % pages)
            } else if target.starts_with("/guides/") {
                related += 1;
                Some((i * 7919 + related * 104_729) % pages)
            } else {
                None
            };
            match to {
                Some(n) => out.push_str(&format!("href=\"{}\"", path(n))),
                None => out.push_str(&format!("href=\"{target}\"")),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        std::fs::write(dir.join(format!("p/{i}.html")), out).expect("write page");
    }
}

/// Writes `pages` pages of about `bytes` bytes each, as [`generate`] names them: a title, a
/// heading and one long text (distinct words per page, a paragraph every 300 words) with a
/// link to another page of the site every 60 words, the shape of the large real pages of
/// docs/SCALING.md ("Large pages"): every page holds thousands of links and megabytes of
/// visible text.
fn generate_large(dir: &Path, pages: usize, bytes: usize) {
    std::fs::create_dir_all(dir.join("p")).expect("mkdir");
    let path = |n: usize| if n == 0 { "/".to_string() } else { format!("/p/{n}") };
    for i in 0..pages {
        let mut html = format!(
            "<!doctype html><html lang=en><head><meta charset=utf-8><title>Large page {i} of {pages}</title>\
             <meta name=description content=\"A long page, number {i}.\"></head><body><h1>Large page {i}</h1><p>"
        );
        let mut word = 0usize;
        while html.len() < bytes.saturating_sub(32) {
            word += 1;
            html.push_str(&format!("w{} ", (word * 7919 + i * 104_729) % 50_000));
            if word % 60 == 0 {
                html.push_str(&format!("<a href=\"{}\">link {word}</a> ", path((i + word / 60) % pages)));
            }
            if word % 300 == 0 {
                html.push_str("</p>\n<p>");
            }
        }
        html.push_str("</p></body></html>\n");
        std::fs::write(dir.join(format!("p/{i}.html")), html).expect("write page");
    }
}

/// The number of the generated page at `path` (`/` is 0, `/p/N` is N), when the site of
/// `pages` pages has it.
fn generated_number(path: &str, pages: u64) -> Option<u64> {
    match path {
        "/" => Some(0),
        p => p.strip_prefix("/p/").filter(|n| !n.starts_with('0')).and_then(|n| n.parse().ok()),
    }
    .filter(|n| *n < pages)
}

/// Words the generated pages' texts are made of: 2,000 made-up words of 3 to 10 letters.
fn generated_words() -> &'static [String] {
    static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        (0..2_000)
            .map(|_| {
                state = splitmix(state);
                let len = 3 + (state % 8) as usize;
                (0..len)
                    .map(|i| {
                        let letter = (state >> (8 + i * 5)) % 26;
                        char::from(b'a' + letter as u8)
                    })
                    .collect()
            })
            .collect()
    })
}

/// One step of SplitMix64: the generated pages' deterministic randomness.
fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Page `n` of a generated site of `pages` pages, about 20 KB, made from its number alone
/// (the same bytes at every request): a title, a description and a heading of its own,
/// about 19 KB of text in paragraphs of words chosen by its number (no two pages near
/// duplicates), and 40 links: to pages `40n+1..=40n+40` (the next level of a tree in
/// which every page is reachable, a million pages 4 clicks deep) while there are such
/// pages, to pages spread over the site past them.
fn generated_page(n: u64, pages: u64) -> Vec<u8> {
    const BYTES: usize = 20_000;
    let path = |k: u64| if k == 0 { "/".to_string() } else { format!("/p/{k}") };
    let words = generated_words();
    let mut html = format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Generated page {n} of {pages}: {}</title>\
         <meta name=description content=\"Page {n} of a generated site, about {} and {}.\">\
         <meta name=viewport content=\"width=device-width, initial-scale=1\">\
         <link rel=canonical href=\"{}\"></head><body><header><nav>",
        words[(n % 2_000) as usize],
        words[(n * 7 % 2_000) as usize],
        words[(n * 13 % 2_000) as usize],
        path(n)
    );
    for k in 1..=40u64 {
        let child = n * 40 + k;
        let to = if child < pages { child } else { splitmix(n * 40 + k) % pages };
        html.push_str(&format!("<a href=\"{}\">Page {to}</a> ", path(to)));
    }
    html.push_str(&format!("</nav></header><main><h1>Generated page {n}</h1>\n<p>"));
    let mut state = splitmix(n ^ 0x5eed);
    let mut in_paragraph = 0;
    while html.len() < BYTES - 40 {
        state = splitmix(state);
        html.push_str(&words[(state % 2_000) as usize]);
        in_paragraph += 1;
        if in_paragraph == 120 {
            html.push_str(".</p>\n<p>");
            in_paragraph = 0;
        } else {
            html.push(' ');
        }
    }
    html.push_str("</p></main></body></html>\n");
    html.into_bytes()
}

/// Serves the written site on 127.0.0.1 ([`serve_with`], on threads of its own): `/` and
/// `/p/N` from the files, 404 for the rest (robots.txt, sitemap.xml: none).
fn serve(dir: PathBuf) -> u16 {
    serve_with(move |path| {
        let file = match path {
            "/" => Some(dir.join("p/0.html")),
            p => p
                .strip_prefix("/p/")
                .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
                .map(|n| dir.join(format!("p/{n}.html"))),
        };
        file.and_then(|f| std::fs::read(f).ok())
    })
}

/// Serves on 127.0.0.1 the HTML `page` gives for a path, 404 where it gives none, as
/// [`serve`] says: HTTP/1.1 with keep-alive, a thread per connection, and nothing kept of a
/// request once it is answered. The benchmark's server was wiremock's until session 18; it
/// kept about 9 KB a request with request recording off, 8.8 GB over the million-page run,
/// which took the operating system's cache from the crawl's store (docs/PERFORMANCE.md, "A
/// million pages").
fn serve_with(page: impl Fn(&str) -> Option<Vec<u8>> + Send + Sync + 'static) -> u16 {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let port = listener.local_addr().expect("local address").port();
    let page = Arc::new(page);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let page = page.clone();
            std::thread::spawn(move || {
                let _ = stream.set_nodelay(true);
                let Ok(mut writer) = stream.try_clone() else { return };
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                loop {
                    // The request line, then the headers up to the empty line; a GET has no body.
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let target = line.split_whitespace().nth(1).unwrap_or("/");
                    let path = target.split('?').next().unwrap_or("/").to_string();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if line == "\r\n" || line == "\n" {
                            break;
                        }
                    }
                    let (status, kind, body) = match page(&path) {
                        Some(body) => ("200 OK", "text/html; charset=utf-8", body),
                        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
                    };
                    let head =
                        format!("HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n", body.len());
                    if writer.write_all(head.as_bytes()).and_then(|()| writer.write_all(&body)).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

/// CPU time of the whole process so far (user and system), from `/proc/self/stat`.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces) start after its `)`.
    let fields: Vec<&str> = stat.rsplit_once(')').map(|(_, f)| f.split_whitespace().collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name and state).
    (ticks(11) + ticks(12)) / 100.0
}

/// Counts what the crawl gives, as a database sink would write it and forget it, and notes
/// the RSS at 500 pages.
#[derive(Default)]
struct Counting {
    pages: u64,
    audited: u64,
    failed: u64,
    rss_at_500: Option<f64>,
    /// The store's sink, in the `store` mode.
    store: Option<app::crawl::StoreSink>,
}

impl CrawlSink for Counting {
    fn page(&mut self, page: &CrawledPage, audit: Option<&Audit>) -> Result<(), app::AppError> {
        if let Some(store) = &mut self.store {
            store.page(page, audit)?;
        }
        self.pages += 1;
        self.audited += u64::from(audit.is_some());
        self.failed += u64::from(page.status != Some(200));
        if self.pages == 500 {
            self.rss_at_500 = Some(rss_mib().0);
        }
        Ok(())
    }

    fn sitemap_url(&mut self, url: &str) -> Result<(), app::AppError> {
        match &mut self.store {
            Some(store) => store.sitemap_url(url),
            None => Ok(()),
        }
    }

    fn progress(&mut self, _progress: &Progress) {}
}

/// Parse + audit of the same bytes in a loop on `threads` threads (as `load engine`).
fn engine(html: &Arc<Vec<u8>>, threads: usize, duration: Duration) -> f64 {
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let html = Arc::clone(html);
            std::thread::spawn(move || {
                let mut n = 0u64;
                let t = Instant::now();
                while t.elapsed() < duration {
                    let http = audit_core::HttpFacts::new().with_status(200);
                    let audit = audit_core::audit(audit_core::Page::parse("http://127.0.0.1/p/1", &html, http));
                    std::hint::black_box(audit.to_compact("2026-01-01T00:00:00.000Z"));
                    n += 1;
                }
                n
            })
        })
        .collect();
    let total: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
    total as f64 / started.elapsed().as_secs_f64()
}

/// [`engine`], and the process's CPU seconds it took.
fn engine_with_cpu(html: &Arc<Vec<u8>>, threads: usize, duration: Duration) -> (f64, f64) {
    let cpu = cpu_seconds();
    let rate = engine(html, threads, duration);
    (rate, cpu_seconds() - cpu)
}

/// The engine as the crawl runs it on one thread: parse, audit and the page's crawl record
/// ([`CrawledPage::from_page`]: links normalised, text hashed), no result built.
fn engine_record(html: &Arc<Vec<u8>>, duration: Duration) -> f64 {
    let scope = Scope::new("http://127.0.0.1/", ScopeConfig::default()).expect("scope");
    let (mut n, t) = (0u64, Instant::now());
    while t.elapsed() < duration {
        let http = audit_core::HttpFacts::new().with_status(200);
        let audit = audit_core::audit(audit_core::Page::parse("http://127.0.0.1/p/1", html, http));
        let score = audit.score().percentage;
        std::hint::black_box(CrawledPage::from_page("http://127.0.0.1/p/1", Some(1), &audit.page, &scope, Some(score)));
        n += 1;
    }
    n as f64 / t.elapsed().as_secs_f64()
}

fn run(pages: usize, in_flight: usize, engine_for: Duration, over_store: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let started = Instant::now();
    generate(dir.path(), pages);
    let html = Arc::new(std::fs::read(dir.path().join("p/1.html")).expect("read a page"));
    println!("generated        {pages} pages of {} bytes in {:.1} s", html.len(), started.elapsed().as_secs_f64());
    let port = serve(dir.path().to_path_buf());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let engine_1 = engine(&html, 1, engine_for);
    println!("engine threads=1  audits_per_s {engine_1:.1}");
    println!("engine threads=1  with the crawl record, pages_per_s {:.1}", engine_record(&html, engine_for));
    // The engine on every core is measured right before the crawl and again right after it,
    // and the crawl is set against their mean: on this shared virtual machine the rate of
    // the same work moves by a third within a minute (docs/PERFORMANCE.md, "Crawl
    // throughput"), and two measurements around the crawl bracket the machine it had.
    let (engine_before, engine_cpu_before) = engine_with_cpu(&html, cores, engine_for);
    println!("engine threads={cores}  audits_per_s {engine_before:.1} (before the crawl)");
    let (rss_before, _) = rss_mib();

    // The runtime of `seo-audit crawl` (its main.rs).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(app::crawl::blocking_threads())
        .enable_all()
        .build()
        .expect("runtime");
    let fetcher = fetch::Fetcher::new(fetch::FetchConfig {
        allow_targets: vec!["127.0.0.1".into()],
        ..fetch::FetchConfig::default()
    })
    .expect("fetcher");
    let start = format!("http://127.0.0.1:{port}/");
    let config = ScopeConfig { max_pages: u32::try_from(pages).unwrap_or(u32::MAX), ..ScopeConfig::default() };
    let scope = Scope::new(&start, config).expect("scope");
    let limits = Limits { max_in_flight: in_flight, ..Limits::default() };
    let options = CrawlOptions { sitemaps: true, ..CrawlOptions::default() };
    // The store mode: a crawl in a temporary SQLite file, driven as `seo-audit crawl` does.
    let db = over_store.then(|| {
        // As `seo-audit crawl` opens its temporary store (no syncs); CRAWL_BENCH_DURABLE=1:
        // as the service opens its database.
        let durable = std::env::var_os("CRAWL_BENCH_DURABLE").is_some();
        let options = store::StoreOptions { durable, ..store::StoreOptions::default() };
        let store = store::Store::open_with(dir.path().join("crawl.db"), options).expect("store");
        let new = store::NewCrawl { user_id: None, url: start.clone(), options_json: "{}".into(), max_pages: 0 };
        let until = time::OffsetDateTime::now_utc() + time::Duration::days(1);
        let crawl = store.create_crawl(new, "bench", until).expect("crawl row");
        store.start_crawl(&crawl.id).expect("start");
        (store, crawl.id)
    });
    let t = Instant::now();
    let cpu_before = cpu_seconds();
    let crawled = match &db {
        Some((store, id)) => {
            let frontier = store.driving_crawl(id, "bench");
            let sink = Counting {
                store: Some(app::crawl::StoreSink { writer: frontier.writer(), on_progress: None }),
                ..Counting::default()
            };
            let crawled = runtime.block_on(app::crawl::run(&fetcher, frontier, scope, limits, sink, options));
            crawled.map(|c| (c.summary, c.sink))
        }
        None => runtime
            .block_on(app::crawl::run(&fetcher, MemoryStore::new(), scope, limits, Counting::default(), options))
            .map(|c| (c.summary, c.sink)),
    }
    .expect("crawl");
    let elapsed = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_before;
    let (rss_end, peak) = rss_mib();
    let (summary, sink) = &crawled;
    let rate = sink.pages as f64 / elapsed;
    println!(
        "crawl            {} pages ({} audited, {} not 200) in {elapsed:.2} s, in flight {in_flight}",
        sink.pages, sink.audited, sink.failed
    );
    println!("crawl_pages_per_s {rate:.1}");
    println!(
        "crawl_cpu        {cpu:.2} s of CPU (crawler and server), {:.2} ms a page, {:.2} cores busy",
        cpu * 1000.0 / sink.pages as f64,
        cpu / elapsed
    );
    let (engine_after, engine_cpu_after) = engine_with_cpu(&html, cores, engine_for);
    println!("engine threads={cores}  audits_per_s {engine_after:.1} (after the crawl)");
    let engine_n = (engine_before + engine_after) / 2.0;
    // The engine's own allocations after the crawl are not the site rules': the process's
    // peak RSS starts again from here ("5" resets `VmHWM`, proc(5)), so the site rules' peak
    // below is the crawl's memory and theirs.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    println!(
        "crawl / engine({cores} threads) {:.2} (against the mean of before and after; {:.2} and {:.2} against each)",
        rate / engine_n,
        rate / engine_before,
        rate / engine_after
    );
    // The same comparison in CPU time, which the machine's other tenants move less than the
    // rates: the engine's CPU an audit against the crawl's a page (crawler and server).
    let audits = (engine_before + engine_after) * engine_for.as_secs_f64();
    let engine_ms = (engine_cpu_before + engine_cpu_after) * 1000.0 / audits;
    println!(
        "cpu a page       engine {engine_ms:.2} ms an audit, crawl {:.2} ms a page: ratio {:.2}",
        cpu * 1000.0 / sink.pages as f64,
        engine_ms / (cpu * 1000.0 / sink.pages as f64)
    );
    println!(
        "rss_mib          before crawl {rss_before:.1}, at 500 pages {:.1}, at {} pages {rss_end:.1}, peak {peak:.1}",
        sink.rss_at_500.unwrap_or(0.0),
        sink.pages
    );
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let threads = status.lines().find(|l| l.starts_with("Threads:")).unwrap_or_default().to_string();
    println!("threads          {}", threads.trim_start_matches("Threads:").trim());
    if std::env::var_os("CRAWL_BENCH_THREADS").is_some() {
        for task in std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten() {
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            let fields: Vec<&str> =
                stat.rsplit_once(')').map(|(_, f)| f.split_whitespace().collect()).unwrap_or_default();
            let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
            // Its name tells the analysis threads from the runtime's (async workers and the
            // blocking pool, where the frontier thread runs).
            let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            println!("  thread {:?} {} cpu {:.2} s", task.file_name(), name.trim(), (ticks(11) + ticks(12)) / 100.0);
        }
    }
    println!("summary          {:?}", summary.end);
    if let Some((store, id)) = &db {
        // The end of a crawl: the site rules and the site score over the store.
        let t = Instant::now();
        let judged = app::crawl::judge(store, id, summary).expect("site rules");
        let judge_s = t.elapsed().as_secs_f64();
        // The peak since the engine's second measurement (above), at least the crawl's.
        let peak = rss_mib().1.max(peak);
        let findings: usize = judged.results.iter().map(|r| r.findings.len()).sum();
        println!(
            "site_rules       {judge_s:.2} s over the store ({findings} findings, site score {:?}); crawl and rules {:.1} pages/s; peak rss {peak:.1} MiB",
            judged.score.map(|s| s.score),
            sink.pages as f64 / (elapsed + judge_s)
        );
        // What the crawl left in the database (docs/SCALING.md's bytes a page): the file and
        // its write-ahead log, after the site rules' summary was written.
        let bytes: u64 = ["crawl.db", "crawl.db-wal"]
            .iter()
            .filter_map(|f| std::fs::metadata(dir.path().join(f)).ok())
            .map(|m| m.len())
            .sum();
        println!("store_bytes      {bytes} ({:.1} KiB a page)", bytes as f64 / 1024.0 / sink.pages.max(1) as f64);
    }
}
