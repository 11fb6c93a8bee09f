//! End-to-end tests of the web surfaces over loopback: the score badge (SVG and iframe),
//! its background audits, the flood guard, `/widget.js`, the report pages and the landing
//! page, with the real server and a real SQLite file.

use crate::common;
use crate::web_support;

use std::time::Duration;

use common::{validate_documented, validate_schema, Answer, TestServer};
use web_support::{assert_documented_media, attr_of, Site};

/// Badge and report tests start from this: `localhost` reachable, background audits of a
/// domain go to `http://DOMAIN:PORT/` of the test site (or nowhere, with `site` None, so a
/// test never makes a DNS query).
async fn start(site: Option<&Site>, tweak: impl FnOnce(&mut server::Config)) -> TestServer {
    start_for(site.map(|s| s.addr().port()), tweak).await
}

/// [`start`] with background audits going to the site on loopback port `port`.
async fn start_for(port: Option<u16>, tweak: impl FnOnce(&mut server::Config)) -> TestServer {
    TestServer::start(move |c| {
        c.allow_targets.push("localhost".to_string());
        c.badge_audit_url = port.map_or_else(String::new, |p| format!("http://{{domain}}:{p}/"));
        tweak(c);
    })
    .await
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

fn store_audit(t: &TestServer, final_url: &str, score: i64) {
    t.db(|s| s.insert_audit(store::NewAudit::new(final_url, final_url, score, "1.0.0", "{}"))).unwrap();
}

/// Polls the store until an audit of `host` exists (the background audit is asynchronous).
async fn wait_for_audit(t: &TestServer, host: &str) -> store::StoredAudit {
    for _ in 0..300 {
        if let Some(a) = t.db(|s| s.latest_audit_for_host(host, store::BADGE_MAX_AGE)).unwrap() {
            return a;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no background audit of {host} was stored");
}

fn check_svg(a: &Answer, size: (u32, u32), fill: &str, text: &str) {
    assert_eq!(a.status, 200, "{}", a.raw);
    assert_eq!(a.header("content-type"), Some("image/svg+xml"));
    assert_eq!(a.header("cache-control"), Some("public, max-age=300"));
    assert_eq!(a.header("x-content-type-options"), Some("nosniff"));
    assert!(a.header("x-request-id").is_some());
    assert!(a.header("x-ratelimit-limit").is_none(), "the badge consumes no quota");
    assert!(a.raw.starts_with("<svg "), "{}", a.raw);
    assert_eq!(attr_of(&a.raw, "<svg ", "width"), Some(size.0.to_string().as_str()));
    assert_eq!(attr_of(&a.raw, "<svg ", "height"), Some(size.1.to_string().as_str()));
    assert_eq!(attr_of(&a.raw, "<svg ", "role"), Some("img"));
    assert!(a.raw.contains(&format!(r#"fill="{fill}""#)), "{fill} not in {}", a.raw);
    assert!(a.raw.contains(text), "{text:?} not in {}", a.raw);
    assert_documented_media("GET", "/api/widget", 200, "image/svg+xml");
}

#[tokio::test]
async fn svg_badge_sizes_colours_and_scores() {
    let t = start(None, |_| {}).await;
    store_audit(&t, "https://example.com/", 87);
    store_audit(&t, "https://example.com/blog/post", 40);
    // Stored under the www form only: found from the bare domain too.
    store_audit(&t, "https://www.example.org/", 64);

    for (size, dims) in [("small", (140, 40)), ("medium", (200, 56)), ("large", (300, 80))] {
        let a = t.get(&format!("/api/widget?domain=example.com&size={size}&color=FF0000")).await;
        // The home page is preferred over the newer blog post.
        check_svg(&a, dims, "#ff0000", "SEO score for example.com: 87 out of 100");
    }
    let a = t.get("/api/widget?domain=example.com").await;
    check_svg(&a, (200, 56), "#10b981", ">87<");
    let a = t.get("/api/widget?domain=example.org&color=2563eb").await;
    check_svg(&a, (200, 56), "#2563eb", "SEO score for example.org: 64 out of 100");
    let a = t.get("/api/widget?domain=www.example.com&format=svg&v=3").await;
    check_svg(&a, (200, 56), "#10b981", "SEO score for www.example.com: 87 out of 100");

    // Nothing stored: grey, "not audited", whatever the colour asked for.
    let a = t.get("/api/widget?domain=unknown.example&color=ff0000&size=small").await;
    check_svg(&a, (140, 40), "#9ca3af", "SEO score for unknown.example: not audited");
    assert!(!a.raw.contains("#ff0000"));

    // The iframe form: an HTML page linking to the report, which any site may frame.
    let a = t.get("/api/widget?domain=example.com&format=iframe&size=large").await;
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(a.header("cache-control"), Some("public, max-age=300"));
    assert!(a.header("x-frame-options").is_none());
    assert!(a.header("content-security-policy").is_some_and(|v| v.contains("frame-ancestors *")));
    let href = format!(r#"href="{}/report/example.com""#, t.base);
    assert!(a.raw.contains(&href), "{href} not in {}", a.raw);
    assert!(a.raw.contains(r#"width="300" height="80""#));
    assert_documented_media("GET", "/api/widget", 200, "text/html");
}

#[tokio::test]
async fn bad_badge_parameters_are_400() {
    let t = start(None, |_| {}).await;
    let cases = [
        ("", "missing_parameter", "domain"),
        ("?domain=", "missing_parameter", "domain"),
        ("?color=ff0000", "missing_parameter", "domain"),
        ("?domain=https://example.com/", "invalid_request", "domain"),
        ("?domain=example.com:8080", "invalid_request", "domain"),
        ("?domain=127.0.0.1", "invalid_request", "domain"),
        ("?domain=%3Cscript%3E.com", "invalid_request", "domain"),
        ("?domain=example.com&color=%2310b981", "invalid_request", "color"),
        ("?domain=example.com&color=fff", "invalid_request", "color"),
        ("?domain=example.com&color=gggggg", "invalid_request", "color"),
        ("?domain=example.com&size=huge", "invalid_request", "size"),
        ("?domain=example.com&format=png", "invalid_request", "format"),
    ];
    for (query, code, parameter) in cases {
        let a = t.get(&format!("/api/widget{query}")).await;
        a.assert_error(400, code);
        assert_eq!(a.body["error"]["details"]["parameter"], parameter, "{query}");
        validate_documented("GET", "/api/widget", &a);
    }
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 0);
}

#[tokio::test]
async fn flood_guard_is_separate_from_the_audit_quota() {
    common::away_from_minute_boundary().await;
    let site = Site::start(vec![("/", web_support::home_page())]).await;
    let t = start(None, |c| {
        c.widget_rate_limit = 3;
        c.rate_limits.anonymous = 5;
    })
    .await;
    store_audit(&t, "https://example.com/", 90);
    for _ in 0..2 {
        assert_eq!(t.get("/api/widget?domain=example.com").await.status, 200);
    }
    // The report counts against the same guard.
    assert_eq!(t.get("/report/example.com").await.status, 200);
    let a = t.get("/api/widget?domain=example.com").await;
    a.assert_error(429, "rate_limited");
    assert!(a.header("retry-after").is_some_and(|s| s.parse::<u64>().is_ok()));
    assert!(a.header("x-ratelimit-limit").is_none());
    let r = t.get("/report/example.com").await;
    assert_eq!((r.status, r.header("x-error-code")), (429, Some("rate_limited")));
    // The audit quota is untouched: a whole anonymous minute is left.
    let audit = t.get(&t.audit_url(&site.url("/"), "&format=compact")[t.base.len()..]).await;
    assert_eq!(audit.status, 200, "{}", audit.raw);
    assert_eq!(audit.header("x-ratelimit-remaining"), Some("4"));
}

#[tokio::test]
async fn unaudited_domain_queues_one_background_audit() {
    // The home page is held until both first views have answered: the background audit
    // cannot finish before them however the two requests are scheduled.
    let gate = test_support::Gate::new();
    let held = gate.clone();
    let site = test_support::ThreadServer::start(move |req| {
        if req.path != "/" {
            return Some(test_support::status(404));
        }
        held.wait();
        Some(test_support::html(&web_support::home_page()))
    });
    let t = start_for(Some(site.port()), |_| {}).await;

    // Two views at once, then more: all grey, one audit of http://localhost:PORT/.
    let (a, b) = tokio::join!(t.get("/api/widget?domain=localhost"), t.get("/api/widget?domain=LOCALHOST&size=large"));
    check_svg(&a, (200, 56), "#9ca3af", "not audited");
    check_svg(&b, (300, 80), "#9ca3af", "not audited");
    gate.open();
    let stored = wait_for_audit(&t, "localhost").await;
    assert_eq!(stored.url, format!("http://localhost:{}/", site.port()));
    let a = t.get("/api/widget?domain=localhost&color=123456").await;
    check_svg(&a, (200, 56), "#123456", &format!("SEO score for localhost: {} out of 100", stored.score));
    for _ in 0..3 {
        t.get("/api/widget?domain=localhost").await;
    }
    assert_eq!(site.hits("/"), 1, "the background audit is deduplicated");
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1);

    // The report now shows it.
    let r = t.get("/report/localhost").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert!(r.raw.contains("Localhost Bakery"));
}

#[tokio::test]
async fn report_of_an_unaudited_domain_is_404_and_queues_an_audit() {
    let site = Site::start(vec![("/", web_support::home_page())]).await;
    let t = start(Some(&site), |_| {}).await;
    let r = t.get("/report/localhost").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(r.header("x-frame-options"), Some("DENY"));
    assert!(r.raw.contains("has not been audited yet"), "{}", r.raw);
    // The URL really queued is the configured one, not https://localhost/.
    let queued = format!("so an audit of <code>{}</code> has been queued", site.url("/"));
    assert!(r.raw.contains(&queued), "{queued} not in {}", r.raw);
    assert!(r.raw.contains(r#"<meta http-equiv="refresh""#));
    assert_documented_media("GET", "/report/{domain}", 404, "text/html");
    wait_for_audit(&t, "localhost").await;
    let r = t.get("/report/localhost").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    assert!(r.raw.contains("SEO report for"));
    assert!(r.raw.contains("Localhost Bakery"));
    // The fixes state the finding's own values, never an invented one (the thin page's
    // word count is not "0").
    let stored = t.db(|s| s.latest_audit_for_url(&site.url("/"))).unwrap().unwrap();
    let result: serde_json::Value = serde_json::from_str(&stored.result_json).unwrap();
    let words = result["page"]["word_count"].as_u64().unwrap();
    assert!(words > 0 && words < 300, "the home page is thin: {words} words");
    assert!(r.raw.contains(&format!("at least 300 words of its own text (now {words})")), "{}", r.raw);
    assert!(!r.raw.contains("(now 0)"), "{}", r.raw);
    assert_documented_media("GET", "/report/{domain}", 200, "text/html");
    assert_eq!(site.hits("/").await, 1);

    for bad in ["/report/not_a_domain", "/report/127.0.0.1", "/report/exa%20mple.com"] {
        let r = t.get(bad).await;
        assert_eq!((r.status, r.header("x-error-code")), (400, Some("invalid_request")), "{bad}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_documented_media("GET", "/report/{domain}", 400, "text/html");
    }
}

/// The 404 report of `domain` (no audit stored); asserts it is one and returns its body.
async fn not_audited_page(t: &TestServer, domain: &str) -> String {
    let r = t.get(&format!("/report/{domain}")).await;
    assert_eq!(r.status, 404, "{}", r.raw);
    assert!(r.raw.contains("has not been audited yet"), "{}", r.raw);
    r.raw
}

const REFRESH: &str = r#"<meta http-equiv="refresh""#;

#[tokio::test]
async fn report_says_an_audit_is_under_way_while_one_runs() {
    // A target that takes connections and never answers: the audit stays running.
    let stall = test_support::Reply::Stall;
    let silent = test_support::RawServer::start("127.0.0.1", vec![("/robots.txt", stall.clone()), ("/", stall)]).await;
    let port = silent.addr.port();
    let t = start(None, |c| {
        c.badge_audit_url = format!("http://{{domain}}:{port}/");
        c.fetch.total_timeout_ms = 120_000;
        c.fetch.text_timeout_ms = 120_000;
    })
    .await;
    let url = format!("http://localhost:{port}/");
    let first = not_audited_page(&t, "localhost").await;
    assert!(first.contains(&format!("so an audit of <code>{url}</code> has been queued")), "{first}");
    for _ in 0..2 {
        let again = not_audited_page(&t, "localhost").await;
        assert!(again.contains(&format!("An audit of <code>{url}</code> is already queued or running")), "{again}");
        assert!(!again.contains("has been queued") && again.contains(REFRESH), "{again}");
    }
    drop(silent);
}

#[tokio::test]
async fn report_says_no_audit_was_queued_while_a_failed_one_cools_down() {
    let closed = common::closed_port();
    let t = start(None, |c| {
        c.badge_audit_url = format!("http://{{domain}}:{closed}/");
        c.widget_rate_limit = 10_000;
    })
    .await;
    let url = format!("http://localhost:{closed}/");
    let first = not_audited_page(&t, "localhost").await;
    assert!(first.contains(&format!("so an audit of <code>{url}</code> has been queued")), "{first}");
    // The audit fails at once (nothing listens); until then the page says it is under way.
    let mut cooling = None;
    for _ in 0..300 {
        let page = not_audited_page(&t, "localhost").await;
        if !page.contains("is already queued or running") {
            cooling = Some(page);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let page = cooling.expect("the background audit of a closed port ended");
    assert!(page.contains("No audit was queued"), "{page}");
    assert!(
        page.contains(&format!("A background audit of <code>{url}</code> ended less than 10 minutes ago")),
        "{page}"
    );
    assert!(!page.contains("has been queued") && !page.contains(REFRESH), "{page}");
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 0);
}

#[tokio::test]
async fn report_says_no_audit_was_queued_past_the_background_budget() {
    common::away_from_minute_boundary().await;
    let closed = common::closed_port();
    // One URL per domain, on a port where nothing listens, so no name is ever resolved.
    let t = start(None, |c| {
        c.badge_audit_url = format!("http://localhost:{closed}/{{domain}}");
        c.widget_rate_limit = 10_000;
    })
    .await;
    for i in 0..app::badges::BADGE_AUDITS_PER_MINUTE {
        let page = not_audited_page(&t, &format!("d{i}.example")).await;
        assert!(page.contains("has been queued"), "{i}: {page}");
    }
    let page = not_audited_page(&t, "one-too-many.example").await;
    let url = format!("http://localhost:{closed}/one-too-many.example");
    assert!(page.contains(&format!("so no audit of <code>{url}</code> was queued")), "{page}");
    assert!(page.contains("busy with other background audits") && page.contains(REFRESH), "{page}");
    assert!(!page.contains("has been queued"), "{page}");
}

#[tokio::test]
async fn report_says_no_audit_was_queued_when_background_audits_are_off() {
    for template in ["", "ftp://{domain}/"] {
        let t = start(None, |c| c.badge_audit_url = template.to_string()).await;
        let page = not_audited_page(&t, "example.com").await;
        assert!(page.contains("this service does not audit domains in the background"), "{template:?}: {page}");
        assert!(!page.contains("queued,") && !page.contains("has been queued"), "{template:?}: {page}");
        assert!(!page.contains(REFRESH), "{template:?}: nothing to wait for");
        // The form offers the home page to audit by hand.
        assert!(page.contains(r#"value="https://example.com/""#), "{page}");
    }
}

#[tokio::test]
async fn report_by_url_redirects_and_escapes_page_content() {
    let site = Site::start(vec![("/", web_support::home_page()), ("/hostile", web_support::hostile_page())]).await;
    let t = start(Some(&site), |_| {}).await;
    let client = no_redirects();
    // The home page audited first: the report for the hostile page must still show it, not
    // the preferred home page.
    let home = client.get(t.url(&format!("/report?url={}", enc(&site.url("/"))))).send().await.unwrap();
    assert_eq!(home.status(), 303);

    let resp = client.get(t.url(&format!("/report?url={}", enc(&site.url("/hostile"))))).send().await.unwrap();
    let a = Answer::from(resp).await;
    assert_eq!(a.status, 303, "{}", a.raw);
    assert!(a.header("x-ratelimit-limit").is_some());
    assert_documented_media("GET", "/report", 303, "text/html");
    let location = a.header("location").unwrap().to_string();
    assert!(location.starts_with("/report/localhost?audit="), "{location}");

    let r = t.get(&location).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    for (name, value) in pages::HTML_SECURITY_HEADERS {
        assert_eq!(r.header(name), Some(*value), "{name}");
    }
    assert!(r.raw.contains(&site.url("/hostile")), "the report shows the page asked for");
    for payload in [web_support::TITLE_PAYLOAD, web_support::ATTR_PAYLOAD, web_support::IMG_PAYLOAD] {
        assert!(!r.raw.contains(payload), "raw payload {payload} in the report");
    }
    assert!(!r.raw.contains("<script"), "no script element at all");
    assert!(!r.raw.contains("<svg onload"));
    assert!(!r.raw.contains("<img src=x"));
    assert!(r.raw.contains("&lt;script&gt;document.title="), "the title is shown as text");
    assert!(r.raw.contains("&quot;&gt;&lt;svg onload="), "the breakout is shown as text");
    // Recommendations carry auto-fix code (the hostile page lacks a viewport, for one).
    assert!(r.raw.contains("Recommendations"));
    assert!(r.raw.contains("&lt;meta name=&quot;viewport&quot;"), "a fix is shown");

    // An unknown id is ignored: the newest audit, preferring the home page, is shown.
    let other = t.get("/report/localhost?audit=00000000-0000-0000-0000-000000000000").await;
    assert_eq!(other.status, 200);
    assert!(other.raw.contains("Localhost Bakery") && !other.raw.contains("Hostile"));
}

#[tokio::test]
async fn report_by_url_errors_are_html_pages() {
    common::away_from_minute_boundary().await;
    let site = Site::start(vec![("/", web_support::home_page())]).await;
    let t = start(Some(&site), |c| c.rate_limits.anonymous = 2).await;
    let cases: [(String, u16, &str); 4] = [
        ("/report".into(), 400, "missing_parameter"),
        (format!("/report?url={}", enc("ftp://example.com/")), 400, "invalid_url"),
        (format!("/report?url={}", enc("http://10.0.0.1/")), 422, "blocked_target"),
        (
            format!("/report?url={}", enc(&format!("http://127.0.0.1:{}/", common::closed_port()))),
            502,
            "target_unreachable",
        ),
    ];
    for (path, status, code) in &cases {
        let a = t.get(path).await;
        assert_eq!((a.status, a.header("x-error-code")), (*status, Some(*code)), "{path}: {}", a.raw);
        assert_eq!(a.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(a.header("cache-control"), Some("no-store"));
        assert!(a.raw.contains(&format!("<code>{code}</code>")), "{}", a.raw);
        assert_documented_media("GET", "/report", *status, "text/html");
    }
    // Two units were spent on the two fetches; the third is over quota.
    let a = t.get(&format!("/report?url={}", enc(&site.url("/")))).await;
    assert_eq!((a.status, a.header("x-error-code")), (429, Some("rate_limited")), "{}", a.raw);
    assert!(a.header("retry-after").is_some() && a.header("x-ratelimit-remaining") == Some("0"));
    assert_documented_media("GET", "/report", 429, "text/html");
}

#[tokio::test]
async fn widget_script_and_landing_page() {
    let t = start(None, |_| {}).await;
    let js = t.get("/widget.js").await;
    assert_eq!(js.status, 200);
    assert_eq!(js.header("content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(js.header("cache-control"), Some("public, max-age=3600"));
    assert_eq!(js.header("cross-origin-resource-policy"), Some("cross-origin"));
    assert_eq!(js.raw, pages::WIDGET_JS);
    assert_documented_media("GET", "/widget.js", 200, "text/javascript");

    let home = t.get("/").await;
    assert_eq!(home.status, 200);
    assert_eq!(home.header("content-type"), Some("text/html; charset=utf-8"));
    for (name, value) in pages::HTML_SECURITY_HEADERS {
        assert_eq!(home.header(name), Some(*value), "{name}");
    }
    assert!(home.raw.contains(r#"action="/report""#));
    // The landing page tells of site crawls: the REST route, the agent tool, the command.
    for text in ["Site crawl", "/api/v1/crawls", "crawl_site", "seo-audit crawl https://example.com/"] {
        assert!(home.raw.contains(text), "the landing page does not mention {text}");
    }
    // No base URL configured: links name the loopback address the request came to.
    assert!(home.raw.contains(&format!("{}/widget.js", t.base)), "{}", home.raw);
    // The image badge to copy links to the report.
    let img = pages::escape(&pages::report::image_snippet(&t.base, "example.com"));
    assert!(img.starts_with(&format!("&lt;a href=&quot;{}/report/example.com&quot;&gt;&lt;img ", t.base)), "{img}");
    assert!(home.raw.contains(&img), "{img} not in {}", home.raw);
    assert_documented_media("GET", "/", 200, "text/html");

    // A forged Host is refused on a loopback listener (DNS-rebinding protection), so it
    // never reaches the links.
    let forged = t.client.get(t.url("/")).header("host", "evil.example").send().await.unwrap();
    let forged = Answer::from(forged).await;
    forged.assert_error(403, "forbidden");
    assert_eq!(forged.body["error"]["details"]["reason"], "host");
    // The links name the configured base URL: the default, or the bound address where the
    // server puts that in place of the default.
    let configured = t.server.state().config.base_url.trim_end_matches('/').to_string();
    assert!(home.raw.contains(&format!("{configured}/widget.js")), "{}", home.raw);

    // A configured base URL wins over the Host header.
    let t2 = start(None, |c| c.base_url = "https://seo.example.net".to_string()).await;
    let home = t2.get("/").await;
    assert!(home.raw.contains("https://seo.example.net/widget.js"));
    let not_found = t2.get("/nope").await;
    not_found.assert_error(404, "not_found");
    validate_schema("Error", &not_found.body);
}

fn enc(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test]
async fn audits_made_with_a_key_stay_off_the_public_report_and_badge() {
    // A page whose canonical and social URL repeat the private query it was reached with.
    let private_page = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Private dashboard</title>
<meta name="description" content="The members' dashboard with their orders, invoices and delivery addresses for this month.">
<link rel="canonical" href="/private?token=SECRET123"><meta property="og:url" content="/private?token=SECRET123#me">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Dashboard</h1><p>Your orders and invoices, <a href="/orders?token=SECRET123">all of them</a>.</p></main></body></html>"#;
    let site = Site::start(vec![("/private", private_page.to_string())]).await;
    let t = start(None, |_| {}).await;
    let (key, _) = t.key(|k| k.scopes = vec!["audit".into()]);
    let private = format!("{}?token=SECRET123", site.url("/private"));
    let report_is_private = |raw: &str| !raw.contains("SECRET123") && !raw.contains("token=");

    // With a key: through the API, and through the report form, whose answer is then the
    // report itself (no address of the public page).
    let a = t.client.get(t.audit_url(&private, "&format=compact")).header("x-api-key", &key).send().await.unwrap();
    assert_eq!(a.status(), 200);
    let form = no_redirects()
        .get(t.url(&format!("/report?url={}", enc(&private))))
        .header("x-api-key", &key)
        .send()
        .await
        .unwrap();
    let form = Answer::from(form).await;
    assert_eq!((form.status, form.header("location")), (200, None), "{}", form.raw);
    assert_eq!(form.header("cache-control"), Some("no-store"));
    assert!(form.raw.contains("Private dashboard") && form.raw.contains("/private"), "the owner sees the report");
    assert!(report_is_private(&form.raw), "no query string even for the owner's page: {}", form.raw);
    let keyed = t.db(|s| s.latest_audit_for_url(&private)).unwrap().expect("stored");
    assert!(keyed.user_id.is_some() && !keyed.public);
    assert!(keyed.result_json.matches("SECRET123").count() >= 3, "the stored result carries the query");

    // Anyone else: no report, no score, and the keyed audit's id opens nothing.
    let report = t.get("/report/localhost").await;
    assert_eq!(report.status, 404, "{}", report.raw);
    assert!(report_is_private(&report.raw) && !report.raw.contains("Private dashboard"));
    let by_id = t.get(&format!("/report/localhost?audit={}", keyed.id)).await;
    assert_eq!(by_id.status, 404);
    assert!(!by_id.raw.contains("Private dashboard"));
    let badge = t.get("/api/widget?domain=localhost").await;
    assert!(badge.raw.contains("not audited"), "{}", badge.raw);

    // The same page audited anonymously is public, without its query string anywhere.
    let anonymous = t.client.get(t.audit_url(&private, "&format=compact")).send().await.unwrap();
    assert_eq!(anonymous.status(), 200);
    let report = t.get("/report/localhost").await;
    assert_eq!(report.status, 200, "{}", report.raw);
    assert!(report.raw.contains("Private dashboard") && report.raw.contains(&site.url("/private")));
    assert!(report_is_private(&report.raw), "{}", report.raw);
    let badge = t.get("/api/widget?domain=localhost").await;
    assert!(!badge.raw.contains("not audited"), "{}", badge.raw);
}

/// The `domain` parameters of the OpenAPI document carry [`pages::badge::DOMAIN_PATTERN`] and
/// `maxLength` 253, and a string satisfies them exactly when `validate_domain` accepts it;
/// so API fuzzing from the document (negative and positive data) sees what the server does.
#[test]
fn the_documented_domain_pattern_is_what_the_server_accepts() {
    use pages::badge::{self, validate_domain};
    use proptest::strategy::Strategy;
    let doc: serde_json::Value = serde_json::from_str(server::OPENAPI_JSON).unwrap();
    let mut found = 0;
    for path in doc["paths"].as_object().unwrap().values() {
        for op in path.as_object().unwrap().values() {
            for param in op["parameters"].as_array().into_iter().flatten().filter(|p| p["name"] == "domain") {
                assert_eq!(param["schema"]["pattern"], badge::DOMAIN_PATTERN, "{param:#}");
                assert_eq!(param["schema"]["maxLength"], 253, "{param:#}");
                found += 1;
            }
        }
    }
    assert_eq!(found, 3, "the widget's query parameter, the report's path parameter and the audit listing's filter");

    let re = regex_lite::Regex::new(badge::DOMAIN_PATTERN).unwrap();
    let documented = |s: &str| re.is_match(s) && s.chars().count() <= 253;
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config::with_cases(4000));
    // Host-like strings: labels from a small alphabet (hyphens, digits, case, look-alikes,
    // whitespace), joined by dots, sometimes padded; and labels near the 63-byte limit.
    let label = proptest::string::string_regex("[aZ0-9\\-_\u{212a}]{0,4}|a{60,65}").unwrap();
    let pad = || proptest::string::string_regex("[ \t\n\u{b}\u{a0}]{0,2}").unwrap();
    let dot = proptest::string::string_regex("[.]{0,2}").unwrap();
    let host = (pad(), proptest::collection::vec(label, 1..6), dot, pad()).prop_map(
        |(a, labels, dot, b): (String, Vec<String>, String, String)| format!("{a}{}{dot}{b}", labels.join(".")),
    );
    runner
        .run(&host, |s: String| {
            proptest::prop_assert_eq!(validate_domain(&s).is_some(), documented(&s), "{:?}", s);
            Ok(())
        })
        .unwrap();
    let long = format!("{}.com", vec!["a".repeat(63); 4].join("."));
    for s in ["localhost", "LocalHost.", "localhost.localdomain", long.as_str(), &long[1..], &long[2..]] {
        assert_eq!(validate_domain(s).is_some(), documented(s), "{s:?}");
    }
}

/// The report page of a domain links its newest public site crawl (one made without a key)
/// once the crawl has ended; before any crawl it shows none.
#[tokio::test]
async fn report_links_the_newest_public_crawl_of_the_domain() {
    let site = Site::start(vec![("/", web_support::home_page())]).await;
    let t = start(Some(&site), |_| {}).await;
    store_audit(&t, &site.url("/"), 77);
    let before = t.get("/report/localhost").await;
    assert_eq!(before.status, 200, "{}", before.raw);
    assert!(!before.raw.contains("/crawls/"), "no crawl yet: {}", before.raw);

    let started = Answer::from(
        t.client.post(t.url("/api/v1/crawls")).json(&serde_json::json!({"url": site.url("/")})).send().await.unwrap(),
    )
    .await;
    assert_eq!(started.status, 202, "{}", started.raw);
    let id = started.body["crawl"]["id"].as_str().unwrap().to_string();
    let mut crawl = serde_json::Value::Null;
    for _ in 0..300 {
        crawl = t.get(&format!("/api/v1/crawls/{id}")).await.body["crawl"].clone();
        if crawl["finished_at"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(crawl["state"], "completed", "{crawl}");
    let after = t.get("/report/localhost").await;
    assert_eq!(after.status, 200, "{}", after.raw);
    let link = format!(r#"href="{}/crawls/{id}""#, t.base);
    assert!(after.raw.contains(&link), "{link} not in {}", after.raw);
    assert_documented_media("GET", "/report/{domain}", 200, "text/html");

    // A newer crawl whose start URL carries a query (a caller's session id) is not linked:
    // its pages would show that query to anyone reading the public report.
    let private = Answer::from(
        t.client
            .post(t.url("/api/v1/crawls"))
            .json(&serde_json::json!({"url": site.url("/?session=s3cr3t")}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(private.status, 202, "{}", private.raw);
    let private_id = private.body["crawl"]["id"].as_str().unwrap().to_string();
    for _ in 0..300 {
        if t.get(&format!("/api/v1/crawls/{private_id}")).await.body["crawl"]["finished_at"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let report = t.get("/report/localhost").await;
    assert!(report.raw.contains(&link), "the clean crawl is still linked: {}", report.raw);
    assert!(!report.raw.contains(&private_id) && !report.raw.contains("s3cr3t"), "{}", report.raw);
}
