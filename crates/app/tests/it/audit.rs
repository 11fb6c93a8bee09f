//! The audit of one page for a client who waits ([`app::App::audit_for_client`]): admitted,
//! then charged, then fetched, analysed and recorded.

use std::time::Duration;

use test_support::Pages;

use crate::support::{open, page};

fn code(e: &app::AppError) -> &'static str {
    e.error_code().as_str()
}

#[tokio::test]
async fn an_audit_is_charged_one_unit_and_recorded() {
    let t = open(2, 2);
    let site = Pages::start(vec![("/", page("Home", &["/a"]))]).await;
    let payer = t.anonymous("198.51.100.1", 10);
    let url = app::validate_url(&site.url("/")).expect("a loopback URL the fixture allows");
    let audited = t.app.audit_for_client(&url, app::AuditOptions::default(), &payer).await.expect("audited");
    assert_eq!(audited.result.page.url, site.url("/"));
    assert!(audited.stored.is_some(), "the audit is recorded");
    assert_eq!(payer.decision().map(|d| (d.allowed, d.remaining)), Some((true, 9)));
    assert_eq!(t.remaining("198.51.100.1", 10).await, 9);
}

#[tokio::test]
async fn a_caller_out_of_quota_is_refused_before_the_page_is_fetched() {
    let t = open(2, 2);
    let site = Pages::start(vec![("/", page("Home", &[]))]).await;
    let payer = t.anonymous("198.51.100.2", 1);
    let url = app::validate_url(&site.url("/")).expect("url");
    t.app.audit_for_client(&url, app::AuditOptions::default(), &payer).await.expect("the first unit");
    let again = t.anonymous("198.51.100.2", 1);
    let e = t.app.audit_for_client(&url, app::AuditOptions::default(), &again).await.expect_err("no unit left");
    assert_eq!(code(&e), "rate_limited");
    assert!(e.message().starts_with("Rate limit of 1 requests per minute reached"), "{}", e.message());
    assert_eq!(again.decision().map(|d| d.allowed), Some(false));
    assert_eq!(site.hits("/").await, 1, "the refused audit fetched nothing");
}

/// The ordering invariant: admission first, then the charge. A full server refuses before
/// anything is charged, so a caller pays only for work that will run.
#[tokio::test]
async fn a_full_server_charges_nothing() {
    let t = open(1, 0);
    let slow = Pages::serve(|_| {
        test_support::ResponseTemplate::new(200)
            .set_body_raw(page("Slow", &[]), "text/html; charset=utf-8")
            .set_delay(Duration::from_millis(1500))
    })
    .await;
    let busy_url = app::validate_url(&slow.url("/")).expect("url");
    let busy = t.anonymous("198.51.100.3", 10);
    let app = t.app.clone();
    let holder =
        tokio::spawn(async move { app.audit_for_client(&busy_url, app::AuditOptions::default(), &busy).await });
    // The first audit holds the only slot once its page was asked for.
    while slow.requests().await.is_empty() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let payer = t.anonymous("198.51.100.4", 10);
    let url = app::validate_url(&slow.url("/other")).expect("url");
    let e = t.app.audit_for_client(&url, app::AuditOptions::default(), &payer).await.expect_err("no slot");
    assert_eq!(code(&e), "overloaded");
    assert_eq!(payer.decision(), None, "nothing was charged");
    assert_eq!(t.remaining("198.51.100.4", 10).await, 10);
    holder.await.expect("joined").expect("the first audit ends");
}

#[tokio::test]
async fn a_rendered_audit_without_a_browser_is_refused_before_the_charge() {
    let t = open(2, 2);
    let payer = t.anonymous("198.51.100.5", 10);
    let url = app::validate_url("http://localhost:9/").expect("url");
    let e = t.app.audit_for_client(&url, app::AuditOptions { render: true }, &payer).await.expect_err("no browser");
    assert_eq!(code(&e), "not_configured");
    assert_eq!(payer.decision(), None);
}

#[tokio::test]
async fn a_batch_is_charged_once_for_its_distinct_urls() {
    let t = open(2, 4);
    let site = Pages::start(vec![("/", page("Home", &[])), ("/a", page("A", &[]))]).await;
    let payer = t.anonymous("198.51.100.6", 10);
    let urls = vec![site.url("/"), site.url("/a"), site.url("/"), "ftp://x".to_string()];
    let batch = t.app.audit_batch(&urls, app::AuditOptions::default(), 2, &payer).await.expect("audited");
    assert_eq!(t.remaining("198.51.100.6", 10).await, 8, "two distinct URLs, two units");
    let codes: Vec<Result<String, &str>> =
        batch.iter().map(|r| r.map(|a| a.result.page.url.clone()).map_err(code)).collect();
    assert_eq!(codes, [Ok(site.url("/")), Ok(site.url("/a")), Ok(site.url("/")), Err("invalid_url")]);
    // A batch larger than the caller's whole minute can never pass: refused, nothing charged.
    let small = t.anonymous("198.51.100.7", 1);
    let e = t.app.audit_batch(&urls[..2], app::AuditOptions::default(), 2, &small).await.expect_err("too large");
    assert_eq!(code(&e), "invalid_request");
    assert_eq!(small.decision(), None);
}
