//! Tests of the agent-tool catalog (`src/mcp`): tool table against the documented one, schemas that
//! compile and accept the documented outputs, the glossary's coverage and lookup, resources,
//! prompts and discovery documents.

use server::mcp;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use audit_core::{Group, RULES};
use mcp_protocol::{
    check_definitions, handle, Auth, CallContext, Catalog, Category, McpRequest, PromptMessages, Quota, Registry,
    ResourceContents, ToolDef, ToolResult,
};
use serde_json::{json, Map, Value};

use mcp::{calls, discovery, glossary, methodology, prompts, resources};

use crate::mcp_examples as examples;

// ---------------------------------------------------------------------------------------
// A registry made of the catalog, for mcp-protocol's lint and an end-to-end pass.

struct Offline;

impl Registry for Offline {
    fn catalog(&self) -> &Catalog {
        mcp::catalog()
    }
    async fn take_quota(&self, _tool: &str, _ctx: &CallContext<'_>) -> Quota {
        Quota::Unlimited
    }
    async fn call_tool(&self, name: &str, args: Map<String, Value>, _ctx: &CallContext<'_>) -> ToolResult {
        // Only the pure tools can run without the server.
        match name {
            "get_seo_concept" => ToolResult::success(
                glossary::concept(args.get("concept").and_then(Value::as_str).unwrap_or("")).to_json(),
            ),
            "get_audit_methodology" => ToolResult::success(methodology::methodology(
                args.get("category").and_then(Value::as_str).and_then(|c| c.parse::<Group>().ok()),
            )),
            _ => ToolResult::error("not available in the catalog test"),
        }
    }
    async fn read_resource(&self, uri: &str) -> Option<ResourceContents> {
        resources::read_resource(uri)
    }
    fn get_prompt(&self, name: &str, args: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
        prompts::get_prompt(name, args)
    }
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// One modern request through mcp-protocol; returns the HTTP status and the body.
fn rpc(method: &str, name: Option<&str>, params: Value) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let mut headers = vec![
        ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
        ("Mcp-Method".to_string(), method.to_string()),
    ];
    if let Some(n) = name {
        headers.push(("Mcp-Name".to_string(), n.to_string()));
    }
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string();
    let auth = Auth::Anonymous;
    let request = McpRequest { headers: &headers, body: body.as_bytes(), auth: &auth };
    let reply = block_on(handle(&request, &Offline));
    (reply.status, reply.body.unwrap_or(Value::Null))
}

#[test]
fn definitions_pass_the_protocol_lint() {
    let problems = check_definitions(&Offline);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn lists_reads_and_pure_tool_calls_work_through_the_protocol() {
    let (status, body) = rpc("tools/list", None, json!({}));
    assert_eq!(status, 200, "{body}");
    let listed: Vec<&str> =
        body["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(listed, SPEC_TOOLS.iter().map(|t| t.0).collect::<Vec<_>>());

    let (status, body) = rpc("resources/read", Some("svc://checks"), json!({ "uri": "svc://checks" }));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["contents"][0]["mimeType"], "application/json");

    let (status, body) = rpc(
        "tools/call",
        Some("get_seo_concept"),
        json!({ "name": "get_seo_concept", "arguments": { "concept": "OG tags" } }),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["structuredContent"]["concept"], "open-graph");

    let (status, body) = rpc(
        "prompts/get",
        Some("prioritize_seo_fixes"),
        json!({ "name": "prioritize_seo_fixes", "arguments": { "url": "https://example.com/", "maxItems": "3" } }),
    );
    assert_eq!(status, 200, "{body}");
    let text = body["result"]["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(text.contains("topN 3"), "{text}");
}

// ---------------------------------------------------------------------------------------
// Tools against the documented table (docs/API.md): names, order and hints are interface.

/// (name, category, readOnlyHint, openWorldHint, required inputs), in the documented order.
const SPEC_TOOLS: [(&str, Category, bool, bool, &[&str]); 24] = [
    ("get_site_info", Category::Public, true, false, &["url"]),
    ("get_audit_methodology", Category::Public, true, false, &[]),
    ("get_seo_concept", Category::Public, true, false, &["concept"]),
    ("seo_audit", Category::Write, false, true, &["url"]),
    ("get_opportunities", Category::Write, false, true, &["url"]),
    ("generate_fixes", Category::Write, false, true, &["url"]),
    ("check_ai_readiness", Category::Write, false, true, &["url"]),
    ("scan_ai_visibility", Category::Write, false, true, &["url"]),
    ("analyze_content_gap", Category::Write, false, true, &["url"]),
    ("auto_fix_batch", Category::Write, true, false, &["issues"]),
    ("workflow_execute", Category::Write, false, true, &["intent", "url"]),
    ("workflow_status", Category::Write, true, false, &[]),
    ("approve_fixes", Category::Write, false, false, &["runId", "approvalId", "decision"]),
    ("detect_regressions", Category::Write, false, true, &["baselineUrl", "currentUrl"]),
    ("compare_competitors", Category::Write, false, true, &["url", "competitorUrl"]),
    ("monitor_site", Category::Write, false, true, &["url"]),
    ("track_keywords", Category::Write, false, true, &["action"]),
    ("run_experiment", Category::Write, false, true, &["action"]),
    ("crawl_site", Category::Write, false, true, &["url"]),
    ("crawl_status", Category::Write, true, false, &["crawl_id"]),
    ("list_crawls", Category::Write, true, false, &[]),
    ("compare_crawls", Category::Write, true, false, &["crawl_id", "against"]),
    ("schedule_crawl", Category::Write, false, true, &["action"]),
    ("share_crawl_report", Category::Write, false, false, &["crawl_id"]),
];

fn tool(name: &str) -> ToolDef {
    calls::tool_defs().into_iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no tool {name}"))
}

#[test]
fn tools_match_the_spec_table() {
    let defs = calls::tool_defs();
    assert_eq!(defs.len(), SPEC_TOOLS.len());
    for (def, (name, category, read_only, open_world, required)) in defs.iter().zip(SPEC_TOOLS) {
        assert_eq!(def.name, name);
        assert_eq!(def.category, category, "{name}");
        assert_eq!(def.annotations.read_only_hint, read_only, "{name}");
        assert_eq!(def.annotations.open_world_hint, open_world, "{name}");
        let got: Vec<&str> =
            def.input_schema["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert_eq!(got, required, "{name}");
        assert_eq!(def.input_schema["additionalProperties"], false, "{name}");
        assert!(def.description.len() > 80, "{name} needs a helpful description");
        assert!(!def.title.is_empty(), "{name}");
        if read_only {
            assert_eq!(def.annotations.destructive_hint, None, "{name}: destructiveHint is meaningless when read-only");
        }
    }
    let names = calls::tool_names();
    assert_eq!(names.len(), 24);
    assert_eq!(defs.iter().filter(|t| t.category == Category::Public).count(), 3);
}

/// The README and docs/SECURITY.md count the agent tools; the count is the catalog's, so a
/// tool added without a word in them fails here.
#[test]
fn the_readme_and_security_page_count_the_tools_of_the_catalog() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let tools = &mcp::catalog().tools;
    let keyed = tools.iter().filter(|t| t.category == Category::Write).count();
    let readme = read("README.md").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        readme.contains(&format!("with {} tools", tools.len())),
        "README.md: the tool count is not {}",
        tools.len()
    );
    // The README names the crawls: the command, the REST route and the tools.
    for name in ["seo-audit crawl", "POST /api/v1/crawls", "crawl_site", "crawl_status"] {
        assert!(readme.contains(name), "README.md does not mention {name}");
        assert!(tools.iter().any(|t| name.contains(' ') || t.name == name), "{name} is not a tool");
    }
    let security = read("docs/SECURITY.md").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(security.contains(&format!("all {} agent tools", tools.len())), "docs/SECURITY.md: not {}", tools.len());
    assert!(security.contains(&format!("the other {keyed} answer")), "docs/SECURITY.md: not {keyed} keyed tools");
}

#[test]
fn input_enums_and_limits_are_those_of_the_spec() {
    let cases: [(&str, &str, &[&str]); 5] = [
        ("get_audit_methodology", "category", &["performance", "content", "technical"]),
        ("workflow_execute", "intent", &["audit", "analyze", "fix", "monitor", "competitor"]),
        ("approve_fixes", "decision", &["approved", "rejected"]),
        ("track_keywords", "action", &["add", "remove", "list"]),
        ("run_experiment", "action", &["create", "list"]),
    ];
    for (name, field, values) in cases {
        let got = &tool(name).input_schema["properties"][field]["enum"];
        assert_eq!(got, &json!(values), "{name}.{field}");
    }
    let top_n = &tool("generate_fixes").input_schema["properties"]["topN"];
    assert_eq!(top_n["type"], "integer");
    assert_eq!(
        (top_n["minimum"].as_u64(), top_n["maximum"].as_u64(), top_n["default"].as_u64()),
        (Some(1), Some(20), Some(5))
    );
    // Every input the documented table names is declared.
    let declared: [(&str, &[&str]); 3] = [
        ("workflow_execute", &["intent", "url", "competitorUrl", "topN"]),
        ("track_keywords", &["action", "keyword", "targetUrl"]),
        ("run_experiment", &["action", "title", "hypothesis", "url", "experimentType", "metricTarget"]),
    ];
    for (name, fields) in declared {
        let props = tool(name).input_schema["properties"].as_object().unwrap().clone();
        let got: Vec<&str> = props.keys().map(String::as_str).collect();
        assert_eq!(got, fields, "{name}");
    }
}

fn compile(schema: &Value, what: &str) -> (jsonschema::Validator, jsonschema::Validator) {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("{what} is not a valid 2020-12 schema: {e}");
    }
    if let Err(e) = jsonschema::draft7::meta::validate(schema) {
        panic!("{what} is not a valid draft-07 schema: {e}");
    }
    let modern = jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("{what}: {e}"));
    // The 2025 TypeScript SDK validates with a draft-07 validator: the schemas must mean the same there.
    let draft7 = jsonschema::draft7::new(schema).unwrap_or_else(|e| panic!("{what}: {e}"));
    (modern, draft7)
}

fn check_valid(schema: &Value, instance: &Value, expected: bool, what: &str) {
    let (modern, draft7) = compile(schema, what);
    for (label, v) in [("2020-12", &modern), ("draft-07", &draft7)] {
        let errors: Vec<String> = v.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path)).collect();
        assert_eq!(errors.is_empty(), expected, "{what} ({label}) on {instance}: {errors:?}");
    }
}

#[test]
fn every_schema_compiles() {
    for t in calls::tool_defs() {
        compile(&t.input_schema, &format!("{} inputSchema", t.name));
        compile(&t.output_schema, &format!("{} outputSchema", t.name));
        assert_eq!(t.output_schema["type"], "object", "{}", t.name);
        assert!(t.input_schema.get("$schema").is_none() && t.output_schema.get("$schema").is_none());
    }
}

#[test]
fn arguments_are_accepted_or_refused_by_the_input_schemas() {
    let cases: Vec<(&str, Value, bool)> = vec![
        ("get_site_info", json!({ "url": "https://example.com/" }), true),
        ("get_site_info", json!({}), false),
        ("get_site_info", json!({ "url": "" }), false),
        ("get_site_info", json!({ "url": "https://example.com/", "depth": 2 }), false),
        ("get_audit_methodology", json!({}), true),
        ("get_audit_methodology", json!({ "category": "content" }), true),
        ("get_audit_methodology", json!({ "category": "Content" }), false),
        ("get_seo_concept", json!({ "concept": "canonical" }), true),
        ("get_seo_concept", json!({ "concept": 5 }), false),
        ("generate_fixes", json!({ "url": "https://example.com/", "topN": 20 }), true),
        ("generate_fixes", json!({ "url": "https://example.com/", "topN": 21 }), false),
        ("generate_fixes", json!({ "url": "https://example.com/", "topN": 0 }), false),
        ("generate_fixes", json!({ "url": "https://example.com/", "topN": 2.5 }), false),
        (
            "workflow_execute",
            json!({ "intent": "competitor", "url": "https://a.example/", "competitorUrl": "https://b.example/" }),
            true,
        ),
        ("workflow_execute", json!({ "intent": "deploy", "url": "https://a.example/" }), false),
        ("workflow_status", json!({ "runId": "run_1" }), true),
        ("workflow_status", json!({}), true),
        ("workflow_status", json!({ "runId": 5 }), false),
        ("approve_fixes", json!({ "runId": "r", "approvalId": "a", "decision": "approved" }), true),
        ("approve_fixes", json!({ "runId": "r", "approvalId": "a", "decision": "yes" }), false),
        (
            "detect_regressions",
            json!({ "baselineUrl": "https://a.example/", "currentUrl": "https://b.example/" }),
            true,
        ),
        ("detect_regressions", json!({ "baselineUrl": "https://a.example/" }), false),
        ("compare_competitors", json!({ "url": "https://a.example/", "competitorUrl": "https://b.example/" }), true),
        ("monitor_site", json!({ "url": "https://a.example/" }), true),
        ("monitor_site", json!({ "url": "https://a.example/", "action": "stop" }), true),
        ("monitor_site", json!({ "url": "https://a.example/", "action": "delete" }), false),
        ("track_keywords", json!({ "action": "list" }), true),
        (
            "track_keywords",
            json!({ "action": "add", "keyword": "oak chairs", "targetUrl": "https://a.example/" }),
            true,
        ),
        ("track_keywords", json!({ "action": "rank" }), false),
        (
            "run_experiment",
            json!({ "action": "create", "title": "t", "hypothesis": "h", "url": "https://a.example/", "experimentType": "title-rewrite", "metricTarget": "score" }),
            true,
        ),
        ("run_experiment", json!({ "action": "delete" }), false),
        ("crawl_site", json!({ "url": "https://a.example/", "max_pages": 50 }), true),
        ("crawl_site", json!({ "url": "https://a.example/", "max_pages": 0 }), false),
        ("crawl_site", json!({ "url": "https://a.example/", "maxPages": 5 }), false),
        ("crawl_status", json!({ "crawl_id": "cr_1" }), true),
        ("crawl_status", json!({}), false),
        ("list_crawls", json!({}), true),
        ("list_crawls", json!({ "state": "completed", "site": "a.example", "limit": 5 }), true),
        ("list_crawls", json!({ "state": "done" }), false),
        ("list_crawls", json!({ "limit": 0 }), false),
        ("list_crawls", json!({ "owner": "me" }), false),
        ("compare_crawls", json!({ "crawl_id": "cr_a", "against": "cr_b" }), true),
        ("compare_crawls", json!({ "crawl_id": "cr_a" }), false),
        ("compare_crawls", json!({ "crawl_id": "cr_a", "against": "" }), false),
        ("schedule_crawl", json!({ "action": "list" }), true),
        (
            "schedule_crawl",
            json!({ "action": "create", "crawl": { "url": "https://a.example/" }, "frequency": "weekly", "weekday": "monday", "time": "03:00" }),
            true,
        ),
        ("schedule_crawl", json!({ "action": "pause", "schedule_id": "cs_1" }), true),
        ("schedule_crawl", json!({ "action": "alerts", "source": "schedule", "limit": 10 }), true),
        ("schedule_crawl", json!({ "action": "alerts", "limit": 0 }), false),
        ("schedule_crawl", json!({ "action": "alerts", "source": "crawl" }), false),
        ("schedule_crawl", json!({ "action": "stop" }), false),
        ("schedule_crawl", json!({ "action": "create", "frequency": "hourly" }), false),
        ("schedule_crawl", json!({ "action": "list", "every": 2 }), false),
        ("share_crawl_report", json!({ "crawl_id": "cr_a" }), true),
        ("share_crawl_report", json!({ "crawl_id": "cr_a", "expires_in": 3600 }), true),
        ("share_crawl_report", json!({ "crawl_id": "cr_a", "expires_in": 59 }), false),
        ("share_crawl_report", json!({ "expires_in": 3600 }), false),
        ("share_crawl_report", json!({ "crawl_id": "cr_a", "expiresIn": 3600 }), false),
    ];
    for (name, args, expected) in cases {
        check_valid(&tool(name).input_schema, &args, expected, &format!("{name} inputSchema"));
    }
}

#[test]
fn every_tool_has_an_example_output_that_its_schema_accepts() {
    let examples = examples::example_outputs();
    let covered: BTreeSet<&str> = examples.iter().map(|(n, _)| *n).collect();
    for t in calls::tool_defs() {
        assert!(covered.contains(t.name.as_str()), "no example output for {}", t.name);
    }
    for (name, example) in &examples {
        check_valid(&tool(name).output_schema, example, true, &format!("{name} example"));
    }
}

#[test]
fn output_schemas_refuse_outputs_that_break_the_contract() {
    let broken: Vec<(&str, Value)> = vec![
        ("get_site_info", json!({ "url": "https://a.example/" })),
        (
            "seo_audit",
            json!({ "url": "u", "score": { "current": 1 }, "issues": [], "page": {}, "rulesetVersion": "1" }),
        ),
        (
            // The old camelCase shape of the tool: not the REST audit result.
            "seo_audit",
            json!({
                "ok": true, "api_version": "v1", "scanned_at": "2026-01-01T00:00:00Z", "target_type": "public",
                "target": null, "page": { "metaDescription": null, "statusCode": 200 }, "score": {},
                "recommendations": [], "checks": [], "ai_insights": "", "meta": {}
            }),
        ),
        ("get_seo_concept", json!({ "concept": "x", "found": true })),
        ("get_seo_concept", json!({ "concept": "x", "found": false })),
        (
            "workflow_status",
            json!({ "runId": "r", "intent": "fix", "url": "u", "state": "sleeping", "steps": [], "results": {}, "pendingApprovals": [], "error": null }),
        ),
        (
            "compare_competitors",
            json!({ "url": "u", "competitorUrl": "c", "score": { "site": 1, "competitor": 2 }, "categories": [{ "category": "Content", "site": 1, "competitor": 2, "winner": "nobody" }], "siteWins": [], "competitorWins": [] }),
        ),
        ("track_keywords", json!({ "action": "list", "keywords": [] })),
    ];
    for (name, output) in broken {
        check_valid(&tool(name).output_schema, &output, false, &format!("{name} broken output"));
    }
}

// ---------------------------------------------------------------------------------------
// Methodology.

#[test]
fn methodology_lists_every_rule_once_and_satisfies_its_schema() {
    let schema = tool("get_audit_methodology").output_schema;
    let all = methodology::methodology(None);
    check_valid(&schema, &all, true, "methodology(None)");
    let ids: Vec<&str> = all["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["categories"].as_array().unwrap())
        .flat_map(|c| c["rules"].as_array().unwrap())
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let expected: BTreeSet<&str> = RULES.iter().map(|r| r.meta().id).collect();
    assert_eq!(ids.len(), RULES.len());
    assert_eq!(ids.iter().copied().collect::<BTreeSet<_>>(), expected);
    let total: u64 = all["groups"].as_array().unwrap().iter().map(|g| g["weight"].as_u64().unwrap()).sum();
    assert_eq!(total, 100);
    assert_eq!(all["category"], Value::Null);
    assert_eq!(all["ruleset"]["version"], audit_core::RULESET_VERSION);

    for g in methodology::GROUPS {
        let one = methodology::methodology(Some(g));
        check_valid(&schema, &one, true, g.as_str());
        assert_eq!(one["category"], g.as_str());
        assert_eq!(one["groups"].as_array().unwrap().len(), 1);
        assert_eq!(one["groups"][0]["group"], g.as_str());
    }
}

#[test]
fn methodology_markdown_names_every_rule_and_the_formula() {
    let md = methodology::methodology_markdown();
    for r in RULES {
        assert!(md.contains(&format!("`{}`", r.meta().id)), "{} missing", r.meta().id);
    }
    assert!(md.contains("round(100 * passed weight / applicable weight)"));
    assert!(md.contains(audit_core::ruleset_fingerprint()));
}

// ---------------------------------------------------------------------------------------
// Glossary.

#[test]
fn every_rule_id_resolves_to_a_concept_that_names_it() {
    let schema = tool("get_seo_concept").output_schema;
    for r in RULES {
        let id = r.meta().id;
        assert!(
            glossary::GLOSSARY.iter().any(|e| e.rules().any(|r| r == id)),
            "rule {id} names no glossary entry: add the slug of the entry that explains it to its `glossary`"
        );
        for query in [id.to_string(), id.to_uppercase(), id.replace('-', "_"), id.replace('-', " ")] {
            let c = glossary::concept(&query);
            assert!(c.found, "{query}");
            assert!(c.related_rules.iter().any(|x| x == id), "{query} -> {} lacks {id}", c.concept);
            assert!(c.definition.contains(id), "{query}: the definition should quote the rule");
            check_valid(&schema, &c.to_json(), true, &query);
        }
    }
}

#[test]
fn main_seo_terms_are_found_in_their_common_spellings() {
    let cases = [
        ("canonical URL", "canonical-url"),
        ("Canonical tag", "canonical-url"),
        ("rel=canonical", "canonical-url"),
        ("canonicals", "canonical-url"),
        ("meta description", "meta-description"),
        ("Meta-Descriptions", "meta-description"),
        ("what is a meta description?", "meta-description"),
        ("title tag", "title-tag"),
        ("page titles", "title-tag"),
        ("hreflang", "hreflang"),
        ("Hreflang tags", "hreflang"),
        ("robots.txt", "robots-txt"),
        ("ROBOTS TXT", "robots-txt"),
        ("noindex", "noindex"),
        ("no-index", "noindex"),
        ("nofollow", "nofollow"),
        ("structured data", "structured-data"),
        ("JSON-LD", "json-ld"),
        ("json ld", "json-ld"),
        ("json_ld", "json-ld"),
        ("schema.org", "schema-org"),
        ("schema markup", "structured-data"),
        ("Open Graph", "open-graph"),
        ("og tags", "open-graph"),
        ("og:image", "open-graph"),
        ("Twitter card", "twitter-card"),
        ("twitter cards", "twitter-card"),
        ("Core Web Vitals", "core-web-vitals"),
        ("CWV", "core-web-vitals"),
        ("LCP", "lcp"),
        ("largest contentful paint", "lcp"),
        ("CLS", "cls"),
        ("INP", "inp"),
        ("TTFB", "ttfb"),
        ("time to first byte", "ttfb"),
        ("crawl budget", "crawl-budget"),
        ("sitemap", "xml-sitemap"),
        ("sitemap.xml", "xml-sitemap"),
        ("301 redirect", "301-redirect"),
        ("301 redirects", "301-redirect"),
        ("redirect chain", "redirect-chain"),
        ("mixed content", "mixed-content"),
        ("HTTPS", "https"),
        ("mobile-first indexing", "mobile-first-indexing"),
        ("viewport", "viewport"),
        ("meta viewport", "viewport"),
        ("alt text", "alt-text"),
        ("alt attributes", "alt-text"),
        ("anchor text", "anchor-text"),
        ("internal linking", "internal-linking"),
        ("internal links", "internal-linking"),
        ("backlinks", "backlinks"),
        ("E-E-A-T", "eeat"),
        ("EEAT", "eeat"),
        ("E-A-T", "eeat"),
        ("thin content", "thin-content"),
        ("duplicate content", "duplicate-content"),
        ("keyword cannibalization", "keyword-cannibalization"),
        ("keyword cannibalisation", "keyword-cannibalization"),
        ("SERP", "serp"),
        ("SERPs", "serp"),
        ("rich results", "rich-results"),
        ("rich snippets", "rich-results"),
        ("llms.txt", "llms-txt"),
        ("LLMs TXT", "llms-txt"),
        ("AI crawlers", "ai-crawlers"),
        ("GPTBot", "ai-crawlers"),
        ("Bytespider", "ai-crawlers"),
        ("GEO", "geo"),
        ("generative engine optimization", "geo"),
        ("answer engine", "answer-engine"),
        ("AEO", "answer-engine"),
        ("entity", "entity"),
        ("entities", "entity"),
        ("knowledge graph", "entity"),
        // Typos and longer questions.
        ("canonnical url", "canonical-url"),
        ("meta descripton", "meta-description"),
        ("how do I fix my canonical tag", "canonical-url"),
        ("why does my site need an xml sitemap", "xml-sitemap"),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(query, slug)| {
            let c = glossary::concept(query);
            (!c.found || c.concept != *slug)
                .then(|| format!("{query:?} -> {} (found {}) {:?}", c.concept, c.found, c.suggestions))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn misses_give_ranked_suggestions() {
    let schema = tool("get_seo_concept").output_schema;
    let cases: [(&str, Option<&str>); 5] = [
        ("canonicle", Some("canonical-url")),
        ("structured", Some("structured-data")),
        ("anchr", Some("anchor-text")),
        ("xyzzy quux", None),
        ("", None),
    ];
    for (query, first) in cases {
        let c = glossary::concept(query);
        assert!(!c.found, "{query:?} unexpectedly found {}", c.concept);
        assert!(c.suggestions.len() <= glossary::MAX_SUGGESTIONS);
        match first {
            Some(slug) => assert!(c.suggestions.iter().any(|s| s == slug), "{query:?}: {:?}", c.suggestions),
            None => assert!(c.suggestions.is_empty(), "{query:?}: {:?}", c.suggestions),
        }
        check_valid(&schema, &c.to_json(), true, query);
    }
}

#[test]
fn odd_queries_never_panic() {
    let long = "seo ".repeat(5000);
    for q in ["   ", "%%%", "é", "日本語のタイトル", "--__--", "a", "s", "ies", long.as_str(), "\u{0}"] {
        let c = glossary::concept(q);
        assert!(c.found || c.suggestions.len() <= glossary::MAX_SUGGESTIONS);
        assert!(c.concept.chars().count() <= 200);
    }
}

#[test]
fn glossary_entries_are_complete_and_unambiguous() {
    let slugs: BTreeSet<&str> = glossary::GLOSSARY.iter().map(|e| e.slug).collect();
    assert_eq!(slugs.len(), glossary::GLOSSARY.len(), "duplicate slug");
    let rule_ids: BTreeSet<&str> = RULES.iter().map(|r| r.meta().id).collect();
    for r in RULES {
        for slug in r.meta().glossary {
            assert!(slugs.contains(slug), "rule {} names unknown glossary entry {slug}", r.meta().id);
        }
    }
    // Each spelling leads to one entry only, or lookups would depend on table order.
    let mut owner: HashMap<String, &str> = HashMap::new();
    for e in glossary::GLOSSARY {
        assert!(e.definition.len() > 40 && e.why.len() > 40 && e.how_to_fix.len() > 40, "{} is too thin", e.slug);
        for r in e.related {
            assert!(slugs.contains(r), "{} relates to unknown {r}", e.slug);
            assert_ne!(*r, e.slug);
        }
        for name in [e.slug, e.title].iter().chain(e.aliases) {
            let c = glossary::concept(name);
            if rule_ids.contains(name) {
                continue;
            }
            assert!(c.found && c.concept == e.slug, "{name:?} of {} resolves to {}", e.slug, c.concept);
            let key = name.to_lowercase();
            if let Some(prev) = owner.insert(key.clone(), e.slug) {
                assert_eq!(prev, e.slug, "{key:?} is claimed by {prev} and {}", e.slug);
            }
        }
    }
    assert!(glossary::GLOSSARY.len() >= 55);
}

// ---------------------------------------------------------------------------------------
// Resources.

#[test]
fn every_listed_resource_reads_with_its_media_type() {
    let uris: Vec<String> = resources::resource_defs().into_iter().map(|r| r.uri).collect();
    assert_eq!(
        uris,
        ["svc://methodology", "svc://seo-concepts", "svc://checks", "svc://severity-levels", "svc://data-sources"]
    );
    for def in resources::resource_defs() {
        let c = resources::read_resource(&def.uri).unwrap_or_else(|| panic!("{} unreadable", def.uri));
        assert_eq!(c.uri, def.uri);
        assert_eq!(c.mime_type, def.mime_type);
        assert!(c.text.len() > 500, "{} is nearly empty", def.uri);
        if def.mime_type == "application/json" {
            serde_json::from_str::<Value>(&c.text).unwrap_or_else(|e| panic!("{}: {e}", def.uri));
        }
    }
}

fn read_json(uri: &str) -> Value {
    serde_json::from_str(&resources::read_resource(uri).unwrap().text).unwrap()
}

#[test]
fn resources_are_generated_from_the_engine_tables() {
    let checks = read_json("svc://checks");
    assert_eq!(checks["count"].as_u64(), Some(RULES.len() as u64));
    assert_eq!(checks["totalWeight"], 100);
    assert_eq!(checks["checks"][0]["id"], RULES[0].meta().id);

    let severity = read_json("svc://severity-levels");
    let levels: Vec<&str> =
        severity["severity"]["levels"].as_array().unwrap().iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["critical", "warning", "notice"]);
    let counted: u64 =
        severity["severity"]["levels"].as_array().unwrap().iter().map(|l| l["ruleCount"].as_u64().unwrap()).sum();
    assert_eq!(counted, RULES.len() as u64);

    let concepts = read_json("svc://seo-concepts");
    assert_eq!(concepts["count"].as_u64(), Some(glossary::GLOSSARY.len() as u64));

    let sources = resources::read_resource("svc://data-sources").unwrap().text;
    for bot in ai_visibility::AI_BOTS {
        assert!(sources.contains(&format!("`{}`", bot.name)), "{} missing", bot.name);
    }
    for fetched in ["/robots.txt", "/llms.txt", "Competitor pages", "AI search provider", "never"] {
        assert!(sources.contains(fetched), "{fetched}");
    }
}

#[test]
fn templated_resources_resolve_and_unknown_uris_do_not() {
    let check = read_json("svc://checks/title-missing");
    assert_eq!(check["id"], "title-missing");
    assert_eq!(check["concept"], "title-tag");
    let concept = read_json("svc://seo-concepts/og%20tags");
    assert_eq!(concept["concept"], "open-graph");
    let by_rule = read_json("svc://seo-concepts/canonical-missing");
    assert_eq!(by_rule["concept"], "canonical-url");
    let templates: Vec<String> = resources::resource_template_defs().into_iter().map(|t| t.uri_template).collect();
    assert_eq!(templates, ["svc://checks/{id}", "svc://seo-concepts/{concept}"]);
    for uri in [
        "svc://checks/no-such-rule",
        "svc://checks/",
        "svc://seo-concepts/xyzzy",
        "svc://seo-concepts/%zz",
        "svc://seo-concepts/%ff",
        "svc://nothing",
        "https://example.com/",
        "",
    ] {
        assert!(resources::read_resource(uri).is_none(), "{uri}");
    }
}

// ---------------------------------------------------------------------------------------
// Prompts.

fn args(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn prompts_render_and_name_real_tools() {
    let names: Vec<String> = prompts::prompt_defs().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["audit_website", "explain_seo_issue", "prioritize_seo_fixes", "analyze_ai_visibility"]);
    let tool_names = calls::tool_names();
    let cases: [(&str, BTreeMap<String, String>, &[&str]); 5] = [
        (
            "audit_website",
            args(&[("url", "https://example.com/")]),
            &["get_site_info", "seo_audit", "get_opportunities"],
        ),
        (
            "audit_website",
            args(&[("url", "https://example.com/"), ("focus", "Performance")]),
            &["category \"performance\""],
        ),
        (
            "explain_seo_issue",
            args(&[("issue", "meta-description-missing")]),
            &["get_seo_concept", "meta-description-missing"],
        ),
        (
            "prioritize_seo_fixes",
            args(&[("url", "https://example.com/")]),
            &["get_opportunities", "generate_fixes", "topN 5"],
        ),
        (
            "analyze_ai_visibility",
            args(&[("url", "https://example.com/")]),
            &["svc://data-sources", "llms-txt", "scan_ai_visibility", "check_ai_readiness"],
        ),
    ];
    for (name, a, needles) in cases {
        let rendered = prompts::get_prompt(name, &a).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rendered.messages.len(), 1);
        let text = &rendered.messages[0].text;
        for n in needles {
            assert!(text.contains(n), "{name} lacks {n:?}");
        }
        // Prompts send agents to tools, never to REST routes they cannot call.
        assert!(!text.contains("/api/") && !text.contains("POST "), "{name} names a REST route: {text}");
        // Every snake_case word that looks like a tool name is one.
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            let looks_like_tool = word.contains('_') && word.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            if looks_like_tool {
                assert!(tool_names.iter().any(|t| t == word), "{name} names unknown tool {word}");
            }
        }
    }
}

#[test]
fn prompts_refuse_missing_or_unusable_arguments() {
    let cases = [
        ("audit_website", args(&[])),
        ("audit_website", args(&[("url", "   ")])),
        ("audit_website", args(&[("url", "ftp://example.com/")])),
        ("audit_website", args(&[("url", "https://")])),
        ("explain_seo_issue", args(&[])),
        ("prioritize_seo_fixes", args(&[("url", "https://example.com/"), ("maxItems", "50")])),
        ("prioritize_seo_fixes", args(&[("url", "https://example.com/"), ("maxItems", "many")])),
        ("analyze_ai_visibility", args(&[("url", &"x".repeat(3000))])),
        ("no_such_prompt", args(&[("url", "https://example.com/")])),
    ];
    for (name, a) in cases {
        assert!(prompts::get_prompt(name, &a).is_err(), "{name} {a:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Discovery documents and server identity.

#[test]
fn mcp_json_is_the_spec_descriptor_and_a_server_card() {
    let doc = discovery::mcp_json("https://seo.example/");
    assert_eq!(doc["name"], mcp::SERVER_NAME);
    assert_eq!(doc["version"], "3.0.0");
    assert_eq!(doc["protocol"], "2026-07-28");
    assert_eq!(doc["endpoint"], "https://seo.example/api/mcp");
    assert_eq!(doc["discovery"], "https://seo.example/.well-known/mcp.json");
    assert_eq!(doc["agentCard"], "https://seo.example/.well-known/agent-card.json");
    assert_eq!(doc["$schema"], discovery::SERVER_CARD_SCHEMA);
    assert!(doc["description"].as_str().is_some_and(|d| !d.is_empty()));
    assert_eq!(doc["remotes"][0]["type"], "streamable-http");
    assert_eq!(doc["remotes"][0]["url"], "https://seo.example/api/mcp");
    assert_eq!(doc["remotes"][0]["supportedProtocolVersions"], json!(mcp_protocol::SUPPORTED_VERSIONS));
    let tools: Vec<&str> = doc["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(tools, SPEC_TOOLS.iter().map(|t| t.0).collect::<Vec<_>>());
    let categories: Vec<&str> =
        doc["tools"].as_array().unwrap().iter().map(|t| t["category"].as_str().unwrap()).collect();
    assert_eq!(categories.iter().filter(|c| **c == "public").count(), 3);
    let resources: Vec<&str> =
        doc["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(
        resources,
        ["svc://methodology", "svc://seo-concepts", "svc://checks", "svc://severity-levels", "svc://data-sources"]
    );
    let prompts: Vec<&str> = doc["prompts"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(prompts, ["audit_website", "explain_seo_issue", "prioritize_seo_fixes", "analyze_ai_visibility"]);
    // Without a trailing slash the addresses are the same.
    assert_eq!(discovery::mcp_json("https://seo.example"), doc);
}

/// The service is agent-ready itself: its own discovery documents pass the checks the
/// AI-readiness engine makes of other sites' (ai_visibility::DocKind).
#[test]
fn own_discovery_documents_pass_our_checks() {
    let card = discovery::mcp_json("https://seo.example/").to_string();
    assert_eq!(ai_visibility::DocKind::McpServerCard.validate(&card), []);
    let agent = discovery::agent_card("https://seo.example/").to_string();
    let errors: Vec<_> =
        ai_visibility::DocKind::A2aAgentCard.validate(&agent).into_iter().filter(|f| f.severity == "error").collect();
    assert_eq!(errors, []);
}

#[test]
fn agent_card_follows_a2a() {
    let card = discovery::agent_card("http://127.0.0.1:8080");
    for field in
        ["name", "description", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "securitySchemes"]
    {
        assert!(card.get(field).is_some(), "{field}");
    }
    assert_eq!(card["version"], "3.0.0");
    // The endpoint speaks MCP, not A2A: no A2A interface is claimed, and the description
    // names the MCP endpoint.
    assert_eq!(card["supportedInterfaces"], json!([]));
    assert!(card["description"].as_str().unwrap().contains("http://127.0.0.1:8080/api/mcp"));
    assert_eq!(card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["name"], "x-api-key");
    assert_eq!(card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["location"], "header");
    let skills = card["skills"].as_array().unwrap();
    assert_eq!(skills.len(), SPEC_TOOLS.len());
    for (skill, spec) in skills.iter().zip(SPEC_TOOLS) {
        assert_eq!(skill["id"], spec.0);
        for field in ["name", "description"] {
            assert!(skill[field].as_str().is_some_and(|s| !s.is_empty()), "{} {field}", spec.0);
        }
        assert!(!skill["tags"].as_array().unwrap().is_empty());
        assert!(!skill["examples"].as_array().unwrap().is_empty(), "{} has no examples", spec.0);
        assert_eq!(skill.get("securityRequirements").is_some(), spec.1 == Category::Write, "{}", spec.0);
    }
}

#[test]
fn server_info_tells_agents_what_is_public_and_how_to_get_a_key() {
    let info = mcp::server_info();
    assert_eq!(info.name, "seo-audit");
    assert_eq!(info.version, "3.0.0");
    for t in calls::tool_names() {
        assert!(info.instructions.contains(&t), "instructions do not mention {t}");
    }
    assert!(info.instructions.contains("ask the operator"));
    assert!(!info.instructions.contains("keys create"), "a remote agent cannot run the operator's command");
    assert!(info.instructions.contains("x-api-key"));
}
