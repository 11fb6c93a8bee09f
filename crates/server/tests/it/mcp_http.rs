//! End-to-end tests of the agent-tool endpoint over loopback: the HTTP and JSON-RPC rules of
//! both eras, every tool's real output against its output schema, keys, and the quota
//! shared with the REST API.

use crate::common;

use std::net::SocketAddr;

use common::*;
use serde_json::{json, Value};

const MODERN: &str = "2026-07-28";

/// A small site with the headers and markup get_site_info detects, a page robots.txt
/// disallows, a noindex page, a weaker copy of the home page, and a JSON document.
const HOME: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Handmade oak chairs and tables | Oakshop</title>
<meta name="description" content="Oak chairs and tables made by hand in a small Bavarian workshop, oiled with natural oils and delivered across Europe.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="WordPress 6.5">
<link rel="canonical" href="/">
<meta property="og:title" content="Oakshop"><meta property="og:description" content="Oak furniture"><meta property="og:image" content="/oak.jpg">
<script src="/wp-includes/js/jquery/jquery.min.js"></script>
<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-TEST"></script>
</head><body><header><nav><a href="/about">About</a></nav></header><main><article>
<h1>Handmade oak furniture</h1>
<p>Every chair and table in our shop is made by hand from Bavarian oak. We select the wood ourselves, dry it for two years, and oil it with natural oils so that it ages well in a family home. Our workshop has three carpenters who build each piece to order.</p>
<h2>Chairs</h2><p>Our chairs are light, strong and comfortable, with seats shaped by hand and joints that are glued and pegged rather than screwed. They come in three heights and two finishes.</p>
<h2>Tables</h2><p>Our tables are built from solid boards up to four centimetres thick, in lengths from one to three metres. Every table comes with a care kit and a ten year guarantee on its joints.</p>
<img src="/oak.jpg" alt="An oak chair" width="640" height="480">
</article></main><footer><a href="/contact">Contact</a></footer></body></html>"#;

const WORSE: &str = r#"<!doctype html><html><head><title>Oak</title>
<meta name="robots" content="noindex"></head><body><p>Oak.</p><img src="/a.jpg"></body></html>"#;

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

/// Serves the pages above on 127.0.0.1 with `Server: nginx/1.25`.
async fn mcp_site() -> SocketAddr {
    Pages::serve(|req: &wiremock::Request| {
        let (status, ct, body) = match req.url.path() {
            "/" | "/private" => (200, "text/html; charset=utf-8", HOME),
            "/worse" => (200, "text/html; charset=utf-8", WORSE),
            "/robots.txt" => (200, "text/plain", ROBOTS),
            "/data.json" => (200, "application/json", "{}"),
            _ => (404, "text/html", "<title>Not found</title>"),
        };
        ResponseTemplate::new(status).insert_header("server", "nginx/1.25").set_body_raw(body, ct)
    })
    .await
    .leak()
}

/// The headers and body of a modern request.
fn modern(method: &str, mut params: Value) -> (Vec<(String, String)>, Value) {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let mut headers =
        vec![("MCP-Protocol-Version".to_string(), MODERN.to_string()), ("Mcp-Method".to_string(), method.to_string())];
    if let Some(name) = params.get("name").or_else(|| params.get("uri")).and_then(Value::as_str) {
        headers.push(("Mcp-Name".to_string(), name.to_string()));
    }
    (headers, json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }))
}

async fn post_raw(t: &TestServer, headers: &[(String, String)], body: &str, key: Option<&str>) -> Answer {
    let mut req = t.client.post(t.url("/api/mcp")).header("content-type", "application/json").body(body.to_string());
    for (n, v) in headers {
        req = req.header(n.as_str(), v.as_str());
    }
    if let Some(key) = key {
        req = req.header("x-api-key", key);
    }
    let a = Answer::from(req.send().await.unwrap()).await;
    if a.status != 202 {
        validate_documented("POST", "/api/mcp", &a);
    }
    a
}

async fn call_tool(t: &TestServer, name: &str, arguments: Value, key: Option<&str>) -> Answer {
    let (h, b) = modern("tools/call", json!({ "name": name, "arguments": arguments }));
    post_raw(t, &h, &b.to_string(), key).await
}

fn output_schema(tools: &Value, name: &str) -> Value {
    tools.as_array().unwrap().iter().find(|t| t["name"] == name).unwrap()["outputSchema"].clone()
}

/// A successful tool result whose structuredContent validates against the tool's schema and
/// equals its text.
fn check_output(tools: &Value, name: &str, a: &Answer) -> Value {
    assert_eq!(a.status, 200, "{}", a.raw);
    let result = &a.body["result"];
    assert_eq!(result["isError"], false, "{name}: {}", a.raw);
    let structured = result["structuredContent"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, structured, "{name}: text and structuredContent differ");
    let schema = output_schema(tools, name);
    let validator = jsonschema::validator_for(&schema).expect("valid output schema");
    let errors: Vec<String> =
        validator.iter_errors(&structured).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{name}: {structured:#} does not match its outputSchema: {errors:#?}");
    structured
}

fn tool_error_text(a: &Answer) -> String {
    assert_eq!(a.status, 200, "{}", a.raw);
    assert_eq!(a.body["result"]["isError"], true, "{}", a.raw);
    a.body["result"]["content"][0]["text"].as_str().unwrap().to_string()
}

async fn list_tools(t: &TestServer) -> Value {
    let (h, b) = modern("tools/list", json!({}));
    let a = post_raw(t, &h, &b.to_string(), None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.body["result"]["tools"].clone()
}

#[tokio::test]
async fn simple_form_and_legacy_handshake() {
    let t = TestServer::start(|_| {}).await;
    let a = post_raw(&t, &[], r#"{"method":"tools/list"}"#, None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.assert_common();
    assert_eq!(a.body["jsonrpc"], "2.0");
    assert_eq!(a.body["id"], Value::Null);
    assert_eq!(a.body["result"]["tools"].as_array().unwrap().len(), 24);

    let simple_call = json!({ "method": "tools/call", "params": { "name": "get_seo_concept", "arguments": { "concept": "canonical tag" } } });
    let a = post_raw(&t, &[], &simple_call.to_string(), None).await;
    assert_eq!(a.body["result"]["structuredContent"]["found"], true, "{}", a.raw);

    let init = json!({ "jsonrpc": "2.0", "id": "a", "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } });
    let a = post_raw(&t, &[], &init.to_string(), None).await;
    assert_eq!((a.status, a.body["id"].as_str()), (200, Some("a")), "{}", a.raw);
    assert_eq!(a.body["result"]["protocolVersion"], "2025-06-18");
    assert!(a.header("mcp-session-id").is_none());
    let legacy = [("MCP-Protocol-Version".to_string(), "2025-06-18".to_string())];
    let a = post_raw(&t, &legacy, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, None).await;
    assert_eq!((a.status, a.raw.as_str()), (202, ""));
    let a = post_raw(&t, &legacy, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, None).await;
    assert_eq!(a.body["result"], json!({}));
}

/// (what, headers, body, key, expected status, expected JSON-RPC code)
type Case<'a> = (&'a str, Vec<(String, String)>, String, Option<&'a str>, u16, i64);

/// Every HTTP-level rule of MCP.md, one request each.
#[tokio::test]
async fn protocol_errors() {
    let t = TestServer::start(|_| {}).await;
    let (disabled, d) = t.key(|_| {});
    t.db(|s| s.set_enabled(&d.id, false)).unwrap();
    let (expired, _) = t.key(|k| k.expires_at = Some(time::OffsetDateTime::now_utc() - time::Duration::hours(1)));

    let (list_h, list_b) = modern("tools/list", json!({}));
    let list_b = list_b.to_string();
    let with = |extra: &[(&str, &str)]| -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> =
            list_h.iter().filter(|(n, _)| !extra.iter().any(|(e, _)| e.eq_ignore_ascii_case(n))).cloned().collect();
        h.extend(extra.iter().filter(|(_, v)| !v.is_empty()).map(|(n, v)| (n.to_string(), v.to_string())));
        h
    };
    let no_caps = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": { "io.modelcontextprotocol/protocolVersion": MODERN } } }).to_string();
    let (init_h, init_b) = modern("initialize", json!({}));
    let future = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } })
    .to_string();
    let future_h = vec![
        ("MCP-Protocol-Version".to_string(), "2099-01-01".to_string()),
        ("Mcp-Method".to_string(), "tools/list".to_string()),
    ];
    let (call_h, call_b) = modern("tools/call", json!({ "name": "get_seo_concept", "arguments": { "concept": "x" } }));
    let call_wrong_name: Vec<(String, String)> = call_h
        .iter()
        .map(|(n, v)| if n == "Mcp-Name" { (n.clone(), "seo_audit".to_string()) } else { (n.clone(), v.clone()) })
        .collect();

    // (what, headers, body, key, status, JSON-RPC code)
    let cases: Vec<Case<'_>> = vec![
        ("invalid JSON", vec![], "{nope".into(), None, 400, -32700),
        ("batch array", vec![], format!("[{list_b}]"), None, 400, -32600),
        ("_meta without clientCapabilities", with(&[]), no_caps, None, 400, -32602),
        ("Mcp-Method differs", with(&[("Mcp-Method", "tools/call")]), list_b.clone(), None, 400, -32020),
        ("Mcp-Method missing", with(&[("Mcp-Method", "")]), list_b.clone(), None, 400, -32020),
        ("Mcp-Method case", with(&[("Mcp-Method", "TOOLS/LIST")]), list_b.clone(), None, 400, -32020),
        (
            "version header differs from _meta",
            with(&[("MCP-Protocol-Version", "2025-06-18")]),
            list_b.clone(),
            None,
            400,
            -32020,
        ),
        ("Mcp-Name differs", call_wrong_name, call_b.to_string(), None, 400, -32020),
        ("unsupported version", future_h, future, None, 400, -32022),
        ("initialize as a modern request", init_h, init_b.to_string(), None, 404, -32601),
        ("unknown key", with(&[]), list_b.clone(), Some("sa_00000000000000000000000000000000"), 401, -32001),
        ("disabled key", with(&[]), list_b.clone(), Some(disabled.as_str()), 403, -32003),
        ("expired key", with(&[]), list_b.clone(), Some(expired.as_str()), 403, -32003),
        (
            "unknown legacy header version",
            vec![("MCP-Protocol-Version".into(), "1999-01-01".into())],
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into(),
            None,
            400,
            -32022,
        ),
    ];
    for (what, headers, body, key, status, code) in cases {
        let a = post_raw(&t, &headers, &body, key).await;
        assert_eq!((a.status, a.body["error"]["code"].as_i64()), (status, Some(code)), "{what}: {}", a.raw);
        a.assert_common();
        if body.contains("\"id\":1") && status != 400 {
            assert_eq!(a.body["id"], 1, "{what}: the id is echoed");
        }
    }
    let a = post_raw(&t, &[("Mcp-Method".to_string(), "tools/list".to_string())], r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#, None).await;
    assert_eq!(a.body["error"]["data"]["requested"], "2099-01-01", "{}", a.raw);

    // HTTP rules outside the protocol crate.
    let a = Answer::from(
        t.client
            .post(t.url("/api/mcp"))
            .header("content-type", "text/plain")
            .body(list_b.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((a.status, a.body["error"]["code"].as_i64()), (415, Some(-32600)), "{}", a.raw);
    validate_documented("POST", "/api/mcp", &a);
    let big = format!("{{\"method\":\"tools/list\",\"pad\":\"{}\"}}", "x".repeat(1024 * 1024));
    let a = post_raw(&t, &[], &big, None).await;
    assert_eq!(a.status, 413, "{}", a.raw);
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let a = Answer::from(t.client.request(method.clone(), t.url("/api/mcp")).send().await.unwrap()).await;
        assert_eq!((a.status, a.header("allow")), (405, Some("POST")), "{method}: {}", a.raw);
        validate_documented(method.as_str(), "/api/mcp", &a);
    }
    for (name, value) in [("host", "evil.example.com"), ("origin", "http://evil.example.com"), ("origin", "null")] {
        let h = with(&[(name, value)]);
        let a = post_raw(&t, &h, &list_b, None).await;
        assert_eq!(a.status, 403, "{name}: {value}: {}", a.raw);
    }
    let a = post_raw(&t, &with(&[("origin", "http://localhost:5173")]), &list_b, None).await;
    assert_eq!(a.status, 200, "a local origin is accepted: {}", a.raw);
}

#[tokio::test]
async fn every_tool_matches_its_output_schema() {
    let site = mcp_site().await;
    let t = TestServer::start(|_| {}).await;
    let (plain_key, _) = t.key(|_| {});
    let key = Some(plain_key.as_str());
    let home = format!("http://{site}/");
    let worse = format!("http://{site}/worse");
    let tools = list_tools(&t).await;

    let info =
        check_output(&tools, "get_site_info", &call_tool(&t, "get_site_info", json!({ "url": home }), None).await);
    assert_eq!(info["title"], "Handmade oak chairs and tables | Oakshop");
    assert_eq!((info["statusCode"].as_u64(), info["indexable"].as_bool()), (Some(200), Some(true)));
    assert_eq!(info["techStack"], json!(["WordPress", "jQuery", "Google Tag Manager", "nginx"]));
    assert_eq!(info["robotsTxt"]["present"], true);
    assert_eq!(info["server"], "nginx/1.25");
    let private = call_tool(&t, "get_site_info", json!({ "url": format!("http://{site}/private") }), None).await;
    let private = check_output(&tools, "get_site_info", &private);
    assert_eq!(
        (private["indexable"].as_bool(), private["robotsTxt"]["rule"].as_str()),
        (Some(false), Some("Disallow: /private"))
    );
    let noindex =
        check_output(&tools, "get_site_info", &call_tool(&t, "get_site_info", json!({ "url": worse }), None).await);
    assert_eq!(noindex["indexable"], false);

    for args in [json!({}), json!({ "category": "performance" })] {
        let m =
            check_output(&tools, "get_audit_methodology", &call_tool(&t, "get_audit_methodology", args, None).await);
        assert!(!m["groups"].as_array().unwrap().is_empty());
    }
    for concept in ["canonical tag", "meta-description-missing", "zzqx"] {
        check_output(
            &tools,
            "get_seo_concept",
            &call_tool(&t, "get_seo_concept", json!({ "concept": concept }), None).await,
        );
    }

    let audit = check_output(&tools, "seo_audit", &call_tool(&t, "seo_audit", json!({ "url": home }), key).await);
    let stored = t.db(|s| s.latest_audit_for_url(&home)).ok().flatten();
    assert!(stored.is_some(), "the audit is stored: {audit}");
    // One shape per fact: the tool's result is the REST audit result, field for field.
    validate_schema("AuditResult", &audit);
    let rest =
        Answer::from(t.client.get(t.audit_url(&home, "")).header("x-api-key", &plain_key).send().await.unwrap()).await;
    assert_eq!(rest.status, 200, "{}", rest.raw);
    let without_timing = |mut v: Value| {
        v["scanned_at"] = Value::Null;
        v["page"]["load_time_ms"] = Value::Null;
        v
    };
    assert_eq!(without_timing(audit.clone()), without_timing(rest.body.clone()), "seo_audit is the REST result");
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&audit), keys(&rest.body));
    assert_eq!(keys(&audit["score"]), keys(&rest.body["score"]));
    assert_eq!(keys(&audit["recommendations"][0]), keys(&rest.body["recommendations"][0]));
    let tool_schema = &output_schema(&tools, "seo_audit");
    let rest_schema = &server::openapi_document()["components"]["schemas"]["AuditResult"];
    assert_eq!(tool_schema["required"], rest_schema["required"], "the same schema");
    assert_eq!(keys(&tool_schema["properties"]), keys(&rest_schema["properties"]), "the same schema");

    let opp = check_output(
        &tools,
        "get_opportunities",
        &call_tool(&t, "get_opportunities", json!({ "url": worse }), key).await,
    );
    let scores: Vec<f64> =
        opp["opportunities"].as_array().unwrap().iter().map(|o| o["priorityScore"].as_f64().unwrap()).collect();
    assert!(scores.len() > 3 && scores.windows(2).all(|w| w[0] >= w[1]), "ranked by priority: {scores:?}");

    let fixes =
        check_output(&tools, "generate_fixes", &call_tool(&t, "generate_fixes", json!({ "url": worse }), key).await);
    assert_eq!(fixes["fixes"].as_array().unwrap().len(), 5);
    let first_ids: Vec<&Value> = opp["opportunities"].as_array().unwrap().iter().take(5).map(|o| &o["id"]).collect();
    let fix_ids: Vec<&Value> = fixes["fixes"].as_array().unwrap().iter().map(|f| &f["ruleId"]).collect();
    assert_eq!(first_ids, fix_ids, "fixes follow the ranking");
    let two = check_output(
        &tools,
        "generate_fixes",
        &call_tool(&t, "generate_fixes", json!({ "url": worse, "topN": 2 }), key).await,
    );
    assert_eq!(two["fixes"].as_array().unwrap().len(), 2);

    let reg = call_tool(&t, "detect_regressions", json!({ "baselineUrl": home, "currentUrl": worse }), key).await;
    let reg = check_output(&tools, "detect_regressions", &reg);
    assert!(reg["scoreDelta"].as_i64().unwrap() < 0, "{reg}");
    assert!(
        reg["newlyFailing"].as_array().unwrap().contains(&json!("page-noindex"))
            || !reg["newlyFailing"].as_array().unwrap().is_empty()
    );
    // The findings are compared as `GET /api/v1/audits/{id}/compare` compares them.
    let new: Vec<&Value> =
        reg["findings"].as_array().unwrap().iter().filter(|f| f["state"] == "new").map(|f| &f["id"]).collect();
    assert_eq!(reg["counts"]["new"].as_u64(), Some(new.len() as u64), "{reg}");
    for id in reg["newlyFailing"].as_array().unwrap() {
        assert!(new.contains(&id), "{id} newly fails, so its finding is new: {reg}");
    }
    let fields: Vec<&str> =
        reg["changedFacts"].as_array().unwrap().iter().map(|c| c["field"].as_str().unwrap()).collect();
    for f in ["title", "meta_description", "robots", "word_count", "lang"] {
        assert!(fields.contains(&f), "{f} changed: {fields:?}");
    }

    let cmp = call_tool(&t, "compare_competitors", json!({ "url": worse, "competitorUrl": home }), key).await;
    let cmp = check_output(&tools, "compare_competitors", &cmp);
    assert_eq!(cmp["winner"], "competitor", "{cmp}");
    assert!(!cmp["competitorWins"].as_array().unwrap().is_empty());

    // Tool failures are isError results that name the error code.
    for (args, code) in [
        (json!({ "url": "ftp://example.com/" }), "invalid_url"),
        (json!({ "url": format!("http://{site}/data.json") }), "not_html"),
        (json!({ "url": format!("http://127.0.0.1:{}/", closed_port()) }), "target_unreachable"),
        (json!({ "url": "http://10.0.0.1/" }), "blocked_target"),
        (json!({}), "missing required argument"),
    ] {
        let text = tool_error_text(&call_tool(&t, "seo_audit", args.clone(), key).await);
        assert!(text.contains(code), "{args}: {text}");
    }
}

#[tokio::test]
async fn write_tools_need_a_key_with_the_mcp_scope() {
    let t = TestServer::start(|_| {}).await;
    let (audit_only, _) = t.key(|k| k.scopes = vec!["audit".to_string()]);
    let a = call_tool(&t, "seo_audit", json!({ "url": "https://example.com/" }), None).await;
    let text = tool_error_text(&a);
    // A remote caller is sent to the operator, never told to run a command on the server.
    assert!(text.starts_with("unauthorized: "), "{text}");
    assert!(text.contains("API key") && text.contains("x-api-key") && text.contains("operator"), "{text}");
    assert!(!text.contains("keys create"), "{text}");
    let text =
        tool_error_text(&call_tool(&t, "seo_audit", json!({ "url": "https://example.com/" }), Some(&audit_only)).await);
    assert!(text.starts_with("forbidden: "), "{text}");
    assert!(text.contains("mcp` scope"), "{text}");
}

#[tokio::test]
async fn quota_is_shared_with_rest() {
    let site = mcp_site().await;
    let t = TestServer::start(|c| c.rate_limits.anonymous = 3).await;
    let home = format!("http://{site}/");
    away_from_minute_boundary().await;
    for _ in 0..2 {
        let a = Answer::from(t.client.get(t.audit_url(&home, "")).send().await.unwrap()).await;
        assert_eq!(a.status, 200, "{}", a.raw);
    }
    // Lists and reads are free.
    list_tools(&t).await;
    let a = call_tool(&t, "get_seo_concept", json!({ "concept": "canonical" }), None).await;
    assert_eq!(
        (a.body["result"]["isError"].as_bool(), a.header("x-ratelimit-remaining")),
        (Some(false), Some("0")),
        "{}",
        a.raw
    );
    let a = call_tool(&t, "get_seo_concept", json!({ "concept": "canonical" }), None).await;
    let text = tool_error_text(&a);
    assert!(text.contains("rate limit") && text.contains("3 requests per minute"), "{text}");
    assert_eq!(a.header("x-ratelimit-limit"), Some("3"));
    assert_eq!(a.header("x-ratelimit-remaining"), Some("0"));
    assert!(a.header("retry-after").is_some_and(|v| v.parse::<u64>().is_ok()), "{:?}", a.headers);
    // And the REST side sees the same exhausted window.
    let a = Answer::from(t.client.get(t.audit_url(&home, "")).send().await.unwrap()).await;
    assert_eq!(a.status, 429, "{}", a.raw);
}

#[tokio::test]
async fn resources_prompts_and_discovery() {
    let t = TestServer::start(|_| {}).await;
    let (h, b) = modern("resources/read", json!({ "uri": "svc://methodology" }));
    let a = post_raw(&t, &h, &b.to_string(), None).await;
    assert!(a.body["result"]["contents"][0]["text"].as_str().is_some_and(|s| !s.is_empty()), "{}", a.raw);
    assert!(a.body["result"]["ttlMs"].is_u64());
    let (h, b) = modern("resources/read", json!({ "uri": "svc://nothing" }));
    let a = post_raw(&t, &h, &b.to_string(), None).await;
    assert_eq!(
        (a.body["error"]["code"].as_i64(), a.body["error"]["data"]["uri"].as_str()),
        (Some(-32602), Some("svc://nothing"))
    );
    let (h, b) =
        modern("prompts/get", json!({ "name": "explain_seo_issue", "arguments": { "issue": "canonical-missing" } }));
    let a = post_raw(&t, &h, &b.to_string(), None).await;
    assert!(a.body["result"]["messages"].as_array().is_some_and(|m| !m.is_empty()), "{}", a.raw);
    let (h, b) = modern("server/discover", json!({}));
    let a = post_raw(&t, &h, &b.to_string(), None).await;
    assert_eq!(a.body["result"]["resultType"], "complete", "{}", a.raw);

    for (path, field) in
        [("/.well-known/mcp.json", "endpoint"), ("/.well-known/agent-card.json", "supportedInterfaces")]
    {
        let a = t.get(path).await;
        assert_eq!(a.status, 200, "{}", a.raw);
        a.assert_common();
        assert_eq!(a.header("access-control-allow-origin"), Some("*"));
        assert!(!a.body[field].is_null(), "{path}: {}", a.raw);
        validate_documented("GET", path, &a);
    }
    // No base URL configured: the documents name the address the server really listens
    // on (port 0 picked a free one), not the default 127.0.0.1:8080.
    assert_eq!(t.get("/.well-known/mcp.json").await.body["endpoint"], format!("{}/api/mcp", t.base));
}

/// The over-quota answer advises what would raise the limit for this caller: a key when
/// anonymous, the higher tier for a free key, nothing but the reset for a pro key.
#[tokio::test]
async fn over_quota_advice_depends_on_the_caller() {
    let t = TestServer::start(|c| {
        c.rate_limits.anonymous = 1;
        c.rate_limits.free = 1;
        c.rate_limits.pro = 2;
    })
    .await;
    let (free, _) = t.key(|k| k.tier = store::Tier::Free);
    let (pro, _) = t.key(|k| k.tier = store::Tier::Pro);
    away_from_minute_boundary().await;
    let concept = json!({ "concept": "canonical" });
    for (key, limit) in [(None, 1), (Some(free.as_str()), 1), (Some(pro.as_str()), 2)] {
        for _ in 0..limit {
            let a = call_tool(&t, "get_seo_concept", concept.clone(), key).await;
            assert_eq!(a.body["result"]["isError"], false, "{}", a.raw);
        }
        let text = tool_error_text(&call_tool(&t, "get_seo_concept", concept.clone(), key).await);
        assert!(text.contains("Retry in"), "{text}");
        match key {
            None => assert!(text.contains("API key"), "{text}"),
            Some(k) if k == free => assert!(text.contains("pro tier"), "{text}"),
            Some(_) => assert!(!text.contains("tier") && !text.contains("raises"), "{text}"),
        }
    }
}

#[tokio::test]
async fn discovery_documents_have_a_flood_guard_and_cost_no_quota() {
    let t = TestServer::start(|c| {
        c.widget_rate_limit = 3;
        c.rate_limits.anonymous = 5;
    })
    .await;
    let paths = ["/.well-known/mcp.json", "/.well-known/agent-card.json", "/.well-known/mcp.json"];
    for path in paths {
        let a = t.get(path).await;
        assert_eq!(a.status, 200, "{path}: {}", a.raw);
        assert!(a.header("x-ratelimit-remaining").is_none(), "discovery is not quota");
    }
    let refused = t.get("/.well-known/agent-card.json").await;
    assert_eq!(refused.status, 429, "{}", refused.raw);
    assert_eq!(refused.body["error"]["code"], "rate_limited");
    assert!(refused.header("retry-after").is_some());
    validate_documented("GET", "/.well-known/agent-card.json", &refused);
    // The audit quota of the same address is untouched.
    let status = t.get("/api/status").await;
    assert_eq!(status.status, 200);
    let usage_free = t.get("/api/v1/audit").await;
    assert_eq!(usage_free.status, 400, "a quota route still answers (missing url), not 429: {}", usage_free.raw);
}
