//! Site crawls over REST (docs/API.md, "Site crawl"): the real server crawls a loopback
//! fixture site (`fixtures/sites/site-crawl-rest`) in the background; the tests read its
//! status, pages, issues and exports, and check the errors, the tier cut and who sees what.

use crate::common;

use common::*;
use serde_json::{json, Value};

async fn send(t: &TestServer, method: reqwest::Method, path: &str, key: Option<&str>, body: Option<Value>) -> Answer {
    let mut req = t.client.request(method, t.url(path));
    if let Some(key) = key {
        req = req.header("x-api-key", key);
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    Answer::from(req.send().await.unwrap()).await
}

async fn start(t: &TestServer, key: Option<&str>, body: Value) -> Answer {
    send(t, reqwest::Method::POST, "/api/v1/crawls", key, Some(body)).await
}

async fn get(t: &TestServer, path: &str, key: Option<&str>) -> Answer {
    send(t, reqwest::Method::GET, path, key, None).await
}

/// Polls the crawl until it has ended; its last status.
async fn ended(t: &TestServer, id: &str, key: Option<&str>) -> Value {
    for _ in 0..600 {
        let a = get(t, &format!("/api/v1/crawls/{id}"), key).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        let crawl = &a.body["crawl"];
        if ["completed", "cancelled", "failed"].contains(&crawl["state"].as_str().unwrap())
            && crawl["finished_at"].is_string()
            && crawl["site_score"] != Value::Null
        {
            validate_documented("GET", "/api/v1/crawls/{id}", &a);
            return crawl.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("crawl {id} did not end");
}

#[tokio::test]
async fn a_site_is_crawled_and_read_back() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("site-crawl-rest").await;

    // Anonymous: 30 pages per crawl at most, and the answer says so.
    let a = start(&t, None, json!({"url": site.url("/"), "max_pages": 1000})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    validate_documented("POST", "/api/v1/crawls", &a);
    let crawl = &a.body["crawl"];
    let id = crawl["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("cr_") && id.len() == 25 && id[3..].chars().all(|c| c.is_ascii_alphanumeric()), "{id}");
    assert_eq!(a.header("location"), Some(format!("/api/v1/crawls/{id}").as_str()));
    assert_eq!(crawl["max_pages"], 30);
    assert_eq!(crawl["max_pages_cut"]["asked"], 1000);
    assert_eq!(crawl["max_pages_cut"]["limit"], 30);
    assert!(a.header("x-ratelimit-remaining").is_some(), "starting a crawl consumes quota");

    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["time_limited"], false, "{done}");
    // /, about, tables, chairs, gone (404), notes.txt answered; /slow/late timed out.
    assert_eq!(done["progress"]["pages_done"], 6, "{done}");
    assert_eq!(done["progress"]["pages_failed"], 1, "{done}");
    assert_eq!(done["progress"]["pages_queued"], 0);
    let score = done["site_score"].as_u64().unwrap();
    assert!(score < 100, "{done}");
    let issues = done["issues"].as_array().unwrap();
    let issue = |id: &str| issues.iter().find(|i| i["id"] == id).cloned();
    assert_eq!(issue("broken-internal-link").unwrap()["count"], 2, "{done}");
    assert_eq!(issue("duplicate-title").unwrap()["count"], 2, "{done}");
    assert_eq!(issue("broken-internal-link").unwrap()["kind"], "site");
    assert_eq!(done["report_url"], format!("/crawls/{id}"));

    // The pages, two at a time, each URL once.
    let (mut urls, mut cursor) = (Vec::new(), None::<String>);
    for _ in 0..10 {
        let mut path = format!("/api/v1/crawls/{id}/pages?limit=2");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let a = get(&t, &path, None).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        validate_documented("GET", "/api/v1/crawls/{id}/pages", &a);
        let pages = a.body["pages"].as_array().unwrap();
        assert!(pages.len() <= 2);
        urls.extend(pages.iter().map(|p| p["url"].as_str().unwrap().to_string()));
        if pages.iter().any(|p| p["url"] == site.url("/")) {
            let home = pages.iter().find(|p| p["url"] == site.url("/")).unwrap();
            assert_eq!((home["depth"].clone(), home["status_code"].clone()), (json!(0), json!(200)));
            assert_eq!(home["inlinks"], 3, "{home}");
            assert!(home["score"].as_u64().is_some() && home["title"] == "Oak furniture workshop");
        }
        match a.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let distinct: std::collections::BTreeSet<&String> = urls.iter().collect();
    assert_eq!((urls.len(), distinct.len()), (7, 7), "{urls:?}");
    assert_eq!(get(&t, &format!("/api/v1/crawls/{id}/pages?cursor=x"), None).await.status, 400);

    // A site rule's findings, with the linking page.
    let a = get(&t, &format!("/api/v1/crawls/{id}/issues/broken-internal-link"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/issues/{rule_id}", &a);
    assert_eq!(a.body["rule"]["kind"], "site");
    // Every finding stored: the totals are those listed, and nothing is cut.
    assert_eq!((a.body["total_urls"].as_u64(), a.body["truncated"].as_bool()), (Some(2), Some(false)), "{}", a.raw);
    assert!(a.body["total_findings"].as_u64() >= Some(2), "{}", a.raw);
    let gone = a.body["urls"].as_array().unwrap().iter().find(|u| u["url"] == site.url("/gone.html")).cloned();
    assert_eq!(gone.unwrap()["linked_from"], site.url("/"), "{}", a.raw);
    // A page rule's, and an unknown rule.
    let first_page_rule = issues.iter().find(|i| i["kind"] == "page").unwrap()["id"].as_str().unwrap().to_string();
    let a = get(&t, &format!("/api/v1/crawls/{id}/issues/{first_page_rule}"), None).await;
    assert_eq!((a.status, a.body["rule"]["kind"].as_str()), (200, Some("page")));
    assert!(!a.body["urls"].as_array().unwrap().is_empty());
    get(&t, &format!("/api/v1/crawls/{id}/issues/no-such-rule"), None).await.assert_error(404, "not_found");

    // Exports.
    let csv = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=csv"))).send().await.unwrap();
    assert_eq!(csv.status(), 200);
    assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let text = csv.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("url,state,status_code,depth,inlinks,score,title,failed_rules"));
    assert_eq!(lines.len(), 8, "{text}");
    let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=json"), None).await;
    assert_eq!(a.status, 200);
    validate_documented("GET", "/api/v1/crawls/{id}/export", &a);
    assert_eq!(a.body["pages"].as_array().unwrap().len(), 7);
    let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=xml"), None).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["parameter"], "format");
    // A bad cursor or limit is worded as the stored audits' are, every route one sentence.
    for (query, parameter) in [("cursor=garbage", "cursor"), ("limit=0", "limit"), ("limit=ten", "limit")] {
        let a = get(&t, &format!("/api/v1/crawls/{id}/pages?{query}"), None).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], parameter, "{query}");
        let message = a.body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("The parameter `{parameter}` must be ")), "{message}");
    }
    let a = get(&t, &format!("/api/v1/crawls/{id}/pages?cursor=garbage"), None).await;
    assert_eq!(a.body["error"]["message"], format!("The parameter `cursor` must be {}.", app::CURSOR_EXPECTED));

    // The human report page, reached from the crawl's JSON.
    let page = t.client.get(t.url(done["report_url"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!(">{score}<")), "the site score is shown");
    assert!(html.contains("broken-internal-link") && html.contains(&site.url("/gone.html")));
    assert!(html.contains("Oak furniture workshop"), "the pages table");
    let other =
        t.client.get(t.url(&format!("/crawls/{id}"))).header("x-api-key", t.key(|_| {}).0).send().await.unwrap();
    assert_eq!(other.status(), 404, "a key does not see an anonymous crawl");

    // Cancelling an ended crawl changes nothing.
    let a = send(&t, reqwest::Method::DELETE, &format!("/api/v1/crawls/{id}"), None, None).await;
    assert_eq!((a.status, a.body["crawl"]["state"].as_str()), (200, Some("completed")));
}

#[tokio::test]
async fn a_key_sees_only_its_own_crawls_and_bad_starts_create_nothing() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("site-crawl-rest").await;
    let (key, record) = t.key(|_| {});
    let (other, _) = t.key(|_| {});

    let a = start(&t, Some(&key), json!({"url": site.url("/"), "max_pages": 3, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert_eq!(a.body["crawl"]["max_pages"], 3);
    assert!(a.body["crawl"].get("max_pages_cut").is_none(), "3 is within the free tier's 100");
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, Some(&key)).await;
    let export = get(&t, &format!("/api/v1/crawls/{id}/export"), Some(&key)).await;
    let fetched = done["progress"]["pages_done"].as_u64().unwrap() + done["progress"]["pages_failed"].as_u64().unwrap();
    assert_eq!(fetched, 3, "max_pages holds: {}", export.raw);

    for who in [None, Some(other.as_str())] {
        for path in [format!("/api/v1/crawls/{id}"), format!("/api/v1/crawls/{id}/pages")] {
            get(&t, &path, who).await.assert_error(404, "not_found");
        }
        let a = send(&t, reqwest::Method::DELETE, &format!("/api/v1/crawls/{id}"), who, None).await;
        a.assert_error(404, "not_found");
    }
    get(&t, "/api/v1/crawls/cr_0000000000000000000000", Some(&key)).await.assert_error(404, "not_found");

    // The audit's errors, before any crawl is created.
    let before = t.db(|s| s.list_crawls(&record.user_id, 100).unwrap().len());
    start(&t, Some(&key), json!({"url": "not a url"})).await.assert_error(400, "invalid_url");
    start(&t, Some(&key), json!({"url": site.url("/notes.txt")})).await.assert_error(422, "not_html");
    start(&t, Some(&key), json!({"url": "http://10.1.2.3/"})).await.assert_error(422, "blocked_target");
    start(&t, Some(&key), json!({})).await.assert_error(400, "missing_parameter");
    let a = start(&t, Some(&key), json!({"url": site.url("/"), "max_pages": 0})).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["parameter"], "max_pages");
    let a = start(&t, Some(&key), json!({"url": site.url("/"), "colour": "red"})).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["parameter"], "colour");
    // A wrong type is worded as on every other body (the audit's, the webhooks').
    let a = start(&t, Some(&key), json!({"url": site.url("/"), "render": "yes"})).await;
    assert_eq!(a.body["error"]["message"], "The field `render` must be true or false.");
    assert_eq!(t.db(|s| s.list_crawls(&record.user_id, 100).unwrap().len()), before);
}

/// The operator's `[max_pages]` settings replace the tier caps: a `pro` key under a raised
/// cap gets the raised `max_pages` and is cut to it past it, while the tiers left at their
/// defaults keep them (docs/API.md, "Running the service").
#[tokio::test]
async fn an_operator_raises_a_tiers_pages_per_crawl() {
    let t = TestServer::start(|c| c.max_pages.pro = 2_000).await;
    let site = fixture_site("site-crawl-rest").await;
    let (pro, _) = t.key(|k| k.tier = store::Tier::Pro);
    let (free, _) = t.key(|_| {});
    let mut ids = Vec::new();

    let a = start(&t, Some(&pro), json!({"url": site.url("/"), "max_pages": 1_500, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert_eq!(a.body["crawl"]["max_pages"], 1_500, "past the default 500 of pro: {}", a.raw);
    assert!(a.body["crawl"].get("max_pages_cut").is_none(), "{}", a.raw);
    ids.push((a.body["crawl"]["id"].as_str().unwrap().to_string(), pro.clone()));

    let a = start(&t, Some(&pro), json!({"url": site.url("/"), "max_pages": 5_000, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert_eq!(a.body["crawl"]["max_pages"], 2_000, "{}", a.raw);
    let cut = &a.body["crawl"]["max_pages_cut"];
    assert_eq!((cut["asked"].as_u64(), cut["limit"].as_u64()), (Some(5_000), Some(2_000)), "{cut}");
    ids.push((a.body["crawl"]["id"].as_str().unwrap().to_string(), pro.clone()));

    let a = start(&t, Some(&free), json!({"url": site.url("/"), "max_pages": 1_500, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let cut = &a.body["crawl"]["max_pages_cut"];
    assert_eq!((cut["asked"].as_u64(), cut["limit"].as_u64()), (Some(1_500), Some(100)), "{cut}");
    ids.push((a.body["crawl"]["id"].as_str().unwrap().to_string(), free.clone()));

    // The stored crawl runs with the raised cap, not the default one.
    let done = ended(&t, &ids[0].0, Some(&pro)).await;
    assert_eq!(done["max_pages"], 1_500, "{done}");
    for (id, key) in &ids[1..] {
        send(&t, reqwest::Method::DELETE, &format!("/api/v1/crawls/{id}"), Some(key), None).await;
    }
}

/// A key's own pages per crawl (set by the operator: `seo-audit keys set ID --max-pages N`)
/// replaces its tier's cap for that key alone: a key raised to 8 crawls 8 pages of a
/// 40-page site, another key of the same tier keeps the tier's cap (3 here) and crawls 3
/// (docs/API.md, "Running the service").
#[tokio::test]
async fn an_operator_raises_one_keys_pages_per_crawl() {
    let t = TestServer::start(|c| c.max_pages.free = 3).await;
    // Page n links to the next three; 40 pages in all.
    let site = Pages::serve(|req: &wiremock::Request| {
        let n: Option<usize> = match req.url.path() {
            "/" => Some(0),
            p => p.strip_prefix("/p/").and_then(|n| n.parse().ok()).filter(|n| *n < 40),
        };
        match n {
            Some(n) => {
                let links: String = (n + 1..(n + 4).min(40)).map(|m| format!("<a href='/p/{m}'>page {m}</a>")).collect();
                let body = format!("<html><head><title>Page {n} of the shop</title></head><body><h1>Page {n}</h1>{links}</body></html>");
                ResponseTemplate::new(200).set_body_raw(body, "text/html")
            }
            None => ResponseTemplate::new(404).set_body_raw("not found", "text/plain"),
        }
    })
    .await
    .leak();
    let (raised, record) = t.key(|k| k.max_pages = Some(8));
    let (other, _) = t.key(|_| {});
    assert_eq!(record.max_pages, Some(8));

    let mut done = Vec::new();
    for (key, limit) in [(&raised, 8), (&other, 3)] {
        let a =
            start(&t, Some(key), json!({"url": format!("http://{site}/"), "max_pages": 20, "sitemaps": false})).await;
        assert_eq!(a.status, 202, "{}", a.raw);
        assert_eq!(a.body["crawl"]["max_pages"], limit, "{}", a.raw);
        let cut = &a.body["crawl"]["max_pages_cut"];
        assert_eq!((cut["asked"].as_u64(), cut["limit"].as_u64()), (Some(20), Some(limit)), "{cut}");
        let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
        done.push(ended(&t, &id, Some(key)).await);
    }
    assert_eq!((done[0]["state"].as_str(), done[0]["progress"]["pages_done"].as_u64()), (Some("completed"), Some(8)));
    assert_eq!((done[1]["state"].as_str(), done[1]["progress"]["pages_done"].as_u64()), (Some("completed"), Some(3)));

    // Back to the tier's cap: the key's next crawl is cut to 3 again.
    let id = record.id.clone();
    let back = t.db(move |s| s.set_key_max_pages(&id, None).unwrap());
    assert_eq!(back.max_pages, None);
    let a =
        start(&t, Some(&raised), json!({"url": format!("http://{site}/"), "max_pages": 20, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert_eq!(a.body["crawl"]["max_pages"], 3, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    send(&t, reqwest::Method::DELETE, &format!("/api/v1/crawls/{id}"), Some(&raised), None).await;
}

/// An ended crawl whose pages the retention sweep pruned still answers its `GET` with its
/// summary, says when its pages went, and lists none (docs/API.md, "Retention").
#[tokio::test]
async fn a_crawl_whose_pages_were_pruned_answers_with_its_summary() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("site-crawl-rest").await;
    let a = start(&t, None, json!({"url": site.url("/"), "max_pages": 5, "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let before = ended(&t, &id, None).await;
    assert!(before.get("pages_pruned_at").is_none(), "{before}");
    let listed = get(&t, &format!("/api/v1/crawls/{id}/pages"), None).await;
    assert!(!listed.body["pages"].as_array().unwrap().is_empty(), "{}", listed.raw);

    // The sweep as it runs two days later, pages kept one day after a crawl's end.
    let mut policy = t.server.state().config.retention();
    policy.crawl_pages_age = time::Duration::days(1);
    let later = time::OffsetDateTime::now_utc() + time::Duration::days(2);
    let pruned = t.db(move |s| s.prune(&policy, later).unwrap());
    assert_eq!(pruned.crawl_pages, 1, "{pruned:?}");

    let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}", &a);
    let after = &a.body["crawl"];
    assert!(after["pages_pruned_at"].is_string(), "{after}");
    for member in
        ["state", "progress", "site_score", "issues", "links_not_queued", "links_to_unrecorded_urls", "finished_at"]
    {
        assert_eq!(after[member], before[member], "{member}");
    }
    let listed = get(&t, &format!("/api/v1/crawls/{id}/pages"), None).await;
    assert_eq!(listed.status, 200, "{}", listed.raw);
    assert!(listed.body["pages"].as_array().unwrap().is_empty(), "{}", listed.raw);
}

/// A site whose `/held` page answers only once the test adds a permit to `gate`.
async fn held_site(gate: std::sync::Arc<tokio::sync::Semaphore>) -> std::net::SocketAddr {
    // The threaded server: its answers may block.
    let site = test_support::ThreadServer::start(move |req| {
        let body = match req.path.as_str() {
            "/" => "<html lang=en><title>Home</title><a href=/held>Held</a><a href=/other>Other</a></html>",
            "/held" => {
                while gate.try_acquire().is_err() {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                "<html lang=en><title>Held</title></html>"
            }
            "/other" => "<html lang=en><title>Other</title><a href=/>Home</a></html>",
            _ => return Some(test_support::status(404)),
        };
        Some(test_support::html(body))
    });
    std::net::SocketAddr::from(([127, 0, 0, 1], site.port()))
}

/// The `inlinks` of each URL of the crawl's first page of URLs.
async fn inlinks(t: &TestServer, id: &str) -> std::collections::BTreeMap<String, u64> {
    let a = get(t, &format!("/api/v1/crawls/{id}/pages"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/pages", &a);
    let pages = a.body["pages"].as_array().unwrap();
    pages.iter().map(|p| (p["url"].as_str().unwrap().to_string(), p["inlinks"].as_u64().unwrap())).collect()
}

/// A crawl of [`held_site`] on a new test server, once `/` and `/other` are done and it is
/// held at `/held`: the server, the gate, the site's address and the crawl id.
async fn held_crawl() -> (TestServer, std::sync::Arc<tokio::sync::Semaphore>, std::net::SocketAddr, String) {
    let t = TestServer::start(|c| c.fetch.total_timeout_ms = 30_000).await;
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let addr = held_site(gate.clone()).await;
    let a = start(&t, None, json!({"url": format!("http://{addr}/"), "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    for _ in 0..600 {
        let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
        if a.body["crawl"]["progress"]["pages_done"] == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    (t, gate, addr, id)
}

#[tokio::test]
async fn a_running_crawl_lists_its_pages_with_their_inlinks() {
    let (t, gate, addr, id) = held_crawl().await;
    // Held at /held: / and /other are done and already count the links between them. A page
    // counts as done when its fetch ends; its record (with its links) is written just after,
    // so the listing is read until it has both.
    let (home, other) = (format!("http://{addr}/"), format!("http://{addr}/other"));
    let expected: std::collections::BTreeMap<String, u64> =
        [(home.clone(), 1), (other.clone(), 1)].into_iter().collect();
    let mut running = inlinks(&t, &id).await;
    for _ in 0..300 {
        if running == expected {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        running = inlinks(&t, &id).await;
    }
    let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
    assert_eq!(a.body["crawl"]["state"], "running", "{}", a.raw);
    assert_eq!(running, expected, "{running:?}");
    // A running crawl is compared once it has ended.
    let a = get(&t, &format!("/api/v1/crawls/{id}/compare?against={id}"), None).await;
    a.assert_error(409, "conflict");
    gate.add_permits(100);
    ended(&t, &id, None).await;
    let a = get(&t, &format!("/api/v1/crawls/{id}/compare?against={id}"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    assert_eq!(a.body["comparison"]["new_findings"], 0, "a crawl against itself: nothing new");
    let done = inlinks(&t, &id).await;
    let held = format!("http://{addr}/held");
    assert_eq!(done, [(home, 1), (other, 1), (held, 1)].into_iter().collect(), "{done:?}");
}

#[tokio::test]
async fn a_cancelled_crawl_keeps_its_pages() {
    // The crawl is running, held at /held, with / and /other done.
    let (t, gate, _addr, id) = held_crawl().await;
    let a = send(&t, reqwest::Method::DELETE, &format!("/api/v1/crawls/{id}"), None, None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("DELETE", "/api/v1/crawls/{id}", &a);
    assert_eq!(a.body["crawl"]["state"], "cancelled");
    gate.add_permits(100);
    // The runner stops, gives up its lease and leaves the crawl cancelled with its pages.
    for _ in 0..600 {
        if t.db(|s| s.crawl_lease(&id).unwrap()).is_none() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
    assert_eq!(a.body["crawl"]["state"], "cancelled", "{}", a.raw);
    assert!(a.body["crawl"]["progress"]["pages_done"].as_u64().unwrap() >= 2, "{}", a.raw);
    assert!(a.body["crawl"]["site_score"].is_u64(), "what it has is scored: {}", a.raw);
}

#[tokio::test]
async fn the_agent_tools_start_and_report_a_crawl() {
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("site-crawl-rest").await;
    let (key, _) = t.key(|_| {});
    let (other, _) = t.key(|_| {});
    let a = tool_call(&t, &key, "crawl_site", json!({ "url": site.url("/"), "max_pages": 1000 })).await;
    let result = &a.body["result"];
    assert_eq!(result["isError"], false, "{}", a.raw);
    let started = &result["structuredContent"];
    assert_eq!((started["state"].as_str(), started["max_pages"].as_u64()), (Some("queued"), Some(100)));
    assert_eq!(started["max_pages_cut"], json!({ "asked": 1000, "limit": 100 }));
    let id = started["crawl_id"].as_str().unwrap().to_string();
    // The REST view and the tool agree once it ended.
    let done = ended(&t, &id, Some(&key)).await;
    let a = tool_call(&t, &key, "crawl_status", json!({ "crawl_id": id })).await;
    let status = &a.body["result"]["structuredContent"];
    assert_eq!(status["state"], "completed", "{}", a.raw);
    assert_eq!(status["site_score"], done["site_score"]);
    assert_eq!(status["progress"]["pages_done"], done["progress"]["pages_done"]);
    assert_eq!(status["top_issues"][0]["id"], done["issues"][0]["id"]);
    assert!(a.header("x-ratelimit-remaining").is_none(), "crawl_status polls are free");
    // Another owner's crawl is unknown to it.
    let a = tool_call(&t, &other, "crawl_status", json!({ "crawl_id": id })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    assert!(a.body["result"]["content"][0]["text"].as_str().unwrap().starts_with("not_found"), "{}", a.raw);
}

#[tokio::test]
async fn a_finished_crawl_fires_crawl_completed_to_its_owner() {
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let site = fixture_site("site-crawl-rest").await;
    let (key, _) = t.key(|k| k.scopes = vec!["audit".into(), "mcp".into(), "webhooks".into()]);
    let got: std::sync::Arc<std::sync::Mutex<Vec<Value>>> = Default::default();
    let log = got.clone();
    let receiver = Pages::serve(move |req: &wiremock::Request| {
        log.lock().unwrap().push(serde_json::from_slice(&req.body).unwrap_or(Value::Null));
        ResponseTemplate::new(200).set_body_bytes(b"{}".to_vec())
    })
    .await
    .leak();
    let hook = json!({ "url": format!("http://{receiver}/hook"), "events": ["crawl.completed"] });
    let a = send(&t, reqwest::Method::POST, "/api/v1/webhooks", Some(&key), Some(hook)).await;
    assert_eq!(a.status, 201, "{}", a.raw);

    let a = start(&t, Some(&key), json!({ "url": site.url("/"), "sitemaps": false })).await;
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, Some(&key)).await;
    let mut event = None;
    for _ in 0..600 {
        event = got.lock().unwrap().first().cloned();
        if event.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let event = event.expect("the crawl.completed delivery");
    assert_eq!(event["event"], "crawl.completed", "{event}");
    // camelCase, as every other event's data.
    assert_eq!(event["data"]["crawlId"], id.as_str());
    assert_eq!(event["data"]["state"], "completed");
    assert_eq!(event["data"]["siteScore"], done["site_score"]);
    assert_eq!(event["data"]["pagesDone"], done["progress"]["pages_done"]);
    assert_eq!(event["data"]["pagesFailed"], done["progress"]["pages_failed"]);
    // The first names are kept for this version, for receivers that read them.
    for (old, new) in [("crawl_id", "crawlId"), ("site_score", "siteScore"), ("pages_done", "pagesDone")] {
        assert_eq!(event["data"][old], event["data"][new], "{old}");
    }
}

#[tokio::test]
async fn a_crawl_left_running_with_every_page_done_is_completed_by_the_sweep() {
    // A replica died after recording the last page and before ending the crawl: its lease
    // has run out, and nothing is left to fetch.
    let t = TestServer::start(|c| c.lease_ms = 200).await;
    let start = "http://127.0.0.1:9/";
    let options = json!({ "request": { "url": start, "max_pages": 30, "include": [], "exclude": [], "sitemaps": false }, "max_pages": 30 });
    let new = store::NewCrawl { user_id: None, url: start.into(), options_json: options.to_string(), max_pages: 30 };
    let past = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
    let id = t.db(move |s| {
        let crawl = s.create_crawl(new, "dead-replica", past).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        let mut frontier = s.crawl_frontier(&crawl.id, "dead-replica");
        let entry = crawl::Entry {
            url: start.into(),
            depth: Some(0),
            found_from: None,
            source: crawl::Source::Start,
            state: crawl::State::Done,
            status: Some(200),
            reason: None,
        };
        crawl::FrontierStore::insert(&mut frontier, entry).unwrap();
        let page = crawl::CrawledPage {
            url: start.into(),
            status: Some(200),
            html: true,
            depth: Some(0),
            title: Some("Home".into()),
            score: Some(90),
            ..crawl::CrawledPage::default()
        };
        s.record_crawl_page(&crawl.id, &page, &[]).unwrap();
        crawl.id
    });
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["site_score"], 90);
    assert_eq!(done["progress"]["pages_done"], 1);
}

#[tokio::test]
async fn a_redirect_to_an_inner_address_is_blocked_and_listed() {
    // An inner service on a loopback port the fetcher's allow list does not name: it must
    // see no request.
    let inner_hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let hits = inner_hits.clone();
    let inner = Pages::serve(move |_: &wiremock::Request| {
        hits.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        ResponseTemplate::new(200).set_body_bytes(b"<title>secret</title>".to_vec())
    })
    .await
    .leak();
    let target = format!("http://{inner}/admin");
    let to = target.clone();
    let site = Pages::serve(move |req: &wiremock::Request| {
        let (status, location, body) = match req.url.path() {
            "/" => (200, None, "<html lang=en><title>Home of the shop</title><a href=/admin>Admin</a></html>"),
            "/admin" => (302, Some(to.clone()), ""),
            _ => (404, None, ""),
        };
        let mut answer = ResponseTemplate::new(status).set_body_raw(body, "text/html");
        if let Some(location) = location {
            answer = answer.insert_header("location", location.as_str());
        }
        answer
    })
    .await
    .leak();
    // Only the site's own port is allowed.
    let t = TestServer::start(|c| c.allow_targets = vec![site.to_string()]).await;
    let home = format!("http://{site}/");
    let a = start(&t, None, json!({ "url": home, "sitemaps": false })).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["progress"]["pages_skipped"], 1, "{done}");
    assert_eq!(inner_hits.load(std::sync::atomic::Ordering::SeqCst), 0, "the inner address was requested");

    // The pages: the redirect with its target, and the target listed as blocked.
    let a = get(&t, &format!("/api/v1/crawls/{id}/pages"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/pages", &a);
    let pages = a.body["pages"].as_array().unwrap();
    let row = |url: &str| pages.iter().find(|p| p["url"] == url).cloned().unwrap_or_else(|| panic!("{url}: {}", a.raw));
    let redirect = row(&format!("http://{site}/admin"));
    assert_eq!(
        (redirect["status_code"].as_u64(), redirect["redirect_to"].as_str()),
        (Some(302), Some(target.as_str()))
    );
    let blocked = row(&target);
    assert_eq!(blocked["state"], "skipped", "{blocked}");
    let reason = blocked["reason"].as_str().unwrap();
    assert!(reason.starts_with("blocked_target: ") && reason.contains(&inner.ip().to_string()), "{reason}");
    assert_eq!(blocked["found_from"], format!("http://{site}/admin"));
    assert_eq!(blocked["status_code"], Value::Null);

    // The exports and the report page list it too.
    let csv = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=csv"))).send().await.unwrap();
    let text = csv.text().await.unwrap();
    let line = text.lines().find(|l| l.starts_with(&format!("{target},"))).unwrap_or_else(|| panic!("{text}"));
    assert!(line.starts_with(&format!("{target},skipped,")) && line.contains("blocked_target: "), "{line}");
    let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=json"), None).await;
    let exported = a.body["pages"].as_array().unwrap().iter().find(|p| p["url"] == target.as_str()).cloned();
    assert_eq!(exported.unwrap()["reason"], reason);
    let html = t.client.get(t.url(&format!("/crawls/{id}"))).send().await.unwrap().text().await.unwrap();
    assert!(html.contains(&target) && html.contains("blocked_target: "), "{html}");
}

#[tokio::test]
async fn a_crawl_resumed_after_its_time_limit_ran_out_ends_with_what_it_had() {
    // A replica died mid-crawl: the home page done, two pages queued. The crawl's time limit
    // (`crawl_time_limit_s`) counts from its start, so the replica that takes it over once
    // the limit has run out fetches nothing more.
    let requested = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = requested.clone();
    let site = Pages::serve(move |_: &wiremock::Request| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        ResponseTemplate::new(200).set_body_raw("<html lang=en><title>A page of the shop</title></html>", "text/html")
    })
    .await
    .leak();
    // A lease of 1 s: with 200 ms, a loaded machine (the whole suite at four threads) once
    // renewed the adopting replica's lease late, and the sweep adopted the crawl a second time
    // (`resumes` 2). The dead replica's lease below still runs out after the time limit.
    let t = TestServer::start(|c| {
        c.lease_ms = 1000;
        c.crawl_time_limit_s = 1;
    })
    .await;
    let home = format!("http://{site}/");
    let options = json!({ "request": { "url": home, "max_pages": 30, "include": [], "exclude": [], "sitemaps": false }, "max_pages": 30 });
    let new = store::NewCrawl { user_id: None, url: home.clone(), options_json: options.to_string(), max_pages: 30 };
    // Its lease runs out after its time limit, so the sweep adopts it only then.
    let lease_until = time::OffsetDateTime::now_utc() + time::Duration::milliseconds(1500);
    let (id, started_at) = t.db(move |s| {
        let crawl = s.create_crawl(new, "dead-replica", lease_until).unwrap();
        s.start_crawl(&crawl.id).unwrap();
        let mut frontier = s.crawl_frontier(&crawl.id, "dead-replica");
        for (path, depth, state) in
            [("", 0, crawl::State::Done), ("a", 1, crawl::State::Queued), ("b", 1, crawl::State::Fetching)]
        {
            let entry = crawl::Entry {
                url: format!("{home}{path}"),
                depth: Some(depth),
                found_from: None,
                source: if depth == 0 { crawl::Source::Start } else { crawl::Source::Link },
                state,
                status: (state == crawl::State::Done).then_some(200),
                reason: None,
            };
            crawl::FrontierStore::insert(&mut frontier, entry).unwrap();
        }
        let page = crawl::CrawledPage {
            url: home.clone(),
            status: Some(200),
            html: true,
            depth: Some(0),
            title: Some("Home".into()),
            score: Some(80),
            ..crawl::CrawledPage::default()
        };
        s.record_crawl_page(&crawl.id, &page, &[]).unwrap();
        let started_at = s.get_crawl(&crawl.id).unwrap().started_at;
        (crawl.id, started_at)
    });
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["time_limited"], true, "{done}");
    assert_eq!(
        done["started_at"].as_str(),
        started_at.map(|t| t.to_string()).as_deref(),
        "the start stays the first one"
    );
    assert_eq!(done["progress"]["pages_done"], 1, "{done}");
    assert_eq!(done["progress"]["pages_queued"], 2, "{done}");
    assert_eq!(done["site_score"], 80);
    assert_eq!(requested.load(std::sync::atomic::Ordering::SeqCst), 0, "nothing fetched after the limit");
    let crawl = t.db(move |s| s.get_crawl(&id).unwrap());
    assert_eq!(crawl.resumes, 1);
}

/// A small site whose pages answer after `delay`: `/` links to five pages, each back home.
async fn slow_site(delay: std::time::Duration) -> test_support::Pages {
    test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let path = request.url.path();
        if path == "/robots.txt" || path.starts_with("/sitemap") {
            return test_support::ResponseTemplate::new(404);
        }
        let links: String = (1..=5).map(|n| format!("<a href='/p{n}'>Page {n}</a>")).collect();
        let body = format!("<html lang=en><title>The page {path} of the shop</title><h1>Shop</h1>{links}</html>");
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html").set_delay(delay)
    })
    .await
}

/// 40 anonymous crawls from four client addresses at once (each address's minute of
/// anonymous quota): at most 4 run at once in all and 2 per address, the others wait
/// `queued` and start in the order they were made; every crawl completes (none fails for
/// an internal reason such as a busy database), and `/api/status` answers within a second
/// throughout (docs/SECURITY.md, "Site crawls").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_crawls_from_four_addresses_queue_within_the_caps_and_all_complete() {
    use std::net::IpAddr;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    let t = TestServer::start(|c| {
        c.rate_limits.anonymous = 10;
        c.max_connections_per_ip = 0;
    })
    .await;
    let site = slow_site(Duration::from_millis(30)).await;
    let clients: Vec<(IpAddr, reqwest::Client)> = (2..=5u8)
        .map(|last| {
            let ip = IpAddr::from([127, 0, 0, last]);
            (ip, reqwest::Client::builder().no_proxy().local_address(ip).build().unwrap())
        })
        .collect();

    // /api/status is asked every 50 ms from a fifth address while the crawls run.
    let (done, slowest) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
    let watcher = {
        let (done, slowest) = (done.clone(), slowest.clone());
        let client = reqwest::Client::builder().no_proxy().local_address(IpAddr::from([127, 0, 0, 6])).build().unwrap();
        let url = t.url("/api/status");
        tokio::spawn(async move {
            let mut asked = 0u32;
            while !done.load(Ordering::SeqCst) {
                let at = Instant::now();
                let a = client.get(&url).timeout(Duration::from_secs(30)).send().await.unwrap();
                assert_eq!(a.status(), 200);
                slowest.fetch_max(at.elapsed().as_millis() as u64, Ordering::SeqCst);
                asked += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            asked
        })
    };

    // Each address starts its ten crawls one after the other; the four at once. The quota's
    // window is the UTC clock's minute.
    let minute = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 60;
    let first_minute = minute();
    let starts = clients.iter().map(|(ip, client)| {
        let (client, url, target) = (client.clone(), t.url("/api/v1/crawls"), format!("http://{}/", site.addr()));
        let ip = *ip;
        async move {
            let mut ids = Vec::new();
            for _ in 0..10 {
                let a = Answer::from(
                    client.post(&url).json(&json!({"url": target, "sitemaps": false})).send().await.unwrap(),
                )
                .await;
                assert_eq!(a.status, 202, "{ip}: {}", a.raw);
                ids.push(a.body["crawl"]["id"].as_str().unwrap().to_string());
            }
            (ip, ids)
        }
    });
    let started: Vec<(IpAddr, Vec<String>)> = futures_util::future::join_all(starts).await;
    // An eleventh crawl from an address is over its minute of quota.
    let (_, first) = &clients[0];
    let home = format!("http://{}/", site.addr());
    let over = first.post(t.url("/api/v1/crawls")).json(&json!({"url": home})).send().await.unwrap();
    if minute() == first_minute {
        assert_eq!(over.status(), 429);
    } else {
        // A new minute began during the starts: the eleventh is within the new window's quota.
        eprintln!("the quota's minute turned over during the starts: the eleventh crawl is not over it");
    }

    // Until all have ended.
    let deadline = Instant::now() + Duration::from_secs(300);
    let finals = loop {
        let states: Vec<Vec<Value>> = t.db(|s| {
            started
                .iter()
                .map(|(_, ids)| {
                    ids.iter()
                        .map(|id| {
                            let c = s.get_crawl(id).unwrap();
                            json!({"state": c.state.as_str(), "started_at": c.started_at,
                                   "finished_at": c.finished_at, "error": c.error})
                        })
                        .collect()
                })
                .collect()
        });
        if states.iter().flatten().all(|c| c["state"] != "running" && c["state"] != "queued") {
            break states;
        }
        assert!(Instant::now() < deadline, "the crawls did not end: {states:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    done.store(true, Ordering::SeqCst);
    let asked = watcher.await.unwrap();

    // The running crawls never exceeded the caps: each ran from its `started_at` (set when it
    // was started) until its `finished_at` (set when it ended, in the same transaction as its
    // end state); at each start, count the crawls running, in all and of its address.
    let runs: Vec<(usize, String, String)> = finals
        .iter()
        .enumerate()
        .flat_map(|(ip, crawls)| {
            crawls.iter().map(move |c| {
                (ip, c["started_at"].as_str().unwrap().to_string(), c["finished_at"].as_str().unwrap().to_string())
            })
        })
        .collect();
    let (mut most, mut most_per_ip) = (0usize, 0usize);
    for (_, at, _) in &runs {
        let running: Vec<usize> =
            runs.iter().filter(|(_, from, to)| from <= at && at < to).map(|(ip, _, _)| *ip).collect();
        most = most.max(running.len());
        most_per_ip = most_per_ip.max((0..4).map(|ip| running.iter().filter(|r| **r == ip).count()).max().unwrap());
    }
    assert!(most <= 4, "{most} crawls ran at once: {runs:?}");
    assert!(most_per_ip <= 2, "{most_per_ip} crawls of one address ran at once: {runs:?}");
    assert!(most >= 2, "the crawls overlapped ({most} at most)");
    for ((ip, _), crawls) in started.iter().zip(&finals) {
        for crawl in crawls {
            assert_eq!(crawl["state"], "completed", "{ip}: {crawl}");
        }
        // An address's crawls started in the order they were made.
        let starts: Vec<&str> = crawls.iter().map(|c| c["started_at"].as_str().unwrap()).collect();
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{ip}: {starts:?}");
    }
    let slowest = slowest.load(Ordering::SeqCst);
    assert!(asked >= 5 && slowest < 1_000, "/api/status took {slowest} ms at worst over {asked} requests");
}

/// A site whose sitemap lists 2,000 URLs: a crawl of at most 5 pages keeps 100 of them (20 per
/// page of `max_pages`), so what one crawl stores follows its `max_pages`, not the site's
/// sitemaps (docs/API.md, "Site crawl", "What a crawl keeps").
#[tokio::test]
async fn a_crawl_keeps_sitemap_urls_in_proportion_to_its_pages() {
    let t = TestServer::start(|c| c.fetch.max_body_bytes = 1024 * 1024).await;
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let path = request.url.path();
        // The site's own address, as the crawler asked for it.
        let authority = request.headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or_default().to_string();
        match path {
            "/robots.txt" => test_support::ResponseTemplate::new(404),
            "/sitemap.xml" => {
                let urls: String =
                    (0..2000).map(|i| format!("<url><loc>http://{authority}/listed/{i}</loc></url>")).collect();
                let body = format!(
                    "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{urls}</urlset>"
                );
                test_support::ResponseTemplate::new(200).set_body_raw(body, "application/xml")
            }
            _ => {
                let body = format!("<html lang=en><title>The page {path}</title><a href='/'>Home</a></html>");
                test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
            }
        }
    })
    .await;
    let home = format!("http://{}/", site.addr());
    let a = start(&t, None, json!({"url": home, "max_pages": 5})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    let kept = t.db(|s| {
        let site = s.crawl_site(&id, true).unwrap();
        let mut n = 0;
        crawl::CrawledSite::sitemap_urls(&site, &mut |_| {
            n += 1;
            Ok(())
        })
        .unwrap();
        n
    });
    let pages = t.db(|s| s.crawl_pages(&id, None, 20).unwrap().0);
    let urls: Vec<(&str, &str)> = pages.iter().map(|p| (p.url.as_str(), p.state.as_str())).collect();
    assert_eq!(kept, 5 * app::crawl::SITEMAP_URLS_PER_PAGE, "sitemap URLs kept: {done} {urls:?}");
    // The frontier holds the start page and what the sitemap gave, no more.
    let listed = t.db(|s| s.crawl_pages(&id, None, 500).unwrap().0.len());
    assert!(listed <= 1 + kept, "{listed} URLs in the frontier");
}

/// A site whose only route to `/en/hidden` is a sitemap at `/en/sitemap.xml`, named by
/// neither robots.txt nor `/sitemap.xml`: a crawl reads it when the body names it
/// (`sitemaps: [urls]`), over REST and from the agent tool, and refuses one off the site.
#[tokio::test]
async fn named_sitemaps_are_read_over_rest_and_the_agent_tool() {
    let t = TestServer::start(|_| {}).await;
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let authority = request.headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or_default().to_string();
        match request.url.path() {
            "/robots.txt" | "/sitemap.xml" => test_support::ResponseTemplate::new(404),
            "/en/sitemap.xml" => {
                let body = format!(
                    "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>\
                     <url><loc>http://{authority}/en/hidden</loc></url></urlset>"
                );
                test_support::ResponseTemplate::new(200).set_body_raw(body, "application/xml")
            }
            path => {
                let body = format!("<html lang=en><title>The page {path}</title><a href='/'>Home</a></html>");
                test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
            }
        }
    })
    .await;
    let home = format!("http://{}/", site.addr());
    let hidden = format!("http://{}/en/hidden", site.addr());
    let crawled = |t: &TestServer, id: &str| {
        let id = id.to_string();
        t.db(move |s| s.crawl_pages(&id, None, 50).unwrap().0.into_iter().map(|p| p.url).collect::<Vec<_>>())
    };

    // Without the name, the page is never found.
    let a = start(&t, None, json!({"url": home})).await;
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");
    assert!(!crawled(&t, &id).contains(&hidden));

    let a = start(&t, None, json!({"url": home, "sitemaps": [format!("http://{}/en/sitemap.xml", site.addr())]})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    validate_documented("POST", "/api/v1/crawls", &a);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");
    assert!(crawled(&t, &id).contains(&hidden), "{:?}", crawled(&t, &id));

    // Off the site, relative, none, or too many: refused, naming the member.
    for bad in [
        json!(["https://elsewhere.test/sitemap.xml"]),
        json!(["/en/sitemap.xml"]),
        json!([]),
        json!(vec![hidden.clone(); 11]),
    ] {
        let a = start(&t, None, json!({"url": home, "sitemaps": bad})).await;
        assert_eq!((a.status, a.body["error"]["code"].as_str()), (400, Some("invalid_request")), "{}", a.raw);
        assert_eq!(a.body["error"]["details"]["parameter"], "sitemaps", "{}", a.raw);
    }

    // The near-duplicate threshold is a percentage from 50.
    let a = start(&t, None, json!({"url": home, "near_duplicate_threshold": 49})).await;
    assert_eq!((a.status, a.body["error"]["details"]["parameter"].as_str()), (400, Some("near_duplicate_threshold")));
    let a = start(&t, None, json!({"url": home, "near_duplicate_threshold": 75})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");

    // The agent tool takes the same list.
    let (key, _) = t.key(|_| {});
    let args = json!({ "url": home, "sitemaps": [format!("http://{}/en/sitemap.xml", site.addr())] });
    let a = tool_call(&t, &key, "crawl_site", args).await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let id = a.body["result"]["structuredContent"]["crawl_id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, Some(&key)).await["state"], "completed");
    assert!(crawled(&t, &id).contains(&hidden));
    let args = json!({ "url": home, "sitemaps": ["https://elsewhere.test/sitemap.xml"] });
    let a = tool_call(&t, &key, "crawl_site", args).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
}

/// A site whose every page links to 200 URLs no other page links to: the crawl records at
/// most `QUEUED_URLS_PER_PAGE` URLs per page of `max_pages` and counts every link past that
/// in `links_not_queued`, so the rows one crawl writes do not grow with the links it finds
/// (docs/API.md, "Site crawl", "What a crawl keeps"). Runs on both databases.
#[tokio::test]
async fn a_crawl_records_urls_in_proportion_to_its_pages_and_counts_the_rest() {
    const LINKS: usize = 200;
    let t = TestServer::start(|_| {}).await;
    // Any path answers: `/a/b` links to `/a/b/0` ... `/a/b/199`.
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let path = request.url.path().trim_end_matches('/').to_string();
        if path == "/robots.txt" {
            return test_support::ResponseTemplate::new(404);
        }
        let links: String = (0..LINKS).map(|i| format!("<a href='{path}/{i}'>{i}</a>")).collect();
        let body = format!("<html lang=en><title>The page {path}/ of the site</title>{links}</html>");
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await;
    let max_pages = 5u32;
    let a =
        start(&t, None, json!({"url": format!("http://{}/", site.addr()), "max_pages": max_pages, "sitemaps": false}))
            .await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["progress"]["pages_done"], max_pages, "{done}");

    let bound = usize::try_from(app::crawl::QUEUED_URLS_PER_PAGE).unwrap() * max_pages as usize;
    // The progress counts the crawl's rows by state: every URL it recorded.
    let p = &done["progress"];
    let counted: u64 =
        ["pages_done", "pages_queued", "pages_failed", "pages_skipped"].iter().map(|k| p[k].as_u64().unwrap()).sum();
    assert_eq!(counted, bound as u64, "{done}");
    // The start page and its 200 links, then 200 links on each of the four pages fetched
    // after it: every URL the crawl found is either recorded or counted, once.
    let found = 1 + LINKS * max_pages as usize;
    assert_eq!(done["links_not_queued"].as_u64(), Some((found - bound) as u64), "{done}");
    // Inlinks are kept only for the URLs recorded: the links to the others (here the same
    // 751, every link of the pages past the bound) are counted, not given a row each.
    assert_eq!(done["links_to_unrecorded_urls"].as_u64(), Some((found - bound) as u64), "{done}");
}

/// `GET /api/v1/crawls` and the list_crawls agent tool: a key owner's crawls, newest first,
/// a page at a time, by state and site; another owner's and anonymous crawls are not listed,
/// and each malformed parameter is named.
#[tokio::test]
async fn a_key_lists_its_own_crawls_by_state_and_site() {
    let t = TestServer::start(|_| {}).await;
    let (one, two) = (fixture_site("site-crawl-rest").await, fixture_site("site-crawl-rest").await);
    let (key, _) = t.key(|_| {});
    let (other, _) = t.key(|_| {});
    let body = |site: &test_support::FixtureSite| json!({"url": site.url("/"), "max_pages": 2, "sitemaps": false});
    let mut mine = Vec::new();
    for site in [&one, &two, &one] {
        let a = start(&t, Some(&key), body(site)).await;
        assert_eq!(a.status, 202, "{}", a.raw);
        let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
        ended(&t, &id, Some(&key)).await;
        mine.push(id);
    }
    let theirs = start(&t, Some(&other), body(&one)).await.body["crawl"]["id"].as_str().unwrap().to_string();
    start(&t, None, body(&one)).await;
    let newest_first: Vec<String> = mine.iter().rev().cloned().collect();

    let ids = |a: &Answer| -> Vec<String> {
        a.body["crawls"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
    };
    let a = get(&t, "/api/v1/crawls", Some(&key)).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls", &a);
    assert_eq!(ids(&a), newest_first);
    assert_eq!(a.body["next_cursor"], Value::Null);
    let first = &a.body["crawls"][0];
    assert_eq!((first["state"].as_str(), first["url"].as_str()), (Some("completed"), Some(one.url("/").as_str())));
    let site_one = one.url("/").trim_start_matches("http://").trim_end_matches('/').to_string();
    assert_eq!(first["site"], site_one.as_str());
    assert_eq!(first["status_url"], format!("/api/v1/crawls/{}", mine[2]));
    assert!(!ids(&a).contains(&theirs), "another owner's crawl is not listed");

    // Two at a time: the same crawls in the same order.
    let a = get(&t, "/api/v1/crawls?limit=2", Some(&key)).await;
    let cursor = a.body["next_cursor"].as_str().unwrap().to_string();
    let b = get(&t, &format!("/api/v1/crawls?limit=2&cursor={cursor}"), Some(&key)).await;
    assert_eq!(b.status, 200, "{}", b.raw);
    assert_eq!([ids(&a), ids(&b)].concat(), newest_first);
    assert_eq!(b.body["next_cursor"], Value::Null);

    // Filters.
    let a = get(&t, &format!("/api/v1/crawls?site={site_one}"), Some(&key)).await;
    assert_eq!(ids(&a), [mine[2].clone(), mine[0].clone()]);
    let a =
        get(&t, &format!("/api/v1/crawls?site={}&state=completed", site_one.split(':').next().unwrap()), Some(&key))
            .await;
    assert_eq!(ids(&a), newest_first, "a host alone matches every port of it");
    assert!(ids(&get(&t, "/api/v1/crawls?state=running", Some(&key)).await).is_empty());

    // The agent tool answers the same listing.
    let a = tool_call(&t, &key, "list_crawls", json!({ "site": site_one, "limit": 1 })).await;
    let listed = &a.body["result"]["structuredContent"];
    assert_eq!(listed["crawls"][0]["id"], mine[2].as_str(), "{}", a.raw);
    assert!(listed["next_cursor"].is_string(), "{}", a.raw);
    assert!(a.header("x-ratelimit-remaining").is_none(), "list_crawls is free of quota");
    let a = tool_call(&t, &key, "list_crawls", json!({ "site": "not a site" })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    assert!(a.body["result"]["content"][0]["text"].as_str().unwrap().starts_with("invalid_request"), "{}", a.raw);

    // Bad parameters are named; without a key there is no owner to list.
    for (query, parameter) in [
        ("state=done", "state"),
        ("site=a_b.example", "site"),
        ("site=example.com:99999", "site"),
        ("cursor=nope", "cursor"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
    ] {
        let a = get(&t, &format!("/api/v1/crawls?{query}"), Some(&key)).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], parameter, "{query}");
    }
    get(&t, "/api/v1/crawls", None).await.assert_error(401, "unauthorized");
}

/// A loopback site that changes when `changed` is set: `/a` answers 404 instead of a page,
/// `/b` gains `noindex`, `/old` is no longer linked and `/new` is.
async fn changing_site(changed: std::sync::Arc<std::sync::atomic::AtomicBool>) -> test_support::Pages {
    test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let after = changed.load(std::sync::atomic::Ordering::SeqCst);
        let page = |title: &str, extra: &str| {
            let body = format!(
                "<html lang=en><head><title>{title} of the oak furniture workshop</title>{extra}</head>\
                 <body><h1>{title}</h1><a href=/>Home</a></body></html>"
            );
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        };
        match (request.url.path(), after) {
            ("/", false) => page("Home", "").set_body_raw(
                "<html lang=en><head><title>Home of the oak furniture workshop</title></head><body><h1>Home</h1>\
                 <a href=/a>A</a><a href=/b>B</a><a href=/old>Old</a></body></html>",
                "text/html",
            ),
            ("/", true) => page("Home", "").set_body_raw(
                "<html lang=en><head><title>Home of the oak furniture workshop</title></head><body><h1>Home</h1>\
                 <a href=/a>A</a><a href=/b>B</a><a href=/new>New</a></body></html>",
                "text/html",
            ),
            ("/a", false) => page("Tables", ""),
            ("/b", false) => page("Chairs", ""),
            ("/b", true) => page("Chairs", "<meta name=robots content=noindex>"),
            ("/old", false) => page("Old page", ""),
            ("/new", true) => page("New page", ""),
            _ => test_support::ResponseTemplate::new(404),
        }
    })
    .await
}

/// A loopback site's URLs by path.
struct Site(std::net::SocketAddr);

impl Site {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.0)
    }
}

/// Two crawls of a site changed between them, compared (`GET /api/v1/crawls/{id}/compare`):
/// per rule the URLs new, fixed and still failing, the pages added and gone, the status and
/// indexability changes, the site score change; the second crawl's `crawl.completed` event
/// carries the counts of the change, the first's none. Bad comparisons are refused.
#[tokio::test]
async fn two_crawls_of_a_changed_site_are_compared() {
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let changed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let pages = changing_site(changed.clone()).await;
    let addr = pages.addr();
    let site = Site(addr);
    let (key, _) = t.key(|k| k.scopes = vec!["audit".into(), "mcp".into(), "webhooks".into()]);
    let (other, _) = t.key(|_| {});
    let got: std::sync::Arc<std::sync::Mutex<Vec<Value>>> = Default::default();
    let log = got.clone();
    let receiver = Pages::serve(move |req: &wiremock::Request| {
        log.lock().unwrap().push(serde_json::from_slice(&req.body).unwrap_or(Value::Null));
        ResponseTemplate::new(200).set_body_bytes(b"{}".to_vec())
    })
    .await
    .leak();
    let hook = json!({ "url": format!("http://{receiver}/hook"), "events": ["crawl.completed"] });
    assert_eq!(send(&t, reqwest::Method::POST, "/api/v1/webhooks", Some(&key), Some(hook)).await.status, 201);

    let body = json!({"url": site.url("/"), "sitemaps": false});
    let a = start(&t, Some(&key), body.clone()).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let first = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let before = ended(&t, &first, Some(&key)).await;
    changed.store(true, std::sync::atomic::Ordering::SeqCst);
    let second = start(&t, Some(&key), body.clone()).await.body["crawl"]["id"].as_str().unwrap().to_string();
    let after = ended(&t, &second, Some(&key)).await;

    let a = get(&t, &format!("/api/v1/crawls/{second}/compare?against={first}"), Some(&key)).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/compare", &a);
    let c = &a.body["comparison"];
    eprintln!("the comparison: {}", serde_json::to_string_pretty(c).unwrap());
    assert_eq!((c["crawl"]["id"].as_str(), c["against"]["id"].as_str()), (Some(second.as_str()), Some(first.as_str())));
    let score_change = after["site_score"].as_i64().unwrap() - before["site_score"].as_i64().unwrap();
    assert_eq!(c["site_score_change"], score_change);
    assert_eq!(c["pages_added"], json!({"total": 1, "urls": [site.url("/new")]}));
    assert_eq!(c["pages_gone"], json!({"total": 1, "urls": [site.url("/old")]}));
    assert_eq!(c["status_changes"], json!([{"url": site.url("/a"), "before": 200, "after": 404}]));
    let flips: Vec<(&str, bool)> = c["indexability_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["url"].as_str().unwrap(), x["after"].as_bool().unwrap()))
        .collect();
    assert_eq!(flips, [(site.url("/a").as_str(), false), (site.url("/b").as_str(), false)]);
    let rule = |id: &str| c["rules"].as_array().unwrap().iter().find(|r| r["id"] == id).cloned();
    let broken = rule("broken-internal-link").expect("the broken link to /a is a new finding");
    assert_eq!(broken["new"]["urls"], json!([site.url("/a")]), "{broken}");
    assert_eq!(broken["fixed"]["total"], 0);
    // A page rule failing on /old before and on /new now: fixed on one, new on the other,
    // still failing on the pages both crawls have.
    let moved = c["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "page" && r["fixed"]["urls"].as_array().unwrap().contains(&json!(site.url("/old"))));
    let moved = moved.expect("a page rule failing on /old");
    assert!(moved["new"]["urls"].as_array().unwrap().contains(&json!(site.url("/new"))), "{moved}");
    assert!(moved["still_failing"]["total"].as_u64().unwrap() >= 1, "{moved}");
    assert!(c["new_findings"].as_u64().unwrap() >= 2 && c["fixed_findings"].as_u64().unwrap() >= 1, "{c}");

    // The report page shows the change since the previous crawl as a chart of the same numbers.
    let resp = t.client.get(t.url(&format!("/crawls/{second}"))).header("x-api-key", &key).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let page = resp.text().await.unwrap();
    for (label, n) in [("pages added", 1), ("pages gone", 1), ("status changes", 1), ("indexability", 2)] {
        assert!(page.contains(&format!("data-label=\"{label}\" data-value=\"{n}\"")), "{label}: {page}");
    }
    let new = c["new_findings"].as_u64().unwrap();
    assert!(page.contains(&format!("data-label=\"new findings\" data-value=\"{new}\"")), "{page}");
    let first_page = t.client.get(t.url(&format!("/crawls/{first}"))).header("x-api-key", &key).send().await.unwrap();
    assert!(first_page.text().await.unwrap().contains("No earlier completed crawl"), "the first crawl has none");

    // The agent tool answers the same comparison from the same use case, free of quota.
    let a = tool_call(&t, &key, "compare_crawls", json!({ "crawl_id": second, "against": first })).await;
    assert_eq!(&a.body["result"]["structuredContent"], c, "{}", a.raw);
    assert!(a.header("x-ratelimit-remaining").is_none(), "compare_crawls is free of quota");
    let a =
        tool_call(&t, &key, "compare_crawls", json!({ "crawl_id": second, "against": "cr_0000000000000000000000" }))
            .await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    assert!(a.body["result"]["content"][0]["text"].as_str().unwrap().starts_with("not_found"), "{}", a.raw);

    // The second crawl's crawl.completed event carries the counts of the change; the
    // first, without a previous crawl, none.
    let mut events = Vec::new();
    for _ in 0..600 {
        events = got.lock().unwrap().clone();
        if events.len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let event = |id: &str| events.iter().find(|e| e["data"]["crawlId"] == id).cloned().expect("its event");
    assert!(event(&first)["data"].get("change").is_none(), "{:?}", event(&first));
    let change = &event(&second)["data"]["change"];
    assert_eq!(change["againstCrawlId"], first.as_str(), "{change}");
    assert_eq!((change["pagesAdded"].as_u64(), change["pagesGone"].as_u64()), (Some(1), Some(1)));
    assert_eq!((change["statusChanges"].as_u64(), change["indexabilityChanges"].as_u64()), (Some(1), Some(2)));
    assert_eq!(change["siteScoreChange"], score_change);
    assert_eq!(change["newFindings"], c["new_findings"]);

    // Refusals: no `against`, another site, unknown or another owner's crawl.
    get(&t, &format!("/api/v1/crawls/{second}/compare"), Some(&key)).await.assert_error(400, "missing_parameter");
    let elsewhere = fixture_site("site-crawl-rest").await;
    let third = start(&t, Some(&key), json!({"url": elsewhere.url("/"), "max_pages": 2, "sitemaps": false})).await;
    let third = third.body["crawl"]["id"].as_str().unwrap().to_string();
    ended(&t, &third, Some(&key)).await;
    let a = get(&t, &format!("/api/v1/crawls/{second}/compare?against={third}"), Some(&key)).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["parameter"], "against");
    let unknown = "cr_0000000000000000000000";
    get(&t, &format!("/api/v1/crawls/{second}/compare?against={unknown}"), Some(&key))
        .await
        .assert_error(404, "not_found");
    get(&t, &format!("/api/v1/crawls/{second}/compare?against={first}"), Some(&other))
        .await
        .assert_error(404, "not_found");
}

/// A site with sections in three languages, sorted listings and a PDF, every page linked
/// from the home page: what `include` and `exclude` leave in is crawled, what they leave out
/// is listed as skipped with its pattern, and a bad pattern is refused naming its member
/// before a crawl exists (docs/API.md, "Site crawl", "Include and exclude").
fn sectioned_site() -> impl Fn(&test_support::wiremock::Request) -> test_support::ResponseTemplate + Send + Sync {
    |request: &test_support::wiremock::Request| match request.url.path() {
        "/robots.txt" | "/sitemap.xml" => test_support::ResponseTemplate::new(404),
        "/" => {
            let links: String = ["/en/a", "/fr/b", "/de/c", "/en/list?page=2&sort=price", "/en/guide.pdf"]
                .iter()
                .map(|href| format!("<a href='{href}'>{href}</a>"))
                .collect();
            let body = format!("<html lang=en><title>Home</title><body>{links}</body></html>");
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        }
        path => {
            let body = format!("<html lang=en><title>The page {path}</title><a href='/'>Home</a></html>");
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        }
    }
}

#[tokio::test]
async fn include_and_exclude_patterns_choose_the_crawled_urls_and_count_the_rest() {
    let t = TestServer::start(|_| {}).await;
    let site = test_support::Pages::serve(sectioned_site()).await;
    let home = format!("http://{}/", site.addr());
    let pages_of = |t: &TestServer, id: &str| {
        let id = id.to_string();
        t.db(move |s| s.crawl_pages(&id, None, 50).unwrap().0)
    };
    let body = json!({
        "url": home,
        "include": ["/(en|fr)/"],
        "exclude": [".*\\?(.*&)?sort=", ".*\\.pdf$"],
        "sitemaps": false,
    });
    let a = start(&t, None, body).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    validate_documented("POST", "/api/v1/crawls", &a);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    let pages = pages_of(&t, &id);
    let state = |path: &str| {
        let url = format!("http://{}{path}", site.addr());
        let page = pages.iter().find(|p| p.url == url).unwrap_or_else(|| panic!("{url} not listed: {pages:?}"));
        (page.state.clone(), page.reason.clone().unwrap_or_default())
    };
    // The start URL is always crawled, though no include pattern matches `/`.
    assert_eq!(state("/").0, "done");
    assert_eq!(state("/en/a").0, "done");
    assert_eq!(state("/fr/b").0, "done");
    assert_eq!(state("/de/c"), ("skipped".to_string(), "matched by no include pattern".to_string()));
    assert_eq!(
        state("/en/list?page=2&sort=price"),
        ("skipped".to_string(), "excluded by .*\\?(.*&)?sort=".to_string())
    );
    assert_eq!(state("/en/guide.pdf"), ("skipped".to_string(), "excluded by .*\\.pdf$".to_string()));
    assert_eq!(
        (done["progress"]["pages_done"].as_u64(), done["progress"]["pages_skipped"].as_u64()),
        (Some(3), Some(3))
    );
    let fetched: Vec<String> = site.requests().await.iter().map(|r| r.url.path().to_string()).collect();
    assert!(
        !fetched.iter().any(|p| p == "/de/c" || p.ends_with(".pdf")),
        "left-out URLs are never fetched: {fetched:?}"
    );

    // Bad, too large or too many patterns: 400 naming the member, and no crawl is created.
    let (key, record) = t.key(|_| {});
    let user = record.user_id.clone();
    let before = t.db(move |s| s.list_crawls(&user, 100).unwrap().len());
    for (member, patterns) in [
        ("exclude", json!(["/a("])),
        ("include", json!([r"\w{1000}"])),
        ("include", json!(vec!["/a"; 21])),
        ("exclude", json!("/a")),
        ("include", json!([7])),
    ] {
        let a = start(&t, Some(&key), json!({"url": home, member: patterns})).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], member, "{}", a.raw);
    }
    let user = record.user_id.clone();
    assert_eq!(t.db(move |s| s.list_crawls(&user, 100).unwrap().len()), before, "a refused start creates no crawl");

    // The agent tool takes the same patterns, and refuses a bad one.
    let args = json!({ "url": home, "include": ["/fr/"], "exclude": [".*\\.pdf$"] });
    let a = tool_call(&t, &key, "crawl_site", args).await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let id = a.body["result"]["structuredContent"]["crawl_id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, Some(&key)).await["state"], "completed");
    let done: Vec<String> = pages_of(&t, &id).into_iter().filter(|p| p.state == "done").map(|p| p.url).collect();
    assert_eq!(done, [home.clone(), format!("http://{}/fr/b", site.addr())], "{done:?}");
    let a = tool_call(&t, &key, "crawl_site", json!({ "url": home, "exclude": ["(("] })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
}

/// `strip_params` over REST and the agent tool: links that differ only by tracking
/// parameters are one URL, crawled once, its inlinks counting every link to it; `*` drops
/// every query; a bad name is refused naming the member (docs/API.md, "Site crawl").
#[tokio::test]
async fn stripped_query_parameters_make_one_url_of_many() {
    let t = TestServer::start(|_| {}).await;
    let site = test_support::Pages::serve(|request: &test_support::wiremock::Request| match request.url.path() {
        "/robots.txt" | "/sitemap.xml" => test_support::ResponseTemplate::new(404),
        "/" => {
            let links: String = ["/p?utm_source=a&id=1", "/p?id=1&utm_medium=b", "/p?id=1", "/q?utm_campaign=c"]
                .iter()
                .map(|href| format!("<a href='{href}'>{href}</a>"))
                .collect();
            let body = format!("<html lang=en><title>Home</title><body>{links}</body></html>");
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        }
        path => {
            let body = format!("<html lang=en><title>The page {path}</title><a href='/'>Home</a></html>");
            test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
        }
    })
    .await;
    let origin = format!("http://{}", site.addr());
    let home = format!("{origin}/");
    let urls = |t: &TestServer, id: &str| {
        let id = id.to_string();
        let mut urls: Vec<(String, u32)> =
            t.db(move |s| s.crawl_pages(&id, None, 50).unwrap().0).into_iter().map(|p| (p.url, p.inlinks)).collect();
        urls.sort();
        urls
    };

    let a = start(&t, None, json!({"url": home, "sitemaps": false, "strip_params": ["utm_*"]})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");
    assert_eq!(
        urls(&t, &id),
        [(home.clone(), 2), (format!("{origin}/p?id=1"), 1), (format!("{origin}/q"), 1)],
        "three links to /p?id=1 are one URL, one inlink from the one page"
    );

    // Without it, each spelling is its own URL.
    let a = start(&t, None, json!({"url": home, "sitemaps": false})).await;
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");
    assert_eq!(urls(&t, &id).len(), 5, "{:?}", urls(&t, &id));

    // `*` through the agent tool: every query goes.
    let (key, _) = t.key(|_| {});
    let a = tool_call(&t, &key, "crawl_site", json!({ "url": home, "strip_params": ["*"] })).await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let id = a.body["result"]["structuredContent"]["crawl_id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, Some(&key)).await["state"], "completed");
    let got: Vec<String> = urls(&t, &id).into_iter().map(|(u, _)| u).collect();
    assert_eq!(got, [home.clone(), format!("{origin}/p"), format!("{origin}/q")]);

    for bad in [json!(["a=b"]), json!([""]), json!(vec!["x"; 51]), json!("utm_*")] {
        let a = start(&t, None, json!({"url": home, "strip_params": bad})).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], "strip_params", "{}", a.raw);
    }
    let a = tool_call(&t, &key, "crawl_site", json!({ "url": home, "strip_params": ["a b"] })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
}

/// A cell of a JSON export row as its CSV field reads.
fn flat(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(flat).collect::<Vec<_>>().join(";"),
        other => other.to_string(),
    }
}

/// The header and rows of a CSV export, read by the csv crate.
fn read_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().iter().map(str::to_string).collect();
    let rows = reader.records().map(|r| r.unwrap().iter().map(str::to_string).collect()).collect();
    (header, rows)
}

/// The rows of one sheet of an XLSX workbook, read by calamine, each cell as its CSV field.
fn read_sheet(book: &mut calamine::Xlsx<std::io::Cursor<Vec<u8>>>, name: &str) -> Vec<Vec<String>> {
    use calamine::{Data, Reader};
    let range = book.worksheet_range(name).unwrap();
    range
        .rows()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Data::Empty => String::new(),
                    Data::String(s) => s.clone(),
                    // Whole numbers of a crawl, kept as sheet numbers.
                    Data::Float(f) => format!("{f:.0}"),
                    Data::Int(n) => n.to_string(),
                    other => panic!("unexpected cell {other:?}"),
                })
                .collect()
        })
        .collect()
}

/// The pages and issues exports have one shape (docs/API.md, "Exports"): the JSON rows' members
/// are the CSV's header, each CSV row holds the JSON row's values, and the XLSX workbook's two
/// sheets hold the same rows again (numbers as numbers); each is read back by a reader of its
/// format. Bad parameters are refused naming them.
#[tokio::test]
async fn the_exports_read_back_in_one_shape() {
    use app::crawl::export::{ISSUE_COLUMNS, PAGE_COLUMNS};
    let t = TestServer::start(|_| {}).await;
    let site = fixture_site("site-crawl-rest").await;
    let a = start(&t, None, json!({"url": site.url("/")})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    ended(&t, &id, None).await;
    let page_names: Vec<String> = PAGE_COLUMNS.iter().map(|c| c.name.to_string()).collect();
    let issue_names: Vec<String> = ISSUE_COLUMNS.iter().map(|c| c.name.to_string()).collect();

    let mut csv_rows = Vec::new();
    for (table, names) in [("pages", &page_names), ("issues", &issue_names)] {
        let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=json&table={table}"), None).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        validate_documented("GET", "/api/v1/crawls/{id}/export", &a);
        let json_rows = a.body[table].as_array().unwrap().clone();
        assert!(!json_rows.is_empty(), "{}", a.raw);
        for row in &json_rows {
            let members: Vec<&String> = row.as_object().unwrap().keys().collect();
            assert_eq!(members, names.iter().collect::<Vec<_>>(), "{row}");
        }

        let resp = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=csv&table={table}"))).send().await;
        let resp = resp.unwrap();
        assert_eq!(resp.status(), 200);
        assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        let (header, rows) = read_csv(&resp.text().await.unwrap());
        assert_eq!(&header, names);
        let from_json: Vec<Vec<String>> =
            json_rows.iter().map(|r| r.as_object().unwrap().values().map(flat).collect()).collect();
        assert_eq!(rows, from_json, "the CSV rows are the JSON rows");
        csv_rows.push((header, rows));
    }
    // The issues export has a row per finding: a broken link once per page linking to it.
    let (_, issue_rows) = &csv_rows[1];
    let broken = issue_rows
        .iter()
        .find(|r| r[0] == "broken-internal-link" && r[3] == site.url("/gone.html"))
        .unwrap_or_else(|| panic!("{issue_rows:?}"));
    assert_eq!((broken[1].as_str(), broken[5].as_str()), ("site", site.url("/").as_str()), "{broken:?}");
    assert!(issue_rows.iter().any(|r| r[1] == "page"), "page rules' findings too: {issue_rows:?}");

    let resp = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=xlsx"))).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert_eq!(resp.headers()["content-disposition"], format!("attachment; filename=\"{id}.xlsx\"").as_str());
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(resp.bytes().await.unwrap().to_vec())).unwrap();
    assert_eq!(calamine::Reader::sheet_names(&book), ["pages", "issues"]);
    for (sheet, (header, rows)) in ["pages", "issues"].into_iter().zip(&csv_rows) {
        let all = read_sheet(&mut book, sheet);
        assert_eq!(&all[0], header, "{sheet}");
        assert_eq!(&all[1..], rows.as_slice(), "the {sheet} sheet holds the CSV's rows");
    }
    {
        use calamine::{Data, Reader};
        let pages = book.worksheet_range("pages").unwrap();
        let status = page_names.iter().position(|n| n == "status_code").unwrap();
        assert_eq!(pages.get((1, status)), Some(&Data::Float(200.0)), "a status is a number in the sheet");
    }

    for (query, parameter) in [("format=pdf", "format"), ("table=links", "table"), ("format=xlsx&table=pages", "table")]
    {
        let a = get(&t, &format!("/api/v1/crawls/{id}/export?{query}"), None).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], parameter, "{query}");
    }
    get(&t, "/api/v1/crawls/cr_nosuchcrawl000000000000/export?format=xlsx", None).await.assert_error(404, "not_found");
}

/// `broken-external-link` over REST: with the checks on (`crawl_external_budget`), the crawl
/// object counts what was checked and what was not (a link to an inner address refused by the
/// guard, never fetched), the rule lists the broken URL on its linking page; `external_links:
/// false` checks nothing, and a value that is no boolean is refused naming the member.
#[tokio::test]
async fn external_links_are_checked_and_counted_over_rest() {
    let t = TestServer::start(|c| c.crawl_external_budget = 500).await;
    let other = test_support::Pages::serve(|r| {
        test_support::ResponseTemplate::new(if r.url.path() == "/gone" { 404 } else { 200 })
    })
    .await;
    let (ok, gone) = (format!("http://{}/ok", other.addr()), format!("http://{}/gone", other.addr()));
    let body = format!(
        "<!doctype html><html lang=en><head><title>Home of the external links</title></head><body><h1>Home</h1>\
         <a href=\"{ok}\">a</a> <a href=\"{gone}\">b</a> <a href=\"http://10.0.0.1/admin\">c</a></body></html>"
    );
    let site = test_support::Pages::start(vec![("/", body)]).await;
    let home = format!("http://{}/", site.addr());

    let a = start(&t, None, json!({"url": home})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    // An anonymous crawl of 30 pages checks 30 external URLs at most.
    let counts = json!({"budget": 30, "checked": 2, "broken": 1, "not_checked_budget": 0, "not_checked_refused": 1,
                        "not_checked_timed_out": 0, "not_checked_stopped": 0, "not_checked_unreachable": 0});
    assert_eq!(done["external_links"], counts, "{done}");
    let a = get(&t, &format!("/api/v1/crawls/{id}/issues/broken-external-link"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/issues/{rule_id}", &a);
    let found = a.body["urls"].as_array().unwrap().clone();
    assert_eq!(found.len(), 1, "{}", a.raw);
    assert_eq!(
        (found[0]["url"].as_str(), found[0]["linked_from"].as_str()),
        (Some(gone.as_str()), Some(home.as_str()))
    );
    assert_eq!(found[0]["detail"], "HTTP 404");
    let asked = other.requests().await.len();
    assert_eq!(asked, 2, "each external URL once, HEAD answered");

    let a = start(&t, None, json!({"url": home, "external_links": false})).await;
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert!(done.get("external_links").is_none(), "{done}");
    assert_eq!(other.requests().await.len(), asked, "nothing asked with external_links: false");

    let a = start(&t, None, json!({"url": home, "external_links": "no"})).await;
    assert_eq!(
        (a.status, a.body["error"]["details"]["parameter"].as_str()),
        (400, Some("external_links")),
        "{}",
        a.raw
    );
}

#[tokio::test]
async fn a_site_answering_mostly_errors_ends_its_crawl_with_the_reason_on_the_crawl_object() {
    // docs/API.md, "Site crawl", "Politeness": the home page answers, every page it links to
    // answers 503 asking for a second; the crawl pauses twice, then ends with its reason.
    let t = TestServer::start(|_| {}).await;
    let site = test_support::ThreadServer::start(|req| match req.path.as_str() {
        "/" => {
            let links: String = (0..60).map(|i| format!("<a href=/p{i}>Page {i}</a>")).collect();
            Some(test_support::html(&format!("<html lang=en><title>Home</title>{links}</html>")))
        }
        "/robots.txt" => Some(test_support::status(404)),
        _ => Some(test_support::Reply::Full {
            status: 503,
            headers: vec![("Retry-After".into(), "1".into())],
            body: Vec::new(),
        }),
    });
    let a = start(&t, None, json!({"url": site.url("/"), "sitemaps": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["error_pauses"], 2, "{done}");
    let why = done["stopped_for_errors"].as_str().unwrap_or_default();
    assert!(why.contains("answers were errors") && why.contains("after 2 pauses"), "{done}");
    // Stopped well before its 30 pages: each page asked for 3 times at most.
    let asked = site.requests().iter().filter(|r| r.path.starts_with("/p")).count();
    assert!(asked <= 60, "{asked} requests to a site answering only errors");
    assert!(done["progress"]["pages_done"].as_u64().unwrap() < 30, "{done}");
}

#[tokio::test]
async fn a_crawl_paused_for_errors_says_so_on_its_crawl_object_until_the_site_recovers() {
    // docs/API.md, "Site crawl", "Politeness": the pages the home page links to answer 503
    // asking for 2 s (the pause then lasts 2 s: the longest `Retry-After`) until the site
    // recovers; polled through REST, the paused crawl shows `paused` with its reason and
    // `resumes_at`, still `running`; once the site recovers, the crawl goes on, `paused` is
    // null again, and it completes with the one pause counted and no stop.
    let t = TestServer::start(|_| {}).await;
    let recovered = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let up = recovered.clone();
    let site = test_support::ThreadServer::start(move |req| match req.path.as_str() {
        "/" => {
            let links: String = (0..40).map(|i| format!("<a href=/p{i}>Page {i}</a>")).collect();
            Some(test_support::html(&format!("<html lang=en><title>Home</title>{links}</html>")))
        }
        "/robots.txt" => Some(test_support::status(404)),
        _ if up.load(std::sync::atomic::Ordering::SeqCst) => {
            Some(test_support::html("<html lang=en><title>A page</title><a href=/>Home</a></html>"))
        }
        _ => Some(test_support::Reply::Full {
            status: 503,
            headers: vec![("Retry-After".into(), "2".into())],
            body: Vec::new(),
        }),
    });
    let a = start(&t, None, json!({"url": site.url("/"), "sitemaps": false, "external_links": false})).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    assert!(a.body["crawl"]["paused"].is_null(), "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();

    let mut seen = None;
    for _ in 0..1200 {
        let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        if a.body["crawl"]["paused"].is_object() {
            validate_documented("GET", "/api/v1/crawls/{id}", &a);
            seen = Some(a.body["crawl"].clone());
            break;
        }
        assert_eq!(a.body["crawl"]["state"], "running", "it ended before it paused: {}", a.raw);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let paused = seen.expect("the pause shown on the crawl object");
    eprintln!(
        "while paused: state {}, paused {}, error_pauses {}",
        paused["state"], paused["paused"], paused["error_pauses"]
    );
    // The site recovers while the crawl waits.
    recovered.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(paused["state"], "running", "{paused}");
    let pause = &paused["paused"];
    let reason = pause["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("of the last") && reason.contains("answers were errors (5xx, 429 or no answer)"),
        "{pause}"
    );
    let since = store::parse_rfc3339(pause["since"].as_str().unwrap()).expect("since");
    let resumes = store::parse_rfc3339(pause["resumes_at"].as_str().unwrap()).expect("resumes_at");
    let lasts = resumes - since;
    assert!(lasts >= time::Duration::milliseconds(1900) && lasts <= time::Duration::milliseconds(2100), "{pause}");
    assert_eq!((pause["pauses"].as_u64(), pause["max_pauses"].as_u64()), (Some(1), Some(2)), "{pause}");
    assert_eq!(paused["error_pauses"], 1, "{paused}");
    assert!(paused.get("stopped_for_errors").is_none(), "{paused}");

    // The crawl goes on: `paused` is null again while it still runs or once it ended.
    let mut cleared = false;
    for _ in 0..1200 {
        let a = get(&t, &format!("/api/v1/crawls/{id}"), None).await;
        if a.body["crawl"]["paused"].is_null() {
            cleared = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(cleared, "the pause was never cleared");
    let done = ended(&t, &id, None).await;
    assert_eq!(done["state"], "completed", "{done}");
    assert!(done["paused"].is_null(), "{done}");
    assert_eq!(done["error_pauses"], 1, "{done}");
    assert!(done.get("stopped_for_errors").is_none(), "went on after the pause: {done}");
    // It went on to its 30 pages (anonymous), not stopped.
    let fetched = done["progress"]["pages_done"].as_u64().unwrap() + done["progress"]["pages_failed"].as_u64().unwrap();
    assert_eq!(fetched, 30, "{done}");
}

/// List mode over REST and the agent tool (docs/API.md, "List mode"): the start URL and the
/// listed URLs are fetched, nothing they link to and no sitemap; their links still count as
/// inlinks among them; the site rules that need the whole site are reported as skipped; a URL
/// off the site is refused naming its index, and a list over the crawl's pages its limit.
#[tokio::test]
async fn a_list_mode_crawl_fetches_the_list_only() {
    let t = TestServer::start(|_| {}).await;
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = std::sync::Arc::clone(&asked);
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let path = request.url.path().to_string();
        seen.lock().unwrap().push(path.clone());
        let links: &[&str] = match path.as_str() {
            "/robots.txt" => return test_support::ResponseTemplate::new(404),
            "/sitemap.xml" => {
                let body = "<urlset><url><loc>/orphan</loc></url></urlset>";
                return test_support::ResponseTemplate::new(200).set_body_raw(body, "application/xml");
            }
            "/" => &["/a", "/c"],
            "/a" => &["/b", "/c"],
            "/b" => &["/", "/missing"],
            "/c" | "/orphan" => &[],
            _ => return test_support::ResponseTemplate::new(404),
        };
        let links: String = links.iter().map(|href| format!("<a href='{href}'>{href}</a>")).collect();
        let body = format!("<html lang=en><title>The page {path}</title><body><h1>{path}</h1>{links}</body></html>");
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await;
    let origin = format!("http://{}", site.addr());
    let home = format!("{origin}/");

    let body =
        json!({"url": home, "urls": [format!("{origin}/a"), format!("{origin}/b#top"), home], "external_links": false});
    let a = start(&t, None, body).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    validate_documented("POST", "/api/v1/crawls", &a);
    assert_eq!(a.body["crawl"]["list_mode"], true, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    let crawl = ended(&t, &id, None).await;
    assert_eq!(crawl["state"], "completed", "{crawl}");
    assert_eq!(crawl["list_mode"], true);
    let skipped: Vec<&str> =
        crawl["site_rules_skipped"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    for whole_site in ["orphan-page", "deep-page", "not-in-sitemap", "few-inlinks"] {
        assert!(skipped.contains(&whole_site), "{whole_site} is skipped: {skipped:?}");
    }
    assert!(!skipped.contains(&"broken-internal-link"), "the link rules run over the list: {skipped:?}");
    let urls = inlinks(&t, &id).await;
    let want: std::collections::BTreeMap<String, u64> =
        [(home.clone(), 1), (format!("{origin}/a"), 1), (format!("{origin}/b"), 1)].into_iter().collect();
    assert_eq!(urls, want, "the start URL and the list, with their inlinks among them");
    let fetched = asked.lock().unwrap().clone();
    for never in ["/c", "/missing", "/sitemap.xml", "/orphan"] {
        assert!(!fetched.iter().any(|p| p == never), "{never} was fetched: {fetched:?}");
    }

    // A URL off the site, one that does not parse, and a list over the crawl's pages.
    let a = start(&t, None, json!({"url": home, "urls": [format!("{origin}/a"), "https://elsewhere.test/x"]})).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(
        (&a.body["error"]["details"]["parameter"], &a.body["error"]["details"]["index"]),
        (&json!("urls"), &json!(1))
    );
    let a = start(&t, None, json!({"url": home, "urls": ["/relative"]})).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["index"], 0, "{}", a.raw);
    let many: Vec<String> = (0..30).map(|i| format!("{origin}/p{i}")).collect();
    let a = start(&t, None, json!({"url": home, "urls": many})).await;
    a.assert_error(400, "invalid_request");
    assert_eq!(a.body["error"]["details"]["limit"], 30, "30 pages and the start URL: {}", a.raw);
    let a =
        start(&t, None, json!({"url": home, "max_pages": 2, "urls": [format!("{origin}/a"), format!("{origin}/b")]}))
            .await;
    assert_eq!(a.body["error"]["details"]["limit"], 2, "{}", a.raw);

    // The agent tool takes `urls` alike.
    let (key, _) = t.key(|_| {});
    let a = tool_call(
        &t,
        &key,
        "crawl_site",
        json!({ "url": home, "urls": [format!("{origin}/c")], "external_links": false }),
    )
    .await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let id = a.body["result"]["structuredContent"]["crawl_id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, Some(&key)).await["state"], "completed");
    let id2 = id.clone();
    let mut got: Vec<String> =
        t.db(move |s| s.crawl_pages(&id2, None, 50).unwrap().0).into_iter().map(|p| p.url).collect();
    got.sort();
    assert_eq!(got, [home.clone(), format!("{origin}/c")]);
    let a = tool_call(&t, &key, "crawl_site", json!({ "url": home, "urls": ["https://elsewhere.test/"] })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
}

/// Custom extraction over REST and the agent tool (docs/API.md, "Custom extraction"): each
/// HTML page's values are the columns `extract:<name>` after the fixed ones, in the pages
/// listing and in the CSV, JSON and XLSX exports, each read back; a long value is cut
/// visibly; a bad selector or pattern is refused naming the extractor.
#[tokio::test]
async fn extracted_values_are_columns_of_the_pages_and_exports() {
    let t = TestServer::start(|_| {}).await;
    let long = "x".repeat(3000);
    let site = test_support::Pages::serve(move |request: &test_support::wiremock::Request| {
        let body = match request.url.path() {
            "/" => "<html lang=en><head><title>Home</title></head><body><h1>The  shop</h1>\
                    <a href='/kettle'>Kettle</a><a href='/plain'>Plain</a></body></html>"
                .to_string(),
            "/kettle" => format!(
                "<html lang=en><head><title>Kettle</title><meta itemprop=price content='42.50'></head>\
                 <body><h1>Copper kettle</h1><p>SKU-12345</p><p>{long}</p><a href='/'>Home</a></body></html>"
            ),
            "/plain" => "<html lang=en><title>Plain</title><p>Nothing to see</p></html>".to_string(),
            _ => return test_support::ResponseTemplate::new(404),
        };
        test_support::ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await;
    let origin = format!("http://{}", site.addr());
    let extract = json!([
        {"name": "title", "css": "h1"},
        {"name": "price", "css": "meta[itemprop=price]", "attribute": "content"},
        {"name": "sku", "regex": "SKU-(\\d+)"},
        {"name": "long", "regex": "<p>(x+)</p>"},
    ]);
    let a = start(
        &t,
        None,
        json!({"url": format!("{origin}/"), "sitemaps": false, "external_links": false, "extract": extract}),
    )
    .await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, None).await["state"], "completed");
    let names = ["extract:title", "extract:price", "extract:sku", "extract:long"];

    // JSON export: the members after the fixed columns.
    let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=json&table=pages"), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/export", &a);
    let rows = a.body["pages"].as_array().unwrap().clone();
    let kettle = rows.iter().find(|r| r["url"] == format!("{origin}/kettle")).unwrap();
    let members: Vec<&str> = kettle.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(&members[members.len() - 4..], names.as_slice(), "after the fixed columns: {members:?}");
    assert_eq!(
        (&kettle["extract:title"], &kettle["extract:price"], &kettle["extract:sku"]),
        (&json!("Copper kettle"), &json!("42.50"), &json!("12345"))
    );
    let long_value = kettle["extract:long"].as_str().unwrap();
    assert!(long_value.len() <= crawl::MAX_EXTRACT_VALUE_BYTES && long_value.ends_with('…'), "{}", long_value.len());
    let plain = rows.iter().find(|r| r["url"] == format!("{origin}/plain")).unwrap();
    assert_eq!((&plain["extract:title"], &plain["extract:sku"]), (&Value::Null, &Value::Null), "no match: empty");
    let home = rows.iter().find(|r| r["url"] == format!("{origin}/")).unwrap();
    assert_eq!(home["extract:title"], "The shop", "white space collapsed");

    // CSV: the same header and values.
    let resp = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=csv&table=pages"))).send().await.unwrap();
    let (header, csv_rows) = read_csv(&resp.text().await.unwrap());
    assert_eq!(&header[header.len() - 4..], names.as_slice());
    let url_at = header.iter().position(|h| h == "url").unwrap();
    let row = csv_rows.iter().find(|r| r[url_at] == format!("{origin}/kettle")).unwrap();
    assert_eq!(&row[row.len() - 4..row.len() - 1], ["Copper kettle", "42.50", "12345"]);

    // XLSX: the pages sheet holds the CSV's rows.
    let resp = t.client.get(t.url(&format!("/api/v1/crawls/{id}/export?format=xlsx"))).send().await.unwrap();
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(resp.bytes().await.unwrap().to_vec())).unwrap();
    let sheet = read_sheet(&mut book, "pages");
    assert_eq!(sheet[0], header);
    assert_eq!(&sheet[1..], csv_rows.as_slice());

    // The pages listing has them as members too.
    let a = get(&t, &format!("/api/v1/crawls/{id}/pages"), None).await;
    validate_documented("GET", "/api/v1/crawls/{id}/pages", &a);
    let listed =
        a.body["pages"].as_array().unwrap().iter().find(|p| p["url"] == format!("{origin}/kettle")).unwrap().clone();
    assert_eq!(listed["extract:price"], "42.50", "{listed}");

    // Refused, naming the extractor: over REST and through the tool.
    for (extract, name) in [
        (json!([{"name": "ok", "css": "h1"}, {"name": "bad", "css": "h1[["}]), "bad"),
        (json!([{"name": "re", "regex": "(unclosed"}]), "re"),
        (json!([{"name": "big", "regex": "\\w{1000}"}]), "big"),
    ] {
        let a = start(&t, None, json!({"url": format!("{origin}/"), "extract": extract})).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], "extract", "{}", a.raw);
        assert_eq!(a.body["error"]["details"]["extractor"], name, "{}", a.raw);
    }
    let (key, _) = t.key(|_| {});
    let a = tool_call(
        &t,
        &key,
        "crawl_site",
        json!({ "url": format!("{origin}/"), "extract": [{"name": "x", "regex": "("}] }),
    )
    .await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    let a = tool_call(
        &t,
        &key,
        "crawl_site",
        json!({ "url": format!("{origin}/"), "external_links": false, "extract": [{"name": "h", "css": "h1"}] }),
    )
    .await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let id = a.body["result"]["structuredContent"]["crawl_id"].as_str().unwrap().to_string();
    assert_eq!(ended(&t, &id, Some(&key)).await["state"], "completed");
    let a = get(&t, &format!("/api/v1/crawls/{id}/export?format=json&table=pages"), Some(&key)).await;
    let home = a.body["pages"].as_array().unwrap().iter().find(|r| r["url"] == format!("{origin}/")).unwrap().clone();
    assert_eq!(home["extract:h"], "The shop", "{home}");
}
