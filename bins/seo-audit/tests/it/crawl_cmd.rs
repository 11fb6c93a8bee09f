//! `seo-audit crawl`: a small site on loopback crawled end to end, in each format; robots.txt
//! obeyed (the disallowed URL listed as skipped, never requested); a redirect to another
//! host recorded, not followed; `--min-score` and the exit statuses.

use std::collections::HashMap;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;
use test_support::{Reply, ThreadServer};

/// One answer: status, extra headers, body.
type Answer = (u16, Vec<(String, String)>, Vec<u8>);

/// A site on 127.0.0.1 from a table of paths (404 for the rest), on test_support's threaded
/// server, which records every request with the time it came.
struct Site {
    port: u16,
    server: ThreadServer,
    /// The most requests the site was answering at once.
    peak: Arc<AtomicUsize>,
}

impl Site {
    fn start(routes: impl Fn(u16) -> HashMap<String, Answer>) -> Site {
        Site::start_slow(Duration::ZERO, routes)
    }

    /// A site whose answers, robots.txt's excepted, come `delay` late.
    fn start_slow(delay: Duration, routes: impl Fn(u16) -> HashMap<String, Answer>) -> Site {
        // The table needs the port, known once the server listens.
        let table: Arc<OnceLock<HashMap<String, Answer>>> = Arc::default();
        let known = Arc::clone(&table);
        let (peak, answering) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let most = Arc::clone(&peak);
        let server = ThreadServer::start(move |request| {
            let now = answering.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            if request.path != "/robots.txt" {
                std::thread::sleep(delay);
            }
            answering.fetch_sub(1, Ordering::SeqCst);
            let (status, headers, body) =
                known.get().and_then(|routes| routes.get(&request.path)).cloned().unwrap_or_else(|| {
                    (404, vec![("Content-Type".into(), "text/html".into())], b"<title>Not found</title>".to_vec())
                });
            Some(Reply::Full { status, headers, body })
        });
        let port = server.port();
        let _ = table.set(routes(port));
        Site { port, server, peak }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn requested(&self) -> Vec<String> {
        self.server.requests().into_iter().map(|r| r.path).collect()
    }

    /// When each page (robots.txt, sitemaps and the never-existing URL a crawl fetches at its
    /// start for `soft-404` left out) was requested.
    fn page_times(&self) -> Vec<Instant> {
        let requests = self.server.requests();
        requests
            .iter()
            .filter(|r| {
                !r.path.ends_with(".txt") && !r.path.ends_with(".xml") && !r.path.starts_with("/seo-audit-404-")
            })
            .map(|r| r.at)
            .collect()
    }

    /// The never-existing URLs requested.
    fn not_found_probes(&self) -> Vec<String> {
        self.requested().into_iter().filter(|p| p.starts_with("/seo-audit-404-")).collect()
    }
}

fn html(body: &str) -> Answer {
    (200, vec![("Content-Type".into(), "text/html; charset=utf-8".into())], body.as_bytes().to_vec())
}

fn typed(content_type: &str, body: &str) -> Answer {
    (200, vec![("Content-Type".into(), content_type.into())], body.as_bytes().to_vec())
}

fn redirect(status: u16, to: &str) -> Answer {
    (status, vec![("Location".into(), to.into())], Vec::new())
}

fn page(title: &str, links: &[&str]) -> Answer {
    let links: String = links.iter().map(|l| format!("<a href=\"{l}\">{l}</a> ")).collect();
    html(&format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} of the copper kettle shop</title>\
         <meta name=\"description\" content=\"{title}: copper kettles, their care and their history.\"></head>\
         <body><h1>{title}</h1><p>Copper kettles heat quickly and evenly. {links}</p></body></html>"
    ))
}

/// The site of most tests: `/` links to `/a`, a robots-disallowed URL, an internal redirect,
/// a missing page and a redirect to another host (`other`'s port on `localhost`); the
/// sitemap lists an orphan.
fn shop(other: u16) -> Site {
    Site::start(move |port| {
        let origin = format!("http://127.0.0.1:{port}");
        HashMap::from([
            (
                "/robots.txt".to_string(),
                typed("text/plain", &format!("User-agent: *\nDisallow: /private\nSitemap: {origin}/sitemap.xml\n")),
            ),
            (
                "/sitemap.xml".to_string(),
                typed(
                    "application/xml",
                    &format!(
                        "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                         <url><loc>{origin}/</loc></url><url><loc>{origin}/a</loc></url>\
                         <url><loc>{origin}/orphan</loc></url></urlset>"
                    ),
                ),
            ),
            ("/".to_string(), page("Home", &["/a", "/private/secret", "/moved", "/gone", "/away"])),
            ("/a".to_string(), page("Kettles", &["/"])),
            ("/orphan".to_string(), page("Orphan", &["/"])),
            ("/moved".to_string(), redirect(301, "/a")),
            ("/away".to_string(), redirect(302, &format!("http://localhost:{other}/landing"))),
        ])
    })
}

fn crawl(args: &[&str]) -> Output {
    let data = tempfile::tempdir().expect("tempdir");
    crate::common::command()
        .arg("crawl")
        .args(args)
        .args(["--allow-target", "127.0.0.1"])
        .env("SEO_AUDIT_DATA", data.path())
        .output()
        .expect("run seo-audit")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn row<'a>(report: &'a Value, url: &str) -> &'a Value {
    report["crawl"]["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .find(|p| p["url"] == url)
        .unwrap_or_else(|| panic!("no row for {url}: {report:#}"))
}

fn issue<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["crawl"]["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("no issue {id}: {report:#}"))
}

#[test]
fn a_site_is_crawled_and_reported_in_each_format() {
    let elsewhere = Site::start(|_| HashMap::from([("/landing".to_string(), page("Elsewhere", &[]))]));
    let site = shop(elsewhere.port);
    let out = crawl(&[&site.url("/"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let c = &report["crawl"];
    assert_eq!(c["state"], "completed");
    assert_eq!(c["sitemaps_read"], true);
    let score = c["site_score"].as_u64().expect("site score");
    assert!(score < 100, "a broken link costs points: {score}");

    // Robots.txt: listed as skipped with its rule, never requested.
    let secret = row(&report, &site.url("/private/secret"));
    assert_eq!(secret["state"], "skipped");
    assert!(secret["reason"].as_str().expect("reason").contains("Disallow: /private"), "{secret}");
    assert!(!site.requested().iter().any(|p| p.starts_with("/private")), "{:?}", site.requested());

    // A redirect to another host: recorded with its target, not followed.
    let away = row(&report, &site.url("/away"));
    assert_eq!(away["status_code"], 302);
    assert_eq!(away["redirect_to"], format!("http://localhost:{}/landing", elsewhere.port));
    assert!(elsewhere.requested().is_empty(), "the other host was fetched: {:?}", elsewhere.requested());
    // Its target is a `localhost` name, which the address guard refuses: listed as blocked.
    let landing = row(&report, &format!("http://localhost:{}/landing", elsewhere.port));
    assert_eq!(landing["state"], "skipped");
    assert!(landing["reason"].as_str().expect("reason").starts_with("blocked_target: "), "{landing}");

    // An internal redirect is followed one hop at a time: both URLs have rows.
    assert_eq!(row(&report, &site.url("/moved"))["status_code"], 301);
    let a = row(&report, &site.url("/a"));
    assert_eq!((a["status_code"].as_u64(), a["depth"].as_u64()), (Some(200), Some(1)));
    assert!(a["score"].as_u64().is_some(), "an HTML page is audited: {a}");
    assert!(a["inlinks"].as_u64().expect("inlinks") >= 1);

    // Site and page issues with their affected URLs.
    let broken = issue(&report, "broken-internal-link");
    assert_eq!(broken["kind"], "site");
    assert_eq!(broken["urls"][0]["url"], site.url("/gone"));
    assert_eq!(broken["urls"][0]["linked_from"], site.url("/"));
    let redirects: Vec<&Value> =
        issue(&report, "internal-redirect")["urls"].as_array().expect("urls").iter().map(|u| &u["url"]).collect();
    assert_eq!(redirects, [&Value::from(site.url("/away")), &Value::from(site.url("/moved"))]);
    assert_eq!(issue(&report, "orphan-page")["urls"][0]["url"], site.url("/orphan"));
    assert_eq!(issue(&report, "not-https")["kind"], "page");
    assert_eq!(issue(&report, "not-https")["count"], 3, "the three HTML pages (/, /a, /orphan)");
    let pages = c["pages"].as_array().expect("pages").len();

    let out = crawl(&[&site.url("/"), "--format", "text"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.starts_with(&format!("Site score {score}/100  (completed)")), "{text}");
    for needle in
        ["Site issues:", "broken-internal-link", "(linked from ", "Page issues:", "Pages:", "skipped: robots.txt"]
    {
        assert!(text.contains(needle), "{needle:?} missing:\n{text}");
    }
    assert!(
        out.stderr.is_empty() || !String::from_utf8_lossy(&out.stderr).contains('\r'),
        "no progress bar off a terminal"
    );

    let out = crawl(&[&site.url("/"), "--format", "csv"]);
    assert_eq!(out.status.code(), Some(0));
    let csv = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = csv.lines().collect();
    let columns: Vec<&str> = app::crawl::export::PAGE_COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(lines[0], columns.join(","), "the REST export's columns");
    assert_eq!(lines.len(), pages + 1, "{csv}");
    assert!(lines.iter().any(|l| l.starts_with(&format!("{},skipped,", site.url("/private/secret")))), "{csv}");
}

#[test]
fn max_pages_and_max_depth_bound_the_crawl() {
    let site = shop(1);
    let report = json(&crawl(&[&site.url("/"), "--format", "json", "--max-depth", "0", "--no-sitemaps"]));
    assert_eq!(report["crawl"]["progress"]["pages_done"], 1, "{report:#}");
    let report = json(&crawl(&[&site.url("/"), "--format", "json", "--max-pages", "2"]));
    let p = &report["crawl"]["progress"];
    assert_eq!(p["pages_done"].as_u64().unwrap() + p["pages_failed"].as_u64().unwrap(), 2, "{report:#}");
    // The crawl says that --max-pages stopped it, and how many URLs it left.
    assert_eq!((p["max_pages_reached"].as_bool(), p["pages_queued"].as_u64()), (Some(true), Some(0)), "{report:#}");
    assert!(p["pages_unfetched"].as_u64().unwrap() > 0, "{report:#}");
    let out = crawl(&[&site.url("/"), "--max-pages", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Stopped at --max-pages: "), "{text}");
}

#[test]
fn named_sitemaps_are_read_and_sitemap_problems_are_findings() {
    let site = Site::start(move |port| {
        let origin = format!("http://127.0.0.1:{port}");
        HashMap::from([
            ("/robots.txt".to_string(), typed("text/plain", &format!("User-agent: *\nSitemap: {origin}/index.xml\n"))),
            // An index whose <loc> is relative: read against the index's URL, and reported.
            (
                "/index.xml".to_string(),
                typed(
                    "application/xml",
                    "<?xml version=\"1.0\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                     <sitemap><loc>pages.xml</loc></sitemap></sitemapindex>",
                ),
            ),
            (
                "/pages.xml".to_string(),
                typed(
                    "application/xml",
                    &format!(
                        "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                         <url><loc>{origin}/listed</loc></url></urlset>"
                    ),
                ),
            ),
            // Named by nothing but --sitemap.
            (
                "/en/sitemap.xml".to_string(),
                typed(
                    "application/xml",
                    &format!(
                        "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                         <url><loc>{origin}/en/hidden</loc></url></urlset>"
                    ),
                ),
            ),
            ("/".to_string(), page("Home", &[])),
            ("/listed".to_string(), page("Listed", &["/"])),
            ("/en/hidden".to_string(), page("Hidden", &["/"])),
        ])
    });
    let named = site.url("/en/sitemap.xml");
    let report = json(&crawl(&[&site.url("/"), "--format", "json", "--sitemap", &named]));
    assert_eq!(row(&report, &site.url("/listed"))["status_code"], 200, "the relative <loc>'s sitemap was read");
    assert_eq!(row(&report, &site.url("/en/hidden"))["status_code"], 200, "the named sitemap was read");
    let error = issue(&report, "sitemap-error");
    assert_eq!(error["urls"][0]["url"], site.url("/index.xml"), "{error:#}");
    let detail = format!("line 3: relative <loc> \"pages.xml\", read as {}", site.url("/pages.xml"));
    assert_eq!(error["urls"][0]["detail"], detail, "{error:#}");
    // A sitemap off the crawled site is refused before anything is crawled.
    let out = crawl(&[&site.url("/"), "--sitemap", "https://elsewhere.test/sitemap.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: invalid_parameter: "), "{out:?}");
}

#[test]
fn min_score_sets_the_exit_status() {
    let site = shop(1);
    let low = crawl(&[&site.url("/"), "--format", "json", "--min-score", "100"]);
    assert_eq!(low.status.code(), Some(1), "{}", String::from_utf8_lossy(&low.stderr));
    assert!(json(&low)["crawl"]["site_score"].as_u64().expect("score") < 100, "the report is still printed");
    let ok = crawl(&[&site.url("/"), "--format", "json", "--min-score", "0"]);
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn failures_exit_2_with_the_error_code() {
    let site = Site::start(|_| {
        HashMap::from([
            ("/data.json".to_string(), typed("application/json", "{}")),
            (
                "/".to_string(),
                (500, vec![("Content-Type".into(), "text/html".into())], b"<title>Down</title>".to_vec()),
            ),
        ])
    });
    for (url, code) in [
        ("ftp://example.com/".to_string(), "invalid_url"),
        ("http://10.0.0.1/".to_string(), "blocked_target"),
        (site.url("/data.json"), "not_html"),
    ] {
        let out = crawl(&[&url]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {stderr}");
        assert!(stderr.starts_with(&format!("error: {code}: ")), "{url}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing crawled for {url}");
    }
    // A site that answers only errors: the crawl ends failed with the reason.
    let out = crawl(&[&site.url("/"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let report = json(&out);
    assert_eq!(report["crawl"]["state"], "failed");
    assert!(report["crawl"]["reason"].as_str().expect("reason").contains("HTTP 500"), "{report:#}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: crawl_failed: "));
}

/// A site of 2,000 pages, each linking to the next ten, every answer `delay` late.
fn endless(delay: Duration, robots: &'static str) -> Site {
    Site::start_slow(delay, move |_| {
        let mut routes: HashMap<String, Answer> = (0..2000)
            .map(|i| {
                let links: Vec<String> = (1..=10).map(|k| format!("/p/{}", i * 10 + k)).collect();
                let refs: Vec<&str> = links.iter().map(String::as_str).collect();
                (if i == 0 { "/".to_string() } else { format!("/p/{i}") }, page(&format!("Page {i}"), &refs))
            })
            .collect();
        routes.insert("/robots.txt".into(), typed("text/plain", robots));
        routes
    })
}

#[test]
fn the_time_limit_ends_the_crawl_with_what_it_has() {
    let site = endless(Duration::from_millis(200), "");
    let out = crawl(&[&site.url("/"), "--format", "json", "--time-limit", "1", "--no-sitemaps"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    assert_eq!(report["crawl"]["state"], "completed");
    assert_eq!(report["crawl"]["time_limited"], true);
    let done = report["crawl"]["progress"]["pages_done"].as_u64().expect("done");
    assert!((1..500).contains(&done), "{done} pages in about a second at 4 in flight and 200 ms each");
    assert_eq!(report["crawl"]["progress"]["pages_queued"], 0, "an ended crawl has nothing queued");
    assert!(report["crawl"]["progress"]["pages_unfetched"].as_u64().expect("unfetched") > 0);
    assert_eq!(report["crawl"]["progress"]["max_pages_reached"], false);
    assert_eq!(report["crawl"]["pages"].as_array().expect("pages").len() as u64, done);
}

#[test]
fn ctrl_c_or_sigterm_cancels_the_pages_done_are_reported_and_the_temporary_store_goes() {
    for signal in ["-INT", "-TERM"] {
        let site = endless(Duration::from_millis(200), "");
        let (data, tmp) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
        let child = crate::common::command()
            .args(["crawl", &site.url("/"), "--format", "json", "--no-sitemaps", "--allow-target", "127.0.0.1"])
            .env("SEO_AUDIT_DATA", data.path())
            // Where the command makes its temporary store.
            .env("TMPDIR", tmp.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn seo-audit");
        // Wait for some pages, then interrupt.
        while site.page_times().len() < 5 {
            std::thread::sleep(Duration::from_millis(20));
        }
        let stores = || std::fs::read_dir(tmp.path()).expect("read TMPDIR").count();
        assert_eq!(stores(), 1, "{signal}: the crawl's temporary store");
        let pid = child.id().to_string();
        assert!(std::process::Command::new("kill").args([signal, &pid]).status().expect("kill").success());
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0), "{signal}: {}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!(report["crawl"]["state"], "cancelled", "{signal}");
        let done = report["crawl"]["progress"]["pages_done"].as_u64().expect("done");
        assert!(done >= 5, "{signal}: the pages done are kept: {report:#}");
        assert!(report["crawl"]["site_score"].as_u64().is_some());
        assert!(site.page_times().len() < 2000, "{signal}: the crawl stopped early");
        assert_eq!(stores(), 0, "{signal}: the temporary store is removed");
    }
}

#[test]
fn sitemap_fetches_count_against_the_requests_in_flight() {
    // Every answer 150 ms late; robots.txt names five sitemaps, each listing ten pages.
    let site = Site::start_slow(Duration::from_millis(150), |port| {
        let origin = format!("http://127.0.0.1:{port}");
        let mut routes: HashMap<String, Answer> = HashMap::new();
        let mut robots = String::from("User-agent: *\nAllow: /\n");
        let links: Vec<String> = (0..20).map(|i| format!("/l/{i}")).collect();
        let refs: Vec<&str> = links.iter().map(String::as_str).collect();
        routes.insert("/".into(), page("Home", &refs));
        for i in 0..20 {
            routes.insert(format!("/l/{i}"), page(&format!("Linked {i}"), &["/"]));
        }
        for s in 0..5 {
            robots.push_str(&format!("Sitemap: {origin}/sitemap-{s}.xml\n"));
            let urls: String = (0..10).map(|i| format!("<url><loc>{origin}/s/{s}/{i}</loc></url>")).collect();
            routes.insert(
                format!("/sitemap-{s}.xml"),
                typed(
                    "application/xml",
                    &format!("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"),
                ),
            );
            for i in 0..10 {
                routes.insert(format!("/s/{s}/{i}"), page(&format!("Listed {s} {i}"), &["/"]));
            }
        }
        routes.insert("/robots.txt".into(), typed("text/plain", &robots));
        routes
    });
    let out = crawl(&[&site.url("/"), "--format", "json", "--max-in-flight", "2", "--max-pages", "40"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    assert_eq!(report["crawl"]["sitemaps_read"], true);
    let requested = site.requested();
    assert_eq!(requested.iter().filter(|p| p.starts_with("/sitemap-")).count(), 5, "{requested:?}");
    let peak = site.peak.load(Ordering::SeqCst);
    assert!(peak <= 2, "{peak} requests in flight at once with --max-in-flight 2: {requested:?}");
    assert_eq!(peak, 2, "two at a time were allowed");
}

#[test]
fn crawl_delay_spaces_the_fetches() {
    let site = endless(Duration::ZERO, "User-agent: SeoAuditBot\nCrawl-delay: 1\n");
    let out = crawl(&[&site.url("/"), "--format", "json", "--max-pages", "4", "--no-sitemaps"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // The first request is the check of the start URL, before the crawl, whose page the
    // crawl takes rather than asking again; the crawl's own fetches come after it.
    let requested = site.requested();
    assert_eq!(requested.iter().filter(|p| *p == "/").count(), 1, "{requested:?}");
    let times = site.page_times()[1..].to_vec();
    assert_eq!(times.len(), 3, "{requested:?}");
    // soft-404's never-existing URL would come before the frontier's spacing starts: not
    // fetched under a Crawl-delay.
    assert!(site.not_found_probes().is_empty(), "{:?}", site.requested());
    for pair in times.windows(2) {
        let gap = pair[1].duration_since(pair[0]);
        assert!(gap >= Duration::from_millis(950), "{gap:?} between two fetches under Crawl-delay: 1");
    }
}

#[test]
fn crawl_delay_spaces_the_sitemap_fetches_too_after_robots_txt() {
    let site = endless(Duration::ZERO, "User-agent: SeoAuditBot\nCrawl-delay: 1\n");
    let out = crawl(&[&site.url("/"), "--format", "json", "--max-pages", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let requests = site.server.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    // The check of the start URL (the crawl's start page, not asked for again), robots.txt,
    // then the sitemap and the other pages.
    let robots = paths.iter().position(|p| *p == "/robots.txt").expect("robots.txt read");
    let sitemap = paths.iter().position(|p| *p == "/sitemap.xml").expect("/sitemap.xml asked for");
    assert!(robots < sitemap, "the sitemap is fetched once robots.txt is read: {paths:?}");
    let after: Vec<Instant> = requests[robots + 1..].iter().map(|r| r.at).collect();
    assert_eq!(after.len(), 3, "{paths:?}");
    for pair in after.windows(2) {
        let gap = pair[1].duration_since(pair[0]);
        assert!(gap >= Duration::from_millis(950), "{gap:?} between two requests under Crawl-delay: 1: {paths:?}");
    }
}

#[test]
fn a_redirect_to_an_inner_address_is_blocked_and_listed() {
    // An inner service on a loopback port the allow list does not name.
    let inner = Site::start(|_| HashMap::from([("/admin".to_string(), page("Secret", &[]))]));
    let target = inner.url("/admin");
    let to = target.clone();
    let site = Site::start(move |_| {
        HashMap::from([("/".to_string(), page("Home", &["/admin"])), ("/admin".to_string(), redirect(302, &to))])
    });
    let data = tempfile::tempdir().expect("tempdir");
    let only_the_site = format!("127.0.0.1:{}", site.port);
    let out = crate::common::command()
        .args(["crawl", &site.url("/"), "--format", "json", "--no-sitemaps", "--allow-target", &only_the_site])
        .env("SEO_AUDIT_DATA", data.path())
        .output()
        .expect("run seo-audit");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    assert_eq!(row(&report, &site.url("/admin"))["redirect_to"], target.as_str());
    let blocked = row(&report, &target);
    assert_eq!(blocked["state"], "skipped", "{blocked}");
    assert!(blocked["reason"].as_str().expect("reason").starts_with("blocked_target: "), "{blocked}");
    assert_eq!(report["crawl"]["progress"]["pages_skipped"], 1);
    assert!(inner.requested().is_empty(), "the inner address was requested: {:?}", inner.requested());

    // The text and CSV reports list it with the guard's reason.
    let out = crate::common::command()
        .args(["crawl", &site.url("/"), "--format", "csv", "--no-sitemaps", "--allow-target", &only_the_site])
        .env("SEO_AUDIT_DATA", data.path())
        .output()
        .expect("run seo-audit");
    let csv = String::from_utf8(out.stdout).expect("utf-8");
    let line = csv.lines().find(|l| l.starts_with(&format!("{target},"))).unwrap_or_else(|| panic!("{csv}"));
    assert!(line.starts_with(&format!("{target},skipped,")) && line.contains("blocked_target: "), "{line}");
    assert!(inner.requested().is_empty());
}

/// `--near-duplicate-threshold` chooses the similarity from which near-duplicate-content
/// reports two pages (50 to 100): two pages that share most of their text are near
/// duplicates at 50%, each named with a similarity of at least it; 49 is refused.
#[test]
fn the_near_duplicate_threshold_is_an_option() {
    let shared: String = (0..150).map(|i| format!("kettle{i} ")).collect();
    let site = Site::start(move |_| {
        let text = |extra: &str| {
            html(&format!(
                "<!DOCTYPE html><html lang=\"en\"><head><title>{extra} kettles</title></head>\
                 <body><h1>{extra}</h1><p>{shared} {extra} copper brass steel</p><a href=\"/a\">a</a> <a href=\"/b\">b</a></body></html>"
            ))
        };
        HashMap::from([
            ("/".to_string(), page("Home", &["/a", "/b"])),
            ("/a".to_string(), text("Copper")),
            ("/b".to_string(), text("Brass")),
        ])
    });
    let out = crawl(&[&site.url("/"), "--format", "json", "--near-duplicate-threshold", "50"]);
    let report = json(&out);
    let urls = issue(&report, "near-duplicate-content")["urls"].as_array().expect("urls").clone();
    let named: Vec<&str> = urls.iter().filter_map(|u| u["url"].as_str()).collect();
    assert!(named.contains(&site.url("/a").as_str()) && named.contains(&site.url("/b").as_str()), "{report:#}");
    for u in &urls {
        let similarity: u32 = u["detail"].as_str().and_then(|d| d.split('%').next()?.parse().ok()).expect("N%");
        assert!(similarity >= 50, "{u}");
    }
    let out = crawl(&[&site.url("/"), "--near-duplicate-threshold", "49"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
}

/// `--include` and `--exclude` are regular expressions over the path and query: the URLs
/// they leave out are listed as skipped with the pattern and never requested, the start URL
/// is crawled all the same, and a bad pattern exits 2 before anything is fetched.
#[test]
fn include_and_exclude_patterns_choose_the_crawled_urls() {
    let site = Site::start(|_| {
        HashMap::from([
            ("/".to_string(), page("Home", &["/en/a", "/fr/b", "/de/c", "/en/list?sort=price", "/en/guide.pdf"])),
            ("/en/a".to_string(), page("English", &["/"])),
            ("/fr/b".to_string(), page("French", &["/"])),
            ("/de/c".to_string(), page("German", &["/"])),
        ])
    });
    let out = crawl(&[
        &site.url("/"),
        "--format",
        "json",
        "--no-sitemaps",
        "--include",
        "/(en|fr)/",
        "--exclude",
        r".*\?(.*&)?sort=",
        "--exclude",
        r".*\.pdf$",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    for path in ["/", "/en/a", "/fr/b"] {
        assert_eq!(row(&report, &site.url(path))["state"], "done", "{path}: {report:#}");
    }
    for (path, reason) in [
        ("/de/c", "matched by no include pattern"),
        ("/en/list?sort=price", r"excluded by .*\?(.*&)?sort="),
        ("/en/guide.pdf", r"excluded by .*\.pdf$"),
    ] {
        let row = row(&report, &site.url(path));
        assert_eq!((row["state"].as_str(), row["reason"].as_str()), (Some("skipped"), Some(reason)), "{path}");
    }
    assert_eq!(report["crawl"]["progress"]["pages_skipped"], 3, "{report:#}");
    let requested = site.requested();
    assert!(!requested.iter().any(|p| p == "/de/c" || p.ends_with(".pdf")), "{requested:?}");

    // A bad pattern, or one that compiles too large: exit 2 naming the flag, nothing fetched.
    let before = site.requested().len();
    for (flag, pattern) in [("--exclude", "/a("), ("--include", r"\w{1000}")] {
        let out = crawl(&[&site.url("/"), flag, pattern]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with(&format!("error: invalid_parameter: {flag}: ")), "{stderr}");
    }
    assert_eq!(site.requested().len(), before, "nothing is fetched for a bad pattern");
}

/// `--strip-param` (repeatable; a name, a `prefix*` or `*`): links that differ only by the
/// stripped parameters are one URL, crawled once; a bad name exits 2 naming the flag.
#[test]
fn stripped_query_parameters_make_one_url_of_many() {
    let site = Site::start(|_| {
        HashMap::from([
            ("/".to_string(), page("Home", &["/p?utm_source=a&id=1", "/p?id=1&utm_medium=b&sid=9", "/p?id=1"])),
            ("/p?id=1".to_string(), page("Product", &["/"])),
        ])
    });
    let report = json(&crawl(&[
        &site.url("/"),
        "--format",
        "json",
        "--no-sitemaps",
        "--strip-param",
        "utm_*",
        "--strip-param",
        "sid",
    ]));
    let urls: Vec<&str> =
        report["crawl"]["pages"].as_array().unwrap().iter().map(|p| p["url"].as_str().unwrap()).collect();
    assert_eq!(urls.len(), 2, "{urls:?}");
    assert_eq!(row(&report, &site.url("/p?id=1"))["state"], "done");
    // Only the stripped spelling is ever asked for (the crawl once; the edge check after the
    // crawl's end asks for it again as a browser and as AI crawlers, docs/API.md).
    let requested = site.requested();
    assert!(requested.iter().any(|p| p == "/p?id=1"), "{requested:?}");
    assert!(requested.iter().filter(|p| p.starts_with("/p")).all(|p| p == "/p?id=1"), "{requested:?}");

    let out = crawl(&[&site.url("/"), "--strip-param", "a=b"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: invalid_parameter: --strip-param: "), "{stderr}");
}

/// A cell of a JSON row as its CSV field reads.
fn flat(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(flat).collect::<Vec<_>>().join(";"),
        other => other.to_string(),
    }
}

/// The header and the rows (sorted: each run crawls anew) of a CSV, read by the csv crate.
fn read_csv(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader.headers().expect("header").iter().map(str::to_string).collect();
    let mut rows: Vec<Vec<String>> =
        reader.records().map(|r| r.expect("record").iter().map(str::to_string).collect()).collect();
    rows.sort();
    (header, rows)
}

/// The command line writes the REST export's shape (docs/API.md, "Exports"): the pages CSV has
/// its columns and `;` between failed rules, the JSON report's pages have those members and
/// values, `--table issues` writes one row per finding, and `--output FILE.xlsx` writes the
/// workbook with the sheets `pages` and `issues` holding the CSVs' rows (read back with
/// calamine). `--format xlsx` without `--output`, and `--table` with JSON, are refused before
/// any crawl.
#[test]
fn the_exports_are_the_rest_exports_and_read_back() {
    use app::crawl::export::{ISSUE_COLUMNS, PAGE_COLUMNS};
    let elsewhere = Site::start(|_| HashMap::from([("/landing".to_string(), page("Elsewhere", &[]))]));
    let site = shop(elsewhere.port);
    let args = |more: &[&str]| -> Output {
        let mut all = vec![site.url("/"), "--max-in-flight".into(), "1".into()];
        all.extend(more.iter().map(|s| s.to_string()));
        let out = crawl(&all.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        out
    };

    let (header, pages) = read_csv(&args(&["--format", "csv"]).stdout);
    assert_eq!(header, PAGE_COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>());
    let report = json(&args(&["--format", "json"]));
    let mut from_json: Vec<Vec<String>> = report["crawl"]["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|row| {
            let members: Vec<&str> = row.as_object().expect("row").keys().map(String::as_str).collect();
            assert_eq!(members, header.iter().map(String::as_str).collect::<Vec<_>>(), "{row}");
            row.as_object().expect("row").values().map(flat).collect()
        })
        .collect();
    from_json.sort();
    assert_eq!(pages, from_json, "the CSV rows are the JSON report's pages");
    assert!(pages.iter().any(|r| r[7].contains(';')), "failed rules joined by `;`: {pages:?}");

    let (issue_header, issues) = read_csv(&args(&["--format", "csv", "--table", "issues"]).stdout);
    assert_eq!(issue_header, ISSUE_COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>());
    let broken = issues.iter().find(|r| r[0] == "broken-internal-link").unwrap_or_else(|| panic!("{issues:?}"));
    assert_eq!((broken[1].as_str(), broken[3].clone(), broken[5].clone()), ("site", site.url("/gone"), site.url("/")));
    assert!(issues.iter().any(|r| r[1] == "page" && r[3] == site.url("/a")), "{issues:?}");

    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("crawl.xlsx");
    let out = args(&["--output", file.to_str().expect("path")]);
    assert!(out.stdout.is_empty(), "the workbook goes to the file only");
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&file).expect("a workbook");
    assert_eq!(calamine::Reader::sheet_names(&book), ["pages", "issues"]);
    for (sheet, (want_header, want_rows)) in [("pages", (&header, &pages)), ("issues", (&issue_header, &issues))] {
        let range = calamine::Reader::worksheet_range(&mut book, sheet).expect("sheet");
        let mut rows: Vec<Vec<String>> = range
            .rows()
            .map(|row| {
                row.iter()
                    .map(|cell| match cell {
                        calamine::Data::Empty => String::new(),
                        calamine::Data::String(s) => s.clone(),
                        calamine::Data::Float(f) => format!("{f:.0}"),
                        other => panic!("unexpected cell {other:?}"),
                    })
                    .collect()
            })
            .collect();
        assert_eq!(&rows.remove(0), want_header);
        rows.sort();
        assert_eq!(&rows, want_rows, "the {sheet} sheet holds the CSV's rows");
    }

    for (flags, needle) in
        [(&["--format", "xlsx"][..], "--output"), (&["--format", "json", "--table", "issues"][..], "--table")]
    {
        let mut all = vec![site.url("/")];
        all.extend(flags.iter().map(|s| s.to_string()));
        let out = crawl(&all.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("invalid_parameter") && err.contains(needle), "{err}");
    }
}

/// With `--baseline`, the text report ends with the crawl's change against the baseline's
/// crawl: the site score change, pages added and gone, and status changes. The baseline is
/// this site's own JSON report edited as a site's earlier state would have it: `/orphan` not
/// yet there, an `/old` page since removed, `/a` answering 500, and a higher score.
#[test]
fn the_text_report_shows_the_change_since_the_baseline() {
    let elsewhere = Site::start(|_| HashMap::from([("/landing".to_string(), page("Elsewhere", &[]))]));
    let site = shop(elsewhere.port);
    let mut report = json(&crawl(&[&site.url("/"), "--format", "json"]));
    let score = report["crawl"]["site_score"].as_i64().expect("score");
    report["crawl"]["site_score"] = Value::from(score + 3);
    let pages = report["crawl"]["pages"].as_array_mut().expect("pages");
    pages.retain(|p| p["url"] != site.url("/orphan"));
    let mut old = pages[0].clone();
    old["url"] = Value::from(site.url("/old"));
    pages.push(old);
    for p in pages.iter_mut().filter(|p| p["url"] == site.url("/a")) {
        p["status_code"] = Value::from(500);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let baseline = dir.path().join("before.json");
    std::fs::write(&baseline, serde_json::to_vec(&report).expect("json")).expect("write");

    let out = crawl(&[&site.url("/"), "--baseline", baseline.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let change = &text[text.find("Change since the baseline's crawl:").unwrap_or_else(|| panic!("{text}"))..];
    for needle in [
        format!("site score {} -> {score} (-3)", score + 3),
        format!("pages added: 1\n    {}\n", site.url("/orphan")),
        format!("pages gone: 1\n    {}\n", site.url("/old")),
        format!("status changes: 1\n    {}  500 -> 200\n", site.url("/a")),
    ] {
        assert!(change.contains(&needle), "{needle:?} missing:\n{change}");
    }
    assert!(text.contains("Against the baseline "), "the findings' marks are there too:\n{text}");
}

/// The links to other sites are checked (each once, within `--external-budget`) and a broken
/// one is a `broken-external-link` finding on its linking page; the text report counts what
/// was checked and what was not; `--no-external` asks the other site nothing.
#[test]
fn external_links_are_checked_within_the_budget_or_not_at_all() {
    let other = Site::start(|_| HashMap::from([("/ok".to_string(), page("Elsewhere", &[]))]));
    let (ok, gone, gone2) = (other.url("/ok"), other.url("/gone"), other.url("/gone-too"));
    let site = {
        let (ok, gone, gone2) = (ok.clone(), gone.clone(), gone2.clone());
        Site::start(move |_| {
            HashMap::from([
                ("/".to_string(), page("Home", &["/a", &ok, &gone])),
                ("/a".to_string(), page("About", &["/", &gone, &gone2])),
            ])
        })
    };
    let out = crawl(&[&site.url("/"), "--format", "json", "--no-sitemaps"]);
    let report = json(&out);
    let e = &report["crawl"]["external_links"];
    assert_eq!(
        (e["checked"].as_u64(), e["broken_count"].as_u64(), e["budget"].as_u64()),
        (Some(3), Some(2), Some(500))
    );
    let urls = issue(&report, "broken-external-link")["urls"].as_array().expect("urls").clone();
    let found: Vec<(&str, &str)> =
        urls.iter().map(|u| (u["url"].as_str().unwrap(), u["linked_from"].as_str().unwrap())).collect();
    let (home, a) = (site.url("/"), site.url("/a"));
    assert_eq!(found.len(), 3, "{report:#}");
    for pair in [(gone.as_str(), home.as_str()), (gone.as_str(), a.as_str()), (gone2.as_str(), a.as_str())] {
        assert!(found.contains(&pair), "{pair:?} in {found:?}");
    }
    let asked = |path: &str| other.requested().iter().filter(|p| *p == path).count();
    assert_eq!((asked("/ok"), asked("/gone"), asked("/gone-too")), (1, 1, 1), "{:?}", other.requested());

    let out = crawl(&[&site.url("/"), "--no-sitemaps", "--external-budget", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("External links: 1 URLs checked, 0 broken; not checked: 2 past the budget of 1"), "{text}");

    let before = other.requested().len();
    let out = crawl(&[&site.url("/"), "--format", "json", "--no-sitemaps", "--no-external"]);
    let report = json(&out);
    assert!(report["crawl"].get("external_links").is_none(), "{report:#}");
    assert_eq!(other.requested().len(), before, "--no-external asks the other site nothing");
}

/// A machine that reaches no other site (a sandbox, a CI runner without a network): when the
/// checks of three hosts or more all get no answer and none answers at all, the links are
/// counted as not checked, "no other site answered", not reported as broken; with one other
/// site answering, the same failures are broken links.
#[test]
fn external_links_no_site_answers_are_not_checked_rather_than_broken() {
    // Nothing listens on port 1 of these loopback addresses: every connection is refused.
    let dead: Vec<String> = (2..=4).map(|i| format!("http://127.0.0.{i}:1/page")).collect();
    let other = Site::start(|_| HashMap::from([("/ok".to_string(), page("Elsewhere", &[]))]));
    let ok = other.url("/ok");
    let site = {
        let (dead, ok) = (dead.clone(), ok.clone());
        Site::start(move |_| {
            let links: Vec<&str> = dead.iter().map(String::as_str).collect();
            let mut with_ok = links.clone();
            with_ok.push(&ok);
            HashMap::from([("/".to_string(), page("Home", &links)), ("/also".to_string(), page("Also", &with_ok))])
        })
    };
    let allow = ["--allow-target", "127.0.0.2,127.0.0.3,127.0.0.4"];
    // The report of a crawl from `start`, and its external checks: (checked, broken, unreachable).
    let crawl_from = |start: &str| {
        let report =
            json(&crawl(&[&[site.url(start).as_str(), "--format", "json", "--no-sitemaps"][..], &allow].concat()));
        let e = &report["crawl"]["external_links"];
        let counts = (e["checked"].as_u64(), e["broken_count"].as_u64(), e["not_checked_unreachable"].as_u64());
        (counts, report)
    };
    let (counts, report) = crawl_from("/");
    assert_eq!(counts, (Some(0), Some(0), Some(3)), "{:#}", report["crawl"]["external_links"]);
    let issues = report["crawl"]["issues"].as_array().expect("issues");
    assert!(!issues.iter().any(|i| i["id"] == "broken-external-link"), "{report:#}");
    let out = crawl(&[&[site.url("/").as_str(), "--no-sitemaps"][..], &allow].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("External links: 0 URLs checked, 0 broken; not checked: 3 no other site answered"), "{text}");

    // The page that also links to an answering site: the three are broken links.
    let (counts, report) = crawl_from("/also");
    assert_eq!(counts, (Some(4), Some(3), Some(0)), "{:#}", report["crawl"]["external_links"]);
    let urls = issue(&report, "broken-external-link")["urls"].as_array().expect("urls").len();
    assert_eq!(urls, 3, "{report:#}");
}

/// `--list FILE` and `--list SITEMAP-URL` (docs/API.md, "List mode"): the start URL and the
/// listed URLs are fetched, nothing they link to and no other sitemap; the site rules that
/// need the whole site are skipped and named; a URL off the site, a list over --max-pages or
/// a file that cannot be read exits 2 before anything is crawled.
#[test]
fn a_list_is_crawled_and_nothing_else() {
    let site = Site::start(|port| {
        let origin = format!("http://127.0.0.1:{port}");
        let urlset = |paths: &[&str]| {
            let locs: String = paths.iter().map(|p| format!("<url><loc>{origin}{p}</loc></url>")).collect();
            typed(
                "application/xml",
                &format!("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{locs}</urlset>"),
            )
        };
        HashMap::from([
            ("/robots.txt".to_string(), typed("text/plain", "User-agent: *\nAllow: /\n")),
            ("/sitemap.xml".to_string(), urlset(&["/b"])),
            ("/products.xml".to_string(), urlset(&["/a", "/c"])),
            ("/".to_string(), page("Home", &["/a", "/b", "/c"])),
            ("/a".to_string(), page("Kettles", &["/b", "/c", "/d"])),
            ("/b".to_string(), page("Pans", &["/a"])),
            ("/c".to_string(), page("Pots", &["/"])),
        ])
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("urls.txt");
    std::fs::write(&file, format!("# the kettles\n{}\n\n  {}  \n", site.url("/a"), site.url("/b"))).unwrap();
    let file = file.to_str().unwrap();

    // A file, without a start URL: its first URL is the start.
    let out = crawl(&["--list", file, "--format", "json", "--no-external"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let mut urls: Vec<&str> =
        report["crawl"]["pages"].as_array().unwrap().iter().map(|p| p["url"].as_str().unwrap()).collect();
    urls.sort_unstable();
    assert_eq!(urls, [site.url("/a"), site.url("/b")], "{report:#}");
    assert_eq!(row(&report, &site.url("/b"))["inlinks"], 1, "/a's link to /b counts: {report:#}");
    assert_eq!(report["crawl"]["list_mode"], true);
    let skipped = report["crawl"]["site_rules_skipped"].as_array().unwrap();
    assert!(skipped.iter().any(|r| r == "orphan-page") && skipped.iter().any(|r| r == "deep-page"), "{skipped:?}");
    let requested = site.requested();
    for never in ["/", "/c", "/d", "/sitemap.xml", "/products.xml"] {
        assert!(!requested.iter().any(|p| p == never), "{never}: {requested:?}");
    }

    // A sitemap's URLs, from a start URL; the text report says what was skipped.
    let first = site.requested().len();
    let out = crawl(&[&site.url("/"), "--list", &site.url("/products.xml"), "--format", "csv", "--no-external"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let mut urls: Vec<String> = reader.records().map(|r| r.unwrap()[0].to_string()).collect();
    urls.sort();
    assert_eq!(urls, [site.url("/"), site.url("/a"), site.url("/c")]);
    let requested = site.requested()[first..].to_vec();
    assert!(requested.iter().any(|p| p == "/products.xml"), "{requested:?}");
    assert!(!requested.iter().any(|p| p == "/b" || p == "/sitemap.xml" || p == "/d"), "{requested:?}");
    let out = crawl(&["--list", file, "--no-external"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("List mode: the listed URLs only; site rules that need the whole site skipped: "), "{text}");

    // Refused before anything is fetched.
    let off = dir.path().join("off.txt");
    std::fs::write(&off, format!("{}\nhttps://elsewhere.test/x\n", site.url("/a"))).unwrap();
    let before = site.requested().len();
    for args in [
        vec![site.url("/"), "--list".to_string(), off.to_str().unwrap().to_string()],
        vec!["--list".to_string(), file.to_string(), "--max-pages".to_string(), "1".to_string()],
        vec!["--list".to_string(), dir.path().join("none.txt").to_str().unwrap().to_string()],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = crawl(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: invalid_parameter: --list"), "{stderr}");
    }
    // Only the start URL's check, made before the list is compared with its site; no crawl.
    let after = site.requested()[before..].to_vec();
    assert!(after.iter().all(|p| p == "/" || p == "/a"), "{after:?}");
}

/// `--extract` (docs/API.md, "Custom extraction"): each HTML page's values are the columns
/// `extract:NAME` after the fixed ones, in the CSV, the JSON report and the XLSX workbook,
/// each read back; a bad selector or pattern exits 2 naming the extractor, before anything is
/// fetched.
#[test]
fn extracted_values_are_columns_of_every_export() {
    let site = Site::start(|_| {
        HashMap::from([
            ("/".to_string(), page("Home", &["/kettle"])),
            (
                "/kettle".to_string(),
                html(
                    "<!DOCTYPE html><html lang=\"en\"><head><title>The copper kettle</title>\
                     <meta itemprop=\"price\" content=\"42.50\"></head><body><h1>Copper kettle</h1>\
                     <p>SKU-12345</p><a href=\"/\">Home</a></body></html>",
                ),
            ),
        ])
    });
    let flags = [
        "--extract",
        "title=css:h1",
        "--extract",
        "price=css:meta[itemprop=price]@content",
        "--extract",
        r"sku=regex:SKU-(\d+)",
    ];
    let run = |more: &[&str]| -> Output {
        let mut all = vec![site.url("/"), "--no-sitemaps".into(), "--no-external".into()];
        all.extend(flags.iter().chain(more).map(|s| s.to_string()));
        let out = crawl(&all.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        out
    };
    let names = ["extract:title", "extract:price", "extract:sku"];

    let (header, rows) = read_csv(&run(&["--format", "csv"]).stdout);
    assert_eq!(&header[header.len() - 3..], names.as_slice(), "{header:?}");
    let kettle = rows.iter().find(|r| r[0] == site.url("/kettle")).expect("the kettle's row");
    assert_eq!(&kettle[kettle.len() - 3..], ["Copper kettle", "42.50", "12345"]);
    let home = rows.iter().find(|r| r[0] == site.url("/")).expect("the home row");
    assert_eq!(&home[home.len() - 3..], ["Home", "", ""], "no match: an empty field");

    let report = json(&run(&["--format", "json"]));
    let row = row(&report, &site.url("/kettle"));
    assert_eq!(
        (&row["extract:title"], &row["extract:price"], &row["extract:sku"]),
        (&Value::from("Copper kettle"), &Value::from("42.50"), &Value::from("12345"))
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("crawl.xlsx");
    run(&["--output", file.to_str().unwrap()]);
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&file).expect("a workbook");
    let range = calamine::Reader::worksheet_range(&mut book, "pages").expect("sheet");
    let sheet: Vec<Vec<String>> = range
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| match c {
                    calamine::Data::Empty => String::new(),
                    calamine::Data::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    assert_eq!(sheet[0], header);
    let kettle_row = sheet.iter().find(|r| r[0] == site.url("/kettle")).expect("the kettle's row");
    assert_eq!(&kettle_row[kettle_row.len() - 3..], ["Copper kettle", "42.50", "12345"]);

    let before = site.requested().len();
    for (flag, name) in [("a=css:h1[[", "a"), ("b=regex:(", "b"), ("c=xpath://h1", "")] {
        let out = crawl(&[&site.url("/"), "--extract", flag]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with("error: invalid_parameter: --extract: "), "{stderr}");
        assert!(stderr.contains(&format!("extractor `{name}`")) || name.is_empty(), "{stderr}");
    }
    assert_eq!(site.requested().len(), before, "nothing is fetched for a bad extractor");
}

/// The secrets of the staging site below: a header's value and the basic auth password.
const STAGING_SECRETS: [&str; 2] = ["tok-123-secret", "pass-789-secret"];

/// A staging site answers 401 without its header and basic auth: crawled with `--header`
/// and the basic auth from `SEO_AUDIT_BASIC_AUTH`, every request to it carries them, the
/// check of its link to another host carries neither, and the output shows neither.
#[test]
fn a_staging_site_is_crawled_with_its_header_and_basic_auth_and_they_go_nowhere_else() {
    let elsewhere = Site::start(|_| HashMap::from([("/landing".to_string(), page("Elsewhere", &[]))]));
    let landing = format!("http://127.0.0.1:{}/landing", elsewhere.port);
    let staging = ThreadServer::start(move |request| {
        // base64("team:pass-789-secret")
        let authorised = request.header("authorization") == Some("Basic dGVhbTpwYXNzLTc4OS1zZWNyZXQ=")
            && request.header("x-preview") == Some(STAGING_SECRETS[0]);
        let (status, headers, body) = match request.path.as_str() {
            _ if !authorised => (401, vec![("WWW-Authenticate".into(), "Basic realm=\"staging\"".into())], Vec::new()),
            "/" => page("Home", &["/a", &landing]),
            "/a" => page("Kettles", &["/"]),
            _ => (404, Vec::new(), Vec::new()),
        };
        Some(Reply::Full { status, headers, body })
    });
    let url = format!("http://127.0.0.1:{}/", staging.port());
    let run = |extra: &[&str], basic_auth: Option<&str>| {
        let data = tempfile::tempdir().expect("tempdir");
        let mut command = crate::common::command();
        command.arg("crawl").arg(&url).args(extra).args(["--format", "json", "--allow-target", "127.0.0.1"]);
        command.env("SEO_AUDIT_DATA", data.path()).env_remove("SEO_AUDIT_BASIC_AUTH");
        if let Some(auth) = basic_auth {
            command.env("SEO_AUDIT_BASIC_AUTH", auth);
        }
        command.output().expect("run seo-audit")
    };
    let header = format!("X-Preview: {}", STAGING_SECRETS[0]);
    let out = run(&["--header", &header], Some("team:pass-789-secret"));
    let printed = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{printed}");
    assert!(STAGING_SECRETS.iter().all(|s| !printed.contains(s)), "a secret was printed: {printed}");
    let report = json(&out);
    assert_eq!(row(&report, &url)["status_code"], 200, "{report:#}");
    assert_eq!(row(&report, &format!("{url}a"))["status_code"], 200, "{report:#}");
    let requests = staging.requests();
    assert!(requests.iter().any(|r| r.path == "/robots.txt"), "robots.txt was asked for with them too");
    assert!(requests.iter().all(|r| r.header("authorization").is_some()), "every request carried them");
    let away = elsewhere.server.requests();
    assert!(away.iter().any(|r| r.path == "/landing"), "the external link was checked");
    assert!(
        away.iter().all(|r| r.header("authorization").is_none() && r.header("x-preview").is_none()),
        "another host never gets them"
    );

    // Without them the site answers 401 only: the crawl fails, saying so.
    let out = run(&[], None);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(json(&out)["crawl"]["reason"].as_str().expect("reason").contains("HTTP 401"));

    // A header the service sets itself is refused before anything is fetched, by name.
    let before = staging.requests().len();
    for (flag, value, names) in [
        ("--header", "Host: hidden-value", "--header: The field `headers` is refused: Host"),
        ("--header", "no colon", "--header: "),
        ("--cookie", "hidden-value", "--cookie: "),
    ] {
        let out = run(&[flag, value], None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(names) && !stderr.contains("hidden-value"), "{stderr}");
    }
    assert_eq!(staging.requests().len(), before, "nothing fetched");
}

/// `--user-agent smartphone` sends Google's smartphone crawler's user agent and obeys
/// robots.txt's `Googlebot` group (the default obeys `*` here, having no group of its own);
/// `--ignore-robots` fetches what robots.txt disallows, and the report says so.
#[test]
fn the_user_agent_profile_chooses_the_robots_group_and_ignore_robots_says_so() {
    let site = Site::start(|_| {
        HashMap::from([
            (
                "/robots.txt".to_string(),
                typed("text/plain", "User-agent: Googlebot\nDisallow: /desktop\n\nUser-agent: *\nDisallow: /mobile\n"),
            ),
            ("/".to_string(), page("Home", &["/desktop", "/mobile"])),
            ("/desktop".to_string(), page("Desktop", &["/"])),
            ("/mobile".to_string(), page("Mobile", &["/"])),
        ])
    });
    let state =
        |report: &Value, path: &str| row(report, &site.url(path))["state"].as_str().unwrap_or_default().to_string();

    let out = crawl(&[&site.url("/"), "--format", "json", "--no-external", "--user-agent", "smartphone"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    assert_eq!((state(&report, "/desktop"), state(&report, "/mobile")), ("skipped".into(), "done".into()));
    assert_eq!(
        report["crawl"]["robots"],
        serde_json::json!({"user_agent": "smartphone", "obeyed_for": "Googlebot", "ignored": false})
    );
    let requests = site.server.requests();
    let robots = requests.iter().find(|r| r.path == "/robots.txt").expect("robots.txt");
    let agent = robots.header("user-agent").unwrap_or_default();
    assert!(agent.contains("Googlebot/2.1") && agent.contains("Mobile"), "{agent}");
    assert!(requests.iter().all(|r| !r.header("user-agent").unwrap_or_default().contains("SeoAuditBot")));

    let out = crawl(&[&site.url("/"), "--format", "json", "--no-external"]);
    let report = json(&out);
    assert_eq!((state(&report, "/desktop"), state(&report, "/mobile")), ("done".into(), "skipped".into()));
    assert_eq!(report["crawl"]["robots"]["obeyed_for"], "SeoAuditBot");

    let before = site.requested().len();
    let out = crawl(&[&site.url("/"), "--no-external", "--ignore-robots"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("robots.txt IGNORED (--ignore-robots)"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning: --ignore-robots"));
    let asked = &site.requested()[before..];
    assert!(asked.iter().any(|p| p == "/desktop") && asked.iter().any(|p| p == "/mobile"), "{asked:?}");
}

/// `--store FILE` keeps the crawl in that file after the command, which reopens as a store;
/// a second run of the same start URL, after the first ended, makes a crawl of its own there
/// and reports the same pages (only a crawl a killed run left running is resumed: app's
/// `local_crawl` tests and scripts/resume-bench.sh).
#[test]
fn store_keeps_the_crawl_in_its_file() {
    let site = shop(1);
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("kept.db");
    let (url, path) = (site.url("/"), file.display().to_string());
    let args = [url.as_str(), "--format", "json", "--no-sitemaps", "--no-external", "--store", path.as_str()];
    let first = crawl(&args);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(file.exists(), "the crawl's store is kept");
    let again = crawl(&args);
    assert_eq!(again.status.code(), Some(0), "{}", String::from_utf8_lossy(&again.stderr));
    let done = |out: &Output| json(out)["crawl"]["progress"]["pages_done"].as_u64();
    assert!(done(&first).is_some_and(|n| n >= 2), "{}", String::from_utf8_lossy(&first.stdout));
    assert_eq!(done(&again), done(&first));
    store::Store::open(&file).expect("the kept file opens as a store");
}
