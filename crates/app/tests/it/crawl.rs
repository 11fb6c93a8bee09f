//! A crawl started as the REST route and the agent tool start one
//! ([`app::crawl::Crawls::start_for`]): checked, charged once, queued and run to its end.

use std::time::Duration;

use app::crawl::{CrawlRequest, Crawls};
use test_support::Pages;

use crate::support::{open, page};

/// A request for a crawl of `url` without sitemaps or external link checks.
fn request(url: &str) -> CrawlRequest {
    let url = app::validate_url(url).expect("a loopback URL the fixture allows");
    CrawlRequest { sitemaps: false, external_links: false, ..CrawlRequest::of(url) }
}

/// Waits (at most a minute) until crawl `id` has ended.
async fn ended(crawls: &Crawls, id: &app::CrawlId) -> store::Crawl {
    for _ in 0..600 {
        let crawl = crawls.owned(None, id).await.expect("the crawl of this caller");
        if crawl.finished_at.is_some() {
            return crawl;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("crawl {id} did not end within a minute");
}

#[tokio::test]
async fn a_crawl_is_charged_once_and_runs_to_its_end() {
    let t = open(4, 8);
    let site = Pages::start(vec![
        ("/", page("Home", &["/a", "/b"])),
        ("/a", page("A", &["/", "/b"])),
        ("/b", page("B", &["/"])),
    ])
    .await;
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.10", 10);
    let started = crawls.start_for(&payer, request(&site.url("/"))).await.expect("started");
    assert_eq!(started.tier_limit, app::crawl::ANONYMOUS_MAX_PAGES);
    assert_eq!(t.remaining("198.51.100.10", 10).await, 9, "one unit for the whole crawl");
    let crawl = ended(&crawls, &started.crawl.id).await;
    assert_eq!(crawl.state, store::CrawlState::Completed, "{:?}", crawl.error);
    assert_eq!(crawl.progress.pages_done, 3);
    // The pages export, the use case of the REST export route.
    let export = crawls
        .export(None, &crawl.id, app::crawl::export::Format::Json, app::crawl::export::Table::Pages)
        .await
        .expect("export");
    let body: serde_json::Value = serde_json::from_slice(&export.body).expect("JSON");
    let mut urls: Vec<String> =
        body["pages"].as_array().expect("pages").iter().map(|p| p["url"].as_str().expect("url").to_string()).collect();
    urls.sort();
    assert_eq!(urls, [site.url("/"), site.url("/a"), site.url("/b")]);
    // A keyless crawl is not another owner's.
    let e = crawls.owned(Some(&"someone".into()), &crawl.id).await.expect_err("not theirs");
    assert_eq!(e.error_code().as_str(), "not_found");
}

#[tokio::test]
async fn a_refused_crawl_creates_nothing_and_charges_nothing_when_its_checks_fail() {
    let t = open(4, 8);
    let site = Pages::start(vec![("/", page("Home", &[]))]).await;
    let crawls = Crawls::new(t.app.clone());
    // Rendering without a browser: refused before the charge.
    let payer = t.anonymous("198.51.100.11", 10);
    let rendered = CrawlRequest { render: true, ..request(&site.url("/")) };
    let e = crawls.start_for(&payer, rendered).await.expect_err("no browser");
    assert_eq!(e.error_code().as_str(), "not_configured");
    assert_eq!(payer.decision(), None);
    // Out of quota: refused before the start page is fetched.
    let other = Pages::start(vec![("/", page("Other", &[]))]).await;
    let poor = t.anonymous("198.51.100.12", 0);
    let e = crawls.start_for(&poor, request(&other.url("/"))).await.expect_err("no unit at all");
    assert_eq!(e.error_code().as_str(), "rate_limited");
    assert_eq!(other.hits("/").await, 0, "nothing was fetched");
}

#[tokio::test]
async fn a_start_page_that_is_not_html_is_refused_after_the_charge_and_no_crawl_is_made() {
    let t = open(4, 8);
    let site = Pages::serve(|_| test_support::ResponseTemplate::new(200).set_body_raw("{}", "application/json")).await;
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.13", 10);
    let e = crawls.start_for(&payer, request(&site.url("/"))).await.expect_err("not html");
    assert_eq!(e.error_code().as_str(), "not_html");
    assert_eq!(payer.decision().map(|d| d.allowed), Some(true), "charged, as an audit of the page is");
}

/// The secrets of the staging site below.
const SECRETS: [&str; 3] = ["tok-123-secret", "cookie-456-secret", "pass-789-secret"];

/// Whether a request carries a staging header, cookie or basic auth.
fn carries_secrets(r: &test_support::wiremock::Request) -> bool {
    r.headers.iter().any(|(name, value)| {
        let value = String::from_utf8_lossy(value.as_bytes());
        ["authorization", "cookie", "x-preview"].contains(&name.as_str()) || SECRETS.iter().any(|s| value.contains(s))
    })
}

/// A staging site that answers 401 to any request without its header, cookie and basic
/// auth is crawled with them; its sitemap's redirect to another host and the check of its
/// link to that host reach it without them; the database holds none of them.
#[tokio::test]
async fn a_staging_site_is_crawled_with_its_headers_and_they_reach_no_other_host() {
    use test_support::ResponseTemplate;
    let t = open(4, 8);
    let elsewhere = Pages::start(vec![("/landing", page("Elsewhere", &[]))]).await;
    let (landing, sitemap_away) = (elsewhere.url("/landing"), elsewhere.url("/sitemap.xml"));
    // base64("team:pass-789-secret")
    let basic = "Basic dGVhbTpwYXNzLTc4OS1zZWNyZXQ=";
    let site = Pages::serve(move |r| {
        let header = |name: &str| r.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        if header("authorization") != basic
            || header("cookie") != format!("session={}", SECRETS[1])
            || header("x-preview") != SECRETS[0]
        {
            return ResponseTemplate::new(401).insert_header("www-authenticate", "Basic realm=\"staging\"");
        }
        let html = |body: String| ResponseTemplate::new(200).set_body_raw(body, "text/html; charset=utf-8");
        match r.url.path() {
            "/" => html(page("Home", &["/a", &landing])),
            "/a" => html(page("A", &["/"])),
            "/sitemap.xml" => ResponseTemplate::new(301).insert_header("location", sitemap_away.as_str()),
            _ => ResponseTemplate::new(404),
        }
    })
    .await;
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.14", 10);
    let headers = app::crawl::site_headers(
        [("X-Preview", SECRETS[0])],
        [format!("session={}", SECRETS[1]).as_str()],
        Some(("team", SECRETS[2])),
    )
    .expect("valid")
    .expect("some");
    let request =
        CrawlRequest { sitemaps: true, external_links: true, site_headers: Some(headers), ..request(&site.url("/")) };
    let started = crawls.start_for(&payer, request).await.expect("started");
    let crawl = ended(&crawls, &started.crawl.id).await;
    assert_eq!(crawl.state, store::CrawlState::Completed, "{:?}", crawl.error);
    assert_eq!(crawl.progress.pages_done, 2, "/ and /a, both behind the password");
    let asked = site.requests().await;
    let without: Vec<_> = asked.iter().filter(|r| !carries_secrets(r)).map(|r| r.url.path().to_string()).collect();
    assert!(without.is_empty(), "every request to the site carried them: {without:?}");
    assert!(
        asked.iter().any(|r| r.url.path() == "/robots.txt") && asked.iter().any(|r| r.url.path() == "/sitemap.xml")
    );
    let away = elsewhere.requests().await;
    assert!(away.iter().any(|r| r.url.path() == "/sitemap.xml"), "the sitemap's redirect was followed");
    assert!(away.iter().any(|r| r.url.path() == "/landing"), "the external link was checked");
    assert!(away.iter().all(|r| !carries_secrets(r)), "{:?}", away.iter().map(|r| &r.headers).collect::<Vec<_>>());
    // Nothing of them in the crawl's record, nor anywhere in the database's files.
    let shown = format!("{crawl:?}");
    assert!(SECRETS.iter().all(|s| !shown.contains(s)), "{shown}");
    for entry in std::fs::read_dir(t.dir()).expect("dir") {
        let bytes = std::fs::read(entry.expect("entry").path()).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        assert!(SECRETS.iter().all(|s| !text.contains(s)), "a secret was written to the database's files");
    }
}

/// A crawl with `user_agent: smartphone` asks for every page, robots.txt included, with
/// Google's smartphone crawler's user agent, and obeys robots.txt's `Googlebot` group.
#[tokio::test]
async fn the_smartphone_profile_is_sent_and_obeyed_by_the_service() {
    let t = open(4, 8);
    let site = Pages::start(vec![
        ("/", page("Home", &["/desktop", "/mobile"])),
        ("/desktop", page("Desktop", &["/"])),
        ("/mobile", page("Mobile", &["/"])),
        ("/robots.txt", "User-agent: Googlebot\nDisallow: /desktop\n\nUser-agent: *\nDisallow: /mobile\n".to_string()),
    ])
    .await;
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.15", 10);
    let request = CrawlRequest { user_agent: Some("smartphone".to_string()), ..request(&site.url("/")) };
    let started = crawls.start_for(&payer, request).await.expect("started");
    let crawl = ended(&crawls, &started.crawl.id).await;
    assert_eq!(crawl.state, store::CrawlState::Completed, "{:?}", crawl.error);
    assert_eq!((crawl.progress.pages_done, crawl.progress.pages_skipped), (2, 1), "/ and /mobile; /desktop skipped");
    assert_eq!(site.hits("/desktop").await, 0);
    let requests = site.requests().await;
    let agents: Vec<String> = requests
        .iter()
        .filter(|r| ["/", "/robots.txt", "/mobile"].contains(&r.url.path()))
        .map(|r| r.headers.get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string())
        .collect();
    assert!(!agents.is_empty());
    // The edge check fetches pages again as a browser and as AI crawlers; every other request
    // is the profile's.
    assert!(agents.iter().any(|a| a == crawl::SMARTPHONE_USER_AGENT), "{agents:?}");
    assert!(agents.iter().all(|a| !a.starts_with("SeoAuditBot")), "{agents:?}");
}

/// Robots rules that let the crawl in and keep the AI crawlers out, so that the edge check
/// after the crawl's end (which asks for pages again as a browser and as those crawlers,
/// where they are let in) asks for nothing and the counts below are the crawl's own.
pub const NO_AI_CRAWLERS: &str =
    "User-agent: GPTBot\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n";

/// A site whose start URL `/` redirects (301) to `/home`, which links to `/a`.
pub async fn redirecting_start() -> Pages {
    Pages::serve(|request| match request.url.path() {
        "/" => test_support::ResponseTemplate::new(301).insert_header("location", "/home"),
        "/home" => test_support::ResponseTemplate::new(200).set_body_raw(page("Home", &["/a"]), "text/html"),
        "/a" => test_support::ResponseTemplate::new(200).set_body_raw(page("A", &["/home"]), "text/html"),
        "/robots.txt" => test_support::ResponseTemplate::new(200).set_body_raw(NO_AI_CRAWLERS, "text/plain"),
        _ => test_support::ResponseTemplate::new(404),
    })
    .await
}

/// The start check's fetch is the crawl's: the start URL, and the redirect target it led to,
/// are each asked for once per crawl, though the start is checked before the crawl exists.
#[tokio::test]
async fn the_start_page_is_fetched_once() {
    let t = open(4, 8);
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.14", 10);
    let site = Pages::start(vec![
        ("/", page("Home", &["/a"])),
        ("/a", page("A", &["/"])),
        ("/robots.txt", NO_AI_CRAWLERS.to_string()),
    ])
    .await;
    let started = crawls.start_for(&payer, request(&site.url("/"))).await.expect("started");
    let crawl = ended(&crawls, &started.crawl.id).await;
    assert_eq!((crawl.state, crawl.progress.pages_done), (store::CrawlState::Completed, 2), "{:?}", crawl.error);
    assert_eq!(site.hits("/").await, 1, "the start page, checked and crawled, is asked for once");
    assert_eq!(site.hits("/a").await, 1);

    let moved = redirecting_start().await;
    let started = crawls.start_for(&payer, request(&moved.url("/"))).await.expect("started");
    let crawl = ended(&crawls, &started.crawl.id).await;
    // `/` (301), `/home` and `/a`.
    assert_eq!((crawl.state, crawl.progress.pages_done), (store::CrawlState::Completed, 3), "{:?}", crawl.error);
    let pages = crawls.pages(None, &crawl.id, None, 10).await.expect("pages").1;
    let redirect = pages.iter().find(|p| p.url == moved.url("/")).expect("the start URL is listed");
    assert_eq!(redirect.status_code, Some(301));
    assert_eq!(redirect.redirect_to.as_deref(), Some(moved.url("/home").as_str()));
    assert_eq!((moved.hits("/").await, moved.hits("/home").await), (1, 1), "each hop asked for once");
}
