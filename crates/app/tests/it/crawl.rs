//! A crawl started as the REST route and the agent tool start one
//! ([`app::crawl::Crawls::start_for`]): checked, charged once, queued and run to its end.

use std::time::Duration;

use app::crawl::{CrawlRequest, Crawls};
use test_support::Pages;

use crate::support::{open, page};

fn request(url: &str) -> CrawlRequest {
    CrawlRequest {
        url: url.to_string(),
        max_pages: None,
        max_depth: None,
        include: Vec::new(),
        exclude: Vec::new(),
        strip_params: Vec::new(),
        sitemaps: false,
        named_sitemaps: Vec::new(),
        near_duplicate_threshold: None,
        render: false,
        external_links: false,
        urls: Vec::new(),
        extract: Vec::new(),
    }
}

/// Waits (at most a minute) until crawl `id` has ended.
async fn ended(crawls: &Crawls, id: &str) -> store::Crawl {
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
    let url = app::validate_url(&site.url("/")).expect("url");
    let started = crawls.start_for(&payer, url, request(&site.url("/"))).await.expect("started");
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
    let e = crawls.owned(Some("someone"), &crawl.id).await.expect_err("not theirs");
    assert_eq!(e.error_code().as_str(), "not_found");
}

#[tokio::test]
async fn a_refused_crawl_creates_nothing_and_charges_nothing_when_its_checks_fail() {
    let t = open(4, 8);
    let site = Pages::start(vec![("/", page("Home", &[]))]).await;
    let crawls = Crawls::new(t.app.clone());
    // Rendering without a browser: refused before the charge.
    let payer = t.anonymous("198.51.100.11", 10);
    let url = app::validate_url(&site.url("/")).expect("url");
    let rendered = CrawlRequest { render: true, ..request(&site.url("/")) };
    let e = crawls.start_for(&payer, url.clone(), rendered).await.expect_err("no browser");
    assert_eq!(e.error_code().as_str(), "not_configured");
    assert_eq!(payer.decision(), None);
    // Out of quota: refused before the start page is fetched.
    let other = Pages::start(vec![("/", page("Other", &[]))]).await;
    let poor = t.anonymous("198.51.100.12", 0);
    let url = app::validate_url(&other.url("/")).expect("url");
    let e = crawls.start_for(&poor, url, request(&other.url("/"))).await.expect_err("no unit at all");
    assert_eq!(e.error_code().as_str(), "rate_limited");
    assert_eq!(other.hits("/").await, 0, "nothing was fetched");
}

#[tokio::test]
async fn a_start_page_that_is_not_html_is_refused_after_the_charge_and_no_crawl_is_made() {
    let t = open(4, 8);
    let site = Pages::serve(|_| test_support::ResponseTemplate::new(200).set_body_raw("{}", "application/json")).await;
    let crawls = Crawls::new(t.app.clone());
    let payer = t.anonymous("198.51.100.13", 10);
    let url = app::validate_url(&site.url("/")).expect("url");
    let e = crawls.start_for(&payer, url, request(&site.url("/"))).await.expect_err("not html");
    assert_eq!(e.error_code().as_str(), "not_html");
    assert_eq!(payer.decision().map(|d| d.allowed), Some(true), "charged, as an audit of the page is");
}
