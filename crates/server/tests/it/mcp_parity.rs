//! The agent tools that have a REST twin (docs/API.md, "The agent-tool endpoint"):
//! check_ai_readiness, scan_ai_visibility, analyze_content_gap and auto_fix_batch answer
//! exactly what their REST endpoint answers for the same input (one shape per fact), are
//! charged one unit like it on the shared quota, and workflow_status polls are free; the
//! agent card names only interfaces that answer.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// The structuredContent of a successful call, checked against the tool's outputSchema
/// and against `content[0].text`.
fn structured(name: &str, a: &Answer) -> Value {
    assert_eq!(a.status, 200, "{}", a.raw);
    let result = &a.body["result"];
    assert_eq!(result["isError"], false, "{name}: {}", a.raw);
    let structured = result["structuredContent"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, structured, "{name}");
    let def = server::mcp::calls::tool_defs().into_iter().find(|d| d.name == name).unwrap();
    let validator = jsonschema::validator_for(&def.output_schema).unwrap();
    let errors: Vec<String> =
        validator.iter_errors(&structured).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{name}: {structured:#} does not match its outputSchema: {errors:#?}");
    structured
}

async fn post(t: &TestServer, key: &str, path: &str, body: &Value) -> Answer {
    Answer::from(t.client.post(t.url(path)).header("x-api-key", key).json(body).send().await.unwrap()).await
}

fn remaining(a: &Answer) -> u64 {
    a.header("x-ratelimit-remaining").and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no quota header: {a:?}"))
}

/// Each new tool answers its REST twin's answer, byte for byte as JSON, and each call
/// (tool or REST) takes exactly one unit of the key's one quota.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_answer_what_their_rest_twins_answer_and_cost_the_same() {
    let ai = fixture_site("ai-ready").await;
    let pages = fixture_site("../content-gap").await;
    let comps = fixture_site("competitors").await;
    let t = TestServer::start(|c| c.rate_limits.free = 100).await;
    let (key, _) = t.key(|_| {});
    let ai_page = ai.url("/index.html");
    let page = pages.url("/product.html");
    let competitors: Vec<String> = ["a", "b", "a"].iter().map(|c| comps.url(&format!("/{c}.html"))).collect();
    let issues = json!([
        { "id": "meta-description-missing", "context": { "url": "https://oak.example/", "title": "Oak tables" } },
        { "id": "canonical-missing", "context": { "url": "https://oak.example/tables" } },
        { "title": "Missing alt text on images" },
    ]);
    let cases: [(&str, Value, &str, Value); 4] = [
        ("check_ai_readiness", json!({ "url": ai_page }), "/api/ai-readiness", json!({ "url": ai_page })),
        ("scan_ai_visibility", json!({ "url": ai_page }), "/api/ai-visibility-scan", json!({ "url": ai_page })),
        (
            "analyze_content_gap",
            json!({ "url": page, "competitors": competitors }),
            "/api/content-gap",
            json!({ "url": page, "competitors": competitors }),
        ),
        ("auto_fix_batch", json!({ "issues": issues }), "/api/auto-fix-batch", json!({ "issues": issues })),
    ];
    away_from_minute_boundary().await;
    let mut left: Option<u64> = None;
    let mut step = |a: &Answer, what: &str| {
        let now = remaining(a);
        if let Some(before) = left {
            assert_eq!(now + 1, before, "{what} took one unit");
        }
        left = Some(now);
    };
    for (tool, arguments, path, body) in cases {
        let rest = post(&t, &key, path, &body).await;
        assert_eq!(rest.status, 200, "{path}: {}", rest.raw);
        step(&rest, path);
        let a = tool_call(&t, &key, tool, arguments).await;
        step(&a, tool);
        let got = structured(tool, &a);
        assert_eq!(got, rest.body, "{tool} answers what {path} answers");
        // The tool's outputSchema is the REST answer's schema: the REST body validates too.
        validate_documented("POST", path, &rest);
    }
}

/// The tools check their arguments as their REST twins do; a refused argument is an
/// isError result naming the error code, not a JSON-RPC error.
#[tokio::test]
async fn bad_arguments_are_tool_errors() {
    let t = TestServer::start(|_| {}).await;
    let (key, _) = t.key(|_| {});
    let cases: [(&str, Value, &str); 6] = [
        ("check_ai_readiness", json!({ "url": "ftp://a.example/" }), "invalid_url"),
        ("scan_ai_visibility", json!({}), "missing required argument"),
        (
            "analyze_content_gap",
            json!({ "url": "https://a.example/", "competitors": ["ftp://b.example/"] }),
            "competitors[0]",
        ),
        (
            "analyze_content_gap",
            json!({ "url": "https://a.example/", "competitors": vec!["https://b.example/"; 6] }),
            "competitors",
        ),
        ("auto_fix_batch", json!({ "issues": [] }), "issues"),
        ("auto_fix_batch", json!({ "issues": vec![json!({}); 51] }), "issues"),
    ];
    for (tool, arguments, says) in cases {
        let a = tool_call(&t, &key, tool, arguments.clone()).await;
        assert_eq!((a.status, &a.body["result"]["isError"]), (200, &json!(true)), "{tool} {arguments}: {}", a.raw);
        let text = a.body["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(says), "{tool} {arguments}: {text}");
    }
    // Without a key they are refused like every write tool.
    let anon = Answer::from(
        t.client
            .post(t.url("/api/mcp"))
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "auto_fix_batch", "arguments": {"issues": [{"id": "canonical-missing"}]}}}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(anon.body["result"]["isError"], true, "{}", anon.raw);
    assert!(anon.body["result"]["content"][0]["text"].as_str().unwrap().contains("key"), "{}", anon.raw);
}

/// workflow_status polls take no unit: a key whose window allows three calls polls ten
/// times, and the REST audit after them still finds the units the workflow left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workflow_status_polls_are_free_of_quota() {
    let site = fixture_site("server-basic").await;
    let t = TestServer::start(|c| c.rate_limits.free = 3).await;
    let (key, _) = t.key(|_| {});
    away_from_minute_boundary().await;
    let started =
        tool_call(&t, &key, "workflow_execute", json!({ "intent": "audit", "url": site.url("/index.html") })).await;
    let run = structured("workflow_execute", &started)["runId"].as_str().unwrap().to_string();
    assert_eq!(remaining(&started), 2, "{}", started.raw);
    for _ in 0..10 {
        let a = tool_call(&t, &key, "workflow_status", json!({ "runId": run })).await;
        let status = structured("workflow_status", &a);
        assert_eq!(status["runId"], run);
        assert_eq!(a.header("x-ratelimit-remaining"), None, "a free call reports no quota: {:?}", a.headers);
    }
    // Unknown runs are free to ask about too (an isError result, no unit).
    let unknown =
        tool_call(&t, &key, "workflow_status", json!({ "runId": "00000000-0000-0000-0000-000000000000" })).await;
    assert_eq!(unknown.body["result"]["isError"], true, "{}", unknown.raw);
    // The next charged call takes the second of three units: nothing went to the polls.
    let concept = tool_call(&t, &key, "get_seo_concept", json!({ "concept": "canonical" })).await;
    assert_eq!(remaining(&concept), 1, "{}", concept.raw);
    // With the window used up, charged calls are refused while polls still answer.
    let last = tool_call(&t, &key, "get_seo_concept", json!({ "concept": "canonical" })).await;
    assert_eq!(remaining(&last), 0, "{}", last.raw);
    let refused = tool_call(&t, &key, "get_seo_concept", json!({ "concept": "canonical" })).await;
    assert_eq!(refused.body["result"]["isError"], true, "{}", refused.raw);
    assert!(refused.body["result"]["content"][0]["text"].as_str().unwrap().contains("rate limit"), "{}", refused.raw);
    let polled = tool_call(&t, &key, "workflow_status", json!({ "runId": run })).await;
    assert_eq!(structured("workflow_status", &polled)["runId"], run);
}

/// The agent card names only what answers: every interface it lists answers its
/// protocol's methods (not "method not found"), and the MCP endpoint its description
/// names lists every skill as a tool.
#[tokio::test]
async fn the_agent_card_names_only_interfaces_that_answer() {
    let t = TestServer::start(|_| {}).await;
    let card = t.get("/.well-known/agent-card.json").await;
    assert_eq!(card.status, 200, "{}", card.raw);
    let interfaces = card.body["supportedInterfaces"].as_array().expect("supportedInterfaces is a list");
    for iface in interfaces {
        let url = iface["url"].as_str().unwrap();
        assert_eq!(iface["protocolBinding"], "JSONRPC", "{iface}");
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
            "role": "user", "messageId": "m1", "parts": [{"kind": "text", "text": "Audit https://example.com/"}]}}});
        let a = Answer::from(t.client.post(url).json(&body).send().await.unwrap()).await;
        assert_ne!(a.body["error"]["code"], -32601, "{url} does not answer A2A message/send: {}", a.raw);
    }
    // The endpoint answers MCP, not A2A: the card claims no A2A interface for it.
    assert!(interfaces.iter().all(|i| !i["url"].as_str().unwrap_or("").ends_with("/api/mcp")), "{}", card.raw);
    let description = card.body["description"].as_str().unwrap();
    let endpoint = t.url("/api/mcp");
    assert!(description.contains(&endpoint), "{description}");
    let list = Answer::from(
        t.client
            .post(&endpoint)
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let tools: Vec<&str> =
        list.body["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    let skills: Vec<&str> = card.body["skills"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(skills, tools);
    let docs = t.get(&card.body["documentationUrl"].as_str().unwrap()[t.base.len()..]).await;
    assert_eq!(docs.status, 200, "{}", docs.raw);
}

/// The methodology resource tells agents which calls cost a unit and that status polls do
/// not.
#[test]
fn the_methodology_resource_says_status_polls_are_free() {
    let (_, text) = app::agent::resources::read("svc://methodology").unwrap();
    let section = &text[text.find("## Quota of the agent tools").expect("a quota section")..];
    assert!(section.contains("`workflow_status`") && section.contains("free"), "{section}");
    for tool in ["check_ai_readiness", "scan_ai_visibility", "analyze_content_gap", "auto_fix_batch"] {
        assert!(section.contains(tool), "{tool}: {section}");
    }
}
