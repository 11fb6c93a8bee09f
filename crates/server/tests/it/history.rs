//! Stored audits read back over the API (docs/API.md, "Stored audits"): the real server, a
//! real SQLite file, audits made through `GET /api/v1/audit` of a loopback fixture site and
//! rows written through the store (for other hosts and older dates).

use crate::common;

use common::*;
use serde_json::{json, Value};
use time::OffsetDateTime;

fn q(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn get(t: &TestServer, path: &str, key: Option<&str>) -> Answer {
    let mut req = t.client.get(t.url(path));
    if let Some(key) = key {
        req = req.header("x-api-key", key);
    }
    Answer::from(req.send().await.unwrap()).await
}

/// Audits `url` through the API with `key` (or anonymously): the answer's body.
async fn audit(t: &TestServer, url: &str, key: Option<&str>) -> Value {
    let mut req = t.client.get(t.audit_url(url, ""));
    if let Some(key) = key {
        req = req.header("x-api-key", key);
    }
    let a = Answer::from(req.send().await.unwrap()).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.body
}

/// A row written through the store: `user`'s (or public), `final_url`, `minutes_ago`.
fn stored(
    t: &TestServer,
    user: Option<&app::UserId>,
    final_url: &str,
    minutes_ago: i64,
    score: i64,
) -> store::StoredAudit {
    let result = json!({
        "ok": true, "api_version": "v1",
        "page": {"url": final_url, "final_url": final_url, "status_code": 200},
        "score": {"percentage": score, "current": score, "max": 100, "ruleset_version": "1.0.0"},
        "recommendations": [
            {"id": "title-missing", "type": "critical"},
            {"id": "meta-description-missing", "type": "warning"},
            {"id": "og-missing", "type": "notice"},
            {"id": "lang-missing", "type": "notice"}
        ]
    });
    let mut new = store::NewAudit::new(final_url, final_url, score, "1.0.0", result.to_string());
    new.user_id = user.cloned();
    new.created_at = OffsetDateTime::now_utc() - time::Duration::minutes(minutes_ago);
    t.db(|s| s.insert_audit(new)).unwrap()
}

fn ids(list: &Value) -> Vec<String> {
    list["audits"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_owned()).collect()
}

/// Every page of a listing, following `next_cursor` with the same filters.
async fn all_pages(t: &TestServer, key: &str, filters: &str, limit: usize) -> (Vec<String>, usize) {
    let (mut got, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let mut path = format!("/api/v1/audits?limit={limit}{filters}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={}", q(c)));
        }
        let a = get(t, &path, Some(key)).await;
        assert_eq!(a.status, 200, "{path}: {}", a.raw);
        validate_documented("GET", "/api/v1/audits", &a);
        assert!(a.body["audits"].as_array().unwrap().len() <= limit);
        got.extend(ids(&a.body));
        pages += 1;
        match a.body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => {
                assert_eq!(a.body["next_cursor"], Value::Null);
                return (got, pages);
            }
        }
        assert!(pages < 20, "paging does not end");
    }
}

#[tokio::test]
async fn an_owner_lists_pages_and_filters_their_audits() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("server-basic").await;
    let (alice, alice_key) = t.key(|_| {});
    let (bob, _) = t.key(|_| {});
    let alice_id = alice_key.user_id.clone();

    // Alice: two audits of the home page and one of another page, through the API; two
    // older rows on another host.
    let home = site.url("/");
    let about = site.url("/about.html");
    let old_shop = stored(&t, Some(&alice_id), "https://shop.example/", 60 * 24 * 3, 30);
    let older_shop = stored(&t, Some(&alice_id), "https://shop.example/a", 60 * 24 * 5, 20);
    let mut made = Vec::new();
    for url in [&home, &about, &home] {
        made.push(audit(&t, url, Some(&alice)).await);
    }
    // Not Alice's: Bob's and an anonymous audit of the same page.
    audit(&t, &home, Some(&bob)).await;
    audit(&t, &home, None).await;

    // Newest first, across pages of 2 with the cursor the server gave.
    let first = get(&t, "/api/v1/audits?limit=2", Some(&alice)).await;
    assert_eq!(first.status, 200, "{}", first.raw);
    assert_eq!(first.body["audits"].as_array().unwrap().len(), 2);
    assert!(first.body["next_cursor"].is_string());
    assert!(first.header("x-ratelimit-limit").is_none(), "reads consume no quota");
    let (listed, pages) = all_pages(&t, &alice, "", 2).await;
    assert_eq!(pages, 3);
    assert_eq!(listed.len(), 5, "{listed:?}");
    assert_eq!(&listed[3..], [old_shop.id.clone(), older_shop.id.clone()]);
    let newest = get(&t, "/api/v1/audits", Some(&alice)).await;
    assert_eq!(ids(&newest.body), listed, "one page of the default size holds all five");
    let times: Vec<&str> =
        newest.body["audits"].as_array().unwrap().iter().map(|a| a["created_at"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");

    // Each item: the summary of its audit, counts as in the full result.
    let item = &newest.body["audits"][0];
    let full = &made[2];
    assert_eq!(item["url"], home.as_str());
    assert_eq!(item["final_url"], full["page"]["final_url"]);
    assert_eq!(item["score"], full["score"]["percentage"]);
    assert_eq!(item["ruleset_version"], full["score"]["ruleset_version"]);
    let count = |sev: &str| full["recommendations"].as_array().unwrap().iter().filter(|r| r["type"] == sev).count();
    assert_eq!(
        item["issues"],
        json!({"critical": count("critical"), "warning": count("warning"), "notice": count("notice")})
    );
    assert!(item.get("recommendations").is_none() && item.get("result").is_none());
    let shop = newest.body["audits"].as_array().unwrap().iter().find(|a| a["id"] == old_shop.id.as_str()).unwrap();
    assert_eq!(shop["issues"], json!({"critical": 1, "warning": 1, "notice": 2}));

    // Filters: the requested URL (a bare form normalised), the host, the date.
    let by_url = all_pages(&t, &alice, &format!("&url={}", q(&home)), 1).await;
    assert_eq!(by_url.0, [listed[0].clone(), listed[2].clone()]);
    let bare = home.trim_start_matches("http://").trim_end_matches('/');
    let by_bare = get(&t, &format!("/api/v1/audits?url={}", q(&format!("https://{bare}/"))), Some(&alice)).await;
    assert_eq!(ids(&by_bare.body), Vec::<String>::new(), "another scheme is another URL");
    let by_domain = all_pages(&t, &alice, "&domain=SHOP.example.", 1).await;
    assert_eq!(by_domain.0, [old_shop.id.clone(), older_shop.id.clone()]);
    let since = app::format_rfc3339(OffsetDateTime::now_utc() - time::Duration::days(4));
    let by_since = all_pages(&t, &alice, &format!("&since={}", q(&since)), 10).await;
    assert_eq!(by_since.0, listed[..4]);
    let combined = get(&t, &format!("/api/v1/audits?domain=shop.example&since={}", q(&since)), Some(&alice)).await;
    assert_eq!(ids(&combined.body), vec![old_shop.id.clone()]);

    // Bob sees his one audit only.
    let bobs = get(&t, "/api/v1/audits", Some(&bob)).await;
    assert_eq!(bobs.body["audits"].as_array().unwrap().len(), 1);
    assert!(!listed.contains(&ids(&bobs.body)[0]));
}

#[tokio::test]
async fn one_audit_reads_back_as_it_was_answered_and_only_for_its_owner() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("server-basic").await;
    let (alice, _) = t.key(|_| {});
    let (bob, _) = t.key(|_| {});
    let answer = audit(&t, &site.url("/"), Some(&alice)).await;
    audit(&t, &site.url("/"), None).await;
    let list = get(&t, "/api/v1/audits", Some(&alice)).await;
    let id = ids(&list.body)[0].clone();
    let anonymous_id =
        t.db(|s| s.audits_for_url(&site.url("/"), 10)).unwrap().into_iter().find(|a| a.public).unwrap().id;

    let a = get(&t, &format!("/api/v1/audits/{id}"), Some(&alice)).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/audits/{id}", &a);
    let mut body = a.body.clone();
    let obj = body.as_object_mut().unwrap();
    assert_eq!(obj.remove("id"), Some(json!(id)));
    assert_eq!(obj.remove("created_at"), list.body["audits"][0].get("created_at").cloned());
    assert_eq!(body, answer, "the stored result is the answer the audit gave, envelope included");

    // Another owner's id, an anonymous audit's id and an unknown id answer alike.
    for (path, key) in [
        (format!("/api/v1/audits/{id}"), &bob),
        (format!("/api/v1/audits/{anonymous_id}"), &alice),
        ("/api/v1/audits/0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b".to_owned(), &alice),
        (format!("/api/v1/audits/{}", "x".repeat(300)), &alice),
    ] {
        let a = get(&t, &path, Some(key)).await;
        a.assert_error(404, "not_found");
        validate_documented("GET", "/api/v1/audits/{id}", &a);
    }
}

#[tokio::test]
async fn bad_parameters_and_keys_are_refused() {
    let t = TestServer::start(|_| {}).await;
    let (alice, _) = t.key(|_| {});
    let (hooks_only, _) = t.key(|k| k.scopes = vec!["webhooks".into()]);
    for (query, parameter) in [
        ("cursor=garbage", "cursor"),
        ("cursor=YTE6eWVzdGVyZGF5IHg", "cursor"), // base64url of "a1:yesterday x"
        ("since=yesterday", "since"),
        ("since=2026-11-01", "since"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("domain=ex%20ample.com", "domain"),
        ("domain=", "domain"),
    ] {
        let a = get(&t, &format!("/api/v1/audits?{query}"), Some(&alice)).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], parameter, "{query}");
        let message = a.body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("The parameter `{parameter}` must be ")), "{message}");
        validate_documented("GET", "/api/v1/audits", &a);
    }
    let a = get(&t, "/api/v1/history?url=https%3A%2F%2Fa.example%2F&limit=501", Some(&alice)).await;
    a.assert_error(400, "invalid_request");
    get(&t, "/api/v1/history", Some(&alice)).await.assert_error(400, "missing_parameter");
    // A malformed `url` is refused as the audit refuses it: same code, same sentence.
    let audit = get(&t, "/api/v1/audit?url=http%3A%2F%2F", None).await;
    audit.assert_error(400, "invalid_url");
    for path in ["/api/v1/audits?url=http%3A%2F%2F", "/api/v1/history?url=http%3A%2F%2F"] {
        let a = get(&t, path, Some(&alice)).await;
        a.assert_error(400, "invalid_url");
        assert_eq!(a.body["error"]["message"], audit.body["error"]["message"], "{path}");
    }

    for path in ["/api/v1/audits", "/api/v1/audits/some-id"] {
        let a = get(&t, path, None).await;
        a.assert_error(401, "unauthorized");
        // A remote caller is sent to the operator, never told to run the operator's command.
        let message = a.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("ask the operator") && !message.contains("keys create"), "{message}");
        let a = get(&t, path, Some(&hooks_only)).await;
        a.assert_error(403, "forbidden");
        assert_eq!(a.body["error"]["details"]["scope"], "audit");
    }
    get(&t, "/api/v1/history?url=a.example", Some(&hooks_only)).await.assert_error(403, "forbidden");
    get(&t, "/api/v1/history?url=a.example", Some("sa_unknownunknownunknownunknown00"))
        .await
        .assert_error(401, "unauthorized");
}

#[tokio::test]
async fn history_is_oldest_first_own_with_a_key_and_public_without() {
    let t = TestServer::start(|_| {}).await;
    let (alice, key) = t.key(|_| {});
    let url = "https://shop.example/";
    let mine: Vec<_> =
        [(50, 40), (40, 55), (30, 70)].iter().map(|&(ago, s)| stored(&t, Some(&key.user_id), url, ago, s)).collect();
    let public: Vec<_> = [(45, 10), (35, 20)].iter().map(|&(ago, s)| stored(&t, None, url, ago, s)).collect();
    stored(&t, Some(&key.user_id), "https://shop.example/other", 10, 99);

    let a = get(&t, "/api/v1/history?url=shop.example", Some(&alice)).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/history", &a);
    assert_eq!(a.body["url"], url, "normalised as an audit target");
    assert_eq!(ids(&a.body), mine.iter().map(|m| m.id.clone()).collect::<Vec<_>>());
    let scores: Vec<i64> = a.body["audits"].as_array().unwrap().iter().map(|p| p["score"].as_i64().unwrap()).collect();
    assert_eq!(scores, [40, 55, 70]);
    assert_eq!(a.body["audits"][0]["ruleset_version"], "1.0.0");
    assert_eq!(a.body["audits"][0]["issues"], json!({"critical": 1, "warning": 1, "notice": 2}));
    assert!(a.header("x-ratelimit-limit").is_none());

    // The newest `limit`, still oldest first.
    let two = get(&t, &format!("/api/v1/history?url={}&limit=2", q(url)), Some(&alice)).await;
    assert_eq!(ids(&two.body), [mine[1].id.clone(), mine[2].id.clone()]);

    // Without a key: the public audits only.
    let anon = get(&t, &format!("/api/v1/history?url={}", q(url)), None).await;
    assert_eq!(anon.status, 200, "{}", anon.raw);
    validate_documented("GET", "/api/v1/history", &anon);
    assert_eq!(ids(&anon.body), public.iter().map(|m| m.id.clone()).collect::<Vec<_>>());

    let none = get(&t, "/api/v1/history?url=https%3A%2F%2Fnever.example%2F", Some(&alice)).await;
    assert_eq!(none.body["audits"], json!([]));
}

#[tokio::test]
async fn the_report_page_charts_the_public_history_of_its_page() {
    let t = TestServer::start(|_| {}).await;
    let (_, key) = t.key(|_| {});
    for (ago, score) in [(400, 35), (300, 50), (200, 45), (100, 80)] {
        stored(&t, None, "https://chart.example/", ago, score);
    }
    // Not on the chart: another page of the domain, and a private audit of the same page.
    stored(&t, None, "https://chart.example/other", 150, 5);
    stored(&t, Some(&key.user_id), "https://chart.example/", 50, 99);

    let page = t.get("/report/chart.example").await;
    assert_eq!(page.status, 200, "{}", page.raw);
    let html = &page.raw;
    assert_eq!(html.matches("<svg class=\"score-chart\"").count(), 1, "{html}");
    assert_eq!(html.matches("<circle class=\"point\"").count(), 4);
    assert!(html.contains("4 audits, from 35 on"), "{html}");
    assert!(html.contains("to 80 on"));
    assert!(!html.contains("<script"));

    // A single audit draws no chart.
    stored(&t, None, "https://single.example/", 10, 60);
    let single = t.get("/report/single.example").await;
    assert_eq!(single.status, 200);
    assert!(!single.raw.contains("score-chart"));
}

#[tokio::test]
async fn anonymous_history_is_held_by_the_flood_guard_and_keyed_history_is_not() {
    let t = TestServer::start(|c| c.widget_rate_limit = 2).await;
    let (alice, _) = t.key(|_| {});
    let path = "/api/v1/history?url=https%3A%2F%2Fshop.example%2F";
    for _ in 0..2 {
        assert_eq!(get(&t, path, None).await.status, 200);
    }
    let refused = get(&t, path, None).await;
    refused.assert_error(429, "rate_limited");
    assert!(refused.header("retry-after").is_some());
    assert!(refused.header("x-ratelimit-limit").is_none(), "not the audit quota");
    validate_documented("GET", "/api/v1/history", &refused);
    for _ in 0..3 {
        assert_eq!(get(&t, path, Some(&alice)).await.status, 200);
    }
}

/// A row of `user`'s audit of `url` written through the store, with these recommendations
/// and ruleset.
fn stored_result(t: &TestServer, user: &str, url: &str, score: i64, ruleset: &str, recommendations: Value) -> String {
    let result = json!({
        "ok": true, "api_version": "v1",
        "page": {"url": url, "final_url": url, "status_code": 200},
        "score": {"percentage": score, "current": score, "max": 100, "ruleset_version": ruleset},
        "recommendations": recommendations,
        "checks": [],
        "meta": {"ruleset_version": ruleset},
    });
    let mut new = store::NewAudit::new(url, url, score, ruleset, result.to_string());
    new.user_id = Some(user.into());
    t.db(|s| s.insert_audit(new)).unwrap().id.into_string()
}

fn location(line: u64, selector: &str) -> Value {
    json!({"line": line, "column": 3, "selector": selector, "snippet": format!("<img class=\"{selector}\">")})
}

#[tokio::test]
async fn two_audits_of_one_url_compare_finding_by_finding_and_element_by_element() {
    let t = TestServer::start(|_| {}).await;
    let (alice, alice_key) = t.key(|_| {});
    let (bob, _) = t.key(|_| {});
    let alice_id = alice_key.user_id.clone();
    let url = "https://shop.example/kettles";
    let before = stored_result(
        &t,
        &alice_id,
        url,
        60,
        "1.0.0",
        json!([
            {"id": "title-missing", "type": "critical", "title": "No title"},
            {"id": "image-alt-missing", "type": "warning", "title": "2 images without alt",
             "locations": [location(10, "main > img.a"), location(11, "main > img.b")]},
        ]),
    );
    // The image `a` moved down ten lines (unchanged), `b` is gone (resolved), `c` is new; the
    // title is fixed; the page lost its h1.
    let after = stored_result(
        &t,
        &alice_id,
        url,
        70,
        audit_core::RULESET_VERSION,
        json!([
            {"id": "image-alt-missing", "type": "warning", "title": "2 images without alt",
             "locations": [location(20, "main > img.a"), location(21, "main > img.c")]},
            {"id": "h1-missing", "type": "warning", "title": "No h1"},
        ]),
    );
    let path = format!("/api/v1/audits/{after}/compare?against={before}");
    let a = get(&t, &path, Some(&alice)).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/audits/{id}/compare", &a);
    let body = &a.body;
    assert_eq!(body["id"], after);
    assert_eq!(body["against"], before);
    assert_eq!(body["score"], json!({"current": 70, "baseline": 60, "change": 10}));
    assert_eq!(body["counts"], json!({"new": 2, "unchanged": 0, "resolved": 1}));
    let finding = |id: &str| body["findings"].as_array().unwrap().iter().find(|f| f["id"] == id).cloned().unwrap();
    let images = finding("image-alt-missing");
    assert_eq!(images["state"], "new", "{images}");
    let states: Vec<(&str, &str)> = images["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["selector"].as_str().unwrap(), l["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [("main > img.a", "unchanged"), ("main > img.c", "new"), ("main > img.b", "resolved")]);
    assert_eq!(finding("h1-missing")["state"], "new");
    assert_eq!(finding("title-missing")["state"], "resolved");
    assert_eq!(finding("title-missing")["title"], "No title");
    assert!(body["notes"][0].as_str().unwrap().contains("1.0.0"), "an older ruleset is said");

    // The other way round: what was new is resolved.
    let back = get(&t, &format!("/api/v1/audits/{before}/compare?against={after}"), Some(&alice)).await;
    assert_eq!(back.status, 200, "{}", back.raw);
    assert_eq!(back.body["counts"], json!({"new": 2, "unchanged": 0, "resolved": 1}));
    assert_eq!(back.body["score"]["change"], -10);

    // Another owner, an unknown id on either side: 404, as a read of one audit.
    let unknown = "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    for (path, key) in [
        (path.clone(), &bob),
        (format!("/api/v1/audits/{unknown}/compare?against={before}"), &alice),
        (format!("/api/v1/audits/{after}/compare?against={unknown}"), &alice),
    ] {
        let a = get(&t, &path, Some(key)).await;
        a.assert_error(404, "not_found");
        validate_documented("GET", "/api/v1/audits/{id}/compare", &a);
    }
    // Audits of two URLs do not compare; `against` is needed; a key is.
    let other = stored_result(&t, &alice_id, "https://shop.example/pans", 50, "1.0.0", json!([]));
    let a = get(&t, &format!("/api/v1/audits/{after}/compare?against={other}"), Some(&alice)).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["parameter"], "against");
    validate_documented("GET", "/api/v1/audits/{id}/compare", &a);
    let a = get(&t, &format!("/api/v1/audits/{after}/compare"), Some(&alice)).await;
    a.assert_error(400, "missing_parameter");
    assert_eq!(a.body["error"]["details"]["parameter"], "against");
    get(&t, &path, None).await.assert_error(401, "unauthorized");
}
