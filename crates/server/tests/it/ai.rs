//! End-to-end tests of the AI-visibility endpoints over loopback: the real server on port
//! 0, fixture sites under `fixtures/sites/ai-*` served by a local HTTP server, and a fake
//! AI search provider speaking chat completions on loopback (never a mocked function).

use crate::common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

const READINESS: &str = "/api/ai-readiness";
const SCAN: &str = "/api/ai-visibility-scan";
const GEO: &str = "/api/geo-check";
/// The provider key of the tests; it must never appear in an answer.
const PROVIDER_KEY: &str = "sk-test-provider-secret";
/// The brand of `fixtures/sites/ai-ready` (og:site_name and Organization name).
const BRAND: &str = "Oakwright";

fn respond(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.into(), content_type)
}

/// A site from `fixtures/sites/<name>/`. A `.txt` file whose body is markup is served as
/// `text/html`, as a single-page app answers every path with its HTML shell; a missing
/// file is a 404 HTML page.
async fn site(name: &str) -> String {
    let root = fixtures_dir(name);
    assert!(root.is_dir(), "{}", root.display());
    let addr = Pages::serve(move |req: &wiremock::Request| {
        let path = match req.url.path().trim_start_matches('/') {
            "" => "index.html".to_string(),
            p => p.to_string(),
        };
        let file = root.join(&path);
        match std::fs::read(&file) {
            Ok(body) if !path.contains("..") => {
                let markup = body.trim_ascii_start().starts_with(b"<");
                let ct = if path.ends_with(".html") || markup { "text/html; charset=utf-8" } else { "text/plain" };
                respond(200, ct, body)
            }
            _ => respond(404, "text/html", "<html><title>Not found</title><h1>Not found</h1></html>"),
        }
    })
    .await
    .leak();
    format!("http://{addr}/")
}

/// How the fake provider behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Answers every query; those naming the brand mention the site twice (brand in the
    /// text, the site among the cited URLs), the others not at all.
    Answers,
    /// Answers after 3 s.
    Slow,
    /// 500 with an error body.
    Fails,
    /// 200 with a body that is not JSON.
    Malformed,
}

/// (path, authorization header, model, user message) of one provider request.
type Seen = (String, String, String, String);

/// A fake OpenAI-compatible chat-completions service on loopback.
struct FakeProvider {
    base_url: String,
    addr: SocketAddr,
    requests: Arc<AtomicUsize>,
    /// Every request it received.
    seen: Arc<Mutex<Vec<Seen>>>,
}

async fn fake_provider(mode: Mode, cited_site: &str) -> FakeProvider {
    let requests = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (count, log, cited) = (requests.clone(), seen.clone(), cited_site.to_string());
    let addr = Pages::serve(move |req: &wiremock::Request| {
        count.fetch_add(1, Ordering::SeqCst);
        let path = req.url.path().to_string();
        let auth = req.headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let request: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let model = request["model"].as_str().unwrap_or("").to_string();
        let query = request["messages"]
            .as_array()
            .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or("")
            .to_string();
        log.lock().unwrap().push((path, auth, model, query.clone()));
        match mode {
            Mode::Answers => respond(200, "application/json", answer(&query, &cited).to_string()),
            Mode::Slow => {
                respond(200, "application/json", answer(&query, &cited).to_string()).set_delay(Duration::from_secs(3))
            }
            Mode::Fails => respond(500, "application/json", r#"{"error":{"message":"overloaded"}}"#),
            Mode::Malformed => respond(200, "application/json", "{\"choices\": [{\"message\": "),
        }
    })
    .await
    .leak();
    FakeProvider { base_url: format!("http://{addr}/v1"), addr, requests, seen }
}

/// The answer to one query, in two of the citation formats providers use.
fn answer(query: &str, cited_site: &str) -> Value {
    if !query.contains(BRAND) {
        return json!({
            "choices": [{"message": {"role": "assistant", "content": "Compare several local joiners before you order a table."}}],
            "citations": ["https://example.org/buying-guide"],
        });
    }
    let text = format!("{BRAND} builds solid oak tables to order.");
    if query.starts_with("What is") {
        json!({"choices": [{"message": {"role": "assistant", "content": text,
            "annotations": [{"type": "url_citation", "url_citation": {"url": cited_site}}]}}]})
    } else {
        json!({"choices": [{"message": {"role": "assistant", "content": text}}], "citations": [cited_site, "https://example.org/"]})
    }
}

/// A test server whose geo-check asks `provider` with a 300 ms limit per query.
async fn server_with(provider: Option<&FakeProvider>, tweak: impl FnOnce(&mut server::Config)) -> TestServer {
    let geo = provider.map(|p| p.base_url.clone());
    TestServer::start(move |c| {
        c.geo.base_url = geo;
        c.geo.model = Some("fake-search-1".into());
        c.geo.api_key = Some(PROVIDER_KEY.into());
        c.geo.timeout_ms = Some(300);
        tweak(c);
    })
    .await
}

async fn post(t: &TestServer, path: &str, body: Value) -> Answer {
    Answer::from(t.client.post(t.url(path)).json(&body).send().await.unwrap()).await
}

/// A 200 answer of `path`, checked against the document; returns the body.
async fn ok(t: &TestServer, path: &str, url: &str) -> Value {
    let a = post(t, path, json!({ "url": url })).await;
    assert_eq!(a.status, 200, "{path} {url}: {}", a.raw);
    a.assert_common();
    validate_documented("POST", path, &a);
    assert!(a.header("x-ratelimit-remaining").is_some());
    assert!(!a.raw.contains(PROVIDER_KEY));
    a.body
}

/// (bot, blocked, rule) of the readiness report.
fn bots(body: &Value) -> Vec<(String, bool, Option<String>)> {
    body["robots_txt"]["ai_bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["bot"].as_str().unwrap().to_string(), b["blocked"] == true, b["rule"].as_str().map(str::to_string)))
        .collect()
}

fn issue_codes(body: &Value) -> Vec<&str> {
    body["llms_txt"]["issues"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect()
}

fn pillars(body: &Value) -> [u64; 4] {
    let p = &body["pillars"];
    ["llmsTxt", "aiBotAccess", "answerStructure", "entityClarity"].map(|k| p[k].as_u64().unwrap())
}

fn semantic(body: &Value) -> [bool; 5] {
    let s = &body["semantic_html"];
    ["main", "nav", "article", "header", "footer"].map(|k| s[k].as_bool().unwrap())
}

fn owned(v: &[(&str, bool, Option<&str>)]) -> Vec<(String, bool, Option<String>)> {
    v.iter().map(|(b, x, r)| (b.to_string(), *x, r.map(str::to_string))).collect()
}

#[tokio::test]
async fn readiness_of_four_sites() {
    let t = TestServer::start(|_| {}).await;

    // A fully AI-ready site.
    let ready = site("ai-ready").await;
    let b = ok(&t, READINESS, &ready).await;
    assert_eq!(b["url"], ready);
    assert_eq!(b["score"], 100, "{b:#}");
    assert_eq!(b["recommendations"], json!([]));
    let llms = &b["llms_txt"];
    assert_eq!((llms["present"].as_bool(), llms["valid"].as_bool()), (Some(true), Some(true)));
    assert_eq!(llms["url"], format!("{ready}llms.txt"));
    assert_eq!(
        (llms["title"].as_str(), llms["sections"].as_u64(), llms["links"].as_u64()),
        (Some(BRAND), Some(2), Some(3))
    );
    assert_eq!(issue_codes(&b), Vec::<&str>::new());
    assert_eq!(b["robots_txt"]["present"], true);
    assert_eq!(b["robots_txt"]["blocked_count"], 0);
    assert_eq!(
        bots(&b),
        owned(&[
            ("GPTBot", false, Some("Allow: /")),
            ("ClaudeBot", false, Some("Allow: /")),
            ("PerplexityBot", false, Some("Allow: /"))
        ])
    );
    assert_eq!(semantic(&b), [true; 5]);
    assert_eq!(b["semantic_html"]["heading_hierarchy"], json!({"valid": true, "issues": []}));

    // A site that blocks the three named crawlers, each with its own rule.
    let blocked = site("ai-blocked").await;
    let b = ok(&t, READINESS, &blocked).await;
    assert_eq!(b["robots_txt"]["blocked_count"], 3);
    assert_eq!(
        bots(&b),
        owned(&[
            ("GPTBot", true, Some("Disallow: /")),
            ("ClaudeBot", true, Some("Disallow: /")),
            ("PerplexityBot", true, Some("Disallow: /*")),
        ])
    );
    // llms.txt present with a relative link (warning), a section without links (error)
    // and no summary (info).
    let llms = &b["llms_txt"];
    assert_eq!((llms["present"].as_bool(), llms["valid"].as_bool()), (Some(true), Some(false)));
    let codes = issue_codes(&b);
    for code in ["relative_link", "section_without_links", "missing_summary"] {
        assert!(codes.contains(&code), "{code} not in {codes:?}");
    }
    // No landmarks; two h1 and a skipped level.
    assert_eq!(semantic(&b), [false; 5]);
    let hierarchy = &b["semantic_html"]["heading_hierarchy"];
    assert_eq!(hierarchy["valid"], false);
    assert!(hierarchy["issues"].as_array().unwrap().len() >= 2, "{hierarchy}");
    // Lost: llms-valid 15, three bots 30, main 8, article 6, header 6, nav 6, footer 4,
    // heading hierarchy 10; kept: llms-present 15.
    assert_eq!(b["score"], 15, "{b:#}");
    assert_eq!(b["recommendations"].as_array().unwrap().len(), 10);

    // A site whose /llms.txt answers an HTML page.
    let html = site("ai-html-llms").await;
    let b = ok(&t, READINESS, &html).await;
    let llms = &b["llms_txt"];
    assert_eq!((llms["present"].as_bool(), llms["valid"].as_bool()), (Some(true), Some(false)));
    assert_eq!(issue_codes(&b), ["html_not_markdown"]);
    // No robots.txt (404): present false, everybody allowed without a rule.
    assert_eq!(b["robots_txt"]["present"], false);
    assert_eq!(bots(&b), owned(&[("GPTBot", false, None), ("ClaudeBot", false, None), ("PerplexityBot", false, None)]));
    assert_eq!(semantic(&b), [true, true, false, true, true]);
    // Lost: llms-valid 15, article 6.
    assert_eq!(b["score"], 79, "{b:#}");

    // A site without llms.txt (404) and without robots.txt.
    let none = site("ai-no-llms").await;
    let b = ok(&t, READINESS, &none).await;
    assert_eq!(
        b["llms_txt"],
        json!({"present": false, "valid": false, "url": format!("{none}llms.txt"),
        "title": null, "sections": 0, "links": 0, "issues": []})
    );
    assert_eq!(semantic(&b), [false; 5]);
    // Only the three bots pass (30 points); one llms.txt recommendation for both items.
    assert_eq!(b["score"], 30, "{b:#}");
    let recs = b["recommendations"].as_array().unwrap();
    assert_eq!(recs.iter().filter(|r| r.as_str().unwrap().contains("llms.txt")).count(), 1, "{recs:#?}");

    // Every call audited the page and stored the audit.
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 4);
    assert!(t.db(|s| s.latest_audit_for_url(&ready)).unwrap().is_some());
}

#[tokio::test]
async fn scan_of_four_sites() {
    let t = TestServer::start(|_| {}).await;
    // (site, pillars, some checks with their points)
    type Expected = (&'static str, [u64; 4], &'static [(&'static str, u64)]);
    let expectations: [Expected; 4] = [
        ("ai-ready", [25, 25, 25, 25], &[("faq-markup", 4), ("entity-schema", 7), ("question-headings", 6)]),
        // llms.txt: present and titled, nothing else. Bots (the registry: 19 search, 47
        // training crawlers): 18 of 19 search crawlers (8 * 18/19 -> 8), all that fetch for a
        // person, 44 of 47 training crawlers (4 * 44/47 -> 4), none of the named three, no
        // blanket block, no `search=no`. Only a lead paragraph and <html lang>.
        (
            "ai-blocked",
            [9, 22, 5, 3],
            &[
                ("llms-present", 5),
                ("llms-title", 4),
                ("bots-search", 8),
                ("bots-training", 4),
                ("bots-named", 0),
                ("bots-no-blanket", 2),
                ("content-signal-search", 1),
            ],
        ),
        // An HTML page at /llms.txt earns nothing; one question heading earns half.
        ("ai-html-llms", [0, 25, 8, 3], &[("llms-present", 0), ("question-headings", 3), ("summary-first", 5)]),
        ("ai-no-llms", [0, 25, 0, 0], &[("llms-present", 0), ("html-lang", 0), ("summary-first", 0)]),
    ];
    for (name, want, named_checks) in expectations {
        let url = site(name).await;
        let b = ok(&t, SCAN, &url).await;
        validate_schema("AiVisibilityScan", &b);
        let got = pillars(&b);
        assert_eq!(b["score"].as_u64(), Some(got.iter().sum()), "{name}: score is the sum of the pillars");
        // Each pillar is the sum of its checks.
        for (key, value) in ["llmsTxt", "aiBotAccess", "answerStructure", "entityClarity"].iter().zip(got) {
            let checks = b["details"][key].as_array().unwrap();
            assert_eq!(checks.iter().map(|c| c["points"].as_u64().unwrap()).sum::<u64>(), value, "{name} {key}");
            assert_eq!(checks.iter().map(|c| c["max"].as_u64().unwrap()).sum::<u64>(), 25, "{name} {key}");
        }
        let failed = b["details"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|v| v.as_array().unwrap())
            .filter(|c| c["passed"] == false)
            .count();
        assert_eq!(b["recommendations"].as_array().unwrap().len(), failed, "{name}: one recommendation per shortfall");
        assert_eq!(b["url"], url);
        assert_eq!(got, want, "{name}: {b:#}");
        for (check, points) in named_checks {
            let found = b["details"]
                .as_object()
                .unwrap()
                .values()
                .flat_map(|v| v.as_array().unwrap())
                .find(|c| c["check"] == *check);
            assert_eq!(found.and_then(|c| c["points"].as_u64()), Some(*points), "{name} {check}");
        }
    }
}

#[tokio::test]
async fn geo_check_counts_mentions_and_caches_per_domain() {
    let ready = site("ai-ready").await;
    let provider = fake_provider(Mode::Answers, &ready).await;
    let t = server_with(Some(&provider), |_| {}).await;

    let b = ok(&t, GEO, &ready).await;
    assert_eq!(b["cached"], false);
    assert_eq!(b["domain"], "127.0.0.1");
    assert_eq!(b["url"], ready);
    let queries = b["queries"].as_array().unwrap();
    assert_eq!(queries.len(), 12);
    for q in queries {
        let named = q["query"].as_str().unwrap().contains(BRAND);
        // Brand in the text once, the site among the citations once.
        assert_eq!(
            (q["found"].as_bool(), q["mentions"].as_u64()),
            (Some(named), Some(if named { 2 } else { 0 })),
            "{q}"
        );
    }
    let found = queries.iter().filter(|q| q["found"] == true).count();
    assert_eq!(found, 5, "{queries:#?}");
    assert_eq!(b["visibilityScore"], 42); // 5 of 12
    assert_eq!(provider.requests.load(Ordering::SeqCst), 12);
    {
        let seen = provider.seen.lock().unwrap();
        for (path, auth, model, query) in seen.iter() {
            assert_eq!(
                (path.as_str(), auth.as_str(), model.as_str()),
                ("/v1/chat/completions", "Bearer sk-test-provider-secret", "fake-search-1")
            );
            assert!(queries.iter().any(|q| q["query"] == query.as_str()), "{query}");
        }
    }
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1);

    // Within 24 h the same domain is answered from the cache: the provider is not asked,
    // the page is not fetched, one quota unit is still charged.
    let again = post(&t, GEO, json!({ "url": format!("{ready}?campaign=x") })).await;
    assert_eq!(again.status, 200, "{}", again.raw);
    validate_documented("POST", GEO, &again);
    assert_eq!(again.body["cached"], true);
    for k in ["domain", "url", "visibilityScore", "queries", "checkedAt"] {
        assert_eq!(again.body[k], b[k], "{k}");
    }
    assert_eq!(provider.requests.load(Ordering::SeqCst), 12);
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1);
    let remaining = |a: &Answer| a.header("x-ratelimit-remaining").unwrap().parse::<u64>().unwrap();
    let third = post(&t, GEO, json!({ "url": ready })).await;
    assert_eq!(remaining(&again) - 1, remaining(&third), "a cached answer costs one unit");

    // The cache is the caller's own: a key's answer for its URL (a token in its query) is
    // never served to anyone else, and the anonymous answer is not served to the key.
    let (key, _) = t.key(|_| {});
    let secret = format!("{ready}?token=s3cret");
    let keyed = t.client.post(t.url(GEO)).header("x-api-key", &key).json(&json!({ "url": secret })).send();
    let keyed = Answer::from(keyed.await.unwrap()).await;
    assert_eq!(keyed.status, 200, "{}", keyed.raw);
    assert_eq!((keyed.body["cached"].as_bool(), keyed.body["url"].as_str()), (Some(false), Some(secret.as_str())));
    assert_eq!(provider.requests.load(Ordering::SeqCst), 24, "the key's check asked the provider");
    let anonymous = post(&t, GEO, json!({ "url": ready })).await;
    assert_eq!(anonymous.body["cached"], true);
    assert_eq!(anonymous.body["url"], b["url"], "the anonymous caller's own answer: {}", anonymous.raw);
    assert!(!anonymous.raw.contains("s3cret"), "{}", anonymous.raw);
    assert_eq!(provider.requests.load(Ordering::SeqCst), 24);

    // An entry older than 24 h is not used: the provider is asked again.
    let now = time::OffsetDateTime::now_utc();
    let stale = t.db(|s| s.get_geo_cache("127.0.0.1", "ip:127.0.0.1", now)).unwrap().unwrap();
    t.db(|s| s.put_geo_cache("127.0.0.1", "ip:127.0.0.1", &stale.result_json, now - time::Duration::hours(25)))
        .unwrap();
    let fresh = ok(&t, GEO, &ready).await;
    assert_eq!(fresh["cached"], false);
    assert_eq!(fresh["visibilityScore"], 42);
    assert_eq!(provider.requests.load(Ordering::SeqCst), 36);
    assert!(t.db(|s| s.get_geo_cache("127.0.0.1", "ip:127.0.0.1", time::OffsetDateTime::now_utc())).unwrap().is_some());
}

/// A page naming itself with a site name of 120,000 characters and a heading of 60,000: the
/// twelve queries sent to the provider, answered and cached cut the brand and the topic with
/// a visible `…`, so the cached answer stays within its bound (docs/SECURITY.md, "What one
/// caller can start and store", geo-check answers).
#[tokio::test]
async fn geo_check_queries_and_cache_cut_an_overlong_brand() {
    let brand = format!("{BRAND}{}", "wright".repeat(20_000));
    let heading = vec!["Oak".repeat(5_000); 4].join(" tables ");
    let body = format!(
        r#"<html lang="en"><head><title>Tables</title><meta property="og:site_name" content="{brand}"></head><body><h1>{heading}</h1></body></html>"#
    );
    let page = Pages::serve(move |_: &wiremock::Request| respond(200, "text/html", body.clone())).await;
    let url = format!("http://{}/", page.addr());
    let provider = fake_provider(Mode::Answers, &url).await;
    let t = server_with(Some(&provider), |c| c.fetch.max_body_bytes = 1024 * 1024).await;

    let b = ok(&t, GEO, &url).await;
    let queries = b["queries"].as_array().unwrap();
    assert_eq!(queries.len(), 12);
    for q in queries {
        let text = q["query"].as_str().unwrap();
        assert!(text.chars().count() <= ai_visibility::MAX_GEO_QUERY_CHARS, "{} characters", text.chars().count());
        assert!(text.contains('…'), "{text}");
    }
    // What the provider was asked is what was answered.
    for (_, _, _, query) in provider.seen.lock().unwrap().iter() {
        assert!(queries.iter().any(|q| q["query"] == query.as_str()), "{query}");
    }
    let now = time::OffsetDateTime::now_utc();
    let cached = t.db(|s| s.get_geo_cache("127.0.0.1", "ip:127.0.0.1", now)).unwrap().expect("cached");
    assert!(cached.result_json.len() <= 32 * 1024, "{} bytes cached", cached.result_json.len());
}

#[tokio::test]
async fn geo_check_provider_failures() {
    let ready = site("ai-ready").await;
    for (mode, reason) in [(Mode::Slow, "timeout"), (Mode::Fails, "status"), (Mode::Malformed, "malformed")] {
        let provider = fake_provider(mode, &ready).await;
        let t = server_with(Some(&provider), |_| {}).await;
        let a = post(&t, GEO, json!({ "url": ready })).await;
        a.assert_error(502, "upstream_error");
        validate_documented("POST", GEO, &a);
        assert_eq!(a.body["error"]["details"]["reason"], reason, "{mode:?}: {}", a.raw);
        if mode == Mode::Fails {
            assert_eq!(a.body["error"]["details"]["upstream_status"], 500);
        }
        assert!(!a.raw.contains(PROVIDER_KEY) && !a.raw.contains(&provider.addr.to_string()), "{}", a.raw);
        assert!(provider.requests.load(Ordering::SeqCst) >= 1, "{mode:?}: the provider was asked");
        // A failure is not cached, and the quota unit was charged.
        assert!(t
            .db(|s| s.get_geo_cache("127.0.0.1", "ip:127.0.0.1", time::OffsetDateTime::now_utc()))
            .unwrap()
            .is_none());
        assert!(a.header("x-ratelimit-remaining").is_some());
    }

    // A provider that is configured but does not listen.
    let t = server_with(None, |c| c.geo.base_url = Some(format!("http://127.0.0.1:{}/v1", closed_port()))).await;
    let a = post(&t, GEO, json!({ "url": ready })).await;
    a.assert_error(502, "upstream_error");
    assert_eq!(a.body["error"]["details"]["reason"], "unreachable");
}

#[tokio::test]
async fn geo_check_without_provider() {
    let ready = site("ai-ready").await;
    for tweak in [|c: &mut server::Config| c.geo.base_url = None, |c: &mut server::Config| c.geo.model = None] {
        let t = server_with(None, tweak).await;
        let a = post(&t, GEO, json!({ "url": ready })).await;
        a.assert_error(503, "not_configured");
        validate_documented("POST", GEO, &a);
        assert!(a.body["error"]["details"]["settings"].is_array());
        // Nothing was charged, fetched or stored (the quota headers show the full window).
        assert_eq!(a.header("x-ratelimit-remaining"), a.header("x-ratelimit-limit"), "{:?}", a.headers);
        assert_eq!(t.db(|s| s.count_audits()).unwrap(), 0);
    }
}

/// The provider's address is allowed for the provider only: the page fetcher's guard
/// still refuses it as a target.
#[tokio::test]
async fn provider_address_is_not_an_audit_target() {
    let ready = site("ai-ready").await;
    let provider = fake_provider(Mode::Answers, &ready).await;
    let site_port = url::Url::parse(&ready).unwrap().port().unwrap();
    let t = server_with(Some(&provider), |c| c.allow_targets = vec![format!("127.0.0.1:{site_port}")]).await;
    let b = ok(&t, GEO, &ready).await;
    assert_eq!(b["visibilityScore"], 42);
    for path in [READINESS, SCAN] {
        let a = post(&t, path, json!({ "url": format!("http://{}/", provider.addr) })).await;
        a.assert_error(422, "blocked_target");
        validate_documented("POST", path, &a);
    }
}

#[tokio::test]
async fn request_errors() {
    let ready = site("ai-ready").await;
    let provider = fake_provider(Mode::Answers, &ready).await;
    let t = server_with(Some(&provider), |_| {}).await;
    for path in [READINESS, SCAN, GEO] {
        let cases: Vec<(Value, u16, &str)> = vec![
            (json!({}), 400, "missing_parameter"),
            (json!({ "url": null }), 400, "missing_parameter"),
            (json!({ "url": "" }), 400, "missing_parameter"),
            (json!({ "url": 7 }), 400, "invalid_request"),
            (json!(["https://a.example/"]), 400, "invalid_request"),
            (json!({ "url": "ftp://a.example/" }), 400, "invalid_url"),
            (json!({ "url": "http://user:pw@a.example/" }), 400, "invalid_url"),
            (json!({ "url": "http://10.0.0.1/" }), 422, "blocked_target"),
            (json!({ "url": "http://127.0.0.2/" }), 422, "blocked_target"),
            (json!({ "url": format!("http://127.0.0.1:{}/", closed_port()) }), 502, "target_unreachable"),
        ];
        for (body, status, code) in cases {
            let a = post(&t, path, body.clone()).await;
            a.assert_error(status, code);
            validate_documented("POST", path, &a);
            if code == "missing_parameter" {
                assert_eq!(a.body["error"]["details"]["parameter"], "url", "{path} {body}");
            }
        }
        let raw = |ct: &'static str, body: &'static str| {
            t.client.post(t.url(path)).header("content-type", ct).body(body).send()
        };
        for (ct, body, status, code) in [
            ("text/plain", r#"{"url": "https://a.example/"}"#, 415, "unsupported_media_type"),
            ("application/x-www-form-urlencoded", "url=https://a.example/", 415, "unsupported_media_type"),
            ("application/json", "{not json", 400, "invalid_request"),
        ] {
            let a = Answer::from(raw(ct, body).await.unwrap()).await;
            a.assert_error(status, code);
            validate_documented("POST", path, &a);
        }
        let big = Answer::from(
            t.client
                .post(t.url(path))
                .header("content-type", "application/json")
                .body(vec![b' '; 1024 * 1024 + 1])
                .send()
                .await
                .unwrap(),
        )
        .await;
        big.assert_error(413, "payload_too_large");
        let get = t.get(path).await;
        get.assert_error(405, "method_not_allowed");
        assert_eq!(get.header("allow"), Some("POST"));

        // Keys: an unknown key is refused, one without the `audit` scope too.
        let (mcp_only, _) = t.key(|k| k.scopes = vec!["mcp".into()]);
        for (key, status) in [("sa_unknownunknownunknownunknown00", 401), (mcp_only.as_str(), 403)] {
            let a = Answer::from(
                t.client.post(t.url(path)).header("x-api-key", key).json(&json!({"url": ready})).send().await.unwrap(),
            )
            .await;
            assert_eq!(a.status, status, "{path}: {}", a.raw);
            validate_documented("POST", path, &a);
        }
    }
    assert_eq!(provider.requests.load(Ordering::SeqCst), 0, "no request error reached the provider");
}

/// The three endpoints share the identity's quota with the audit endpoint, one unit each.
#[tokio::test]
async fn quota_is_shared_and_charged_once_per_call() {
    away_from_minute_boundary().await;
    let ready = site("ai-ready").await;
    let provider = fake_provider(Mode::Answers, &ready).await;
    let t = server_with(Some(&provider), |c| c.rate_limits.anonymous = 4).await;
    let audit = t.get(&t.audit_url(&ready, "&format=compact")[t.base.len()..]).await;
    assert_eq!(audit.header("x-ratelimit-remaining"), Some("3"), "{}", audit.raw);
    for (path, left) in [(READINESS, "2"), (SCAN, "1"), (GEO, "0")] {
        let a = post(&t, path, json!({ "url": ready })).await;
        assert_eq!((a.status, a.header("x-ratelimit-remaining")), (200, Some(left)), "{path}: {}", a.raw);
    }
    for path in [READINESS, SCAN, GEO] {
        let a = post(&t, path, json!({ "url": ready })).await;
        a.assert_error(429, "rate_limited");
        validate_documented("POST", path, &a);
        assert!(a.header("retry-after").is_some());
    }
    assert_eq!(provider.requests.load(Ordering::SeqCst), 12);
}

/// robots.txt read as RFC 9309 says: the file of the page's *final* origin decides after a
/// redirect to another site, and a robots.txt that answers 5xx means complete disallow.
#[tokio::test]
async fn robots_txt_of_the_final_origin_and_of_a_failing_site() {
    let page = "<!doctype html><html lang=en><head><title>Oak tables from the workshop</title></head>\
                <body><main><h1>Oak tables</h1><p>Solid oak, made to order.</p></main></body></html>";
    // B: the page, no robots.txt. A: robots.txt closes everything; every other path is a
    // redirect to B. C: the page, robots.txt answers 503.
    let b = Pages::serve(move |req: &wiremock::Request| match req.url.path() {
        "/robots.txt" => respond(404, "text/plain", "no"),
        _ => respond(200, "text/html; charset=utf-8", page),
    })
    .await
    .leak();
    let a = Pages::serve(move |req: &wiremock::Request| match req.url.path() {
        "/robots.txt" => respond(200, "text/plain", "User-agent: *\nDisallow: /\n"),
        path => ResponseTemplate::new(301).insert_header("location", format!("http://{b}{path}").as_str()),
    })
    .await
    .leak();
    let c = Pages::serve(move |req: &wiremock::Request| match req.url.path() {
        "/robots.txt" => respond(503, "text/plain", "busy"),
        _ => respond(200, "text/html; charset=utf-8", page),
    })
    .await
    .leak();
    let t = server_with(None, |_| {}).await;
    let failing = |body: &Value| -> Vec<String> {
        let recs = body["recommendations"].as_array().unwrap();
        recs.iter().filter_map(|r| r["id"].as_str().map(str::to_string)).collect()
    };

    // Through A's redirect the page lives on B, whose (absent) robots.txt allows it.
    let audit = |target: String| {
        let url = t.audit_url(&target, "");
        let client = t.client.clone();
        async move { Answer::from(client.get(url).send().await.unwrap()).await }
    };
    let via_a = audit(format!("http://{a}/tables")).await;
    assert_eq!(via_a.status, 200, "{}", via_a.raw);
    assert_eq!(via_a.body["page"]["final_url"], format!("http://{b}/tables"));
    assert!(!failing(&via_a.body).contains(&"robots-txt-blocked".to_string()), "{:#}", via_a.body);
    // AI readiness reads the final origin's file too.
    let readiness = ok(&t, READINESS, &format!("http://{a}/tables")).await;
    assert_eq!(readiness["robots_txt"]["present"], false, "B has no robots.txt: {readiness:#}");
    let by_default = |bot: &str| traced(bot, "allowed", None, None, "no robots.txt: allowed by default");
    assert_eq!(crawlers(&readiness), ["GPTBot", "ClaudeBot", "PerplexityBot"].map(by_default));

    // C's robots.txt answers 503: every crawler is shut out, and the audit says so.
    let on_c = audit(format!("http://{c}/")).await;
    assert_eq!(on_c.status, 200, "{}", on_c.raw);
    let blocked = on_c.body["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "robots-txt-blocked")
        .unwrap_or_else(|| panic!("{:#}", on_c.body));
    assert!(blocked.to_string().contains("HTTP 503"), "{blocked:#}");
    let readiness = ok(&t, READINESS, &format!("http://{c}/")).await;
    assert_eq!(readiness["robots_txt"]["present"], false);
    assert_eq!(readiness["robots_txt"]["unreachable"], "HTTP 503");
    assert_eq!(readiness["robots_txt"]["blocked_count"], 3, "{readiness:#}");
    let rules: Vec<Option<String>> = bots(&readiness).into_iter().map(|(_, _, rule)| rule).collect();
    assert!(rules.iter().all(|r| r.as_deref().is_some_and(|r| r.contains("complete disallow"))), "{rules:?}");
    let shut = |bot: &str| {
        traced(bot, "blocked", None, None, "robots.txt unreachable (HTTP 503): complete disallow (RFC 9309)")
    };
    assert_eq!(crawlers(&readiness), ["GPTBot", "ClaudeBot", "PerplexityBot"].map(shut));
}

/// (bot, verdict, group, line, rule) of each entry of an answer's `crawlers`.
type Traced = (String, String, Option<String>, Option<u64>, String);

fn crawlers(body: &Value) -> Vec<Traced> {
    body["crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["bot"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
                c["group"].as_str().map(str::to_string),
                c["line"].as_u64(),
                c["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn traced(bot: &str, verdict: &str, group: Option<&str>, line: Option<u64>, rule: &str) -> Traced {
    (bot.to_string(), verdict.to_string(), group.map(str::to_string), line, rule.to_string())
}

/// `fixtures/sites/ai-trace/robots.txt` shuts ClaudeBot out on line 10: both answers name
/// it, its group and that line, and say why every other crawler may fetch the page.
#[tokio::test]
async fn crawlers_name_the_group_and_line_that_decided() {
    let t = TestServer::start(|_| {}).await;
    let url = site("ai-trace").await;
    let claude = traced("ClaudeBot", "blocked", Some("User-agent: ClaudeBot"), Some(10), "Disallow: /");
    let shared_group = Some("User-agent: GPTBot\nUser-agent: PerplexityBot");
    let no_rule = "no rule matched: allowed by default";

    let b = ok(&t, READINESS, &url).await;
    assert_eq!(
        crawlers(&b),
        [
            traced("GPTBot", "allowed", shared_group, None, no_rule),
            claude.clone(),
            traced("PerplexityBot", "allowed", shared_group, None, no_rule),
        ]
    );
    assert_eq!(b["crawlers"][1]["operator"], "Anthropic");
    assert_eq!(b["crawlers"][1]["purpose"], "training");
    // The same reading as `robots_txt.ai_bots`.
    assert_eq!(
        bots(&b),
        owned(&[("GPTBot", false, None), ("ClaudeBot", true, Some("Disallow: /")), ("PerplexityBot", false, None)])
    );

    let b = ok(&t, SCAN, &url).await;
    let all = crawlers(&b);
    assert_eq!(all.len(), ai_visibility::AI_BOTS.len());
    // The point `bots-named` lost is ClaudeBot's, and only ClaudeBot is blocked.
    let named = b["details"]["aiBotAccess"].as_array().unwrap().iter().find(|c| c["check"] == "bots-named").unwrap();
    assert_eq!((named["points"].as_u64(), named["max"].as_u64()), (Some(2), Some(3)));
    let blocked: Vec<&Traced> = all.iter().filter(|c| c.1 == "blocked").collect();
    assert_eq!(blocked, [&claude]);
    // A crawler no group names is judged by the `*` group's longest match.
    let ccbot = all.iter().find(|c| c.0 == "CCBot").unwrap();
    assert_eq!(ccbot, &traced("CCBot", "allowed", Some("User-agent: *"), Some(6), "Allow: /"));
    let gpt = all.iter().find(|c| c.0 == "GPTBot").unwrap();
    assert_eq!(gpt, &traced("GPTBot", "allowed", shared_group, None, no_rule));
}

/// The browser's page of the agent site: enough visible text for the size comparison, an
/// AI catalog and a markdown alternate named by `<link>` elements.
fn agent_page() -> String {
    let text = "Oakwright builds timber frames for homes and barns. ".repeat(12);
    format!(
        "<!doctype html><html lang=en><head><title>Oakwright timber frames</title>\
         <link rel=\"ai-catalog\" href=\"/agents/catalog.json\">\
         <link rel=\"alternate\" type=\"text/markdown\" href=\"/page.md\"></head>\
         <body><main><h1>Timber frames</h1><p>{text}</p>\
         <form toolname=\"quote\" tooldescription=\"Prices a frame\"><input name=\"width\" required \
         title=\"Width in metres\"><input required></form></main></body></html>"
    )
}

const GOOD_CATALOG: &str = r#"{"specVersion": "1.0", "entries": [{"identifier": "urn:air:oakwright:tools:quote",
    "displayName": "Quotes", "type": "mcp-server", "url": "https://oakwright.example/mcp",
    "representativeQueries": ["price of a barn frame"], "trustManifest": {"identity": "did:web:oakwright.example"}}]}"#;
const BROKEN_CATALOG: &str = r#"{"specVersion": "1.0", "entries": [{"identifier": "oakwright-quote",
    "displayName": "Quotes", "type": "mcp-server", "url": "https://oakwright.example/mcp",
    "representativeQueries": ["q"], "trustManifest": {"identity": "did:web:oakwright.example"}}]}"#;
const GOOD_MCP_CARD: &str = r#"{"name": "oakwright", "version": "1", "remotes": [{"type": "streamable-http", "url": "https://oakwright.example/mcp"}]}"#;
const GOOD_API_CATALOG: &str = r#"{"linkset": [{"anchor": "https://oakwright.example/api", "service-desc": [{"href": "https://oakwright.example/openapi.json"}]}]}"#;

/// A site whose edge answers differently per user agent, as a CDN's bot rules do: GPTBot
/// 403, OAI-SearchBot 402 (pay per crawl), ClaudeBot a challenge page, PerplexityBot a
/// smaller body, Bytespider no answer worth a page (429); everyone else, browsers and the
/// service's own bot, the page. It serves markdown on `Accept: text/markdown` and at
/// `/page.md`, an llms-full.txt, and each discovery document valid or broken, found by each
/// way agents look.
async fn agent_site() -> Pages {
    Pages::serve(|req: &wiremock::Request| {
        let header = |name: &str| req.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        let agent = header("user-agent");
        let md = "text/markdown; charset=utf-8";
        let json = "application/json";
        match req.url.path() {
            "/" if header("accept").starts_with("text/markdown") => respond(200, md, "# Timber frames\n\nOakwright."),
            "/" if agent.contains("GPTBot") => respond(403, "text/html", "<h1>Forbidden</h1>"),
            "/" if agent.contains("OAI-SearchBot") => respond(402, "text/html", "<h1>Payment required</h1>"),
            "/" if agent.contains("ClaudeBot") => ResponseTemplate::new(403)
                .insert_header("cf-mitigated", "challenge")
                .set_body_raw("<title>Just a moment...</title>", "text/html"),
            "/" if agent.contains("PerplexityBot") => respond(200, "text/html", "<html><p>Welcome.</p></html>"),
            "/" if agent.contains("Bytespider") => respond(429, "text/html", "slow down"),
            "/" => respond(200, "text/html; charset=utf-8", agent_page())
                .insert_header("link", r#"</apis>; rel="api-catalog""#),
            "/robots.txt" => {
                respond(200, "text/plain", "User-agent: *\nAllow: /\nAgentmap: /.well-known/ai-catalog.json\n")
            }
            "/llms.txt" => respond(
                200,
                "text/plain",
                "# Oakwright\n\n> Timber frames.\n\n## Docs\n- [Frames](/page.md)\n- [Gone](/gone)\n",
            ),
            "/llms-full.txt" => respond(200, "text/plain", "# Oakwright, everything\n\nAll the docs in one file.\n"),
            "/page.md" => respond(200, md, "# Timber frames\n"),
            "/.well-known/ai-catalog.json" => respond(200, json, GOOD_CATALOG),
            "/agents/catalog.json" => respond(200, json, BROKEN_CATALOG),
            "/.well-known/mcp.json" => respond(200, json, GOOD_MCP_CARD),
            "/.well-known/agent-card.json" => respond(200, json, r#"{"name": "A", "skills": [{"id": "s"}]}"#),
            "/apis" => respond(200, "application/linkset+json", GOOD_API_CATALOG),
            _ => respond(404, "text/html", "<h1>Not found</h1>"),
        }
    })
    .await
}

#[tokio::test]
async fn readiness_probes_what_agents_meet() {
    let t = TestServer::start(|_| {}).await;
    let site = agent_site().await;
    let base = format!("http://{}", site.addr());
    let at = |path: &str| format!("{base}{path}");
    // The wall time is printed, not asserted (`--nocapture`): the figure of docs/PERFORMANCE.md.
    let started = std::time::Instant::now();
    let b = ok(&t, READINESS, &at("/")).await;
    println!("readiness with agent probes on loopback: {} ms", started.elapsed().as_millis());
    let agents = &b["agents"];

    // llms-full.txt and the llms.txt links.
    assert_eq!(agents["llms_full_txt"]["valid"], true, "{agents:#}");
    assert_eq!(agents["llms_full_txt"]["title"], "Oakwright, everything");
    let links: Vec<(&str, bool)> = agents["llms_links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["url"].as_str().unwrap(), l["ok"].as_bool().unwrap()))
        .collect();
    assert_eq!(links, [(at("/page.md").as_str(), true), (at("/gone").as_str(), false)]);

    // Discovery: where each document was found, and the validator's verdict.
    let docs: Vec<(String, String, Vec<String>, bool, bool)> = agents["discovery"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let by = d["found_by"].as_array().unwrap().iter().map(|b| b.as_str().unwrap().to_owned()).collect();
            let path = d["url"].as_str().unwrap().trim_start_matches(&base).to_owned();
            (d["kind"].as_str().unwrap().to_owned(), path, by, d["present"] == true, d["valid"] == true)
        })
        .collect();
    let row = |kind: &str, path: &str, by: &[&str], present: bool, valid: bool| {
        (kind.to_owned(), path.to_owned(), by.iter().map(|s| s.to_string()).collect::<Vec<_>>(), present, valid)
    };
    assert_eq!(
        docs,
        [
            row("ai_catalog", "/.well-known/ai-catalog.json", &["well_known", "robots_agentmap"], true, true),
            row("mcp_server_card", "/.well-known/mcp.json", &["well_known"], true, true),
            row("a2a_agent_card", "/.well-known/agent-card.json", &["well_known"], true, false),
            row("api_catalog", "/.well-known/api-catalog", &["well_known"], false, false),
            row("protected_resource", "/.well-known/oauth-protected-resource", &["well_known"], false, false),
            row("ai_catalog", "/agents/catalog.json", &["link_element"], true, false),
            row("api_catalog", "/apis", &["link_header"], true, true),
        ],
        "{agents:#}"
    );
    let broken = &agents["discovery"][5]["findings"][0];
    assert_eq!(broken["path"], "entries[0].identifier", "{broken}");

    // The WebMCP form: a required field without a name.
    let webmcp = &agents["webmcp"];
    assert_eq!((webmcp["forms"].as_u64(), webmcp["valid"].as_bool()), (Some(1), Some(false)), "{webmcp}");
    assert_eq!(webmcp["findings"][0]["form"], "quote");

    // Markdown on request and at the named alternate.
    let md = &agents["markdown"];
    assert_eq!((md["negotiated"].as_bool(), md["alternate_served"].as_bool()), (Some(true), Some(true)), "{md}");
    assert_eq!(md["alternate"], at("/page.md"));
    assert_eq!(md["available"], true);

    // The edge: five crawlers turned away, each with its evidence; the rest get the page.
    let edge = &agents["edge_blocking"];
    assert_eq!(edge["comparable"], true, "{edge:#}");
    assert_eq!(edge["blocked"], json!(["GPTBot", "OAI-SearchBot", "ClaudeBot", "PerplexityBot", "Bytespider"]));
    let evidence = |bot: &str| {
        let v = edge["bots"].as_array().unwrap().iter().find(|v| v["bot"] == bot).unwrap();
        v["evidence"].as_str().unwrap_or("").to_owned()
    };
    assert!(evidence("GPTBot").starts_with("status 403"), "{edge:#}");
    assert!(evidence("OAI-SearchBot").contains("pay per crawl"), "{edge:#}");
    assert!(evidence("ClaudeBot").contains("Cloudflare challenge"), "{edge:#}");
    assert!(evidence("PerplexityBot").starts_with("a smaller page"), "{edge:#}");
    assert!(evidence("Bytespider").starts_with("status 429"), "{edge:#}");
    assert_eq!(evidence("ChatGPT-User"), "");
    assert_eq!(edge["bots"].as_array().unwrap().len(), 11);

    // Every probe is counted, within the documented bound, and each reached the site.
    let requests = agents["requests"].as_u64().unwrap();
    assert_eq!(requests, 1 + 2 + 7 + 2 + 12, "{agents:#}");
    assert!(requests <= u64::from(app::MAX_AGENT_PROBES));
    let seen: Vec<String> = site
        .requests()
        .await
        .iter()
        .filter_map(|r| r.headers.get("user-agent").and_then(|v| v.to_str().ok()).map(str::to_owned))
        .collect();
    for bot in ai_visibility::EDGE_BOTS {
        assert_eq!(seen.iter().filter(|a| a.as_str() == bot.user_agent).count(), 1, "{}", bot.bot);
    }

    // The recommendations name what robots.txt allows but the edge blocks, and the broken
    // documents; the score's items keep their meaning.
    let recs: Vec<&str> = b["recommendations"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    let edge_rec = recs.iter().find(|r| r.contains("turns them away")).expect("an edge recommendation");
    for bot in ["GPTBot", "OAI-SearchBot", "ClaudeBot", "PerplexityBot", "Bytespider"] {
        assert!(edge_rec.contains(bot), "{edge_rec}");
    }
    assert!(recs.iter().any(|r| r.starts_with("Fix the AI catalog at") && r.contains("/agents/catalog.json")));
    assert!(recs.iter().any(|r| r.starts_with("Fix the A2A agent card")));
    assert!(recs.iter().any(|r| r.starts_with("Fix the WebMCP form quote")), "{recs:#?}");
}

/// The service is agent-ready itself: its AI catalog, MCP server card and A2A agent card
/// pass the validators its readiness check applies to every site, and the catalog names
/// the other two.
#[tokio::test]
async fn the_services_own_discovery_documents_pass_its_checks() {
    let t = TestServer::start(|_| {}).await;
    for kind in ai_visibility::DocKind::ALL {
        let answer = t.get(kind.well_known_path()).await;
        use ai_visibility::DocKind::*;
        match kind {
            AiCatalog | McpServerCard | A2aAgentCard => {
                assert_eq!(answer.status, 200, "{kind:?}");
                let findings = kind.validate(&answer.raw);
                assert!(findings.iter().all(|f| f.severity != "error"), "{kind:?}: {findings:#?}");
            }
            // The service offers no REST API catalog or OAuth resource: nothing claims one.
            ApiCatalog | ProtectedResource => assert_eq!(answer.status, 404, "{kind:?}"),
        }
    }
    let catalog = t.get("/.well-known/ai-catalog.json").await;
    validate_documented("GET", "/.well-known/ai-catalog.json", &catalog);
    let urls: Vec<&str> =
        catalog.body["entries"].as_array().unwrap().iter().map(|e| e["url"].as_str().unwrap()).collect();
    assert!(
        urls[0].ends_with("/.well-known/mcp.json") && urls[1].ends_with("/.well-known/agent-card.json"),
        "{urls:?}"
    );
    assert_eq!(catalog.header("access-control-allow-origin"), Some("*"));
}

/// A readiness check is stored, and the report page of the audited page shows its
/// AI-readiness section with the answer's numbers: crawler verdicts by class, the edge's
/// evidence, the discovery documents and the llms.txt findings (docs/API.md,
/// "GET /report/{domain}"). A check made with a key is private: the page of a site only
/// checked with a key has no such section.
#[tokio::test]
async fn the_report_page_shows_the_stored_readiness_answer() {
    let t = TestServer::start(|c| {
        c.allow_targets.push("localhost".to_string());
        c.badge_audit_url = String::new();
    })
    .await;
    let site = agent_site().await;
    let url = format!("http://localhost:{}/?token=hunter2", site.addr().port());

    // Made with a key first: stored, but private, so the page shows no readiness section.
    let (key, _) = t.key(|_| {});
    let keyed = t.client.post(t.url(READINESS)).header("x-api-key", &key).json(&json!({ "url": url })).send();
    assert_eq!(keyed.await.unwrap().status(), 200);
    let home: String =
        url::form_urlencoded::byte_serialize(format!("http://localhost:{}/", site.addr().port()).as_bytes()).collect();
    assert_eq!(t.get(&format!("/api/v1/audit?url={home}")).await.status, 200, "a public audit of the page");
    let page = t.get("/report/localhost").await;
    assert_eq!(page.status, 200, "{}", page.raw);
    assert!(!page.raw.contains("id=\"ai-h\""), "a keyed check is not public: {}", page.raw);

    let b = ok(&t, READINESS, &url).await;
    let page = t.get("/report/localhost").await;
    assert_eq!(page.status, 200, "{}", page.raw);
    let html = &page.raw;
    assert!(html.contains("<h2 id=\"ai-h\">AI readiness</h2>"), "{html}");
    let score = b["score"].as_u64().unwrap();
    assert!(html.contains(&format!("<strong class=\"ai-score\">{score}/100</strong>")), "{html}");
    let crawlers = b["ai_crawlers"].as_array().unwrap();
    let blocked = crawlers.iter().filter(|c| c["verdict"] != "allowed").count();
    assert!(
        html.contains(&format!(
            "<strong class=\"ai-blocked\">{blocked}</strong> of the {} AI crawlers",
            crawlers.len()
        )),
        "{html}"
    );
    for class in b["crawler_classes"].as_array().unwrap() {
        let row = format!(
            "<tr data-class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            class["purpose"].as_str().unwrap(),
            ai_title(class["purpose"].as_str().unwrap()),
            class["crawlers"],
            class["blocked"],
            class["disallow_ignored"]
        );
        assert!(html.contains(&row), "{row} missing: {html}");
    }
    // The edge: five of the eleven crawlers turned away, each with its evidence.
    let edge = &b["agents"]["edge_blocking"];
    assert!(html.contains("<strong class=\"ai-edge-blocked\">5</strong> of the 11 crawlers fetched"), "{html}");
    for v in edge["bots"].as_array().unwrap().iter().filter(|v| v["blocked"] == true) {
        let evidence = v["evidence"].as_str().unwrap();
        assert!(html.contains(&pages::escape(evidence)), "{evidence} missing");
    }
    // The discovery documents: the broken catalog with its first error.
    assert_eq!(html.matches("<td>AI catalog</td>").count(), 2);
    let broken = b["agents"]["discovery"][5]["findings"].as_array().unwrap();
    let errors = broken.iter().filter(|f| f["severity"] == "error").count();
    let noun = if errors == 1 { "error" } else { "errors" };
    assert!(html.contains(&format!("no, {errors} {noun}: entries[0].identifier")), "{html}");
    // llms.txt, and the checked URL without its query string.
    let findings = b["llms_txt"]["issues"].as_array().unwrap().len();
    let noun = if findings == 1 { "finding" } else { "findings" };
    assert!(html.contains(&format!("<span class=\"ai-llms-findings\">{findings} {noun}</span>")), "{html}");
    assert!(html.contains("llms-full.txt: served, valid."));
    assert!(!html.contains("hunter2"), "a query string is shown");

    // The stored row: the figure of docs/SECURITY.md (printed with `--nocapture`).
    let row = t.db(|s| s.latest_public_readiness("localhost", "/")).unwrap().expect("the public answer");
    assert_eq!(row.score, i64::try_from(score).unwrap());
    assert!(row.record_json.len() < store::MAX_READINESS_RECORD_BYTES);
    println!("stored readiness record of the agent site: {} bytes", row.record_json.len());
}

/// `Purpose::title` as the page shows it.
fn ai_title(class: &str) -> &'static str {
    ai_visibility::Purpose::ALL.into_iter().find(|p| p.key() == class).map(|p| p.title()).unwrap()
}
