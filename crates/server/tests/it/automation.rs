//! Workflows, monitoring, keyword tracking and experiments through the agent-tool endpoint
//! (`POST /api/mcp`, modern form) with keys of two owners, against a fixture page whose
//! status, title and body the test changes between audits.

use crate::common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// A page the test rewrites: (status, html), and the site's robots.txt (status, body).
#[derive(Clone)]
struct Site {
    addr: SocketAddr,
    page: Arc<Mutex<(u16, String)>>,
    robots: Arc<Mutex<(u16, String)>>,
    /// GET requests for anything but robots.txt.
    page_hits: Arc<Mutex<usize>>,
    posts: Arc<Mutex<Vec<Value>>>,
}

fn html(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><title>{title}</title>\
         <meta name=\"description\" content=\"Solid oak furniture made to order in a small workshop.\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>\
         <body><main><h1>Oak furniture</h1><p>{body}</p></main></body></html>"
    )
}

impl Site {
    /// Serves the current page at every path (robots.txt: 404 unless set) and keeps every
    /// POST body (webhook deliveries) received at `/hook`.
    async fn start() -> Site {
        let page = Arc::new(Mutex::new((200, html("Oak tables and chairs from our workshop", "oak oak oak"))));
        let robots = Arc::new(Mutex::new((404, String::new())));
        let (page_hits, posts): (Arc<Mutex<usize>>, Arc<Mutex<Vec<Value>>>) = (Arc::default(), Arc::default());
        let (p, r, h, b) = (page.clone(), robots.clone(), page_hits.clone(), posts.clone());
        let addr = Pages::serve(move |req: &wiremock::Request| {
            if req.method == http::Method::POST {
                b.lock().unwrap().push(serde_json::from_slice(&req.body).unwrap_or(Value::Null));
                return ResponseTemplate::new(200);
            }
            let (status, body) = if req.url.path() == "/robots.txt" {
                r.lock().unwrap().clone()
            } else {
                *h.lock().unwrap() += 1;
                p.lock().unwrap().clone()
            };
            ResponseTemplate::new(status).set_body_raw(body, "text/html; charset=utf-8")
        })
        .await
        .leak();
        Site { addr, page, robots, page_hits, posts }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    fn set(&self, status: u16, html: String) {
        *self.page.lock().unwrap() = (status, html);
    }

    fn events(&self) -> Vec<String> {
        self.posts.lock().unwrap().iter().filter_map(|p| p["event"].as_str().map(str::to_string)).collect()
    }
}

/// A successful result whose structuredContent validates against the tool's outputSchema.
async fn ok(t: &TestServer, key: &str, name: &str, arguments: Value) -> Value {
    let a = tool_call(t, key, name, arguments).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    let result = &a.body["result"];
    assert_eq!(result["isError"], false, "{name}: {}", a.raw);
    let structured = result["structuredContent"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, structured);
    let def = server::mcp::calls::tool_defs().into_iter().find(|d| d.name == name).unwrap();
    let validator = jsonschema::validator_for(&def.output_schema).unwrap();
    let errors: Vec<String> =
        validator.iter_errors(&structured).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{name}: {structured:#} does not match its outputSchema: {errors:#?}");
    structured
}

/// An isError result; its text.
async fn err(t: &TestServer, key: &str, name: &str, arguments: Value) -> String {
    let a = tool_call(t, key, name, arguments).await;
    assert_eq!((a.status, &a.body["result"]["isError"]), (200, &json!(true)), "{name}: {}", a.raw);
    a.body["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

/// Polls workflow_status until the run is in one of `states` (bounded).
async fn wait_state(t: &TestServer, key: &str, run: &str, states: &[&str]) -> Value {
    for _ in 0..300 {
        let s = ok(t, key, "workflow_status", json!({ "runId": run })).await;
        if states.contains(&s["state"].as_str().unwrap()) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("run {run} never reached {states:?}");
}

fn two_owners(t: &TestServer) -> (String, String) {
    let scopes = || vec!["audit".to_string(), "mcp".to_string(), "webhooks".to_string()];
    (t.key(|k| k.scopes = scopes()).0, t.key(|k| k.scopes = scopes()).0)
}

fn owner_of(t: &TestServer, key: &str) -> String {
    t.db(|s| s.lookup(key)).unwrap().unwrap().user_id.into_string()
}

#[tokio::test]
async fn fix_workflow_through_the_gate() {
    let site = Site::start().await;
    let t = TestServer::start(|c| c.webhook_retry_base_ms = 50).await;
    let (alice, bob) = two_owners(&t);
    let hook = store::NewWebhook {
        user_id: owner_of(&t, &alice).into(),
        url: site.url("/hook"),
        events: vec!["workflow.awaiting_approval".into(), "workflow.completed".into()],
    };
    t.db(|s| s.create_webhook(hook)).unwrap();
    let page = site.url("/");

    let started = ok(&t, &alice, "workflow_execute", json!({ "intent": "fix", "url": page, "topN": 3 })).await;
    assert_eq!(started["state"], "queued");
    let run = started["runId"].as_str().unwrap().to_string();
    let waiting = wait_state(&t, &alice, &run, &["awaiting_approval", "failed"]).await;
    assert_eq!(waiting["state"], "awaiting_approval", "{waiting:#}");
    let fixes = waiting["results"]["fix_plan"]["fixes"].as_array().unwrap();
    assert!(!fixes.is_empty() && fixes.len() <= 3, "{waiting:#}");
    // The plan is what generate_fixes answers for the page: same ranking, same filled templates.
    let tool = ok(&t, &alice, "generate_fixes", json!({ "url": page, "topN": 3 })).await;
    assert_eq!(&tool["fixes"], &waiting["results"]["fix_plan"]["fixes"]);
    let approval = waiting["pendingApprovals"][0]["approvalId"].as_str().unwrap().to_string();
    let names: Vec<&str> = waiting["steps"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["audit", "fix_plan", "approval", "finalize"]);
    assert_eq!(waiting["steps"][3]["status"], "pending");

    // Invalid moves change nothing.
    let text =
        err(&t, &alice, "approve_fixes", json!({ "runId": run, "approvalId": "nope", "decision": "approved" })).await;
    assert!(text.starts_with("not_found"), "{text}");
    let text =
        err(&t, &bob, "approve_fixes", json!({ "runId": run, "approvalId": approval, "decision": "approved" })).await;
    assert!(text.starts_with("not_found"), "{text}");
    let text = err(&t, &bob, "workflow_status", json!({ "runId": run })).await;
    assert!(text.starts_with("not_found"), "{text}");
    let unknown = err(&t, &bob, "workflow_status", json!({ "runId": "00000000-0000-0000-0000-000000000000" })).await;
    assert_eq!(text.replace(&run, "ID"), unknown.replace("00000000-0000-0000-0000-000000000000", "ID"));
    let still = ok(&t, &alice, "workflow_status", json!({ "runId": run })).await;
    assert_eq!(
        (still["state"].as_str(), still["pendingApprovals"].as_array().map(Vec::len)),
        (Some("awaiting_approval"), Some(1))
    );

    // Approved: the plan is finalised and the run completes.
    let decided =
        ok(&t, &alice, "approve_fixes", json!({ "runId": run, "approvalId": approval, "decision": "approved" })).await;
    assert_eq!(decided["decision"], "approved");
    let done = wait_state(&t, &alice, &run, &["completed", "failed"]).await;
    assert_eq!(done["state"], "completed", "{done:#}");
    assert_eq!(done["results"]["finalize"]["fixes"], waiting["results"]["fix_plan"]["fixes"]);
    assert_eq!(done["error"], Value::Null);
    assert!(done["steps"].as_array().unwrap().iter().all(|s| s["status"] == "completed"), "{done:#}");
    // Deciding again is refused and changes nothing.
    let text =
        err(&t, &alice, "approve_fixes", json!({ "runId": run, "approvalId": approval, "decision": "rejected" })).await;
    assert!(text.starts_with("conflict"), "{text}");
    assert_eq!(ok(&t, &alice, "workflow_status", json!({ "runId": run })).await["state"], "completed");

    // Rejected: the run ends rejected, the rest skipped.
    let run2 = ok(&t, &alice, "workflow_execute", json!({ "intent": "fix", "url": page })).await["runId"]
        .as_str()
        .unwrap()
        .to_string();
    let waiting = wait_state(&t, &alice, &run2, &["awaiting_approval", "failed"]).await;
    let approval2 = waiting["pendingApprovals"][0]["approvalId"].as_str().unwrap().to_string();
    // A gate of another run does not open this one.
    let text =
        err(&t, &alice, "approve_fixes", json!({ "runId": run2, "approvalId": approval, "decision": "approved" }))
            .await;
    assert!(text.starts_with("not_found"), "{text}");
    let decided =
        ok(&t, &alice, "approve_fixes", json!({ "runId": run2, "approvalId": approval2, "decision": "rejected" }))
            .await;
    assert_eq!(decided["state"], "rejected");
    let rejected = ok(&t, &alice, "workflow_status", json!({ "runId": run2 })).await;
    assert_eq!(rejected["state"], "rejected");
    assert_eq!(rejected["steps"][3]["status"], "skipped");
    assert_eq!(rejected["pendingApprovals"], json!([]));

    // Webhooks: two gates opened, one run completed.
    for _ in 0..200 {
        if site.events().len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let mut events = site.events();
    events.sort();
    assert_eq!(events, ["workflow.awaiting_approval", "workflow.awaiting_approval", "workflow.completed"]);
}

#[tokio::test]
async fn other_intents_and_failures() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, bob) = two_owners(&t);
    let page = site.url("/");
    let competitor = site.url("/other");

    for (intent, last) in [("audit", "summarize"), ("analyze", "opportunities"), ("monitor", "register_monitor")] {
        let run = ok(&t, &alice, "workflow_execute", json!({ "intent": intent, "url": page })).await;
        let done = wait_state(&t, &alice, run["runId"].as_str().unwrap(), &["completed", "failed"]).await;
        assert_eq!(done["state"], "completed", "{done:#}");
        assert!(done["results"][last].is_object(), "{done:#}");
        if intent == "analyze" {
            // The same ranking as get_opportunities.
            let tool = ok(&t, &alice, "get_opportunities", json!({ "url": page })).await;
            assert!(!tool["opportunities"].as_array().unwrap().is_empty());
            assert_eq!(&tool["opportunities"], &done["results"]["opportunities"]["opportunities"]);
        }
    }
    let run =
        ok(&t, &alice, "workflow_execute", json!({ "intent": "competitor", "url": page, "competitorUrl": competitor }))
            .await;
    let done = wait_state(&t, &alice, run["runId"].as_str().unwrap(), &["completed", "failed"]).await;
    assert_eq!(done["results"]["compare"]["scoreDelta"], 0, "{done:#}");

    // The monitor intent registered the monitor monitor_site reports.
    let m = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
    assert_eq!(m["created"], false);

    let text = err(&t, &alice, "workflow_execute", json!({ "intent": "competitor", "url": page })).await;
    assert!(text.starts_with("missing_parameter"), "{text}");
    let text = err(&t, &alice, "workflow_execute", json!({ "intent": "audit", "url": "ftp://x/" })).await;
    assert!(text.starts_with("invalid_url"), "{text}");

    // A step that fails fails the run, naming the step and the reason.
    let dead = format!("http://127.0.0.1:{}/", closed_port());
    let run = ok(&t, &alice, "workflow_execute", json!({ "intent": "audit", "url": dead })).await;
    let failed = wait_state(&t, &alice, run["runId"].as_str().unwrap(), &["completed", "failed"]).await;
    assert_eq!(failed["state"], "failed");
    assert_eq!(failed["error"]["step"], "audit");
    assert!(failed["error"]["reason"].as_str().unwrap().starts_with("target_unreachable"), "{failed:#}");
    assert_eq!(failed["steps"][1]["status"], "pending");

    // Approving a run that is not waiting is refused.
    let text =
        err(&t, &alice, "approve_fixes", json!({ "runId": run["runId"], "approvalId": "x", "decision": "approved" }))
            .await;
    assert!(text.starts_with("not_found"), "{text}");
    // Bob's monitors, keywords and experiments are his own.
    assert_eq!(ok(&t, &bob, "track_keywords", json!({ "action": "list" })).await["keywords"], json!([]));
    assert_eq!(ok(&t, &bob, "run_experiment", json!({ "action": "list" })).await["experiments"], json!([]));
    assert_eq!(ok(&t, &bob, "monitor_site", json!({ "url": page })).await["created"], true);
}

#[tokio::test]
async fn monitors_raise_alerts() {
    let site = Site::start().await;
    let t = TestServer::start(|c| {
        c.monitor_interval_s = 1;
        c.webhook_retry_base_ms = 50;
    })
    .await;
    let (alice, _) = two_owners(&t);
    let hook = store::NewWebhook {
        user_id: owner_of(&t, &alice).into(),
        url: site.url("/hook"),
        events: vec!["monitor.alert".into()],
    };
    t.db(|s| s.create_webhook(hook)).unwrap();
    let page = site.url("/watched");

    let first = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
    assert_eq!((first["created"].as_bool(), first["intervalSeconds"].as_u64()), (Some(true), Some(1)));
    let rules: Vec<&str> = first["rules"].as_array().unwrap().iter().map(|r| r["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["score_drop", "new_critical", "status_not_2xx", "unreachable"]);
    assert_eq!(first["recentAlerts"], json!([]));
    assert!(first["lastAuditAt"].is_string());
    let again = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
    assert_eq!((again["created"].as_bool(), &again["monitorId"]), (Some(false), &first["monitorId"]));

    // The page breaks: 500 and no title.
    site.set(500, "<html><body><p>Internal error</p></body></html>".into());
    let mut report = Value::Null;
    for _ in 0..200 {
        report = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
        let rules: Vec<&str> =
            report["recentAlerts"].as_array().unwrap().iter().map(|a| a["rule"].as_str().unwrap()).collect();
        if rules.contains(&"status_not_2xx") && rules.contains(&"score_drop") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let rules: Vec<&str> =
        report["recentAlerts"].as_array().unwrap().iter().map(|a| a["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"status_not_2xx") && rules.contains(&"score_drop"), "{report:#}");
    assert!(report["severityBreakdown"]["critical"].as_u64().unwrap() >= 1, "{report:#}");
    // The breakdown counts the alerts listed beside it; the newest audit's issues are apart.
    let alerts = report["recentAlerts"].as_array().unwrap();
    for severity in ["critical", "warning", "notice"] {
        let listed = alerts.iter().filter(|a| a["severity"] == severity).count() as u64;
        assert_eq!(report["severityBreakdown"][severity].as_u64(), Some(listed), "{severity}: {report:#}");
    }
    assert!(report["latestAuditIssues"]["critical"].as_u64().unwrap() >= 1, "{report:#}");

    // A page that cannot be audited at all is not put under monitoring.
    let dead = format!("http://127.0.0.1:{}/", closed_port());
    let text = err(&t, &alice, "monitor_site", json!({ "url": dead })).await;
    assert!(text.starts_with("target_unreachable"), "{text}");

    for _ in 0..200 {
        if site.events().iter().any(|e| e == "monitor.alert") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(site.events().iter().any(|e| e == "monitor.alert"), "{:?}", site.events());
}

/// Monitoring obeys robots.txt (docs/API.md, "Monitoring"): an on-demand check fetches the page,
/// the scheduled ones do not once robots.txt disallows SeoAuditBot, and say why.
#[tokio::test]
async fn monitors_obey_robots_txt() {
    let site = Site::start().await;
    // Googlebot may crawl everything; SeoAuditBot may not crawl /watched.
    *site.robots.lock().unwrap() =
        (200, "User-agent: Googlebot\nAllow: /\n\nUser-agent: SeoAuditBot\nDisallow: /watched\n".into());
    let t = TestServer::start(|c| c.monitor_interval_s = 1).await;
    let (alice, _) = two_owners(&t);
    let page = site.url("/watched");

    // monitor_site audits at once on the user's behalf, as any on-demand audit.
    let first = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
    assert_eq!(first["created"], true);
    assert_eq!(*site.page_hits.lock().unwrap(), 1);

    let mut alerts = Vec::new();
    for _ in 0..200 {
        let report = ok(&t, &alice, "monitor_site", json!({ "url": page })).await;
        alerts = report["recentAlerts"].as_array().unwrap().clone();
        if alerts.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(alerts.len() >= 2, "{alerts:#?}");
    for alert in &alerts {
        assert_eq!((alert["rule"].as_str(), alert["severity"].as_str()), (Some("unreachable"), Some("critical")));
        let message = alert["message"].as_str().unwrap();
        assert!(message.contains("robots.txt disallows SeoAuditBot from /watched"), "{message}");
        assert!(message.contains("Disallow: /watched"), "{message}");
    }
    // Two scheduled checks, and the page itself was fetched only by the on-demand audit.
    assert_eq!(*site.page_hits.lock().unwrap(), 1);
    assert_eq!(t.db(|s| s.audits_for_url(&page, 10)).unwrap().len(), 1);

    // A second page of the site is not disallowed: its scheduled checks audit it.
    let open = site.url("/open");
    ok(&t, &alice, "monitor_site", json!({ "url": open })).await;
    for _ in 0..200 {
        if t.db(|s| s.audits_for_url(&open, 10)).unwrap().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(t.db(|s| s.audits_for_url(&open, 10)).unwrap().len() >= 2);
}

#[tokio::test]
async fn keywords_and_experiments() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, bob) = two_owners(&t);
    let page = site.url("/shop");

    let added = ok(&t, &alice, "track_keywords", json!({ "action": "add", "keyword": "Oak", "targetUrl": page })).await;
    assert!(added["note"].as_str().unwrap().contains("does not measure search-engine rank"));
    let kw = &added["keywords"][0];
    assert_eq!(
        kw["latest"],
        json!({ "inTitle": true, "inH1": true, "inDescription": true, "inUrl": false, "bodyCount": 4, "forms": ["oak"] })
    );
    assert_eq!(kw["history"].as_array().map(Vec::len), Some(1));
    let text = err(&t, &alice, "track_keywords", json!({ "action": "add", "keyword": "oak" })).await;
    assert!(text.starts_with("missing_parameter"), "{text}");
    // A page that cannot be audited is an error, and leaves nothing tracked.
    let dead = format!("http://127.0.0.1:{}/", closed_port());
    let text =
        err(&t, &alice, "track_keywords", json!({ "action": "add", "keyword": "pine", "targetUrl": dead })).await;
    assert!(text.starts_with("target_unreachable"), "{text}");
    let listed = ok(&t, &alice, "track_keywords", json!({ "action": "list" })).await;
    let words: Vec<&str> =
        listed["keywords"].as_array().unwrap().iter().map(|k| k["keyword"].as_str().unwrap()).collect();
    assert_eq!(words, ["Oak"]);

    // An experiment audits the page now as its baseline.
    let created = ok(
        &t,
        &alice,
        "run_experiment",
        json!({
            "action": "create", "title": "Shorter title", "hypothesis": "A shorter title keeps the score",
            "url": page, "experimentType": "title-rewrite",
        }),
    )
    .await;
    // A metric nothing can measure is refused, and nothing is created.
    let text = err(
        &t,
        &alice,
        "run_experiment",
        json!({ "action": "create", "title": "T", "hypothesis": "H", "url": page, "metricTarget": "scroe" }),
    )
    .await;
    assert!(text.starts_with("invalid_request") && text.contains("scroe"), "{text}");
    let exp = &created["experiments"][0];
    assert_eq!((exp["metricTarget"].as_str(), exp["delta"].as_f64()), (Some("score"), Some(0.0)), "{created:#}");
    let baseline = exp["baseline"]["value"].as_f64().unwrap();

    // The page changes: no title, more oak; a second experiment audits it again.
    site.set(200, html("", "oak, oak. Oak! oak oaken oak"));
    let created = ok(
        &t,
        &alice,
        "run_experiment",
        json!({
            "action": "create", "title": "Words", "hypothesis": "More words", "url": page, "metricTarget": "word_count",
        }),
    )
    .await;
    let list = ok(&t, &alice, "run_experiment", json!({ "action": "list" })).await;
    assert_eq!(list["experiments"].as_array().map(Vec::len), Some(2));
    let first = list["experiments"].as_array().unwrap().iter().find(|e| e["title"] == "Shorter title").unwrap();
    let current = first["current"]["value"].as_f64().unwrap();
    assert!(current < baseline, "{first:#}");
    assert_eq!(first["delta"].as_f64(), Some(current - baseline));
    assert_eq!(created["experiments"].as_array().map(Vec::len), Some(2));

    // Keyword history now has both audits with text: oldest first.
    let listed = ok(&t, &alice, "track_keywords", json!({ "action": "list" })).await;
    let kw = &listed["keywords"][0];
    let counts: Vec<u64> = kw["history"].as_array().unwrap().iter().map(|p| p["bodyCount"].as_u64().unwrap()).collect();
    assert_eq!(counts, [4, 4, 6]);
    assert_eq!(kw["latest"]["inTitle"], false);

    // Bob sees and removes nothing of Alice's.
    assert_eq!(ok(&t, &bob, "track_keywords", json!({ "action": "list" })).await["keywords"], json!([]));
    let text = err(&t, &bob, "track_keywords", json!({ "action": "remove", "keyword": "Oak" })).await;
    assert!(text.starts_with("not_found"), "{text}");
    assert_eq!(ok(&t, &bob, "run_experiment", json!({ "action": "list" })).await["experiments"], json!([]));
    // Removing matches as adding does: ignoring case.
    let removed = ok(&t, &alice, "track_keywords", json!({ "action": "remove", "keyword": "OAK" })).await;
    assert_eq!(removed["keywords"], json!([]));
}

/// Keyword presence counts inflected forms and says which it found: "copper kettle" on a page
/// that only says "copper kettles" (docs/API.md, "Text normalisation").
#[tokio::test]
async fn keywords_count_inflected_forms_and_name_them() {
    let site = Site::start().await;
    site.set(
        200,
        html(
            "Copper Kettles from the workshop",
            "Our copper kettles are hammered by hand. Copper-kettles last for decades; \
             each of our COPPER KETTLES is tested. A copperkettle is not one.",
        ),
    );
    let t = TestServer::start(|_| {}).await;
    let (alice, _) = two_owners(&t);
    let page = site.url("/copper-kettles");

    let added =
        ok(&t, &alice, "track_keywords", json!({ "action": "add", "keyword": "copper kettle", "targetUrl": page }))
            .await;
    let latest = &added["keywords"][0]["latest"];
    assert_eq!(
        *latest,
        json!({
            "inTitle": true, "inH1": false, "inDescription": false, "inUrl": true, "bodyCount": 3,
            "forms": ["copper kettles", "copper-kettles"]
        }),
        "{added:#}"
    );
    // The exact phrase was never on the page; before the normaliser it counted 0 everywhere.
    assert!(!latest["forms"].as_array().unwrap().iter().any(|f| f == "copper kettle"));
}

/// Every audit goes through one path that keeps the page text, so audits made over REST
/// (single and batch) reach keyword history like the agent tools' own.
#[tokio::test]
async fn rest_audits_reach_keyword_history() {
    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, _) = two_owners(&t);
    let page = site.url("/shop");

    let added = ok(&t, &alice, "track_keywords", json!({ "action": "add", "keyword": "Oak", "targetUrl": page })).await;
    assert_eq!(added["keywords"][0]["history"].as_array().map(Vec::len), Some(1));

    let single = t.client.get(t.audit_url(&page, "&format=compact")).header("x-api-key", &alice).send().await.unwrap();
    assert_eq!(single.status(), 200);
    let batch = t
        .client
        .post(t.url("/api/v1/audit/batch"))
        .header("x-api-key", &alice)
        .json(&json!({ "urls": [page], "format": "compact" }))
        .send()
        .await
        .unwrap();
    assert_eq!(batch.status(), 200);

    let listed = ok(&t, &alice, "track_keywords", json!({ "action": "list" })).await;
    let history = listed["keywords"][0]["history"].as_array().unwrap();
    assert_eq!(history.len(), 3, "the tool's audit, the REST audit and the batch item: {history:?}");
    for entry in history {
        assert_eq!(entry["bodyCount"], 4, "{entry}");
    }
}

/// The per-owner caps on monitors and experiments (docs/SECURITY.md, "What one caller can
/// start and store"): the owner's 100th is made, the 101st is refused with
/// `invalid_request` before its page is fetched, and nothing more is stored; another owner
/// is not held by the first one's count, and stopping a monitor makes room again.
#[tokio::test]
async fn monitors_and_experiments_stop_at_the_per_owner_cap() {
    use app::experiments::MAX_EXPERIMENTS_PER_USER;
    use app::monitors::MAX_MONITORS_PER_USER;

    let site = Site::start().await;
    let t = TestServer::start(|_| {}).await;
    let (alice, bob) = two_owners(&t);
    let owner = owner_of(&t, &alice);
    // All but the last allowed are made in the store: 99 audits through the tool would only
    // make the test slower, the count is what the cap reads.
    let later = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    for i in 1..MAX_MONITORS_PER_USER {
        t.db(|s| s.create_monitor(&owner, &site.url(&format!("/m{i}")), 86_400, later)).unwrap();
    }
    for i in 1..MAX_EXPERIMENTS_PER_USER {
        let new = store::NewExperiment {
            user_id: owner.clone().into(),
            title: format!("E{i}"),
            hypothesis: "H".into(),
            url: site.url(&format!("/e{i}")),
            experiment_type: None,
            metric_target: Some("score".into()),
            baseline_audit_id: None,
            baseline_value: Some(50.0),
        };
        t.db(|s| s.create_experiment(new)).unwrap();
    }

    // The last allowed monitor is made through the tool, and audits its page.
    let last = site.url("/m-last");
    assert_eq!(ok(&t, &alice, "monitor_site", json!({ "url": last })).await["created"], true);
    assert_eq!(t.db(|s| s.list_monitors(&owner)).unwrap().len(), MAX_MONITORS_PER_USER);
    // One more is refused before anything is fetched or stored.
    let hits = *site.page_hits.lock().unwrap();
    let over = site.url("/m-over");
    let text = err(&t, &alice, "monitor_site", json!({ "url": over })).await;
    assert!(text.starts_with("invalid_request") && text.contains("at most 100 monitors"), "{text}");
    assert_eq!(*site.page_hits.lock().unwrap(), hits, "the refused monitor's page was fetched");
    assert_eq!(t.db(|s| s.list_monitors(&owner)).unwrap().len(), MAX_MONITORS_PER_USER);
    assert!(t.db(|s| s.latest_audit_for_url(&over)).unwrap().is_none(), "the refused monitor's page was audited");
    // A monitor the owner holds already is still reported at the cap.
    assert_eq!(ok(&t, &alice, "monitor_site", json!({ "url": last })).await["created"], false);
    // Another owner is not held by Alice's count.
    assert_eq!(ok(&t, &bob, "monitor_site", json!({ "url": over })).await["created"], true);
    // Stopping one makes room for one.
    ok(&t, &alice, "monitor_site", json!({ "url": last, "action": "stop" })).await;
    assert_eq!(ok(&t, &alice, "monitor_site", json!({ "url": over })).await["created"], true);
    let text = err(&t, &alice, "monitor_site", json!({ "url": site.url("/m-over-again") })).await;
    assert!(text.starts_with("invalid_request"), "{text}");

    // Experiments: the 100th is made (with its baseline audit), the 101st refused.
    let create = |title: &str, path: &str| json!({ "action": "create", "title": title, "hypothesis": "H", "url": site.url(path) });
    let made = ok(&t, &alice, "run_experiment", create("Last", "/e-last")).await;
    assert_eq!(made["experiments"].as_array().map(Vec::len), Some(MAX_EXPERIMENTS_PER_USER));
    let hits = *site.page_hits.lock().unwrap();
    let text = err(&t, &alice, "run_experiment", create("Over", "/e-over")).await;
    assert!(text.starts_with("invalid_request") && text.contains("at most 100 experiments"), "{text}");
    assert_eq!(*site.page_hits.lock().unwrap(), hits, "the refused experiment's page was fetched");
    assert_eq!(t.db(|s| s.list_experiments(&owner)).unwrap().len(), MAX_EXPERIMENTS_PER_USER);
    let made = ok(&t, &bob, "run_experiment", create("Bob's", "/e-over")).await;
    assert_eq!(made["experiments"].as_array().map(Vec::len), Some(1));
}
