//! End-to-end tests of `POST /api/content-gap` and `POST /api/auto-fix-batch` over loopback:
//! the page under analysis from `fixtures/content-gap/`, competitor pages from
//! `fixtures/sites/competitors/`, answers validated against the OpenAPI document.

use crate::common;

use common::{away_from_minute_boundary, closed_port, fixture_site, validate_documented, Answer, TestServer};
use serde_json::{json, Value};

const GAP: &str = "/api/content-gap";
const FIX: &str = "/api/auto-fix-batch";

async fn post(t: &TestServer, path: &str, body: &Value) -> Answer {
    Answer::from(t.client.post(t.url(path)).json(body).send().await.unwrap()).await
}

/// A 200 answer of `path`, checked against the document.
async fn post_ok(t: &TestServer, path: &str, body: &Value) -> Answer {
    let a = post(t, path, body).await;
    assert_eq!(a.status, 200, "{body} -> {}", a.raw);
    a.assert_common();
    validate_documented("POST", path, &a);
    a
}

/// An error answer of `path` with this status and code, checked against the document.
async fn post_err(t: &TestServer, path: &str, body: &Value, status: u16, code: &str) -> Answer {
    let a = post(t, path, body).await;
    a.assert_error(status, code);
    validate_documented("POST", path, &a);
    a
}

fn remaining(a: &Answer) -> u64 {
    a.header("x-ratelimit-remaining").and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no quota header: {a:?}"))
}

/// The gap of a catalogue section (its heading is written for the page).
fn gap<'a>(a: &'a Answer, section: &str) -> Option<&'a Value> {
    a.body["gaps"].as_array().unwrap().iter().find(|g| g["section"] == section)
}

#[tokio::test]
async fn content_gap_against_competitors() {
    // The content-gap fixtures live beside the fixture sites, not in them.
    let pages = fixture_site("../content-gap").await;
    let comps = fixture_site("competitors").await;
    let t = TestServer::start(|_| {}).await;
    let page = pages.url("/product.html");
    let competitors: Vec<String> = ["a", "b", "c"].iter().map(|c| comps.url(&format!("/{c}.html"))).collect();

    away_from_minute_boundary().await;
    let a = post_ok(&t, GAP, &json!({ "url": page, "competitors": competitors })).await;
    let b = &a.body;
    assert_eq!((b["ok"].as_bool(), b["url"].as_str()), (Some(true), Some(page.as_str())));
    assert_eq!((b["pageType"].as_str(), b["basis"].as_str()), (Some("product"), Some("competitors")));
    assert_eq!(b["competitorsCompared"], 3);
    assert_eq!(b["skippedCompetitors"], json!([]));
    // Two of three competitors cover shipping (37 and 65 words): a gap of their median length.
    let shipping = gap(&a, "Shipping and returns").unwrap_or_else(|| panic!("no shipping gap: {}", a.raw));
    assert_eq!(shipping["estimatedWords"], 51, "{shipping}");
    assert_eq!(shipping["priority"], "medium", "{shipping}");
    assert!(shipping["reason"].as_str().unwrap().starts_with("2 of 3 competitors"), "{shipping}");
    // The heading names the page's product; the reason says what such a section covers.
    assert_eq!(shipping["heading"], "Aeropress Clear coffee maker: shipping and returns", "{shipping}");
    assert!(shipping["reason"].as_str().unwrap().contains("delivery times and costs"), "{shipping}");
    assert_eq!(b["pageTypeReason"], "The page declares schema.org @type Product in JSON-LD.", "{}", a.raw);
    assert_eq!(b["classification"]["decidedBy"], "declared", "{}", a.raw);
    // What all three cover and the page has too is no gap.
    assert_eq!(b["gaps"].as_array().unwrap().len(), 1, "{}", a.raw);
    assert!(b["coverage"].as_u64().unwrap() < 100);
    // The page was audited and kept, like every audit.
    let stored = t.db(|s| s.latest_audit_for_url(&page)).unwrap().expect("the page's audit is stored");
    assert!(stored.result_json.contains("Aeropress Clear"));

    // The page that covers shipping too has no such gap; one request, one unit, whatever
    // the number of competitors.
    let full = comps.url("/full.html");
    let f = post_ok(&t, GAP, &json!({ "url": full, "competitors": competitors })).await;
    assert!(gap(&f, "Shipping and returns").is_none(), "{}", f.raw);
    assert_eq!(f.body["gaps"], json!([]), "{}", f.raw);
    assert_eq!(f.body["coverage"], 100);
    assert_eq!(remaining(&a) - remaining(&f), 1, "a content-gap request costs one unit");
}

#[tokio::test]
async fn body_fields_override_the_page() {
    let pages = fixture_site("../content-gap").await;
    let t = TestServer::start(|_| {}).await;
    let page = pages.url("/product.html");

    // Without competitors the built-in product model is the basis.
    let plain = post_ok(&t, GAP, &json!({ "url": page })).await;
    assert_eq!(plain.body["basis"], "model");
    assert!(gap(&plain, "Shipping and returns").is_some(), "{}", plain.raw);

    // Headings in the body replace the page's: adding shipping closes that gap.
    let headings = ["Product description", "Technical details", "Customer reviews", "Shipping & returns"];
    let more = post_ok(&t, GAP, &json!({ "url": page, "headings": headings, "wordCount": 900 })).await;
    assert!(gap(&more, "Shipping and returns").is_none(), "{}", more.raw);
    assert!(more.body["coverage"].as_u64() > plain.body["coverage"].as_u64(), "{} vs {}", more.raw, plain.raw);
    assert!(more.body["covered"].as_array().unwrap().iter().any(|c| c == "Shipping and returns"));

    // ... and an empty list leaves the page without sections.
    let none = post_ok(&t, GAP, &json!({ "url": page, "headings": [] })).await;
    assert!(none.body["coverage"].as_u64() < plain.body["coverage"].as_u64(), "{}", none.raw);
}

#[tokio::test]
async fn competitors_that_fail_are_skipped() {
    let pages = fixture_site("../content-gap").await;
    let comps = fixture_site("competitors").await;
    let t = TestServer::start(|_| {}).await;
    let page = pages.url("/product.html");
    let (a, b) = (comps.url("/a.html"), comps.url("/b.html"));
    let missing = comps.url("/missing.html");

    let r = post_ok(&t, GAP, &json!({ "url": page, "competitors": [a, "http://10.0.0.1/", missing, b] })).await;
    assert_eq!(r.body["competitorsCompared"], 2, "{}", r.raw);
    let skipped = r.body["skippedCompetitors"].as_array().unwrap();
    let got: Vec<(&str, &str)> =
        skipped.iter().map(|s| (s["url"].as_str().unwrap(), s["code"].as_str().unwrap())).collect();
    assert_eq!(got, [("http://10.0.0.1/", "blocked_target"), (missing.as_str(), "target_status")]);
    assert_eq!(skipped[1]["details"]["status"], 404);
    // Both remaining competitors cover shipping: still compared, still a gap.
    assert_eq!(r.body["basis"], "competitors");
    assert!(gap(&r, "Shipping and returns").is_some(), "{}", r.raw);
}

#[tokio::test]
async fn content_gap_errors() {
    let pages = fixture_site("../content-gap").await;
    let t = TestServer::start(|_| {}).await;
    let page = pages.url("/product.html");
    let six: Vec<String> = (0..6).map(|i| format!("https://example.com/{i}")).collect();

    let e = post_err(&t, GAP, &json!({ "url": page, "competitors": six }), 400, "invalid_request").await;
    assert_eq!(e.body["error"]["details"]["max"], 5);
    // A refused body consumes no quota; the headers show the untouched window (docs/API.md, Quota).
    assert_eq!(e.header("x-ratelimit-remaining"), e.header("x-ratelimit-limit"), "{:?}", e.headers);
    let e = post_err(
        &t,
        GAP,
        &json!({ "url": page, "competitors": ["https://ok.example/", "ftp://x/"] }),
        400,
        "invalid_url",
    )
    .await;
    assert_eq!(e.body["error"]["details"], json!({ "parameter": "competitors", "index": 1, "url": "ftp://x/" }));
    post_err(&t, GAP, &json!({ "title": "x" }), 400, "missing_parameter").await;
    post_err(&t, GAP, &json!({ "url": page, "headings": "Shipping" }), 400, "invalid_request").await;
    post_err(&t, GAP, &json!({ "url": page, "wordCount": "many" }), 400, "invalid_request").await;
    post_err(&t, GAP, &json!({ "url": "ftp://example.com/" }), 400, "invalid_url").await;
    // The page itself failing is the request failing, with the fetch error's status.
    let down = format!("http://127.0.0.1:{}/", closed_port());
    post_err(&t, GAP, &json!({ "url": down }), 502, "target_unreachable").await;
    post_err(&t, GAP, &json!({ "url": "http://10.0.0.1/" }), 422, "blocked_target").await;

    let text = Answer::from(t.client.post(t.url(GAP)).body("url=x").send().await.unwrap()).await;
    text.assert_error(415, "unsupported_media_type");
    validate_documented("POST", GAP, &text);
}

fn issue_titles(a: &Answer) -> Vec<&str> {
    a.body["fixes"].as_array().unwrap().iter().map(|f| f["issueTitle"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn auto_fix_batch() {
    let t = TestServer::start(|_| {}).await;
    let context = json!({
        "url": "https://shop.example/oak-chairs",
        "title": "Oak chairs",
        "text": "Our oak chairs are made by hand in Bavaria from local wood, oiled with natural oils and built to last for generations of family dinners and long evenings."
    });
    let issues = json!([
        { "id": "canonical-missing", "context": context },
        { "title": "Missing meta description", "context": context },
        { "title": "Newsletter signup converts poorly", "description": "Fewer visitors subscribe than last quarter." },
        { "id": "hsts-missing", "title": "No HSTS" },
        { "id": "no-such-rule" },
    ]);
    away_from_minute_boundary().await;
    let a = post_ok(&t, FIX, &json!({ "issues": issues })).await;
    let fixes = a.body["fixes"].as_array().unwrap();
    assert_eq!(a.body["count"], 5);
    // One fix per issue, in order.
    assert_eq!(
        issue_titles(&a),
        [
            "canonical-missing",
            "Missing meta description",
            "Newsletter signup converts poorly",
            "No HSTS",
            "no-such-rule"
        ]
    );
    let summary: Vec<(&str, &str)> =
        fixes.iter().map(|f| (f["type"].as_str().unwrap(), f["ruleId"].as_str().unwrap_or("-"))).collect();
    assert_eq!(
        summary,
        [
            ("html", "canonical-missing"),
            ("html", "meta-description-missing"),
            ("text", "-"),
            ("http-header", "hsts-missing"),
            ("text", "-"),
        ]
    );
    assert_eq!(fixes[0]["fix"], "<link rel=\"canonical\" href=\"https://shop.example/oak-chairs\">");
    assert!(
        fixes[1]["fix"]
            .as_str()
            .unwrap()
            .starts_with("<meta name=\"description\" content=\"Our oak chairs are made by hand"),
        "{}",
        fixes[1]
    );
    assert!(fixes.iter().all(|f| f["explanation"].as_str().is_some_and(|e| !e.is_empty())));
    // The context gave every value: nothing is left to fill in.
    assert!(fixes.iter().all(|f| f["placeholders"] == json!([])), "{}", a.raw);

    // A request is one unit, whatever the number of issues.
    let one = post_ok(&t, FIX, &json!({ "issues": [{ "id": "title-missing" }] })).await;
    // Without a page, the title is a marked placeholder, listed as one.
    let bare = &one.body["fixes"][0];
    assert_eq!(bare["fix"], "<title>TODO: name the page in 30 to 60 characters</title>", "{bare}");
    assert_eq!(bare["placeholders"], json!([{ "text": "TODO: name the page in 30 to 60 characters", "line": 1 }]));
    let fifty = post_ok(&t, FIX, &json!({ "issues": vec![json!({ "id": "h1-missing" }); 50] })).await;
    assert_eq!(fifty.body["fixes"].as_array().unwrap().len(), 50);
    assert_eq!((remaining(&a) - remaining(&one), remaining(&one) - remaining(&fifty)), (1, 1));
}

#[tokio::test]
async fn auto_fix_errors() {
    let t = TestServer::start(|_| {}).await;
    let check = |len: usize| json!({ "issues": vec![json!({ "id": "h1-missing" }); len] });
    post_err(&t, FIX, &check(0), 400, "invalid_request").await;
    let e = post_err(&t, FIX, &check(51), 400, "invalid_request").await;
    assert_eq!(e.body["error"]["details"]["max"], 50);
    // A refused body consumes no quota; the headers show the untouched window (docs/API.md, Quota).
    assert_eq!(e.header("x-ratelimit-remaining"), e.header("x-ratelimit-limit"), "{:?}", e.headers);
    let e =
        post_err(&t, FIX, &json!({ "issues": [{ "id": "h1-missing" }, "h1-missing"] }), 400, "invalid_request").await;
    assert_eq!(e.body["error"]["details"]["index"], 1);
    let e = post_err(&t, FIX, &json!({ "issues": [{ "title": ["x"] }] }), 400, "invalid_request").await;
    assert_eq!(e.body["error"]["details"]["index"], 0);
    post_err(&t, FIX, &json!({}), 400, "missing_parameter").await;
    post_err(&t, FIX, &json!({ "issues": "all of them" }), 400, "invalid_request").await;

    let (key, _) = t.key(|k| k.scopes = vec!["mcp".to_string()]);
    let e =
        Answer::from(t.client.post(t.url(FIX)).header("x-api-key", key).json(&check(1)).send().await.unwrap()).await;
    e.assert_error(403, "forbidden");
    validate_documented("POST", FIX, &e);
}
