//! End-to-end tests over loopback: the real server on port 0, a real SQLite file, fixture
//! sites served by a local HTTP server, reqwest as the client.

use crate::common;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use serde_json::json;

#[tokio::test]
async fn audit_full_and_compact() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let page = site.url("/index.html");

    let full = Answer::from(t.client.get(t.audit_url(&page, "")).send().await.unwrap()).await;
    assert_eq!(full.status, 200, "{}", full.raw);
    full.assert_common();
    validate_documented("GET", "/api/v1/audit", &full);
    validate_schema("AuditResult", &full.body);
    assert_eq!(full.body["page"]["url"], page);
    assert_eq!(full.body["page"]["title"], "Handmade oak furniture from a small Bavarian workshop");
    assert_eq!(full.body["page"]["status_code"], 200);
    for h in ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] {
        assert!(full.header(h).is_some(), "{h}");
    }

    let compact = Answer::from(t.client.get(t.audit_url(&page, "&format=compact")).send().await.unwrap()).await;
    assert_eq!(compact.status, 200, "{}", compact.raw);
    validate_documented("GET", "/api/v1/audit", &compact);
    validate_schema("CompactResult", &compact.body);
    assert_eq!(compact.body["score"]["percentage"], full.body["score"]["percentage"]);

    // A page answering 404 is still an audit (docs/API.md, "GET /api/v1/audit").
    let missing = t.get(&format!("/api/v1/audit?url={}", site.url("/nope.html"))).await;
    assert_eq!((missing.status, missing.body["page"]["status_code"].as_u64()), (200, Some(404)), "{}", missing.raw);

    // Every audit is stored with its full result.
    let stored = t.db(|s| s.latest_audit_for_url(&page)).unwrap().expect("stored audit");
    let result: serde_json::Value = serde_json::from_str(&stored.result_json).unwrap();
    validate_schema("AuditResult", &result);
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 3);
}

#[tokio::test]
async fn http2_is_served() {
    let t = TestServer::start(|_| {}).await;
    let client = reqwest::Client::builder().no_proxy().http2_prior_knowledge().build().unwrap();
    let resp = client.get(t.url("/api/status")).send().await.unwrap();
    assert_eq!(resp.version(), reqwest::Version::HTTP_2);
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn audit_errors() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let fixture_port = site.addr.port();
    let cases: Vec<(String, u16, &str)> = vec![
        ("/api/v1/audit".into(), 400, "missing_parameter"),
        ("/api/v1/audit?url=".into(), 400, "missing_parameter"),
        (t.audit_url("ftp://example.com/", "")[t.base.len()..].to_string(), 400, "invalid_url"),
        (t.audit_url("http://user:pw@example.com/", "")[t.base.len()..].to_string(), 400, "invalid_url"),
        (
            t.audit_url(&format!("http://e.com/{}", "a".repeat(2100)), "")[t.base.len()..].to_string(),
            400,
            "invalid_url",
        ),
        (format!("/api/v1/audit?url={}&format=xml", site.url("/index.html")), 400, "invalid_request"),
        ("/api/v1/audit?url=http://10.0.0.1/".into(), 422, "blocked_target"),
        (format!("/api/v1/audit?url=http://127.0.0.2:{fixture_port}/"), 422, "blocked_target"),
        (format!("/api/v1/audit?url=http://127.0.0.1:{}/", closed_port()), 502, "target_unreachable"),
        (format!("/api/v1/audit?url={}", site.url("/slow/index.html")), 504, "target_timeout"),
        (format!("/api/v1/audit?url={}", site.url("/data.json")), 422, "not_html"),
        (format!("/api/v1/audit?url={}", site.url("/big.html")), 422, "target_too_large"),
        ("/api/v1/nothing".into(), 404, "not_found"),
        ("/nothing-here".into(), 404, "not_found"),
    ];
    for (path, status, code) in cases {
        let a = t.get(&path).await;
        a.assert_error(status, code);
        if path.starts_with("/api/v1/audit?") || path == "/api/v1/audit" {
            validate_documented("GET", "/api/v1/audit", &a);
        }
        if code == "missing_parameter" {
            assert_eq!(a.body["error"]["details"]["parameter"], "url");
        }
    }

    let wrong_method = Answer::from(t.client.post(t.url("/api/v1/audit")).send().await.unwrap()).await;
    wrong_method.assert_error(405, "method_not_allowed");
    assert_eq!(wrong_method.header("allow"), Some("GET, HEAD"));
    let wrong_method = t.get("/api/v1/audit/batch").await;
    wrong_method.assert_error(405, "method_not_allowed");
    assert_eq!(wrong_method.header("allow"), Some("POST"));
}

#[tokio::test]
async fn keys_are_checked() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let page = t.audit_url(&site.url("/index.html"), "");
    let (good, _) = t.key(|_| {});
    let (disabled, d) = t.key(|_| {});
    t.db(|s| s.set_enabled(&d.id, false)).unwrap();
    let (expired, _) = t.key(|k| k.expires_at = Some(time::OffsetDateTime::now_utc() - time::Duration::hours(1)));
    let (mcp_only, _) = t.key(|k| k.scopes = vec!["mcp".into()]);
    let (revoked, r) = t.key(|_| {});
    t.db(|s| s.revoke(&r.id)).unwrap();

    let cases: Vec<(&str, Option<&str>, u16, Option<&str>)> = vec![
        (&page, Some(good.as_str()), 200, None),
        (&page, None, 200, None),
        (&page, Some("sa_unknownunknownunknownunknown00"), 401, Some("unauthorized")),
        (&page, Some(""), 401, Some("unauthorized")),
        (&page, Some(revoked.as_str()), 401, Some("unauthorized")),
        (&page, Some(disabled.as_str()), 403, Some("disabled")),
        (&page, Some(expired.as_str()), 403, Some("expired")),
        (&page, Some(mcp_only.as_str()), 403, Some("scope")),
    ];
    for (url, key, status, what) in cases {
        let mut req = t.client.get(url);
        if let Some(k) = key {
            req = req.header("x-api-key", k);
        }
        let a = Answer::from(req.send().await.unwrap()).await;
        assert_eq!(a.status, status, "{key:?}: {}", a.raw);
        match (status, what) {
            (401, _) => a.assert_error(401, "unauthorized"),
            (403, Some(reason)) => {
                a.assert_error(403, "forbidden");
                assert_eq!(a.body["error"]["details"]["reason"], reason);
            }
            _ => a.assert_common(),
        }
        validate_documented("GET", "/api/v1/audit", &a);
    }

    // The usage endpoint needs a key; any scope will do.
    t.get("/api/v1/usage").await.assert_error(401, "unauthorized");
    for (key, status) in [(&disabled, 403), (&expired, 403), (&revoked, 401), (&mcp_only, 200), (&good, 200)] {
        let a = Answer::from(t.client.get(t.url("/api/v1/usage")).header("x-api-key", key).send().await.unwrap()).await;
        assert_eq!(a.status, status, "{}", a.raw);
        validate_documented("GET", "/api/v1/usage", &a);
    }
}

#[tokio::test]
async fn usage_snapshot() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let (key, record) = t.key(|k| k.rate_limit = Some(7));
    let (_other, _) = t.key(|k| k.user_id = Some(record.user_id.clone()));
    for _ in 0..2 {
        let a = Answer::from(
            t.client.get(t.audit_url(&site.url("/index.html"), "")).header("x-api-key", &key).send().await.unwrap(),
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.raw);
        assert_eq!(a.header("x-ratelimit-limit"), Some("7"));
    }
    // The query parameter is accepted too.
    let a = t.get(&format!("/api/v1/usage?x-api-key={key}")).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.assert_common();
    validate_documented("GET", "/api/v1/usage", &a);
    let b = &a.body;
    assert_eq!(b["user_id"], record.user_id.as_str());
    assert_eq!(b["tier"], "free");
    assert_eq!(b["rate_limit_per_minute"], 7);
    assert_eq!(b["requests_this_minute"], 2);
    assert_eq!(b["requests_last_24h"], 2);
    assert_eq!(b["webhook_subscriptions"], 0);
    let keys = b["api_keys"].as_array().unwrap();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0]["key_prefix"], &key[..10]);
    assert!(keys[0]["last_used_at"].is_string(), "{}", keys[0]);
    assert!(!a.raw.contains(&key), "the key itself never appears in an answer");
    // Usage consumes no quota.
    assert!(a.header("x-ratelimit-limit").is_none());
}

#[tokio::test]
async fn status_and_openapi() {
    let t = TestServer::start(|_| {}).await;
    let a = t.get("/api/status").await;
    assert_eq!(a.status, 200);
    a.assert_common();
    validate_documented("GET", "/api/status", &a);
    assert_eq!((a.body["status"].as_str(), a.body["db"].as_str()), (Some("ok"), Some("up")));

    let doc = t.get("/openapi.json").await;
    assert_eq!(doc.status, 200);
    doc.assert_common();
    validate_documented("GET", "/openapi.json", &doc);
    assert_eq!(doc.body, server::openapi_document());
}

/// `docs/openapi.json` is generated from the routing table and the wire types (the `api`
/// crate) and must not go stale.
#[test]
fn openapi_json_is_generated() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json");
    let expected = server::openapi::render();
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("docs/openapi.json is writable");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == expected,
        "docs/openapi.json is stale or missing; regenerate it with\n\
         just openapi (UPDATE_DOCS=1 cargo test -p server --test it http::openapi_json_is_generated)\n\
         and commit the result"
    );
    assert_eq!(server::OPENAPI_JSON, expected, "the served document is the checked-in one");
}

/// The delivery body is listed for webhook receivers, though no operation answers it.
#[test]
fn openapi_lists_the_webhook_payload() {
    let doc = server::openapi_document();
    let s = &doc["components"]["schemas"];
    assert_eq!(s["WebhookPayload"]["required"], serde_json::json!(["id", "event", "createdAt", "data"]));
    // Every event, and the test event `ping` (docs/API.md, "Managing what a key created").
    let mut events = app::WEBHOOK_EVENTS.to_vec();
    events.push("ping");
    assert_eq!(s["WebhookPayload"]["properties"]["event"]["enum"], serde_json::json!(events));
}

/// The document and the routing table describe the same routes.
#[test]
fn openapi_matches_the_router() {
    let doc = server::openapi_document();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().expect("paths");
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            if ["get", "post", "put", "patch", "delete", "head", "options"].contains(&method.as_str()) {
                documented.push((method.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    let mut routed: Vec<(String, String)> =
        server::ROUTES.iter().map(|r| (r.method.to_string(), r.path.to_string())).collect();
    documented.sort();
    routed.sort();
    assert_eq!(documented, routed, "the OpenAPI paths and the routing table differ");
    for r in server::ROUTES {
        let op = &paths[r.path][r.method.as_str().to_ascii_lowercase()];
        let responses = op["responses"].as_object().unwrap();
        assert!(op["operationId"].is_string(), "{} {}", r.method, r.path);
        // Quota-consuming routes document the limit headers and 429.
        if r.consumes_quota {
            assert!(responses.contains_key("429"), "{} {} lacks 429", r.method, r.path);
            let ok = responses.iter().find(|(s, _)| s.starts_with('2')).unwrap().1;
            assert!(ok["headers"]["x-ratelimit-limit"].is_object(), "{} {}", r.method, r.path);
        } else {
            assert!(!responses.contains_key("429"), "{} {} documents 429 but consumes no quota", r.method, r.path);
        }
        if r.method == http::Method::POST {
            assert!(responses.contains_key("415") && responses.contains_key("413"), "{} {}", r.method, r.path);
        }
    }
}

#[tokio::test]
async fn batch_audits() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let index = site.url("/index.html");
    let about = site.url("/about.html");
    let body = json!({ "urls": [index, about, index, "ftp://nope/", "http://10.0.0.1/"], "format": "compact" });
    let a = Answer::from(t.client.post(t.url("/api/v1/audit/batch")).json(&body).send().await.unwrap()).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.assert_common();
    validate_documented("POST", "/api/v1/audit/batch", &a);
    let b = &a.body;
    assert_eq!((b["count"].as_u64(), b["succeeded"].as_u64(), b["failed"].as_u64()), (Some(5), Some(3), Some(2)));
    let results = b["results"].as_array().unwrap();
    let urls: Vec<&str> = results.iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert_eq!(urls, [index.as_str(), about.as_str(), index.as_str(), "ftp://nope/", "http://10.0.0.1/"]);
    assert_eq!(results[0]["result"], results[2]["result"], "a duplicate is audited once");
    assert_eq!(results[1]["result"]["url"], about);
    assert_eq!(results[3]["error"]["code"], "invalid_url");
    assert_eq!(results[4]["error"]["code"], "blocked_target");
    // Three distinct valid URLs: three units charged (blocked is audited, and fails).
    assert_eq!(a.header("x-ratelimit-remaining"), Some("9997"));
    // Duplicates stored once.
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 2);

    let post = |body: reqwest::Body, ct: &'static str| {
        t.client.post(t.url("/api/v1/audit/batch")).header("content-type", ct).body(body).send()
    };
    let cases: Vec<(reqwest::Body, &str, u16, &str)> = vec![
        (r#"{"urls": ["a"]}"#.into(), "text/plain", 415, "unsupported_media_type"),
        (r#"{"urls": ["a"]}"#.into(), "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ("{not json".into(), "application/json", 400, "invalid_request"),
        (r#"{"urls": "a"}"#.into(), "application/json", 400, "invalid_request"),
        (r#"{"urls": [1]}"#.into(), "application/json", 400, "invalid_request"),
        (r#"{"urls": []}"#.into(), "application/json", 400, "invalid_request"),
        (
            json!({ "urls": vec!["http://a.example/"; 11] }).to_string().into(),
            "application/json",
            400,
            "invalid_request",
        ),
        (r#"{"urls": ["a"], "format": "xml"}"#.into(), "application/json", 400, "invalid_request"),
        (r#"{"format": "json"}"#.into(), "application/json; charset=utf-8", 400, "missing_parameter"),
        (vec![b' '; 1024 * 1024 + 1].into(), "application/json", 413, "payload_too_large"),
    ];
    for (body, ct, status, code) in cases {
        let a = Answer::from(post(body, ct).await.unwrap()).await;
        a.assert_error(status, code);
        validate_documented("POST", "/api/v1/audit/batch", &a);
    }
    // Without Content-Length (chunked), the limit holds while reading.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..20).map(|_| Ok(vec![b' '; 64 * 1024])).collect();
    let streamed = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let a = Answer::from(post(streamed, "application/json").await.unwrap()).await;
    a.assert_error(413, "payload_too_large");
}

#[tokio::test]
async fn batch_reserves_quota_up_front() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(3));
    let batch = |urls: Vec<String>| {
        t.client.post(t.url("/api/v1/audit/batch")).header("x-api-key", &key).json(&json!({ "urls": urls })).send()
    };
    let (index, about) = (site.url("/index.html"), site.url("/about.html"));
    let a = Answer::from(batch(vec![index.clone(), about.clone(), index.clone()]).await.unwrap()).await;
    assert_eq!((a.status, a.header("x-ratelimit-remaining")), (200, Some("1")), "{}", a.raw);
    // Two distinct URLs with one unit left: refused, and nothing consumed.
    let a = Answer::from(batch(vec![index.clone(), about.clone()]).await.unwrap()).await;
    a.assert_error(429, "rate_limited");
    validate_documented("POST", "/api/v1/audit/batch", &a);
    assert!(a.header("retry-after").and_then(|v| v.parse::<u64>().ok()).is_some_and(|s| (1..=60).contains(&s)));
    let a = Answer::from(batch(vec![index.clone()]).await.unwrap()).await;
    assert_eq!((a.status, a.header("x-ratelimit-remaining")), (200, Some("0")), "{}", a.raw);
}

#[tokio::test]
async fn rate_limit_is_exact_under_concurrency() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    // The fetch limits of the test server (0.8 s) are raised: what is counted here is the
    // quota, and ten audits at once on a busy machine may take longer than that to fetch.
    let t = Arc::new(
        TestServer::start(|c| {
            c.rate_limits.anonymous = 10;
            c.fetch.total_timeout_ms = 10_000;
            c.fetch.connect_timeout_ms = 10_000;
        })
        .await,
    );
    let url = t.audit_url(&site.url("/index.html"), "&format=compact");
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let t = t.clone();
            let url = url.clone();
            tokio::spawn(async move { Answer::from(t.client.get(url).send().await.unwrap()).await })
        })
        .collect();
    let mut ok = 0;
    let mut limited = 0;
    for task in tasks {
        let a = task.await.unwrap();
        match a.status {
            200 => ok += 1,
            429 => {
                limited += 1;
                a.assert_error(429, "rate_limited");
                assert!(a.header("retry-after").is_some());
                assert_eq!(a.header("x-ratelimit-remaining"), Some("0"));
                assert_eq!(a.header("x-ratelimit-limit"), Some("10"));
                validate_documented("GET", "/api/v1/audit", &a);
            }
            other => panic!("unexpected {other}: {}", a.raw),
        }
    }
    assert_eq!((ok, limited), (10, 40));
    // Status and usage consume nothing and are never limited.
    assert_eq!(t.get("/api/status").await.status, 200);
}

#[tokio::test]
async fn anonymous_ipv6_clients_share_the_quota_of_their_prefix() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    // The test client connects from 127.0.0.1, which is made a trusted proxy, so the
    // client address is the X-Forwarded-For one.
    let t = TestServer::start(|c| {
        c.rate_limits.anonymous = 3;
        c.widget_rate_limit = 2;
        c.badge_audit_url = String::new();
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let url = t.audit_url(&site.url("/index.html"), "&format=compact");
    let audit_from = |client: &'static str| {
        let request = t.client.get(&url).header("x-forwarded-for", client);
        async move { Answer::from(request.send().await.unwrap()).await }
    };
    let remaining = |a: &Answer| (a.status, a.header("x-ratelimit-remaining").map(str::to_string));
    let left = |status: u16, n: &str| (status, Some(n.to_string()));
    // Three addresses of one /64 draw on one quota of 3.
    assert_eq!(remaining(&audit_from("2001:db8:1:2::1").await), left(200, "2"));
    assert_eq!(remaining(&audit_from("2001:db8:1:2:ffff:ffff:ffff:fffe").await), left(200, "1"));
    assert_eq!(remaining(&audit_from("2001:db8:1:2:1234::9").await), left(200, "0"));
    let refused = audit_from("2001:db8:1:2:abcd::7").await;
    refused.assert_error(429, "rate_limited");
    // The next /64 has its own.
    assert_eq!(remaining(&audit_from("2001:db8:1:3::1").await), left(200, "2"));
    // An IPv4-mapped address is its IPv4 address.
    assert_eq!(remaining(&audit_from("198.51.100.7").await), left(200, "2"));
    assert_eq!(remaining(&audit_from("::ffff:198.51.100.7").await), left(200, "1"));

    // The badge's flood guard counts the same way.
    let badge_from = |client: &'static str| {
        let request = t.client.get(t.url("/api/widget?domain=example.com")).header("x-forwarded-for", client);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(badge_from("2001:db8:9:9::1").await, 200);
    assert_eq!(badge_from("2001:db8:9:9::2").await, 200);
    assert_eq!(badge_from("2001:db8:9:9:ffff::3").await, 429);
    assert_eq!(badge_from("2001:db8:9:a::1").await, 200);
}

#[tokio::test]
async fn a_configured_ipv6_prefix_is_used() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| {
        c.rate_limits.anonymous = 3;
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.anonymous_ipv6_prefix = 48;
    })
    .await;
    let url = t.audit_url(&site.url("/index.html"), "&format=compact");
    let mut left = Vec::new();
    for client in ["2001:db8:7:1::1", "2001:db8:7:2::1", "2001:db8:8:1::1"] {
        let a = Answer::from(t.client.get(&url).header("x-forwarded-for", client).send().await.unwrap()).await;
        left.push(a.header("x-ratelimit-remaining").unwrap_or_default().to_string());
    }
    assert_eq!(left, ["2", "1", "2"], "two /64s of one /48 share; another /48 does not");
}

#[tokio::test]
async fn overloaded_when_slots_and_queue_are_full() {
    let site = fixture_site("server-basic").await;
    let t = Arc::new(
        TestServer::start(|c| {
            c.max_concurrent_audits = 1;
            c.audit_queue = 0;
            c.fetch.total_timeout_ms = 5_000;
            c.fetch.text_timeout_ms = 5_000;
        })
        .await,
    );
    let slow = t.audit_url(&site.url("/slow/index.html"), "");
    let first = {
        let t = t.clone();
        tokio::spawn(async move { Answer::from(t.client.get(slow).send().await.unwrap()).await })
    };
    // Wait until the first audit holds the only slot (its fetch reached the fixture).
    while site.slow_hits.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let second = t.get(&t.audit_url(&site.url("/index.html"), "")[t.base.len()..]).await;
    second.assert_error(503, "overloaded");
    validate_documented("GET", "/api/v1/audit", &second);
    let batch = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .json(&json!({"urls": [site.url("/index.html")]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    batch.assert_error(503, "overloaded");
    assert_eq!(first.await.unwrap().status, 200);
    // The slot is free again.
    assert_eq!(t.get(&t.audit_url(&site.url("/index.html"), "")[t.base.len()..]).await.status, 200);
}

#[tokio::test]
async fn restart_keeps_keys_and_audits() {
    let site = fixture_site("server-basic").await;
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let t = TestServer::start_in(dir.clone(), |_| {}).await;
    let (key, _) = t.key(|_| {});
    let page = site.url("/about.html");
    let a = Answer::from(t.client.get(t.audit_url(&page, "")).header("x-api-key", &key).send().await.unwrap()).await;
    assert_eq!(a.status, 200);
    t.server.shutdown().await;

    let t = TestServer::start_in(dir, |_| {}).await;
    let a = Answer::from(t.client.get(t.url("/api/v1/usage")).header("x-api-key", &key).send().await.unwrap()).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    assert!(a.body["requests_last_24h"].as_u64().is_some_and(|n| n >= 1), "{}", a.raw);
    let stored = t.db(|s| s.latest_audit_for_url(&page)).unwrap().expect("audit kept");
    assert!(stored.user_id.is_some());
}

#[tokio::test]
async fn shutdown_finishes_requests_in_flight() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| {
        c.fetch.total_timeout_ms = 5_000;
        c.fetch.text_timeout_ms = 5_000;
    })
    .await;
    let slow = t.client.get(t.audit_url(&site.url("/slow/index.html"), "")).send();
    let in_flight = tokio::spawn(async move { Answer::from(slow.await.unwrap()).await });
    while site.slow_hits.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let base = t.base.clone();
    t.server.shutdown().await;
    let a = in_flight.await.unwrap();
    assert_eq!(a.status, 200, "{}", a.raw);
    // Nothing listens any more.
    let fresh = reqwest::Client::builder().no_proxy().build().unwrap();
    assert!(fresh.get(format!("{base}/api/status")).send().await.is_err());
}

/// A site on loopback that answers every request with a small HTML page and keeps the
/// `User-Agent` of each request it got.
async fn user_agent_recorder() -> (std::net::SocketAddr, Arc<std::sync::Mutex<Vec<String>>>) {
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = seen.clone();
    let addr = Pages::serve(move |req: &wiremock::Request| {
        let ua = req.headers.get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        keep.lock().unwrap().push(ua);
        let page = "<!doctype html><html lang=en><head><title>Recorder</title></head><body><h1>Hi</h1></body></html>";
        ResponseTemplate::new(200).set_body_raw(page, "text/html; charset=utf-8")
    })
    .await
    .leak();
    (addr, seen)
}

#[tokio::test]
async fn the_bot_page_describes_the_bot_that_fetches() {
    let (site, seen) = user_agent_recorder().await;
    let t = TestServer::start(|c| {
        c.base_url = "https://audit.example".to_string();
        c.fetch = server::FetchSettings::default();
    })
    .await;
    let a = t.get(&format!("/api/v1/audit?url=http://{site}/")).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    let sent: Vec<String> = seen.lock().unwrap().clone();
    assert!(!sent.is_empty());
    let ua = sent[0].clone();
    assert!(sent.iter().all(|s| *s == ua), "one user agent for page and robots.txt: {sent:?}");
    assert!(ua.starts_with("SeoAuditBot/") && ua.ends_with(" (+https://audit.example/bot)"), "{ua}");

    // The address in the user agent is served: its path on this instance is /bot.
    let page = t.get("/bot").await;
    assert_eq!(page.status, 200, "{}", page.raw);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    for (name, value) in pages::HTML_SECURITY_HEADERS {
        assert_eq!(page.header(name), Some(*value), "{name}");
    }
    assert!(page.header("x-request-id").is_some());
    assert!(page.header("x-ratelimit-limit").is_none(), "no quota");
    let doc = server::openapi_document();
    let ok = &doc["paths"]["/bot"]["get"]["responses"]["200"];
    assert!(ok["content"]["text/html"].is_object(), "{ok}");
    for name in ok["headers"].as_object().unwrap().keys() {
        assert!(page.header(name).is_some(), "documented header {name} missing");
    }

    let html = &page.raw;
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains(&format!("<code>{ua}</code>")), "the page shows the user agent really sent: {html}");
    for text in [
        "robots.txt product token",
        "<code>SeoAuditBot</code>",
        "<code>/robots.txt</code> and <code>/llms.txt</code>",
        "Competitor pages",
        "never follows the links",
        "Scheduled monitoring obeys robots.txt",
        "5 s to connect, 15 s in all",
        "At most 5 MiB of a page",
        "At most 5 redirects",
        "User-agent: SeoAuditBot\nDisallow: /",
        "operator of that instance is the contact",
        "https://audit.example",
    ] {
        assert!(html.contains(text), "missing {text:?}");
    }
    for banned in ["<script", "src=", "http://", "<link", "@import", "url("] {
        assert!(!html.contains(banned), "{banned} in the page");
    }

    // The limits shown are this instance's own.
    let t = TestServer::start(|c| c.fetch.max_body_bytes = 256 * 1024).await;
    let html = t.get("/bot").await.raw;
    assert!(html.contains("At most 256 KiB of a page") && html.contains("800 ms to connect, 800 ms in all"), "{html}");
}

/// The answer to `HEAD path` as raw bytes over HTTP/1.1: the head, and whatever followed it
/// before the server closed the connection.
async fn raw_head(t: &TestServer, path: &str) -> (String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(t.server.local_addr()).await.unwrap();
    let req = format!("HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut all = Vec::new();
    stream.read_to_end(&mut all).await.unwrap();
    let end = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete head") + 4;
    (String::from_utf8_lossy(&all[..end]).to_string(), all[end..].to_vec())
}

fn raw_header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// HEAD's `content-length` is the length of GET's body. `/api/status` carries `latency_ms`
/// and `uptime_s`, whose digit count can change between two calls on a busy machine (the
/// other tests of this binary run meanwhile): there, a difference of a few digits is allowed.
fn assert_same_length(path: &str, head: usize, get: usize) {
    if path == "/api/status" {
        assert!(head.abs_diff(get) <= 3, "{path}: HEAD says {head} bytes, GET sent {get}");
    } else {
        assert_eq!(head, get, "{path}");
    }
}

#[tokio::test]
async fn head_is_get_without_the_body() {
    let t = TestServer::start(|c| c.badge_audit_url = String::new()).await;
    let h2 = reqwest::Client::builder().no_proxy().http2_prior_knowledge().build().unwrap();
    for path in ["/api/status", "/openapi.json", "/bot", "/", "/widget.js", "/report/example.com", "/api/v1/usage"] {
        let get = t.client.get(t.url(path)).send().await.unwrap();
        let (status, get_headers) = (get.status(), get.headers().clone());
        let body = get.bytes().await.unwrap();
        assert!(!body.is_empty(), "{path}");
        for client in [&t.client, &h2] {
            let head = client.head(t.url(path)).send().await.unwrap();
            assert_eq!(head.status(), status, "{path}");
            let headers = head.headers().clone();
            assert_eq!(head.bytes().await.unwrap().len(), 0, "{path}");
            let names = |h: &reqwest::header::HeaderMap| {
                let mut n: Vec<String> = h.keys().map(|k| k.to_string()).filter(|k| k != "date").collect();
                n.sort();
                n
            };
            let mut want = names(&get_headers);
            if !want.contains(&"content-length".to_string()) {
                want.push("content-length".to_string());
                want.sort();
            }
            assert_eq!(names(&headers), want, "{path}");
            for (name, value) in &headers {
                if !["x-request-id", "date", "content-length"].contains(&name.as_str()) {
                    assert_eq!(get_headers.get(name), Some(value), "{path}: {name}");
                }
            }
            let length: usize = headers["content-length"].to_str().unwrap().parse().unwrap();
            assert_same_length(path, length, body.len());
        }
        // On the wire: the head, and not one byte after it.
        let (head, rest) = raw_head(&t, path).await;
        assert!(head.starts_with(&format!("HTTP/1.1 {}", status.as_u16())), "{path}: {head}");
        let length: usize = raw_header(&head, "content-length").expect("content-length").parse().unwrap();
        assert_same_length(path, length, body.len());
        assert!(
            rest.is_empty(),
            "{path}: a body after the head of a HEAD answer: {:?}",
            String::from_utf8_lossy(&rest)
        );
    }

    // Errors too: the 405 of a POST-only path, the 404 of an unknown one.
    for (path, status) in [("/api/v1/audit/batch", 405), ("/nothing-here", 404)] {
        let (head, rest) = raw_head(&t, path).await;
        assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{head}");
        assert!(raw_header(&head, "content-length").is_some_and(|n| n != "0"), "{head}");
        assert!(rest.is_empty(), "{path}");
        if status == 405 {
            assert_eq!(raw_header(&head, "allow"), Some("POST"));
        }
    }
}

#[tokio::test]
async fn head_on_an_audit_route_audits_and_consumes_quota() {
    away_from_minute_boundary().await;
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.rate_limits.anonymous = 5).await;
    let url = t.audit_url(&site.url("/index.html"), "");
    let head = t.client.head(&url).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["x-ratelimit-remaining"], "4");
    assert!(head.headers()["content-length"].to_str().unwrap().parse::<u64>().unwrap() > 100);
    assert!(head.bytes().await.unwrap().is_empty());
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1, "the HEAD ran and stored the audit");
    let get = Answer::from(t.client.get(&url).send().await.unwrap()).await;
    assert_eq!((get.status, get.header("x-ratelimit-remaining")), (200, Some("3")), "{}", get.raw);
    // A HEAD the quota refuses is the GET's 429, without the body.
    let t = TestServer::start(|c| c.rate_limits.anonymous = 1).await;
    let url = t.audit_url(&site.url("/index.html"), "");
    assert_eq!(t.client.head(&url).send().await.unwrap().status(), 200);
    let refused = t.client.head(&url).send().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(t.db(|s| s.count_audits()).unwrap(), 1);
}

#[tokio::test]
async fn allow_names_head_wherever_get_is_allowed() {
    let t = TestServer::start(|_| {}).await;
    let cases: &[(reqwest::Method, &str, &str)] = &[
        (reqwest::Method::POST, "/api/status", "GET, HEAD"),
        (reqwest::Method::PUT, "/bot", "GET, HEAD"),
        (reqwest::Method::DELETE, "/api/v1/webhooks", "POST, GET, HEAD"),
        (reqwest::Method::GET, "/api/v1/webhooks/w1", "DELETE, PATCH"),
        (reqwest::Method::OPTIONS, "/report/example.com", "GET, HEAD"),
        (reqwest::Method::GET, "/api/geo-check", "POST"),
    ];
    for (method, path, allow) in cases {
        let a = Answer::from(t.client.request(method.clone(), t.url(path)).send().await.unwrap()).await;
        a.assert_error(405, "method_not_allowed");
        assert_eq!(a.header("allow"), Some(*allow), "{method} {path}");
        assert!(a.body["error"]["message"].as_str().unwrap().contains(allow), "{}", a.raw);
    }
}

#[tokio::test]
async fn every_method_but_post_on_mcp_answers_like_get() {
    let t = TestServer::start(|_| {}).await;
    let get = Answer::from(t.client.get(t.url("/api/mcp")).send().await.unwrap()).await;
    assert_eq!((get.status, get.header("allow")), (405, Some("POST")), "{}", get.raw);
    assert_eq!(get.body["error"]["code"], -32600);
    let methods = ["PUT", "PATCH", "OPTIONS", "DELETE", "PROPFIND", "TRACE"];
    for name in methods {
        let method = reqwest::Method::from_bytes(name.as_bytes()).unwrap();
        let a = Answer::from(t.client.request(method, t.url("/api/mcp")).send().await.unwrap()).await;
        assert_eq!((a.status, a.header("allow")), (405, Some("POST")), "{name}: {}", a.raw);
        assert_eq!(a.header("content-type"), Some(server::JSON_CONTENT_TYPE), "{name}");
        assert_eq!(a.body, get.body, "{name}: the JSON-RPC error of GET, not the REST error body");
        assert!(a.body.get("ok").is_none(), "{name}");
        validate_documented("GET", "/api/mcp", &a);
    }
    let (head, rest) = raw_head(&t, "/api/mcp").await;
    assert!(head.starts_with("HTTP/1.1 405"), "{head}");
    assert_eq!(raw_header(&head, "allow"), Some("POST"));
    assert_eq!(raw_header(&head, "content-length"), Some(get.raw.len().to_string().as_str()));
    assert!(rest.is_empty());
    // POST is still the endpoint.
    let post = Answer::from(
        t.client
            .post(t.url("/api/mcp"))
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(post.status, 200, "{}", post.raw);
}

/// The schema checks above can fail: a body that breaks the Error schema is caught.
#[test]
#[should_panic(expected = "does not match")]
fn schema_validation_rejects_wrong_bodies() {
    validate_schema(
        "Error",
        &json!({ "ok": false, "api_version": "v1", "error": { "code": "no_such_code", "message": "x" } }),
    );
}
