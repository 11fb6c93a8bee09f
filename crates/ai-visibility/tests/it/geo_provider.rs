//! geo-check against a fake AI search provider served on loopback (test_support's `Pages`,
//! on wiremock) that speaks chat-completions, in several behaviours. No mocked functions:
//! every answer travels through `fetch::Fetcher::post_json`.

use std::time::Duration;

use ai_visibility::{
    generate_queries, geo_check, AiSearchProvider, GeoOptions, OpenAiCompatibleProvider, ProviderError, QueryKind,
};
use audit_core::{HttpFacts, Page};
use serde_json::{json, Value};
use test_support::{wiremock, Pages, ResponseTemplate};

#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Answers by query: brand queries mention the site, others cite it in one of
    /// three citation formats or not at all.
    Normal,
    /// Waits far longer than the client's time limit.
    Slow,
    /// Answers 500.
    Failing,
    /// Answers 200 with a body that is not JSON.
    Malformed,
}

/// One request as the fake provider saw it.
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    authorization: Option<String>,
    body: Value,
}

struct FakeProvider {
    base_url: String,
    server: Pages,
}

impl FakeProvider {
    /// The requests it got, in order.
    async fn seen(&self) -> Vec<Seen> {
        let requests = self.server.requests().await;
        requests
            .iter()
            .map(|r| Seen {
                path: r.url.path().to_owned(),
                authorization: r.headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_owned),
                body: serde_json::from_slice(&r.body).unwrap_or(Value::Null),
            })
            .collect()
    }
}

async fn serve(mode: Mode) -> FakeProvider {
    let server = Pages::serve(move |request: &wiremock::Request| {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let query = body.pointer("/messages/1/content").and_then(Value::as_str).unwrap_or("").to_owned();
        let (status, payload, delay) = match mode {
            Mode::Normal => (200, answer_for(&query).to_string(), Duration::ZERO),
            Mode::Slow => (200, answer_for(&query).to_string(), Duration::from_secs(30)),
            Mode::Failing => (500, json!({"error": {"message": "boom"}}).to_string(), Duration::ZERO),
            Mode::Malformed => (200, "{\"choices\": [".to_owned(), Duration::ZERO),
        };
        ResponseTemplate::new(status).set_body_raw(payload, "application/json").set_delay(delay)
    })
    .await;
    FakeProvider { base_url: format!("http://{}/v1", server.addr()), server }
}

/// Brand queries (they name "Acme") get a text mention; "How ..." queries cite the site
/// OpenAI-style, "alternatives" ones Perplexity-style; the rest cite another site.
fn answer_for(query: &str) -> Value {
    let q = query.to_lowercase();
    if q.contains("acme") && q.starts_with("what is") {
        json!({"choices": [{"message": {"role": "assistant", "content": "Acme (acme.example) makes widgets. See www.acme.example."}}]})
    } else if q.contains("acme") {
        json!({"choices": [{"message": {"content": "Several brands compete."}}], "citations": ["https://shop.acme.example/x", "https://other.example/"]})
    } else if q.starts_with("how") {
        json!({"choices": [{"message": {"content": "Measure first.", "annotations": [{"type": "url_citation", "url_citation": {"url": "https://acme.example/guide", "title": "Guide"}}]}}]})
    } else {
        json!({"choices": [{"message": {"content": "Bolt and Nut Co. are popular."}}], "search_results": [{"url": "https://bolt.example/"}]})
    }
}

fn fetcher() -> fetch::Fetcher {
    fetch::Fetcher::new(fetch::FetchConfig { allow_targets: vec!["127.0.0.1".to_owned()], ..Default::default() })
        .unwrap()
}

fn page() -> Page {
    let html = r#"<html lang="en"><head><title>Widgets for workshops | Acme</title><meta property="og:site_name" content="Acme"></head>
        <body><h1>Durable widgets for workshops</h1></body></html>"#;
    Page::parse("https://acme.example/", html.as_bytes(), HttpFacts::default())
}

fn provider(fake: &FakeProvider, timeout: Duration) -> OpenAiCompatibleProvider {
    OpenAiCompatibleProvider::new(fetcher(), &fake.base_url, "test-key", "sonar-test").unwrap().with_timeout(timeout)
}

#[tokio::test]
async fn counts_mentions_in_text_and_citations() {
    let fake = serve(Mode::Normal).await;
    let p = provider(&fake, Duration::from_secs(10));
    let report = geo_check(&p, &page(), "www.acme.example", &GeoOptions::default()).await.unwrap();
    assert_eq!(report.domain, "acme.example");
    let queries = generate_queries(&page(), "www.acme.example");
    let got: Vec<&str> = report.queries.iter().map(|q| q.query.as_str()).collect();
    let asked: Vec<&str> = queries.iter().map(|q| q.query.as_str()).collect();
    assert_eq!(got, asked, "results keep query order");

    for r in &report.queries {
        let q = r.query.to_lowercase();
        let expected = if q.contains("acme") && q.starts_with("what is") {
            // "Acme", "acme.example", "www.acme.example": the brand inside a domain counts once.
            3
        } else if q.contains("acme") || q.starts_with("how") {
            // One cited URL on the site (a subdomain, or the guide).
            1
        } else {
            0
        };
        assert_eq!((r.mentions, r.found), (expected, expected > 0), "{}", r.query);
    }
    let found = report.queries.iter().filter(|q| q.found).count();
    assert_eq!(u32::from(report.visibility_score), ((found as f64 / 12.0) * 100.0).round() as u32);
    assert!(found > 0 && found < 12, "the fixture answers mix found and not found: {found}");

    // Every query was one chat-completions request with bearer auth and both messages.
    let seen = fake.seen().await;
    assert_eq!(seen.len(), 12);
    for s in &seen {
        assert_eq!(s.path, "/v1/chat/completions");
        assert_eq!(s.authorization.as_deref(), Some("Bearer test-key"));
        assert_eq!(s.body["model"], "sonar-test");
        assert_eq!(s.body["messages"][0]["role"], "system");
        assert_eq!(s.body["messages"][1]["role"], "user");
    }

    let json = serde_json::to_value(&report).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["domain", "visibilityScore", "queries"]);
    assert!(json["queries"][0].get("found").is_some() && json["queries"][0].get("mentions").is_some());
    assert_eq!(queries.iter().filter(|q| q.kind == QueryKind::Brand).count(), 3);
}

#[tokio::test]
async fn provider_reads_citations() {
    let fake = serve(Mode::Normal).await;
    let p = provider(&fake, Duration::from_secs(10));
    let a = p.ask("How to fit a widget").await.unwrap();
    assert_eq!(
        (a.text.as_str(), a.citations.as_slice()),
        ("Measure first.", &["https://acme.example/guide".to_owned()][..])
    );
    let a = p.ask("Acme vs alternatives").await.unwrap();
    assert_eq!(a.citations, ["https://shop.acme.example/x", "https://other.example/"]);
    let a = p.ask("best widgets").await.unwrap();
    assert_eq!(a.citations, ["https://bolt.example/"]);
}

#[tokio::test]
async fn slow_provider_times_out() {
    let fake = serve(Mode::Slow).await;
    let p = provider(&fake, Duration::from_millis(200));
    let err = p.ask("What is Acme?").await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    // The check's own per-query limit applies too, even with a patient provider.
    let patient = provider(&fake, Duration::from_secs(60));
    let options = GeoOptions { query_timeout: Duration::from_millis(200), ..GeoOptions::default() };
    let err = geo_check(&patient, &page(), "acme.example", &options).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    // And so does the limit on the whole check.
    let options = GeoOptions {
        query_timeout: Duration::from_secs(60),
        total_timeout: Duration::from_millis(300),
        concurrency: 2,
    };
    let err = geo_check(&patient, &page(), "acme.example", &options).await.unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert_eq!((err.code(), err.http_status()), ("upstream_error", 502));
}

#[tokio::test]
async fn failing_provider_is_an_upstream_error() {
    let fake = serve(Mode::Failing).await;
    let p = provider(&fake, Duration::from_secs(10));
    let err = geo_check(&p, &page(), "acme.example", &GeoOptions::default()).await.unwrap_err();
    assert_eq!(err, ProviderError::Status { status: 500 });
    assert_eq!((err.code(), err.http_status()), ("upstream_error", 502));
}

#[tokio::test]
async fn malformed_answer_is_an_upstream_error() {
    let fake = serve(Mode::Malformed).await;
    let p = provider(&fake, Duration::from_secs(10));
    let err = p.ask("What is Acme?").await.unwrap_err();
    assert!(err.is_malformed(), "{err}");
    let err = geo_check(&p, &page(), "acme.example", &GeoOptions::default()).await.unwrap_err();
    assert!(err.is_malformed(), "{err}");
}

#[tokio::test]
async fn unreachable_and_guarded_providers() {
    // A port nobody listens on.
    let port = test_support::closed_port();
    let p = OpenAiCompatibleProvider::new(fetcher(), &format!("http://127.0.0.1:{port}"), "", "m").unwrap();
    let err = p.ask("q").await.unwrap_err();
    assert!(matches!(err, ProviderError::Transport(ref e) if e.is_unreachable()), "{err:?}");
    // Without the allow list, the address guard refuses loopback.
    let fake = serve(Mode::Normal).await;
    let strict = fetch::Fetcher::new(fetch::FetchConfig::default()).unwrap();
    let p = OpenAiCompatibleProvider::new(strict, &fake.base_url, "k", "m").unwrap();
    let err = p.ask("q").await.unwrap_err();
    assert!(matches!(err, ProviderError::Transport(ref e) if e.is_blocked()), "{err:?}");
    assert!(fake.seen().await.is_empty());
    // The provider is usable as a trait object.
    let dynamic: Box<dyn AiSearchProvider> = Box::new(provider(&fake, Duration::from_secs(5)));
    assert!(dynamic.ask("What is Acme?").await.unwrap().text.contains("Acme"));
}
