//! Rendered audits (docs/API.md, "Rendered audits") against the loopback fixture site
//! `fixtures/sites/render-js/`: a client-rendered shell, a page whose script changes its title
//! and canonical, one whose script adds `noindex`, one whose script asks inner addresses, one
//! that frames one, one whose script navigates there, and one that never settles.
//!
//! The tests that render skip with a message when no Chromium is installed, unless
//! `SEO_AUDIT_REQUIRE_BROWSER=1` (set by `.ci/run`) turns the absence into a failure. The
//! answers without a browser (`not_configured`) are tested everywhere.

use serde_json::{json, Value};

use crate::common::{fixture_site, validate_documented, Answer, TestServer};
use test_support::chromium_or_skip;

/// The per-minute limit of the test keys, so that the units a request takes show in
/// `x-ratelimit-remaining`.
const LIMIT: i64 = 100;

async fn audit(t: &TestServer, key: &str, target: &str, extra: &str) -> Answer {
    let a = Answer::from(t.client.get(t.audit_url(target, extra)).header("x-api-key", key).send().await.unwrap()).await;
    validate_documented("GET", "/api/v1/audit", &a);
    a
}

fn remaining(a: &Answer) -> i64 {
    a.header("x-ratelimit-remaining").and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{a:?}"))
}

/// The remaining quota after `a`, asserted `units` fewer than `before`; or, when the
/// per-minute window turned over in between, `units` fewer than the whole limit.
fn charged(before: i64, a: &Answer, units: i64) -> i64 {
    let now = remaining(a);
    assert!(now == before - units || now == LIMIT - units, "{units} units from {before} left {now}: {}", a.raw);
    now
}

fn finding<'a>(rendering: &'a Value, id: &str) -> Option<&'a Value> {
    rendering["findings"].as_array().unwrap().iter().find(|f| f["id"] == id)
}

#[tokio::test]
async fn without_a_browser_render_is_not_configured_and_the_rest_is_unchanged() {
    let t = TestServer::start(|c| c.chromium = Some("/nonexistent/chromium".into())).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;
    let page = site.url("/spa.html");

    let off = audit(&t, &key, &page, "&render=true").await;
    assert_eq!(off.status, 503, "{}", off.raw);
    off.assert_common();
    assert_eq!(off.body["error"]["code"], "not_configured");
    assert_eq!(off.body["error"]["details"]["install"], app::RENDER_INSTALL);
    assert_eq!(off.body["error"]["details"]["settings"], json!(["chromium"]));
    assert!(off.body["error"]["message"].as_str().unwrap().contains("chromium"), "{}", off.raw);
    assert_eq!(remaining(&off), LIMIT, "nothing is charged");

    // The batch too, before anything is charged.
    let batch = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .header("x-api-key", &key)
            .json(&json!({ "urls": [page], "render": true }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    validate_documented("POST", "/api/v1/audit/batch", &batch);
    assert_eq!((batch.status, batch.body["error"]["code"].as_str()), (503, Some("not_configured")), "{}", batch.raw);
    assert_eq!(remaining(&batch), LIMIT);

    // A rendered crawl, before anything is created or charged.
    let crawl = Answer::from(
        t.client
            .post(t.url("/api/v1/crawls"))
            .header("x-api-key", &key)
            .json(&json!({ "url": page, "render": true }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    validate_documented("POST", "/api/v1/crawls", &crawl);
    assert_eq!((crawl.status, crawl.body["error"]["code"].as_str()), (503, Some("not_configured")), "{}", crawl.raw);
    assert_eq!(remaining(&crawl), LIMIT);

    // A malformed switch is the caller's mistake.
    let bad = audit(&t, &key, &page, "&render=yes").await;
    assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (400, Some("invalid_request")), "{}", bad.raw);
    assert_eq!(bad.body["error"]["details"]["parameter"], "render");

    // The compact form without render has no `rendering` field either.
    let compact = audit(&t, &key, &page, "&format=compact").await;
    assert_eq!(compact.status, 200, "{}", compact.raw);
    assert!(compact.body.get("rendering").is_none(), "{}", compact.raw);
    assert_eq!(remaining(&compact), LIMIT - 1);

    // Without render: one unit, and the result has no `rendering` field at all.
    let served = audit(&t, &key, &page, "&render=false").await;
    assert_eq!(served.status, 200, "{}", served.raw);
    assert!(served.body.get("rendering").is_none(), "{}", served.raw);
    assert_eq!(served.body["page"]["title"], "");
    assert_eq!(remaining(&served), LIMIT - 2);

    // The agent tool answers the same code as a tool error.
    let tool = mcp_call(&t, &key, json!({ "url": page, "render": true })).await;
    assert_eq!(tool["result"]["isError"], true, "{tool}");
    let text = tool["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("not_configured: "), "{text}");
    let crawl_tool = mcp_tool(&t, &key, "crawl_site", json!({ "url": page, "render": true })).await;
    assert_eq!(crawl_tool["result"]["isError"], true, "{crawl_tool}");
    let text = crawl_tool["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("not_configured: "), "{text}");
}

/// A tools/call of seo_audit in the simple form (answered as JSON-RPC).
async fn mcp_call(t: &TestServer, key: &str, arguments: Value) -> Value {
    mcp_tool(t, key, "seo_audit", arguments).await
}

/// A tools/call of `name` in the simple form (answered as JSON-RPC).
async fn mcp_tool(t: &TestServer, key: &str, name: &str, arguments: Value) -> Value {
    let body = json!({ "method": "tools/call", "params": { "name": name, "arguments": arguments } });
    let a =
        Answer::from(t.client.post(t.url("/api/mcp")).header("x-api-key", key).json(&body).send().await.unwrap()).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.body
}

#[tokio::test]
async fn a_rendered_audit_reports_what_javascript_changes() {
    let Some(chromium) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| c.chromium = Some(chromium)).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;

    // The client-rendered shell: the result is the rendered page's audit, and the section
    // says what exists only after rendering.
    let spa = audit(&t, &key, &site.url("/spa.html"), "&render=true").await;
    assert_eq!(spa.status, 200, "{}", spa.raw);
    let left = charged(LIMIT, &spa, 5);
    let r = &spa.body["rendering"];
    assert_eq!(spa.body["page"]["title"], "Copper kettles, hammered by hand in Bavaria", "{r:#}");
    assert_eq!(spa.body["page"]["h1"], "Copper kettles");
    assert_eq!(r["served"]["title"], "");
    assert_eq!(r["rendered"]["title"], "Copper kettles, hammered by hand in Bavaria");
    assert_eq!(r["served"]["h1_count"], 0);
    assert_eq!(r["rendered"]["h1_count"], 1);
    assert!(r["rendered"]["word_count"].as_u64().unwrap() > 60, "{r:#}");
    for field in ["title", "meta_description", "canonical", "h1", "word_count", "links"] {
        assert!(r["differences"].as_array().unwrap().contains(&json!(field)), "{field}: {r:#}");
    }
    assert_eq!(r["links_only_rendered"]["total"], 3, "{r:#}");
    assert_eq!(r["links_only_rendered"]["first"][0], site.url("/kettles/large.html"));
    assert_eq!(r["depends_on_javascript"], true);
    let f = finding(r, "js-dependent-content").expect("the finding");
    assert!(f["description"].as_str().unwrap().starts_with("The title exists only after rendering"), "{f}");
    assert_eq!(r["timed_out"], false);
    assert!(r["final_url"].as_str().unwrap().ends_with("/spa.html"), "{r:#}");
    // What is stored is the rendered audit, with its section.
    let q: String = url::form_urlencoded::byte_serialize(site.url("/spa.html").as_bytes()).collect();
    let listed = Answer::from(
        t.client.get(t.url(&format!("/api/v1/audits?url={q}"))).header("x-api-key", &key).send().await.unwrap(),
    )
    .await;
    let id = listed.body["audits"][0]["id"].as_str().unwrap_or_else(|| panic!("{}", listed.raw)).to_string();
    let stored = Answer::from(
        t.client.get(t.url(&format!("/api/v1/audits/{id}"))).header("x-api-key", &key).send().await.unwrap(),
    )
    .await;
    assert_eq!(stored.body["page"]["title"], "Copper kettles, hammered by hand in Bavaria", "{}", stored.raw);
    assert_eq!(stored.body["rendering"], spa.body["rendering"]);

    // A script that changes title and canonical.
    let retitled = audit(&t, &key, &site.url("/retitle.html"), "&render=true").await;
    assert_eq!(retitled.status, 200, "{}", retitled.raw);
    let left = charged(left, &retitled, 5);
    let r = &retitled.body["rendering"];
    assert_eq!(r["served"]["title"], "Served title of the teapot page");
    assert_eq!(r["rendered"]["title"], "Title written by the script");
    assert_eq!(r["served"]["canonical"], site.url("/retitle.html"));
    assert_eq!(r["rendered"]["canonical"], site.url("/canonical-by-script.html"));
    assert_eq!(retitled.body["page"]["canonical"], site.url("/canonical-by-script.html"));
    assert!(finding(r, "js-dependent-content").is_some(), "{r:#}");

    // A script that adds noindex: critical, and the rendered audit carries the directive.
    let noindex = audit(&t, &key, &site.url("/noindex.html"), "&render=true").await;
    assert_eq!(noindex.status, 200, "{}", noindex.raw);
    let left = charged(left, &noindex, 5);
    let r = &noindex.body["rendering"];
    assert_eq!((r["served"]["noindex"].as_bool(), r["rendered"]["noindex"].as_bool()), (Some(false), Some(true)));
    assert_eq!(r["differences"], json!(["robots"]));
    let f = finding(r, "js-robots-directives").expect("the robots finding");
    assert_eq!((f["type"].as_str(), f["title"].as_str()), (Some("critical"), Some("JavaScript adds noindex")));
    assert_eq!(noindex.body["page"]["robots"], "noindex");

    // A script that asks inner addresses: refused by the guard, listed as blocked.
    let inner = audit(&t, &key, &site.url("/inner.html"), "&render=true").await;
    assert_eq!(inner.status, 200, "{}", inner.raw);
    let r = &inner.body["rendering"];
    let blocked: Vec<&str> = r["blocked"].as_array().unwrap().iter().map(|b| b["url"].as_str().unwrap()).collect();
    assert!(blocked.iter().any(|u| u.contains("169.254.169.254")), "{r:#}");
    assert!(blocked.iter().any(|u| u.contains("10.0.0.1")), "{r:#}");
    assert!(r["blocked"].as_array().unwrap().iter().all(|b| !b["reason"].as_str().unwrap().is_empty()));
    assert_eq!(r["blocked_total"].as_u64(), Some(blocked.len() as u64));
    let left = charged(left, &inner, 5);

    // The batch: every distinct URL rendered, 5 units each.
    let batch = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .header("x-api-key", &key)
            .json(&json!({ "urls": [site.url("/spa.html"), site.url("/noindex.html")], "render": true }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    validate_documented("POST", "/api/v1/audit/batch", &batch);
    assert_eq!(batch.status, 200, "{}", batch.raw);
    assert_eq!(batch.body["succeeded"], 2, "{}", batch.raw);
    assert_eq!(batch.body["results"][0]["result"]["rendering"]["depends_on_javascript"], true);
    let left = charged(left, &batch, 10);

    // The agent tool: the same result, 5 units for the call.
    let tool = mcp_call(&t, &key, json!({ "url": site.url("/noindex.html"), "render": true })).await;
    assert_eq!(tool["result"]["isError"], false, "{tool}");
    let structured = &tool["result"]["structuredContent"];
    assert_eq!(structured["rendering"]["rendered"]["noindex"], true, "{tool}");
    let usage =
        Answer::from(t.client.get(t.url("/api/v1/usage")).header("x-api-key", &key).send().await.unwrap()).await;
    let used = usage.body["requests_this_minute"].as_i64().unwrap();
    // A new minute may begin before the call (5 units counted in it) or between the call and
    // this read (none yet): the quota's window is the clock's minute.
    assert!(
        used == LIMIT - left + 5 || used == 5 || used == 0,
        "the tool call took 5 units: {used} after {left} left: {}",
        usage.raw
    );

    // Without render, the same page is the served page's audit with no `rendering`.
    let served = audit(&t, &key, &site.url("/spa.html"), "").await;
    assert!(served.body.get("rendering").is_none());
    assert_eq!(served.body["page"]["title"], "");
}

/// Polls crawl `id` until it has ended; its last status.
async fn crawl_ended(t: &TestServer, key: &str, id: &str) -> Value {
    for _ in 0..1200 {
        let a = Answer::from(
            t.client.get(t.url(&format!("/api/v1/crawls/{id}"))).header("x-api-key", key).send().await.unwrap(),
        )
        .await;
        let crawl = &a.body["crawl"];
        if ["completed", "cancelled", "failed"].contains(&crawl["state"].as_str().unwrap_or_default())
            && crawl["finished_at"].is_string()
        {
            return crawl.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("crawl {id} did not end");
}

/// The URLs and titles of a crawl's pages.
async fn crawl_pages(t: &TestServer, key: &str, id: &str) -> Vec<(String, String)> {
    let a = Answer::from(
        t.client
            .get(t.url(&format!("/api/v1/crawls/{id}/pages?limit=100")))
            .header("x-api-key", key)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.raw);
    let pages = a.body["pages"].as_array().unwrap();
    pages
        .iter()
        .map(|p| (p["url"].as_str().unwrap().to_string(), p["title"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[tokio::test]
async fn a_rendered_crawl_follows_the_links_javascript_writes() {
    let Some(chromium) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| c.chromium = Some(chromium)).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;
    let start = |render: bool| {
        t.client
            .post(t.url("/api/v1/crawls"))
            .header("x-api-key", &key)
            .json(&json!({ "url": site.url("/spa.html"), "max_pages": 5, "sitemaps": false, "render": render }))
            .send()
    };

    let served = Answer::from(start(false).await.unwrap()).await;
    assert_eq!(served.status, 202, "{}", served.raw);
    let left = charged(LIMIT, &served, 1);
    let id = served.body["crawl"]["id"].as_str().unwrap().to_string();
    crawl_ended(&t, &key, &id).await;
    let pages = crawl_pages(&t, &key, &id).await;
    assert_eq!(pages, [(site.url("/spa.html"), String::new())], "the served shell has no links");

    let rendered = Answer::from(start(true).await.unwrap()).await;
    assert_eq!(rendered.status, 202, "{}", rendered.raw);
    validate_documented("POST", "/api/v1/crawls", &rendered);
    charged(left, &rendered, 5);
    let id = rendered.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = crawl_ended(&t, &key, &id).await;
    assert_eq!(done["state"], "completed", "{done}");
    let pages = crawl_pages(&t, &key, &id).await;
    let title = |url: &str| pages.iter().find(|(u, _)| u == url).map(|(_, t)| t.clone());
    assert_eq!(
        title(&site.url("/spa.html")).as_deref(),
        Some("Copper kettles, hammered by hand in Bavaria"),
        "{pages:?}"
    );
    for linked in ["/kettles/large.html", "/kettles/small.html", "/care.html"] {
        assert!(title(&site.url(linked)).is_some(), "{linked} was found by rendering: {pages:?}");
    }

    // The agent tool crawl_site with `render`: the same crawl.
    let tool =
        mcp_tool(&t, &key, "crawl_site", json!({ "url": site.url("/spa.html"), "max_pages": 5, "render": true })).await;
    assert_eq!(tool["result"]["isError"], false, "{tool}");
    let id = tool["result"]["structuredContent"]["crawl_id"].as_str().unwrap_or_else(|| panic!("{tool}")).to_string();
    let done = crawl_ended(&t, &key, &id).await;
    assert_eq!(done["state"], "completed", "{done}");
    let pages = crawl_pages(&t, &key, &id).await;
    let title = |url: &str| pages.iter().find(|(u, _)| u == url).map(|(_, t)| t.clone());
    assert_eq!(
        title(&site.url("/spa.html")).as_deref(),
        Some("Copper kettles, hammered by hand in Bavaria"),
        "{pages:?}"
    );
    for linked in ["/kettles/large.html", "/kettles/small.html", "/care.html"] {
        assert!(title(&site.url(linked)).is_some(), "{linked} was found by the tool's rendered crawl: {pages:?}");
    }
}

#[tokio::test]
async fn a_page_that_never_settles_is_audited_as_it_stood_at_the_limit() {
    let Some(chromium) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| {
        c.chromium = Some(chromium);
        c.render_timeout_ms = 2_000;
    })
    .await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;
    let busy = audit(&t, &key, &site.url("/busy.html"), "&render=true").await;
    assert_eq!(busy.status, 200, "{}", busy.raw);
    let r = &busy.body["rendering"];
    assert_eq!(r["timed_out"], true, "{r:#}");
    assert_eq!(r["rendered"]["title"], "Title written before the time limit");
    assert_eq!(busy.body["page"]["title"], "Title written before the time limit");
    assert!(r["requests"].as_u64().unwrap() > 2, "{r:#}");
}

#[tokio::test]
async fn frames_and_navigations_to_inner_addresses_are_blocked() {
    let Some(chromium) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| c.chromium = Some(chromium)).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;

    // A frame of the page: the page is audited, the frame's request listed as blocked.
    let framed = audit(&t, &key, &site.url("/frame.html"), "&render=true").await;
    assert_eq!(framed.status, 200, "{}", framed.raw);
    let blocked = &framed.body["rendering"]["blocked"];
    assert!(blocked.as_array().unwrap().iter().any(|b| b["url"].as_str().unwrap().contains("10.0.0.2")), "{blocked}");

    // The page's own document sent there by its script: the document is refused.
    let moved = audit(&t, &key, &site.url("/navigate.html"), "&render=true").await;
    assert_eq!((moved.status, moved.body["error"]["code"].as_str()), (422, Some("blocked_target")), "{}", moved.raw);
    assert!(moved.body["error"]["message"].as_str().unwrap().contains("10.0.0.3"), "{}", moved.raw);
}

/// The quota units the key spent this minute (`GET /api/v1/usage` itself costs nothing).
async fn used(t: &TestServer, key: &str) -> i64 {
    let usage = Answer::from(t.client.get(t.url("/api/v1/usage")).header("x-api-key", key).send().await.unwrap()).await;
    usage.body["requests_this_minute"].as_i64().unwrap_or_else(|| panic!("{}", usage.raw))
}

#[tokio::test]
async fn a_full_render_pool_is_refused_before_anything_is_charged() {
    let Some(chromium) = chromium_or_skip() else { return };
    // One place in the pool: one tab, no queue.
    let t = TestServer::start(|c| {
        c.chromium = Some(chromium);
        c.render_tabs = 1;
        c.render_queue = 0;
        c.render_timeout_ms = 2_000;
    })
    .await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;

    // Two rendered audits at once: one gets the place, the other is refused unpaid. The
    // page never settles, so the first holds its place for the whole time limit.
    let page = site.url("/busy.html");
    let (a, b) = tokio::join!(audit(&t, &key, &page, "&render=true"), audit(&t, &key, &page, "&render=true"));
    let mut statuses = [a.status, b.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 503], "{}\n{}", a.raw, b.raw);
    let refused = if a.status == 503 { &a } else { &b };
    refused.assert_common();
    assert_eq!(refused.body["error"]["code"], "overloaded", "{}", refused.raw);
    let done = if a.status == 200 { &a } else { &b };
    assert!(remaining(done) == LIMIT - 5, "only the rendered audit that ran is charged: {}", done.raw);
    // (0 when the per-minute window turned over since.)
    let spent = used(&t, &key).await;
    assert!(spent == 5 || spent == 0, "{spent} units spent");

    // A rendered batch needs a place per distinct URL, all or none: two do not fit in one,
    // and nothing is charged.
    let batch = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .header("x-api-key", &key)
            .json(&json!({ "urls": [site.url("/spa.html"), site.url("/noindex.html")], "render": true }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    validate_documented("POST", "/api/v1/audit/batch", &batch);
    assert_eq!((batch.status, batch.body["error"]["code"].as_str()), (503, Some("overloaded")), "{}", batch.raw);
    let after = used(&t, &key).await;
    assert!(after == spent || after == 0, "the refused batch is not charged: {after} after {spent}");

    // The place was given back: one URL fits.
    let one = Answer::from(
        t.client
            .post(t.url("/api/v1/audit/batch"))
            .header("x-api-key", &key)
            .json(&json!({ "urls": [site.url("/spa.html")], "render": true }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((one.status, one.body["succeeded"].as_u64()), (200, Some(1)), "{}", one.raw);
    let last = used(&t, &key).await;
    assert!(last == after + 5 || last == 5, "the batch of one took 5 units: {last} after {after}");
}

#[tokio::test]
async fn links_of_the_rendered_dom_resolve_against_the_address_after_client_side_navigation() {
    let Some(chromium) = chromium_or_skip() else { return };
    let t = TestServer::start(|c| c.chromium = Some(chromium)).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    // The fixture page `render-js/pushstate.html`, served on its own: its script moves the
    // address to /catalogue/kettles/ (history.pushState), then writes relative links and a
    // relative canonical.
    let site = test_support::RawServer::start(
        "127.0.0.1",
        vec![(
            "/pushstate.html",
            test_support::html(include_str!("../../../../fixtures/sites/render-js/pushstate.html")),
        )],
    )
    .await;
    let site = PushState(site);
    let a = audit(&t, &key, &site.url("/pushstate.html"), "&render=true").await;
    assert_eq!(a.status, 200, "{}", a.raw);
    let r = &a.body["rendering"];
    assert_eq!(r["final_url"], site.url("/catalogue/kettles/"), "{r:#}");
    assert_eq!(r["rendered"]["canonical"], site.url("/catalogue/kettles/"), "{r:#}");
    assert_eq!(a.body["page"]["canonical"], site.url("/catalogue/kettles/"));
    assert_eq!(
        r["links_only_rendered"]["first"],
        json!([
            site.url("/catalogue/kettles/large.html"),
            site.url("/catalogue/kettles/small.html"),
            site.url("/catalogue/teapots/")
        ]),
        "{r:#}"
    );
    // The compact form keeps a summary of the rendering section.
    let compact = audit(&t, &key, &site.url("/pushstate.html"), "&render=true&format=compact").await;
    assert_eq!(compact.status, 200, "{}", compact.raw);
    let summary = &compact.body["rendering"];
    assert_eq!(summary["depends_on_javascript"], r["depends_on_javascript"], "{}", compact.raw);
    assert_eq!(summary["differences"], r["differences"], "{}", compact.raw);
    assert_eq!((summary["timed_out"].as_bool(), summary["blocked_total"].as_u64()), (Some(false), Some(0)));
    let ids: Vec<&Value> = r["findings"].as_array().unwrap().iter().map(|f| &f["id"]).collect();
    let compact_ids: Vec<&Value> = summary["findings"].as_array().unwrap().iter().map(|f| &f["id"]).collect();
    assert_eq!(compact_ids, ids, "{}", compact.raw);
    assert!(!ids.is_empty(), "{r:#}");

    // The canonical names the page's own (rendered) address: it points nowhere else.
    let ids: Vec<&str> =
        a.body["recommendations"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&"canonical-points-elsewhere"), "{ids:?}");
}

#[tokio::test]
async fn a_browser_that_fails_to_start_is_a_clear_502() {
    // A `chromium` that exists and exits at once.
    let fake = std::env::temp_dir().join(format!("seo-audit-fake-chromium-{}", std::process::id()));
    std::fs::write(&fake, "#!/bin/sh\necho 'this is not a browser' >&2\nexit 1\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let t = TestServer::start(|c| c.chromium = Some(fake.clone())).await;
    let (key, _) = t.key(|k| k.rate_limit = Some(LIMIT as u32));
    let site = fixture_site("render-js").await;
    let started = std::time::Instant::now();
    let a = audit(&t, &key, &site.url("/spa.html"), "&render=true").await;
    let _ = std::fs::remove_file(&fake);
    assert_eq!((a.status, a.body["error"]["code"].as_str()), (502, Some("upstream_error")), "{}", a.raw);
    a.assert_common();
    assert_eq!(a.body["error"]["details"]["reason"], "browser_start", "{}", a.raw);
    let message = a.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("failed to start") && message.contains("`chromium` setting"), "{message}");
    // Nothing of the cause (the path, the binary's output) reaches the client.
    assert!(!a.raw.contains("not a browser") && !a.raw.contains("fake-chromium"), "{}", a.raw);
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    // Audits without render are unaffected.
    let served = audit(&t, &key, &site.url("/spa.html"), "").await;
    assert_eq!(served.status, 200, "{}", served.raw);
}

/// A [`test_support::RawServer`] whose `url` is a `String`, as the fixture sites'.
struct PushState(test_support::RawServer);

impl PushState {
    fn url(&self, path: &str) -> String {
        self.0.url(path).to_string()
    }
}
