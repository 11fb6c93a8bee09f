//! The crawl report page's pages table and share links over HTTP (docs/API.md, "The
//! report's pages table", "Share links"): the real server crawls a loopback fixture site
//! (`fixtures/sites/site-crawl-rest`) with a key; the tests sort and filter its table by the
//! page's query and read the rows back against the crawl's export, then make, list, use and
//! revoke share links, and check that every link that must not open the report answers as
//! an unknown crawl. Run on SQLite and, through `on_postgres`, on PostgreSQL.

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

/// A keyed crawl of the fixture site, ended; its id and its pages as the JSON export lists
/// them.
async fn ended_crawl(t: &TestServer, key: &str) -> (String, Vec<Value>) {
    let site = fixture_site("site-crawl-rest").await;
    let a = send(t, reqwest::Method::POST, "/api/v1/crawls", Some(key), Some(json!({"url": site.url("/")}))).await;
    assert_eq!(a.status, 202, "{}", a.raw);
    let id = a.body["crawl"]["id"].as_str().unwrap().to_string();
    for _ in 0..600 {
        let a = send(t, reqwest::Method::GET, &format!("/api/v1/crawls/{id}"), Some(key), None).await;
        if a.body["crawl"]["state"] == "completed" && a.body["crawl"]["site_score"].is_u64() {
            let export = send(t, reqwest::Method::GET, &format!("/api/v1/crawls/{id}/export"), Some(key), None).await;
            return (id, export.body["pages"].as_array().unwrap().clone());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("crawl {id} did not end");
}

/// The URLs of the pages table's rows, in order (the first cell's link of each row).
fn table_urls(html: &str) -> Vec<String> {
    let start = html.find("<table class=\"pages\"").unwrap_or_else(|| panic!("no pages table: {html}"));
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let at = row.find("href=\"").unwrap() + "href=\"".len();
            row[at..at + row[at..].find('"').unwrap()].replace("&amp;", "&")
        })
        .collect()
}

/// The `data-total` of the table's state line.
fn table_total(html: &str) -> u64 {
    let at = html.find("data-total=\"").unwrap() + "data-total=\"".len();
    html[at..at + html[at..].find('"').unwrap()].parse().unwrap()
}

async fn report(t: &TestServer, id: &str, query: &str, key: Option<&str>) -> Answer {
    send(t, reqwest::Method::GET, &format!("/crawls/{id}{query}"), key, None).await
}

fn url_of(p: &Value) -> String {
    p["url"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_pages_table_sorts_and_filters_by_its_query() {
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|_| {});
    let (id, pages) = ended_crawl(&t, &key).await;
    assert!(pages.len() >= 5, "{pages:?}");

    let plain = report(&t, &id, "", Some(&key)).await;
    assert_eq!(plain.status, 200, "{}", plain.raw);
    assert_eq!(table_urls(&plain.raw), pages.iter().map(url_of).collect::<Vec<_>>(), "crawl order, as the export");
    assert_eq!(table_total(&plain.raw), pages.len() as u64);

    // By score, lowest first, the URLs without one last (in crawl order), then reversed.
    let mut scored: Vec<&Value> = pages.iter().filter(|p| p["score"].is_u64()).collect();
    scored.sort_by_key(|p| p["score"].as_u64());
    let unscored = pages.iter().filter(|p| !p["score"].is_u64());
    let ascending: Vec<String> = scored.iter().copied().chain(unscored.clone()).map(url_of).collect();
    let a = report(&t, &id, "?sort=score&order=asc", Some(&key)).await;
    let got = table_urls(&a.raw);
    // Equal scores keep crawl order; compare the scores in the order shown.
    let score_of = |u: &String| pages.iter().find(|p| &url_of(p) == u).and_then(|p| p["score"].as_u64());
    assert_eq!(got.iter().map(score_of).collect::<Vec<_>>(), ascending.iter().map(score_of).collect::<Vec<_>>());
    assert!(a.raw.contains("aria-sort=\"ascending\""), "{}", a.raw);
    let d = report(&t, &id, "?sort=score&order=desc", Some(&key)).await;
    let desc: Vec<Option<u64>> = table_urls(&d.raw).iter().map(score_of).collect();
    let known: Vec<u64> = desc.iter().flatten().copied().collect();
    assert!(known.windows(2).all(|w| w[0] >= w[1]) && desc.iter().skip(known.len()).all(Option::is_none), "{desc:?}");

    // Filters: a status, a class, a URL text, a rule; together with an order.
    let with_status: Vec<String> = pages.iter().filter(|p| p["status_code"] == 404).map(url_of).collect();
    assert!(!with_status.is_empty());
    let a = report(&t, &id, "?status=404", Some(&key)).await;
    assert_eq!((table_urls(&a.raw), table_total(&a.raw)), (with_status.clone(), with_status.len() as u64));
    assert!(a.raw.contains("match the filters") && a.raw.contains("value=\"404\""), "{}", a.raw);
    let ok: Vec<String> = pages
        .iter()
        .filter(|p| p["status_code"].as_u64().is_some_and(|s| (200..300).contains(&s)))
        .map(url_of)
        .collect();
    assert_eq!(table_urls(&report(&t, &id, "?status=2xx", Some(&key)).await.raw), ok);
    let tables: Vec<String> = pages.iter().map(url_of).filter(|u| u.to_lowercase().contains("tables")).collect();
    assert_eq!(tables.len(), 1, "{pages:?}");
    assert_eq!(table_urls(&report(&t, &id, "?q=TABLES", Some(&key)).await.raw), tables);

    let crawl = send(&t, reqwest::Method::GET, &format!("/api/v1/crawls/{id}"), Some(&key), None).await;
    let rule = crawl.body["crawl"]["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["kind"] == "page")
        .map(|i| i["id"].as_str().unwrap().to_string())
        .expect("a page rule fails on the fixture site");
    let issue =
        send(&t, reqwest::Method::GET, &format!("/api/v1/crawls/{id}/issues/{rule}?limit=500"), Some(&key), None).await;
    let mut affected: Vec<String> = issue.body["urls"].as_array().unwrap().iter().map(url_of).collect();
    affected.sort();
    affected.dedup();
    let a = report(&t, &id, &format!("?rule={rule}&sort=url"), Some(&key)).await;
    assert_eq!(table_urls(&a.raw), affected, "{}", a.raw);
    assert!(a.raw.contains(&format!("<option value=\"{rule}\" selected>")), "the form shows the filter");
    // Blank fields, as a form sends them, filter nothing.
    let blank = report(&t, &id, "?status=&rule=&q=&sort=&order=&page=", Some(&key)).await;
    assert_eq!(table_urls(&blank.raw), table_urls(&plain.raw));
    // A page past the last says so.
    let past = report(&t, &id, "?page=2", Some(&key)).await;
    assert!(table_urls(&past.raw).is_empty() && past.raw.contains("past the last one"), "{}", past.raw);

    // Every malformed parameter: 400 `invalid_request`, named, as an HTML page.
    for (query, name) in [
        ("?sort=colour", "sort"),
        ("?order=sideways", "order"),
        ("?status=600", "status"),
        ("?status=4x", "status"),
        ("?rule=no-such-rule-at-all", "rule"),
        ("?page=0", "page"),
        ("?page=99999", "page"),
    ] {
        let a = report(&t, &id, query, Some(&key)).await;
        assert_eq!((a.status, a.header("x-error-code")), (400, Some("invalid_request")), "{query}: {}", a.raw);
        assert!(
            a.raw.contains(&format!("<code>{name}</code>")) || a.raw.contains(&format!("`{name}`")),
            "{query}: {}",
            a.raw
        );
    }
    let long = format!("?q={}", "a".repeat(201));
    assert_eq!(report(&t, &id, &long, Some(&key)).await.status, 400);
    // Who may see it is unchanged: another key, or none, sees no such crawl.
    let (other, _) = t.key(|_| {});
    assert_eq!(report(&t, &id, "?sort=score", Some(&other)).await.status, 404);
    assert_eq!(report(&t, &id, "", None).await.status, 404);
}

/// Every way a share token can fail to open a report answers the same 404 as an unknown
/// crawl, whatever failed.
async fn assert_closed(t: &TestServer, id: &str, token: &str, unknown: &Answer) {
    let q: String = url::form_urlencoded::byte_serialize(token.as_bytes()).collect();
    let a = report(t, id, &format!("?share={q}"), None).await;
    assert_eq!((a.status, a.header("x-error-code")), (404, Some("not_found")), "{token}: {}", a.raw);
    assert_eq!(a.raw, unknown.raw, "{token}: the answer says nothing of why");
}

#[tokio::test]
async fn a_share_link_opens_a_keyed_report_until_it_expires_or_is_revoked() {
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|_| {});
    let (id, pages) = ended_crawl(&t, &key).await;
    let shares = format!("/api/v1/crawls/{id}/shares");

    // Made without a body: 7 days.
    let a = send(&t, reqwest::Method::POST, &shares, Some(&key), None).await;
    assert_eq!(a.status, 201, "{}", a.raw);
    validate_documented("POST", "/api/v1/crawls/{id}/shares", &a);
    let share = a.body["share"].clone();
    assert_eq!((share["crawl_id"].as_str(), share["state"].as_str()), (Some(id.as_str()), Some("active")));
    let expires = time::OffsetDateTime::parse(
        share["expires_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let days = (expires - time::OffsetDateTime::now_utc()).whole_hours();
    assert!((167..=168).contains(&days), "{share}");
    let url = share["url"].as_str().unwrap().to_string();
    assert!(url.starts_with(&t.base) && url.contains(&format!("/crawls/{id}?share=sh_")), "{url}");
    assert!(!url.contains(&key), "the key never goes into the link");
    let token = url.split("share=").nth(1).unwrap().to_string();

    // The link opens the report without a key, and the page's links keep it.
    let opened = t.client.get(&url).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    assert_eq!(opened.headers()["x-robots-tag"], "noindex, nofollow");
    assert_eq!(opened.headers()["referrer-policy"], "no-referrer");
    let html = opened.text().await.unwrap();
    assert_eq!(table_urls(&html).len(), pages.len());
    assert!(html.contains(&format!("share={token}\" data-sort-link=\"score\"")), "{html}");
    assert!(html.contains(&format!("name=\"share\" value=\"{token}\"")), "{html}");
    assert!(!html.contains("/api/v1/crawls/"), "no link to the routes that need the key: {html}");
    let sorted = report(&t, &id, &format!("?sort=status&order=desc&share={token}"), None).await;
    assert_eq!(sorted.status, 200, "{}", sorted.raw);
    // The key still opens it; nothing opens it without one.
    assert_eq!(report(&t, &id, "", Some(&key)).await.status, 200);
    let unknown = report(&t, &id, "", None).await;
    assert_eq!(unknown.status, 404);

    // Tampered: another expiry with the old signature, a changed signature, a cut one.
    let parts: Vec<&str> = token.split('.').collect();
    let later = format!("{}.{}.{}", parts[0], parts[1].parse::<i64>().unwrap() + 3600, parts[2]);
    let mut flipped = parts[2].to_string();
    let last = flipped.pop().unwrap();
    flipped.push(if last == 'A' { 'B' } else { 'A' });
    for bad in [later, format!("{}.{}.{flipped}", parts[0], parts[1]), format!("{}.{}", parts[0], parts[1]), "x".into()]
    {
        assert_closed(&t, &id, &bad, &unknown).await;
    }
    // Another crawl's link on this crawl's page, and this one's on the other's.
    let (other_id, _) = ended_crawl(&t, &key).await;
    let b = send(
        &t,
        reqwest::Method::POST,
        &format!("/api/v1/crawls/{other_id}/shares"),
        Some(&key),
        Some(json!({"expires_in": 3600})),
    )
    .await;
    assert_eq!(b.status, 201, "{}", b.raw);
    let other_token = b.body["share"]["url"].as_str().unwrap().split("share=").nth(1).unwrap().to_string();
    assert_closed(&t, &id, &other_token, &unknown).await;
    let other_unknown = report(&t, &other_id, "", None).await;
    assert_closed(&t, &other_id, &token, &other_unknown).await;
    // Expired: a link whose expiry has passed, signed with the service's own secret.
    let secret = t.db(|s| s.service_secret("crawl-share")).unwrap();
    let past = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
    let old = t.db(|s| s.create_crawl_share(&id, past)).unwrap();
    let expired = app::crawl::share::token(&secret, &id, &old.id, past.unix_timestamp());
    assert_closed(&t, &id, &expired, &unknown).await;
    // Signed for a later expiry than the one stored: the stored one decides.
    let stretched = app::crawl::share::token(&secret, &id, &old.id, past.unix_timestamp() + 86_400);
    assert_closed(&t, &id, &stretched, &unknown).await;

    // Listed newest first, the active one with its address; then revoked, it opens nothing.
    let list = send(&t, reqwest::Method::GET, &shares, Some(&key), None).await;
    assert_eq!(list.status, 200, "{}", list.raw);
    validate_documented("GET", "/api/v1/crawls/{id}/shares", &list);
    let listed = list.body["shares"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!((listed[0]["state"].as_str(), listed[0]["url"].as_str()), (Some("expired"), None));
    assert_eq!((listed[1]["state"].as_str(), listed[1]["url"].as_str()), (Some("active"), Some(url.as_str())));
    let link = share["id"].as_str().unwrap();
    let r = send(&t, reqwest::Method::DELETE, &format!("{shares}/{link}"), Some(&key), None).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    validate_documented("DELETE", "/api/v1/crawls/{id}/shares/{link}", &r);
    assert_eq!((r.body["share"]["state"].as_str(), r.body["share"]["url"].as_str()), (Some("revoked"), None));
    assert!(r.body["share"]["revoked_at"].is_string());
    assert_closed(&t, &id, &token, &unknown).await;
    let again = send(&t, reqwest::Method::DELETE, &format!("{shares}/{link}"), Some(&key), None).await;
    assert_eq!(again.body["share"]["revoked_at"], r.body["share"]["revoked_at"], "revoked once");
    // The other crawl's link still opens its report.
    assert_eq!(report(&t, &other_id, &format!("?share={other_token}"), None).await.status, 200);

    // The agent tool makes a link of the same kind, from the same use case.
    let a = tool_call(&t, &key, "share_crawl_report", json!({ "crawl_id": id, "expires_in": 600 })).await;
    assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
    let made = a.body["result"]["structuredContent"].clone();
    assert_eq!((made["crawl_id"].as_str(), made["state"].as_str()), (Some(id.as_str()), Some("active")), "{made}");
    let made_url = made["url"].as_str().unwrap();
    assert_eq!(report(&t, &id, &made_url[made_url.find('?').unwrap()..], None).await.status, 200, "{made}");
    let a = tool_call(&t, &key, "share_crawl_report", json!({ "crawl_id": "cr_0000000000000000000000" })).await;
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);

    // Refusals: no key, another owner's key, a lifetime out of bounds or of another type, a
    // link of another crawl, an unknown link.
    send(&t, reqwest::Method::POST, &shares, None, None).await.assert_error(401, "unauthorized");
    send(&t, reqwest::Method::GET, &shares, None, None).await.assert_error(401, "unauthorized");
    let (stranger, _) = t.key(|_| {});
    send(&t, reqwest::Method::POST, &shares, Some(&stranger), None).await.assert_error(404, "not_found");
    send(&t, reqwest::Method::GET, &shares, Some(&stranger), None).await.assert_error(404, "not_found");
    send(&t, reqwest::Method::DELETE, &format!("{shares}/{link}"), Some(&stranger), None)
        .await
        .assert_error(404, "not_found");
    for bad in [
        json!({"expires_in": 59}),
        json!({"expires_in": 2_592_001}),
        json!({"expires_in": "week"}),
        json!({"expires_in": -5}),
    ] {
        let a = send(&t, reqwest::Method::POST, &shares, Some(&key), Some(bad.clone())).await;
        a.assert_error(400, "invalid_request");
        assert_eq!(a.body["error"]["details"]["parameter"], "expires_in", "{bad}");
    }
    let other_link = b.body["share"]["id"].as_str().unwrap();
    send(&t, reqwest::Method::DELETE, &format!("{shares}/{other_link}"), Some(&key), None)
        .await
        .assert_error(404, "not_found");
    send(&t, reqwest::Method::DELETE, &format!("{shares}/sh_0000000000000000000000"), Some(&key), None)
        .await
        .assert_error(404, "not_found");
}
