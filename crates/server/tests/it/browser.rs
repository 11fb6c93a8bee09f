//! The web surfaces in a real browser: headless Chromium loads pages that embed
//! `/widget.js` in every documented way, the SVG badge, and the report of a page full of
//! markup payloads, and the tests read the DOM it ends up with (`--dump-dom`).
//!
//! Skips with a message when no Chromium is installed, unless `SEO_AUDIT_REQUIRE_BROWSER=1`
//! (set by `.ci/run`), which turns the absence into a failure. Screenshots of the report,
//! the landing page and an embedding page are written to `target/artifacts/` for people to
//! look at.

use crate::common;
use crate::web_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::TestServer;
use test_support::chromium_or_skip;
use web_support::Site;

/// Longest a single Chromium run may take before it is killed (a hang guard, not a
/// performance assertion).
const CHROMIUM_HANG_GUARD: Duration = Duration::from_secs(90);

/// Runs headless Chromium with a fresh profile and `extra` arguments; returns stdout.
async fn chromium(bin: &Path, extra: Vec<String>) -> String {
    let bin = bin.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(&bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(&extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
            out
        });
        let started = Instant::now();
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if started.elapsed() > CHROMIUM_HANG_GUARD {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not finish: {extra:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        reader.join().unwrap()
    })
    .await
    .unwrap()
}

/// The DOM after scripts ran (virtual time lets timers and the async script finish).
async fn dump_dom(bin: &Path, url: &str) -> String {
    let dom = chromium(bin, vec!["--virtual-time-budget=5000".into(), "--dump-dom".into(), url.to_string()]).await;
    assert!(dom.contains("<"), "no DOM for {url}: {dom:?}");
    dom
}

async fn screenshot(bin: &Path, url: &str, name: &str, size: (u32, u32)) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let _ = std::fs::remove_file(&file);
    chromium(
        bin,
        vec![
            "--virtual-time-budget=3000".into(),
            format!("--screenshot={}", file.display()),
            format!("--window-size={},{}", size.0, size.1),
            url.to_string(),
        ],
    )
    .await;
    let png = std::fs::read(&file).unwrap_or_default();
    assert!(png.starts_with(b"\x89PNG"), "no screenshot at {}", file.display());
    file
}

/// Every `<a ...>` start tag of the badge links in a DOM dump.
fn badge_links(dom: &str) -> Vec<&str> {
    dom.match_indices("<a ")
        .map(|(at, _)| &dom[at..at + dom[at..].find('>').unwrap()])
        .filter(|tag| tag.contains(r#"class="svc-widget-link""#))
        .collect()
}

fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let start = tag.find(&key).unwrap_or_else(|| panic!("no {name} in {tag}")) + key.len();
    &tag[start..start + tag[start..].find('"').unwrap()]
}

/// The start tag of the `<img>` right after `link` in `dom`.
fn img_after<'a>(dom: &'a str, link: &str) -> &'a str {
    let at = dom.find(link).unwrap();
    let img = at + dom[at..].find("<img ").unwrap();
    &dom[img..img + dom[img..].find('>').unwrap()]
}

/// Records every `console.warn` of the page as an `<li class="warned">` in `#warnings`, so
/// the DOM dump shows what the widget warned about.
const WARN_RECORDER: &str = r#"<script>console.warn=function(m){var li=document.createElement('li');li.className='warned';li.textContent=String(m);document.getElementById('warnings').appendChild(li);};</script>"#;

/// What one embedding page must end up with.
struct Expect {
    count: usize,
    container: &'static str,
    href: String,
    src: String,
    brand: Option<&'static str>,
}

fn check_page(name: &str, dom: &str, e: &Expect) {
    let links = badge_links(dom);
    assert_eq!(links.len(), e.count, "{name}: badge links in {dom}");
    let Some(link) = links.first() else { return };
    assert_eq!(attr(link, "href"), e.href, "{name}");
    assert_eq!(attr(link, "target"), "_blank", "{name}");
    assert_eq!(attr(link, "rel"), "noopener", "{name}");
    // The DOM dump escapes `&` in attribute values.
    assert_eq!(attr(img_after(dom, link), "src").replace("&amp;", "&"), e.src, "{name}");
    let container = dom.find(e.container).unwrap_or_else(|| panic!("{name}: no {} in {dom}", e.container));
    assert!(dom.find(link).unwrap() > container, "{name}: badge outside {}", e.container);
    if let Some(brand) = e.brand {
        assert!(dom.contains(r#"<span class="svc-widget-brand""#) && dom.contains(brand), "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn widget_script_embeds_in_chromium() {
    let Some(bin) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| {
        c.allow_targets.push("localhost".to_string());
        c.badge_audit_url = String::new();
    })
    .await;
    let s = &t.base;
    t.db(|s| s.insert_audit(store::NewAudit::new("https://example.com/", "https://example.com/", 87, "1", "{}")))
        .unwrap();
    t.db(|s| s.insert_audit(store::NewAudit::new("http://localhost/", "http://localhost/", 55, "1", "{}"))).unwrap();

    let page = |body: String| {
        format!(
            "<!doctype html><html><head><title>Embedding page</title></head><body><h1>A site</h1>{body}</body></html>"
        )
    };
    // Marks the body with the rendered width of the first badge image once it has loaded.
    let probe = r#"<script>var probe=setInterval(function(){var i=document.querySelector('img');if(i&&i.complete&&i.naturalWidth){document.body.setAttribute('data-img-width',String(i.naturalWidth));clearInterval(probe);}},50);</script>"#;
    let inline = format!(
        r#"<div id="svc-widget"></div><script async src="{s}/widget.js" data-position="inline" data-domain="example.com" data-color="2563eb" data-size="large"></script>{probe}"#
    );
    let pages = vec![
        ("/inline", page(inline.clone())),
        (
            "/floating",
            page(format!(r#"<p>Text</p><script async src="{s}/widget.js" data-domain="example.com"></script>"#)),
        ),
        (
            "/auto",
            page(format!(
                r#"<div id="svc-widget"></div><script async src="{s}/widget.js" data-position="inline"></script>"#
            )),
        ),
        (
            "/twice",
            page(format!(
                r#"<div id="svc-widget"></div><script async src="{s}/widget.js" data-position="inline" data-domain="example.com"></script><script async src="{s}/widget.js" data-position="inline" data-domain="example.com"></script>"#
            )),
        ),
        (
            "/early",
            page(format!(
                r#"<script src="{s}/widget.js" data-position="inline" data-domain="example.com" data-size="small"></script><p>Later content</p><div id="svc-widget"></div>"#
            )),
        ),
        (
            "/white-label",
            page(format!(
                r#"<script async src="{s}/widget.js" data-domain="example.com" data-brand="Audited by Acme SEO" data-link="https://partner.example/seo"></script>"#
            )),
        ),
        (
            "/hostile-attributes",
            page(format!(
                r#"<script async src="{s}/widget.js" data-domain="example.com" data-brand="&lt;img src=x onerror=&quot;document.body.setAttribute('data-pwned','brand')&quot;&gt;" data-link="javascript:document.body.setAttribute('data-pwned','link')"></script>"#
            )),
        ),
        (
            "/invalid-attributes",
            page(format!(
                r##"<ul id="warnings"></ul>{WARN_RECORDER}<div id="svc-widget"></div><script async src="{s}/widget.js" data-position="inline" data-domain="example.com" data-color="#2563eb" data-size="huge"></script><script async src="{s}/widget.js" data-position="inline" data-domain="1.2.3.4"></script>"##
            )),
        ),
    ];
    let site = Site::start(pages).await;
    let report = format!("{s}/report/example.com");
    let src = |q: &str| format!("{s}/api/widget?{q}");
    let cases = [
        (
            "/inline",
            Expect {
                count: 1,
                container: r#"id="svc-widget""#,
                href: report.clone(),
                src: src("domain=example.com&color=2563eb&size=large"),
                brand: None,
            },
        ),
        (
            "/floating",
            Expect {
                count: 1,
                container: r#"id="svc-widget-fixed""#,
                href: report.clone(),
                src: src("domain=example.com&color=10b981&size=medium"),
                brand: None,
            },
        ),
        // Without data-domain the page's own host is used.
        (
            "/auto",
            Expect {
                count: 1,
                container: r#"id="svc-widget""#,
                href: format!("{s}/report/localhost"),
                src: src("domain=localhost&color=10b981&size=medium"),
                brand: None,
            },
        ),
        (
            "/twice",
            Expect {
                count: 1,
                container: r#"id="svc-widget""#,
                href: report.clone(),
                src: src("domain=example.com&color=10b981&size=medium"),
                brand: None,
            },
        ),
        // A synchronous script before its container waits for the document.
        (
            "/early",
            Expect {
                count: 1,
                container: r#"id="svc-widget""#,
                href: report.clone(),
                src: src("domain=example.com&color=10b981&size=small"),
                brand: None,
            },
        ),
        (
            "/white-label",
            Expect {
                count: 1,
                container: r#"id="svc-widget-fixed""#,
                href: "https://partner.example/seo".into(),
                src: src("domain=example.com&color=10b981&size=medium"),
                brand: Some("Audited by Acme SEO"),
            },
        ),
    ];
    for (path, expect) in &cases {
        let dom = dump_dom(&bin, &site.url(path)).await;
        check_page(path, &dom, expect);
    }
    // Hostile data-* attributes stay text: the brand is shown literally, no element or
    // handler comes of it, and a javascript: link is refused for the report link.
    let dom = dump_dom(&bin, &site.url("/hostile-attributes")).await;
    let brand = dom.find(r#"class="svc-widget-brand""#).map(|at| &dom[at..]).unwrap_or("");
    let brand = &brand[..brand.find("</span>").unwrap_or(0)];
    assert!(brand.contains("&lt;img src=x onerror="), "the brand is not shown as text: {dom}");
    assert!(!dom.contains("<img src=\"x\"") && !dom.contains("data-pwned=\""), "an attribute became markup: {dom}");
    assert!(!dom.contains("href=\"javascript:"), "a javascript: link was used: {dom}");

    // Invalid values fall back to the defaults with a console warning each; an IP address
    // is no domain for a badge (the server would refuse it), so that tag adds none.
    let dom = dump_dom(&bin, &site.url("/invalid-attributes")).await;
    check_page(
        "/invalid-attributes",
        &dom,
        &Expect {
            count: 1,
            container: r#"id="svc-widget""#,
            href: report.clone(),
            src: src("domain=example.com&color=10b981&size=medium"),
            brand: None,
        },
    );
    let warnings: Vec<&str> = dom
        .match_indices(r#"<li class="warned">"#)
        .map(|(at, tag)| &dom[at + tag.len()..at + dom[at..].find("</li>").unwrap()])
        .collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    for (attribute, value) in [("data-color", "#2563eb"), ("data-size", "huge"), ("data-domain", "1.2.3.4")] {
        let prefix = format!("seo-audit widget: {attribute} ");
        assert!(
            warnings.iter().any(|w| w.starts_with(&prefix) && w.ends_with(value)),
            "no warning about {attribute}: {warnings:?}"
        );
    }

    // The badge image really loaded cross-origin, at its size.
    let dom = dump_dom(&bin, &site.url("/inline")).await;
    assert!(dom.contains(r#"data-img-width="300""#), "the badge image did not load: {dom}");

    // The SVG itself, as Chromium parses it.
    let svg = dump_dom(&bin, &format!("{s}/api/widget?domain=example.com&size=small&color=ff0000")).await;
    assert!(svg.trim_start().starts_with("<svg"), "{svg}");
    assert_eq!(web_support::attr_of(&svg, "<svg", "width"), Some("140"));
    assert_eq!(web_support::attr_of(&svg, "<svg", "height"), Some("40"));
    assert!(svg.contains("#ff0000") && svg.contains(">87<"), "{svg}");
    let grey = dump_dom(&bin, &format!("{s}/api/widget?domain=nothing.example")).await;
    assert!(grey.contains("not audited") && grey.contains("#9ca3af"), "{grey}");

    screenshot(&bin, &site.url("/inline"), "widget-inline.png", (800, 400)).await;
    screenshot(&bin, &site.url("/white-label"), "widget-floating.png", (800, 400)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_pages_in_chromium() {
    let Some(bin) = chromium_or_skip() else { return };
    let site = Site::start(vec![("/", web_support::home_page()), ("/hostile", web_support::hostile_page())]).await;
    let t = TestServer::start(|c| {
        c.allow_targets.push("localhost".to_string());
        c.badge_audit_url = String::new();
    })
    .await;
    let client = reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let mut reports = Vec::new();
    for path in ["/", "/hostile"] {
        let q: String = url::form_urlencoded::byte_serialize(site.url(path).as_bytes()).collect();
        let resp = client.get(t.url(&format!("/report?url={q}"))).send().await.unwrap();
        assert_eq!(resp.status(), 303);
        reports.push(t.url(resp.headers()["location"].to_str().unwrap()));
    }

    // The hostile page's title, description and headings are shown as text; nothing in
    // them ran or became an element.
    let dom = dump_dom(&bin, &reports[1]).await;
    let title = &dom[dom.find("<title>").unwrap()..dom.find("</title>").unwrap()];
    assert!(title.starts_with("<title>SEO report for localhost: "), "{title}");
    let body_tag = &dom[dom.find("<body").unwrap()..];
    let body_tag = &body_tag[..body_tag.find('>').unwrap()];
    assert!(!title.contains("PWNED") && !body_tag.contains("data-pwned"), "a payload ran: {dom}");
    assert!(!dom.contains("<svg onload") && !dom.contains("<img src=\"x\""), "a payload became markup: {dom}");
    assert!(dom.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;"), "title text missing: {dom}");
    assert!(dom.contains("&lt;svg onload="), "breakout text missing");
    assert_eq!(dom.matches("<script").count(), 0, "the report has no script");
    screenshot(&bin, &reports[1], "report-hostile.png", (1280, 2000)).await;

    // The plain report: its parts are there, with the AI-readiness section of the page's
    // readiness answer (stored by the check, shown on the report of the page's audit).
    let checked = client.post(t.url("/api/ai-readiness")).json(&serde_json::json!({ "url": site.url("/") })).send();
    assert_eq!(checked.await.unwrap().status(), 200);
    let dom = dump_dom(&bin, &reports[0]).await;
    for part in [
        "SEO report for",
        "Localhost Bakery",
        "Page facts",
        "AI readiness",
        "Crawlers by purpose",
        "What the server answers AI crawlers",
        "Recommendations",
        "Show this score on your site",
    ] {
        assert!(dom.contains(part), "{part} missing from the report");
    }
    let png = screenshot(&bin, &reports[0], "report.png", (1280, 2000)).await;
    eprintln!("report screenshot: {}", png.display());

    let landing = dump_dom(&bin, &t.url("/")).await;
    assert!(landing.contains(r#"action="/report""#));
    screenshot(&bin, &t.url("/"), "landing.png", (1280, 1400)).await;
}

/// The crawl report in Chromium: its charts are SVG drawn on the server, read with no script
/// (the page has none), and they carry the crawl's numbers: the status chart's bars count the
/// rows of the pages export by status, the severity chart's the issue counts. The screenshot
/// is written to `target/artifacts/crawl-report.png` (docs/crawl-report.png is a copy).
#[tokio::test]
async fn the_crawl_report_charts_in_chromium() {
    let Some(bin) = chromium_or_skip() else { return };
    let t = TestServer::start(|_| {}).await;
    let site = common::fixture_site("site-crawl-rest").await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let started: serde_json::Value = client
        .post(t.url("/api/v1/crawls"))
        .json(&serde_json::json!({ "url": site.url("/") }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = started["crawl"]["id"].as_str().unwrap().to_string();
    let mut crawl = serde_json::Value::Null;
    for _ in 0..600 {
        crawl = client.get(t.url(&format!("/api/v1/crawls/{id}"))).send().await.unwrap().json().await.unwrap();
        if crawl["crawl"]["state"] == "completed" && crawl["crawl"]["site_score"].is_u64() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(crawl["crawl"]["state"], "completed", "{crawl}");
    let export: serde_json::Value =
        client.get(t.url(&format!("/api/v1/crawls/{id}/export"))).send().await.unwrap().json().await.unwrap();
    let mut by_status = std::collections::BTreeMap::<String, u64>::new();
    for p in export["pages"].as_array().unwrap() {
        let label = match (p["status_code"].as_u64(), p["state"].as_str()) {
            (Some(code), _) => code.to_string(),
            (None, Some("skipped")) => "skipped".to_string(),
            (None, _) => "no answer".to_string(),
        };
        *by_status.entry(label).or_default() += 1;
    }

    let report = t.url(&format!("/crawls/{id}"));
    let dom = dump_dom(&bin, &report).await;
    assert_eq!(dom.matches("<script").count(), 0, "the report has no script");
    let chart = |name: &str| -> &str {
        let start = dom.find(&format!("data-chart=\"{name}\"")).unwrap_or_else(|| panic!("no {name} chart"));
        &dom[start..start + dom[start..].find("</figure>").unwrap()]
    };
    let status = chart("status");
    assert!(status.contains("<svg") && status.contains("role=\"img\""), "{status}");
    for (label, n) in &by_status {
        assert!(status.contains(&format!("data-label=\"{label}\" data-value=\"{n}\"")), "{label} {n}: {status}");
    }
    assert!(by_status.get("200").copied().unwrap_or(0) >= 4 && by_status.contains_key("404"), "{by_status:?}");
    let critical: u64 = crawl["crawl"]["issues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["severity"] == "critical")
        .map(|i| i["count"].as_u64().unwrap())
        .sum();
    assert!(chart("severity").contains(&format!("data-label=\"critical\" data-value=\"{critical}\"")), "{critical}");
    for name in ["depth", "category", "scores"] {
        assert!(chart(name).contains("<svg"), "{name}");
    }
    let png = screenshot(&bin, &report, "crawl-report.png", (1100, 1300)).await;
    eprintln!("crawl report screenshot: {}", png.display());
}

/// The crawl report's pages table in Chromium, driven as a person does: a click on the
/// "Score" heading (a plain link: the page runs no script) loads the table sorted by score,
/// lowest first, and a second click reverses it; the scores shown are the export's. The
/// browser is driven through the DevTools protocol (chromiumoxide), which clicks at the
/// link's place on the page.
#[tokio::test]
async fn a_sort_link_clicked_in_chromium_orders_the_table() {
    use chromiumoxide::browser::{Browser, BrowserConfig};
    use futures_util::StreamExt;

    let Some(bin) = chromium_or_skip() else { return };
    let t = TestServer::start(|_| {}).await;
    let site = common::fixture_site("site-crawl-rest").await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let started: serde_json::Value = client
        .post(t.url("/api/v1/crawls"))
        .json(&serde_json::json!({ "url": site.url("/") }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = started["crawl"]["id"].as_str().unwrap().to_string();
    for _ in 0..600 {
        let crawl: serde_json::Value =
            client.get(t.url(&format!("/api/v1/crawls/{id}"))).send().await.unwrap().json().await.unwrap();
        if crawl["crawl"]["state"] == "completed" && crawl["crawl"]["site_score"].is_u64() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let export: serde_json::Value =
        client.get(t.url(&format!("/api/v1/crawls/{id}/export"))).send().await.unwrap().json().await.unwrap();
    let mut expected: Vec<u64> =
        export["pages"].as_array().unwrap().iter().filter_map(|p| p["score"].as_u64()).collect();
    expected.sort_unstable();
    assert!(expected.first() < expected.last(), "the fixture's pages score differently: {expected:?}");
    let unscored = export["pages"].as_array().unwrap().len() - expected.len();

    let profile = tempfile::tempdir().unwrap();
    let config = BrowserConfig::builder()
        .chrome_executable(&bin)
        .no_sandbox()
        .user_data_dir(profile.path())
        .args([
            "disable-gpu",
            "no-first-run",
            "disable-background-networking",
            "disable-component-update",
            "disable-sync",
        ])
        .build()
        .unwrap();
    let (mut browser, mut handler) = Browser::launch(config).await.expect("chromium starts");
    let driver = tokio::spawn(async move { while let Some(Ok(_)) = handler.next().await {} });
    let page = browser.new_page(t.url(&format!("/crawls/{id}"))).await.unwrap();
    page.wait_for_navigation().await.unwrap();

    // The table shown once it is sorted as `order` says (the page a click loads).
    let sorted_table = |order: &'static str| {
        let page = page.clone();
        async move {
            let selector = format!("table.pages[data-sort=\"score\"][data-order=\"{order}\"]");
            let started = Instant::now();
            while page.find_element(selector.as_str()).await.is_err() {
                assert!(started.elapsed() < CHROMIUM_HANG_GUARD, "the click did not load the table sorted {order}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let mut shown = Vec::new();
            for cell in page.find_elements("table.pages tbody tr td:nth-child(5)").await.unwrap() {
                shown.push(cell.inner_text().await.unwrap().unwrap_or_default().trim().to_string());
            }
            (page.url().await.unwrap().unwrap_or_default(), shown)
        }
    };
    let as_shown = |scores: &[u64]| -> Vec<String> {
        scores.iter().map(u64::to_string).chain(std::iter::repeat_n("–".to_string(), unscored)).collect()
    };

    page.find_element("a[data-sort-link=\"score\"]").await.unwrap().click().await.unwrap();
    let (url, shown) = sorted_table("asc").await;
    assert!(url.ends_with(&format!("/crawls/{id}?sort=score&order=asc")), "{url}");
    assert_eq!(shown, as_shown(&expected), "lowest score first, pages without one last");

    page.find_element("a[data-sort-link=\"score\"]").await.unwrap().click().await.unwrap();
    let (url, shown) = sorted_table("desc").await;
    assert!(url.ends_with("?sort=score&order=desc"), "{url}");
    expected.reverse();
    assert_eq!(shown, as_shown(&expected), "highest score first, pages without one still last");

    browser.close().await.unwrap();
    browser.wait().await.unwrap();
    driver.await.unwrap();
}
