//! End-to-end tests over loopback: the real server on port 0, a real SQLite file, fixture
//! sites served by a local HTTP server, reqwest as the client.

mod common;

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

    // A page answering 404 is still an audit (DECISIONS §1).
    let missing = t.get(&format!("/api/v1/audit?url={}", site.url("/nope.html"))).await;
    assert_eq!((missing.status, missing.body["page"]["status_code"].as_u64()), (200, Some(404)), "{}", missing.raw);

    // Every audit is stored with its full result.
    let stored = t.store.latest_audit_for_url(&page).unwrap().expect("stored audit");
    let result: serde_json::Value = serde_json::from_str(&stored.result_json).unwrap();
    validate_schema("AuditResult", &result);
    assert_eq!(t.store.count_audits().unwrap(), 3);
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
    assert_eq!(wrong_method.header("allow"), Some("GET"));
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
    t.store.set_enabled(&d.id, false).unwrap();
    let (expired, _) = t.key(|k| k.expires_at = Some(time::OffsetDateTime::now_utc() - time::Duration::hours(1)));
    let (mcp_only, _) = t.key(|k| k.scopes = vec!["mcp".into()]);
    let (revoked, r) = t.key(|_| {});
    t.store.revoke(&r.id).unwrap();

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
    assert_eq!(b["user_id"], record.user_id);
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
    assert_eq!(t.store.count_audits().unwrap(), 2);

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
    let t = Arc::new(TestServer::start(|c| c.rate_limits.anonymous = 10).await);
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
    let stored = t.store.latest_audit_for_url(&page).unwrap().expect("audit kept");
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

/// The schema checks above can fail: a body that breaks the Error schema is caught.
#[test]
#[should_panic(expected = "does not match")]
fn schema_validation_rejects_wrong_bodies() {
    validate_schema(
        "Error",
        &json!({ "ok": false, "api_version": "v1", "error": { "code": "no_such_code", "message": "x" } }),
    );
}
