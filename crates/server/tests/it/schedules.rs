//! Scheduled crawls end to end (docs/API.md, "Scheduled crawls"): the real server, a
//! loopback site that changes between two runs, a webhook receiver on loopback; each run
//! made due by moving its time in the database (no waiting for a time of day).

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

async fn send(t: &TestServer, method: &str, path: &str, key: Option<&str>, body: Option<Value>) -> Answer {
    let mut req = t.client.request(method.parse().unwrap(), t.url(path));
    if let Some(k) = key {
        req = req.header("x-api-key", k);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let a = Answer::from(req.send().await.unwrap()).await;
    let pattern = match path.strip_prefix("/api/v1/crawl-schedules/") {
        Some(rest) if rest.ends_with("/pause") => "/api/v1/crawl-schedules/{id}/pause",
        Some(rest) if rest.ends_with("/resume") => "/api/v1/crawl-schedules/{id}/resume",
        Some(_) => "/api/v1/crawl-schedules/{id}",
        None => path,
    };
    if pattern.starts_with("/api/v1/crawl-schedules") {
        validate_documented(method, pattern, &a);
    }
    a
}

/// Polls `check` (bounded) until it answers something.
async fn eventually<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A two-page site: once `changed`, `/a` loses its title (`title-missing`, a critical page
/// rule) and its description.
async fn site(changed: Arc<AtomicBool>) -> Pages {
    Pages::serve(move |request: &test_support::wiremock::Request| {
        let body = match (request.url.path(), changed.load(Ordering::SeqCst)) {
            ("/", _) => "<html lang=en><head><title>The home page of the shop</title>\
                <meta name=description content='Everything the shop sells, in one place, with prices.'>\
                </head><body><h1>Home</h1><a href='/a'>Page A</a></body></html>"
                .to_string(),
            ("/a", false) => "<html lang=en><head><title>Page A of the shop</title>\
                <meta name=description content='Page A of the shop, with what it sells and at which price.'>\
                </head><body><h1>A</h1><a href='/'>Home</a></body></html>"
                .to_string(),
            ("/a", true) => "<html lang=en><head></head><body><a href='/'>Home</a></body></html>".to_string(),
            _ => return ResponseTemplate::new(404),
        };
        ResponseTemplate::new(200).set_body_raw(body, "text/html")
    })
    .await
}

/// Makes schedule `id` due now.
fn make_due(t: &TestServer, id: &str) {
    let at = time::OffsetDateTime::now_utc() - time::Duration::seconds(1);
    t.db(|s| s.set_crawl_schedule_next_run(id, at)).unwrap();
}

async fn schedule(t: &TestServer, key: &str, id: &str) -> Value {
    let a = send(t, "GET", &format!("/api/v1/crawl-schedules/{id}"), Some(key), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.body["schedule"].clone()
}

/// Waits until run `n` of schedule `id` has started and its crawl completed; its crawl id.
async fn run_completed(t: &TestServer, key: &str, id: &str, n: u64) -> String {
    let crawl = eventually("the run's start", async || {
        let s = schedule(t, key, id).await;
        (s["runs"] == n).then(|| s["last_crawl_id"].as_str().unwrap().to_string())
    })
    .await;
    eventually("the run's crawl to complete", async || {
        let a = send(t, "GET", &format!("/api/v1/crawls/{crawl}"), Some(key), None).await;
        (a.body["crawl"]["state"] == "completed").then_some(())
    })
    .await;
    crawl
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_crawl_runs_when_due_and_alerts_on_a_regression() {
    let t = TestServer::start(|_| {}).await;
    let (key, record) = t.key(|k| k.scopes = vec!["audit".into(), "webhooks".into()]);
    let changed = Arc::new(AtomicBool::new(false));
    let site = site(changed.clone()).await;
    let hooks = Pages::serve(|_: &test_support::wiremock::Request| ResponseTemplate::new(200)).await;
    let hook = send(
        &t,
        "POST",
        "/api/v1/webhooks",
        Some(&key),
        Some(json!({ "url": format!("http://{}/hook", hooks.addr()), "events": ["crawl.alert"] })),
    )
    .await;
    assert_eq!(hook.status, 201, "{}", hook.raw);

    let home = format!("http://{}/", site.addr());
    let body = json!({
        "crawl": { "url": home, "sitemaps": false, "max_pages": 5 },
        "frequency": "weekly", "weekday": "wednesday", "time": "03:15", "alert_score_drop": 3,
    });
    let made = send(&t, "POST", "/api/v1/crawl-schedules", Some(&key), Some(body)).await;
    assert_eq!(made.status, 201, "{}", made.raw);
    let s = &made.body["schedule"];
    let id = s["id"].as_str().unwrap().to_string();
    assert_eq!(made.header("location"), Some(format!("/api/v1/crawl-schedules/{id}").as_str()));
    assert_eq!(
        (s["state"].as_str(), s["time"].as_str(), s["weekday"].as_str()),
        (Some("active"), Some("03:15"), Some("wednesday"))
    );
    assert_eq!((s["runs"].as_u64(), s["last_crawl_id"].is_null()), (Some(0), true));
    let next = store::parse_rfc3339(s["next_run_at"].as_str().unwrap()).unwrap();
    assert_eq!((next.weekday(), next.hour(), next.minute()), (time::Weekday::Wednesday, 3, 15));
    assert!(next > time::OffsetDateTime::now_utc());

    // The first run: made due, started once, its crawl the owner's; nothing to compare yet.
    make_due(&t, &id);
    let first = run_completed(&t, &key, &id, 1).await;
    let listed = send(&t, "GET", "/api/v1/crawls", Some(&key), None).await;
    assert_eq!(listed.body["crawls"].as_array().map(Vec::len), Some(1), "{}", listed.raw);
    let s = schedule(&t, &key, &id).await;
    assert!(s["last_error"].is_null(), "{s}");
    let next = s["next_run_at"].as_str().unwrap().to_string();
    assert!(next.as_str() > store::now_rfc3339().as_str(), "moved to its next time: {s}");

    // The site changes; the second run is compared with the first and alerts.
    changed.store(true, Ordering::SeqCst);
    make_due(&t, &id);
    let second = run_completed(&t, &key, &id, 2).await;
    let s = eventually("the second run's comparison", async || {
        let s = schedule(&t, &key, &id).await;
        (s["last_change"]["crawl_id"] == second.as_str()).then_some(s)
    })
    .await;
    assert_eq!(s["last_change"]["against_crawl_id"], first.as_str(), "{s}");
    assert!(s["last_change"]["new_critical_findings"].as_u64() >= Some(1), "{s}");
    let rules: Vec<&str> = s["last_alerts"].as_array().unwrap().iter().map(|a| a["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"new_critical"), "{s}");
    let dropped = s["last_change"]["site_score_change"].as_i64().unwrap() <= -3;
    assert_eq!(rules.contains(&"score_drop"), dropped, "{s}");
    assert!(s["last_alerts"][0]["message"].as_str().unwrap().contains("title-missing"), "{s}");
    // The same comparison the compare route answers.
    let compared = send(&t, "GET", &format!("/api/v1/crawls/{second}/compare?against={first}"), Some(&key), None).await;
    assert_eq!(compared.body["comparison"]["site_score_change"], s["last_change"]["site_score_change"]);

    // Each alert is a `crawl.alert` delivery.
    let deliveries = eventually("the alert deliveries", async || {
        let got = hooks.requests().await;
        (got.len() >= rules.len()).then_some(got)
    })
    .await;
    let events: Vec<Value> = deliveries.iter().map(|r| serde_json::from_slice(&r.body).unwrap()).collect();
    for event in &events {
        validate_schema("WebhookPayload", event);
        assert_eq!(event["event"], "crawl.alert");
        assert_eq!(
            (event["data"]["scheduleId"].as_str(), event["data"]["crawlId"].as_str()),
            (Some(id.as_str()), Some(second.as_str()))
        );
    }
    assert!(events.iter().any(|e| e["data"]["rule"] == "new_critical" && e["data"]["severity"] == "critical"));

    // Each alert is a row of the owner's alert list too (docs/API.md, "Alerts"), beside the
    // monitors' alerts: with its source, its schedule and the run that raised it.
    let listed = send(&t, "GET", "/api/v1/alerts", Some(&key), None).await;
    assert_eq!(listed.status, 200, "{}", listed.raw);
    validate_documented("GET", "/api/v1/alerts", &listed);
    let alerts = listed.body["alerts"].as_array().unwrap().clone();
    let mut listed_rules: Vec<&str> = alerts.iter().map(|a| a["rule"].as_str().unwrap()).collect();
    listed_rules.sort_unstable();
    let mut raised = rules.clone();
    raised.sort_unstable();
    assert_eq!(listed_rules, raised, "{}", listed.raw);
    for alert in &alerts {
        assert_eq!(
            (alert["source"].as_str(), alert["schedule_id"].as_str(), alert["crawl_id"].as_str()),
            (Some("schedule"), Some(id.as_str()), Some(second.as_str())),
            "{alert}"
        );
        assert!(alert["monitor_id"].is_null(), "{alert}");
        assert_eq!(alert["url"], home.as_str(), "{alert}");
    }
    let critical = alerts.iter().find(|a| a["rule"] == "new_critical").unwrap();
    assert_eq!(critical["severity"], "critical");
    assert_eq!(critical["message"], s["last_alerts"][0]["message"], "the schedule's own alert, word for word");
    // Filtered and paged: one a page, then the next by its cursor; a monitor filter has none.
    let only = send(&t, "GET", "/api/v1/alerts?source=monitor", Some(&key), None).await;
    assert_eq!(only.body["alerts"], json!([]), "{}", only.raw);
    let first_page = send(&t, "GET", "/api/v1/alerts?source=schedule&limit=1", Some(&key), None).await;
    assert_eq!(first_page.body["alerts"][0]["id"], alerts[0]["id"], "{}", first_page.raw);
    match first_page.body["next_cursor"].as_str() {
        Some(cursor) => {
            let next =
                send(&t, "GET", &format!("/api/v1/alerts?source=schedule&limit=1&cursor={cursor}"), Some(&key), None)
                    .await;
            assert_eq!(next.body["alerts"][0]["id"], alerts[1]["id"], "{}", next.raw);
        }
        None => assert_eq!(alerts.len(), 1, "{}", first_page.raw),
    }
    // The agent tool lists the same alerts (a key of the same owner with the `mcp` scope).
    let (agent, _) = t.key(|k| {
        k.scopes = vec!["mcp".into()];
        k.user_id = Some(record.user_id.clone());
    });
    let by_tool = tool_call(&t, &agent, "schedule_crawl", json!({ "action": "alerts" })).await;
    assert_eq!(by_tool.body["result"]["isError"], false, "{}", by_tool.raw);
    assert_eq!(by_tool.body["result"]["structuredContent"]["alerts"], json!(alerts), "{}", by_tool.raw);
    send(&t, "GET", "/api/v1/alerts?source=crawl", Some(&key), None).await.assert_error(400, "invalid_request");
    send(&t, "GET", "/api/v1/alerts?cursor=nope", Some(&key), None).await.assert_error(400, "invalid_request");
    send(&t, "GET", "/api/v1/alerts", None, None).await.assert_error(401, "unauthorized");
    let (webhooks_only, _) = t.key(|k| k.scopes = vec!["webhooks".into()]);
    send(&t, "GET", "/api/v1/alerts", Some(&webhooks_only), None).await.assert_error(403, "forbidden");
    // Another owner lists none of them.
    let (other, _) = t.key(|k| k.scopes = vec!["audit".into()]);
    let theirs = send(&t, "GET", "/api/v1/alerts", Some(&other), None).await;
    assert_eq!(theirs.body["alerts"], json!([]), "{}", theirs.raw);

    // Paused: not claimed however due; its next run is not shown.
    let paused = send(&t, "POST", &format!("/api/v1/crawl-schedules/{id}/pause"), Some(&key), None).await;
    assert_eq!((paused.status, paused.body["schedule"]["state"].as_str()), (200, Some("paused")), "{}", paused.raw);
    assert!(paused.body["schedule"]["next_run_at"].is_null());
    make_due(&t, &id);
    let now = time::OffsetDateTime::now_utc();
    let claimed = t.db(|s| s.claim_due_crawl_schedules("test", now, now + time::Duration::minutes(1), 10)).unwrap();
    assert!(claimed.is_empty(), "{claimed:?}");
    // Resumed: due at its next time from now, not at once.
    let resumed = send(&t, "POST", &format!("/api/v1/crawl-schedules/{id}/resume"), Some(&key), None).await;
    assert_eq!(resumed.body["schedule"]["state"], "active", "{}", resumed.raw);
    assert!(resumed.body["schedule"]["next_run_at"].as_str().unwrap() > store::now_rfc3339().as_str());

    // Ended: gone, its crawls kept.
    let ended = send(&t, "DELETE", &format!("/api/v1/crawl-schedules/{id}"), Some(&key), None).await;
    assert_eq!((ended.status, ended.body["deleted"].as_str()), (200, Some(id.as_str())), "{}", ended.raw);
    send(&t, "GET", &format!("/api/v1/crawl-schedules/{id}"), Some(&key), None).await.assert_error(404, "not_found");
    let list = send(&t, "GET", "/api/v1/crawl-schedules", Some(&key), None).await;
    assert_eq!(list.body["schedules"], json!([]), "{}", list.raw);
    let listed = send(&t, "GET", "/api/v1/crawls", Some(&key), None).await;
    assert_eq!(listed.body["crawls"].as_array().map(Vec::len), Some(2), "{}", listed.raw);
    // Its alerts went with it, as a stopped monitor's do.
    let alerts = send(&t, "GET", "/api/v1/alerts", Some(&key), None).await;
    assert_eq!(alerts.body["alerts"], json!([]), "{}", alerts.raw);
}

#[tokio::test]
async fn bad_schedules_are_refused_with_the_documented_codes() {
    let t = TestServer::start(|_| {}).await;
    let (alice, _) = t.key(|_| {});
    let (bob, _) = t.key(|_| {});
    let (no_audit, _) = t.key(|k| k.scopes = vec!["mcp".into()]);
    let crawl = json!({ "url": "http://127.0.0.1:9/" });
    let good = json!({ "crawl": crawl, "frequency": "daily", "time": "06:00" });

    send(&t, "POST", "/api/v1/crawl-schedules", None, Some(good.clone())).await.assert_error(401, "unauthorized");
    send(&t, "GET", "/api/v1/crawl-schedules", None, None).await.assert_error(401, "unauthorized");
    send(&t, "POST", "/api/v1/crawl-schedules", Some(&no_audit), Some(good.clone()))
        .await
        .assert_error(403, "forbidden");
    for (body, status, code, member) in [
        (json!({ "frequency": "daily", "time": "06:00" }), 400, "missing_parameter", None),
        (json!({ "crawl": {}, "frequency": "daily", "time": "06:00" }), 400, "missing_parameter", None),
        (
            json!({ "crawl": { "url": "ftp://a.test/" }, "frequency": "daily", "time": "06:00" }),
            400,
            "invalid_url",
            None,
        ),
        (
            json!({ "crawl": { "url": "http://a.test/", "max_pages": 0 }, "frequency": "daily", "time": "06:00" }),
            400,
            "invalid_request",
            Some("crawl.max_pages"),
        ),
        (json!({ "crawl": crawl, "frequency": "monthly", "time": "06:00" }), 400, "invalid_request", Some("frequency")),
        (json!({ "crawl": crawl, "frequency": "daily", "time": "6h" }), 400, "invalid_request", Some("time")),
        (json!({ "crawl": crawl, "frequency": "weekly", "time": "06:00" }), 400, "missing_parameter", None),
        (
            json!({ "crawl": crawl, "frequency": "daily", "time": "06:00", "weekday": "monday" }),
            400,
            "invalid_request",
            Some("weekday"),
        ),
        (
            json!({ "crawl": crawl, "frequency": "daily", "time": "06:00", "alert_score_drop": 101 }),
            400,
            "invalid_request",
            Some("alert_score_drop"),
        ),
        (json!({ "crawl": crawl, "frequency": "daily", "time": "06:00", "every": 2 }), 400, "invalid_request", None),
        (json!([1]), 400, "invalid_request", None),
    ] {
        let a = send(&t, "POST", "/api/v1/crawl-schedules", Some(&alice), Some(body.clone())).await;
        a.assert_error(status, code);
        if let Some(member) = member {
            assert_eq!(a.body["error"]["details"]["parameter"], member, "{body}: {}", a.raw);
        }
    }

    // Another owner's schedule is answered as an unknown one.
    let made = send(&t, "POST", "/api/v1/crawl-schedules", Some(&alice), Some(good.clone())).await;
    assert_eq!(made.status, 201, "{}", made.raw);
    let id = made.body["schedule"]["id"].as_str().unwrap().to_string();
    for (method, path) in [
        ("GET", format!("/api/v1/crawl-schedules/{id}")),
        ("POST", format!("/api/v1/crawl-schedules/{id}/pause")),
        ("POST", format!("/api/v1/crawl-schedules/{id}/resume")),
        ("DELETE", format!("/api/v1/crawl-schedules/{id}")),
        ("GET", "/api/v1/crawl-schedules/cs_unknown".to_string()),
    ] {
        send(&t, method, &path, Some(&bob), None).await.assert_error(404, "not_found");
    }
    assert_eq!(schedule(&t, &alice, &id).await["state"], "active", "bob changed nothing");

    // At most 20 an owner.
    for _ in 1..20 {
        let a = send(&t, "POST", "/api/v1/crawl-schedules", Some(&alice), Some(good.clone())).await;
        assert_eq!(a.status, 201, "{}", a.raw);
    }
    let over = send(&t, "POST", "/api/v1/crawl-schedules", Some(&alice), Some(good.clone())).await;
    over.assert_error(400, "invalid_request");
    assert!(over.body["error"]["message"].as_str().unwrap().contains("at most 20"), "{}", over.raw);
    let list = send(&t, "GET", "/api/v1/crawl-schedules", Some(&alice), None).await;
    assert_eq!(list.body["schedules"].as_array().map(Vec::len), Some(20));
    let theirs = send(&t, "GET", "/api/v1/crawl-schedules", Some(&bob), None).await;
    assert_eq!(theirs.body["schedules"], json!([]));
}

#[tokio::test]
async fn the_schedule_crawl_tool_makes_lists_pauses_resumes_and_ends_schedules() {
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|k| k.scopes = vec!["audit".into(), "mcp".into()]);
    let (mcp_only, _) = t.key(|k| k.scopes = vec!["mcp".into()]);
    let call = async |key: &str, arguments: Value| {
        let a = tool_call(&t, key, "schedule_crawl", arguments).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        a.body["result"].clone()
    };
    let made = call(
        &key,
        json!({ "action": "create", "crawl": { "url": "http://127.0.0.1:9/", "max_pages": 3 }, "frequency": "weekly",
                "weekday": "sunday", "time": "23:45" }),
    )
    .await;
    assert_eq!(made["isError"], false, "{made}");
    let schedule = &made["structuredContent"]["schedule"];
    let id = schedule["id"].as_str().unwrap().to_string();
    assert_eq!((schedule["weekday"].as_str(), schedule["time"].as_str()), (Some("sunday"), Some("23:45")));
    // The same schedule the REST route lists.
    let listed = send(&t, "GET", "/api/v1/crawl-schedules", Some(&key), None).await;
    assert_eq!(listed.body["schedules"][0]["id"], id.as_str(), "{}", listed.raw);
    let list = call(&key, json!({ "action": "list" })).await;
    assert_eq!(list["structuredContent"]["schedules"][0]["id"], id.as_str(), "{list}");

    let paused = call(&key, json!({ "action": "pause", "schedule_id": id })).await;
    assert_eq!(paused["structuredContent"]["schedule"]["state"], "paused", "{paused}");
    let resumed = call(&key, json!({ "action": "resume", "schedule_id": id })).await;
    assert_eq!(resumed["structuredContent"]["schedule"]["state"], "active", "{resumed}");
    let ended = call(&key, json!({ "action": "end", "schedule_id": id })).await;
    assert_eq!(ended["structuredContent"]["deleted"], id.as_str(), "{ended}");
    let alerts = call(&key, json!({ "action": "alerts", "source": "schedule", "limit": 5 })).await;
    assert_eq!(alerts["structuredContent"], json!({ "alerts": [], "next_cursor": null }), "{alerts}");

    // Refusals name their code.
    for (key, arguments, code) in [
        (&key, json!({ "action": "end", "schedule_id": id }), "not_found"),
        (&key, json!({ "action": "pause" }), "missing_parameter"),
        (&key, json!({ "action": "alerts", "source": "crawl" }), "invalid_request"),
        (
            &key,
            json!({ "action": "create", "crawl": { "url": "http://127.0.0.1:9/" }, "frequency": "daily" }),
            "missing_parameter",
        ),
        (
            &key,
            json!({ "action": "create", "crawl": { "url": "http://127.0.0.1:9/" }, "frequency": "daily", "time": "7:00" }),
            "invalid_request",
        ),
        (
            &mcp_only,
            json!({ "action": "create", "crawl": { "url": "http://127.0.0.1:9/" }, "frequency": "daily", "time": "07:00" }),
            "forbidden",
        ),
    ] {
        let result = call(key, arguments.clone()).await;
        assert_eq!(result["isError"], true, "{arguments}: {result}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with(code), "{arguments}: {text}");
    }
}
