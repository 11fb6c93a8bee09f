//! Socket-free tests of every rule of MCP.md, through one `check` helper.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, Waker};

use serde_json::{json, Map, Value};

use crate::*;

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    // The fixture's futures never wait on anything, so this loop polls at most a few times.
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

struct Fixture {
    catalog: Catalog,
    page_size: usize,
    quota: Quota,
    quota_taken: AtomicUsize,
    calls: AtomicUsize,
}

fn tool(name: &str, category: Category, input: Value) -> ToolDef {
    ToolDef {
        name: name.into(),
        title: format!("Title of {name}"),
        description: format!("Does {name}."),
        input_schema: input,
        output_schema: json!({ "type": "object" }),
        annotations: ToolAnnotations {
            read_only_hint: category == Category::Public,
            open_world_hint: category == Category::Write,
            destructive_hint: (category == Category::Write).then_some(false),
            idempotent_hint: None,
        },
        category,
    }
}

fn url_schema() -> Value {
    json!({ "type": "object", "properties": { "url": { "type": "string" } }, "required": ["url"] })
}

fn resource(uri: &str) -> ResourceDef {
    ResourceDef {
        uri: uri.into(),
        name: uri.trim_start_matches("svc://").into(),
        description: format!("About {uri}."),
        mime_type: "text/markdown".into(),
    }
}

fn prompt(name: &str, args: &[(&str, bool)]) -> PromptDef {
    PromptDef {
        name: name.into(),
        description: format!("Prompt {name}."),
        arguments: args
            .iter()
            .map(|(n, r)| PromptArgument { name: (*n).into(), description: format!("the {n}"), required: *r })
            .collect(),
    }
}

impl Fixture {
    fn new() -> Self {
        Fixture {
            catalog: Catalog {
                info: ServerInfo::new("seo-audit", "2.0.0", "Audit web pages for SEO."),
                tools: vec![
                    tool("get_site_info", Category::Public, url_schema()),
                    tool(
                        "get_audit_methodology",
                        Category::Public,
                        json!({ "type": "object", "properties": { "category": { "type": "string", "enum": ["performance", "content", "technical"] } } }),
                    ),
                    tool("seo_audit", Category::Write, url_schema()),
                    tool(
                        "generate_fixes",
                        Category::Write,
                        json!({ "type": "object", "properties": { "url": { "type": "string" }, "topN": { "type": "number", "minimum": 1, "maximum": 20 } }, "required": ["url"], "additionalProperties": false }),
                    ),
                    tool(
                        "get_seo_concept",
                        Category::Public,
                        json!({ "type": "object", "properties": { "concept": { "type": "string", "minLength": 1, "maxLength": 10 } }, "required": ["concept"] }),
                    ),
                ],
                resources: vec![
                    resource("svc://methodology"),
                    resource("svc://seo-concepts"),
                    resource("svc://checks"),
                ],
                resource_templates: vec![ResourceTemplateDef {
                    uri_template: "svc://checks/{id}".into(),
                    name: "check".into(),
                    description: "One check.".into(),
                    mime_type: "application/json".into(),
                }],
                prompts: vec![
                    prompt("audit_website", &[("url", true)]),
                    prompt("explain_seo_issue", &[("issue", true), ("audience", false)]),
                    prompt("prioritize_seo_fixes", &[("url", true)]),
                ],
            },
            page_size: DEFAULT_PAGE_SIZE,
            quota: Quota::Unlimited,
            quota_taken: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
        }
    }
}

impl Registry for Fixture {
    fn catalog(&self) -> &Catalog {
        &self.catalog
    }
    fn page_size(&self) -> usize {
        self.page_size
    }
    async fn take_quota(&self, _tool: &str, _ctx: &CallContext<'_>) -> Quota {
        self.quota_taken.fetch_add(1, Ordering::SeqCst);
        self.quota
    }
    async fn call_tool(&self, name: &str, arguments: Map<String, Value>, ctx: &CallContext<'_>) -> ToolResult {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if arguments.get("url") == Some(&json!("https://unreachable.invalid/")) {
            return ToolResult::error("the page could not be reached: DNS lookup failed");
        }
        ToolResult::success(
            json!({ "tool": name, "arguments": arguments, "era": format!("{:?}", ctx.era), "version": ctx.protocol_version }),
        )
    }
    async fn read_resource(&self, uri: &str) -> Option<ResourceContents> {
        let known = self.catalog.resources.iter().any(|r| r.uri == uri) || uri.starts_with("svc://checks/");
        known.then(|| ResourceContents { uri: uri.into(), mime_type: "text/markdown".into(), text: format!("# {uri}") })
    }
    fn get_prompt(&self, name: &str, arguments: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
        if arguments.get("issue").map(String::as_str) == Some("bogus") {
            return Err("unknown issue id \"bogus\"".into());
        }
        Ok(PromptMessages {
            description: Some(format!("{name} for {arguments:?}")),
            messages: vec![PromptMessage { role: Role::User, text: format!("Run {name} with {arguments:?}") }],
        })
    }
}

// ---------------------------------------------------------------------------------------
// Request builders and the check helper.

/// Request headers as the server hands them over.
type Headers = Vec<(String, String)>;
/// JSON pointer expectations.
type Expect = Vec<(&'static str, Value)>;

const MODERN: &str = "2026-07-28";
/// Marks an expectation that a JSON pointer resolves to nothing.
const ABSENT: &str = "<absent>";

fn hdrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
}

fn meta() -> Value {
    json!({ META_PROTOCOL_VERSION: MODERN, META_CLIENT_CAPABILITIES: {} })
}

/// A modern request body: `params` plus a complete `_meta`.
fn modern_body(id: Value, method: &str, params: Value) -> String {
    let mut params = params;
    params["_meta"] = meta();
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// The headers a conformant modern client sends for this method and name.
fn modern_headers(method: &str, name: Option<&str>) -> Vec<(String, String)> {
    let mut h = hdrs(&[("MCP-Protocol-Version", MODERN), ("Mcp-Method", method)]);
    if let Some(n) = name {
        h.push(("Mcp-Name".into(), n.into()));
    }
    h
}

fn legacy_body(id: Value, method: &str, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

fn run(fix: &Fixture, auth: &Auth, headers: &[(String, String)], body: &str) -> Reply {
    let req = McpRequest { headers, body: body.as_bytes(), auth };
    block_on(handle(&req, fix))
}

/// Runs one request and checks the status and each `(json pointer, expected value)`.
fn check_with(
    fix: &Fixture,
    auth: &Auth,
    headers: &[(String, String)],
    body: &str,
    status: u16,
    expect: &[(&str, Value)],
) -> Reply {
    let reply = run(fix, auth, headers, body);
    assert_eq!(reply.status, status, "status for {body}\nwith {headers:?}\ngot {:?}", reply.body);
    let got = reply.body.clone().unwrap_or(Value::Null);
    for (pointer, want) in expect {
        let found = got.pointer(pointer);
        if want == &json!(ABSENT) {
            assert!(found.is_none(), "{pointer} should be absent in {got}");
        } else {
            assert_eq!(found, Some(want), "{pointer} in {got}\nfor {body}");
        }
    }
    reply
}

fn check(headers: &[(String, String)], body: &str, status: u16, expect: &[(&str, Value)]) -> Reply {
    check_with(&Fixture::new(), &Auth::Anonymous, headers, body, status, expect)
}

fn mcp_key() -> Auth {
    Auth::Key { scopes: vec!["audit".into(), "mcp".into()] }
}

// ---------------------------------------------------------------------------------------
// Check 1: JSON and message shape.

#[test]
fn invalid_json_and_shapes_are_400_with_null_id() {
    let cases: &[(&str, i32)] = &[
        ("{not json", PARSE_ERROR),
        ("", PARSE_ERROR),
        ("{\"jsonrpc\":\"2.0\",\"id\":1,", PARSE_ERROR),
        ("[]", INVALID_REQUEST),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#, INVALID_REQUEST),
        ("42", INVALID_REQUEST),
        ("\"tools/list\"", INVALID_REQUEST),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#, INVALID_REQUEST),
        (r#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#, INVALID_REQUEST),
        (r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#, INVALID_REQUEST),
    ];
    for headers in [Vec::new(), modern_headers("tools/list", None)] {
        for (body, code) in cases {
            check(
                &headers,
                body,
                400,
                &[("/jsonrpc", json!("2.0")), ("/id", Value::Null), ("/error/code", json!(code))],
            );
        }
    }
}

#[test]
fn malformed_requests_echo_the_id() {
    let cases = [
        r#"{"jsonrpc":"1.0","id":3,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":7}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]}"#,
    ];
    for body in cases {
        check(&[], body, 400, &[("/id", json!(3)), ("/error/code", json!(INVALID_REQUEST))]);
    }
}

#[test]
fn ids_string_integer_and_null_are_echoed() {
    for id in [json!("abc-1"), json!(7), json!(-2), json!(0), Value::Null] {
        check(&[], &legacy_body(id.clone(), "ping", json!({})), 200, &[("/id", id.clone()), ("/result", json!({}))]);
        check(
            &modern_headers("tools/list", None),
            &modern_body(id.clone(), "tools/list", json!({})),
            200,
            &[("/id", id.clone()), ("/result/resultType", json!("complete"))],
        );
    }
}

// ---------------------------------------------------------------------------------------
// Era detection.

#[test]
fn era_detection_by_header_and_meta() {
    let legacy = legacy_body(json!(1), "tools/list", json!({}));
    // (headers, body, status, resultType expectation)
    let cases: Vec<(Headers, String, u16, Value)> = vec![
        (vec![], legacy.clone(), 200, json!(ABSENT)),
        (hdrs(&[("MCP-Protocol-Version", "2025-11-25")]), legacy.clone(), 200, json!(ABSENT)),
        (hdrs(&[("MCP-Protocol-Version", "2025-06-18")]), legacy.clone(), 200, json!(ABSENT)),
        (hdrs(&[("MCP-Protocol-Version", "2025-03-26")]), legacy.clone(), 200, json!(ABSENT)),
        (hdrs(&[("mcp-protocol-version", "2024-11-05")]), legacy.clone(), 200, json!(ABSENT)),
        (hdrs(&[("MCP-Protocol-Version", " 2025-06-18 ")]), legacy.clone(), 200, json!(ABSENT)),
        // `_meta` alone makes a request modern (Mcp-Method then required and present).
        (hdrs(&[("Mcp-Method", "tools/list")]), modern_body(json!(1), "tools/list", json!({})), 200, json!("complete")),
        (modern_headers("tools/list", None), modern_body(json!(1), "tools/list", json!({})), 200, json!("complete")),
    ];
    for (headers, body, status, rt) in cases {
        check(&headers, &body, status, &[("/result/resultType", rt)]);
    }
}

#[test]
fn unknown_header_version_without_meta_is_400() {
    for v in ["2099-01-01", "2000-01-01", "invalid-protocol-version", "2026-07-29", ""] {
        check(
            &hdrs(&[("MCP-Protocol-Version", v)]),
            &legacy_body(json!(5), "tools/list", json!({})),
            400,
            &[
                ("/id", json!(5)),
                ("/error/code", json!(UNSUPPORTED_VERSION)),
                ("/error/data/requested", json!(v)),
                ("/error/data/supported/0", json!(MODERN)),
            ],
        );
    }
}

#[test]
fn legacy_requests_need_no_mirrored_headers() {
    // A 2025 client sends MCP-Protocol-Version after initialize but never Mcp-Method;
    // a stray wrong Mcp-Method or Mcp-Name on a legacy request is ignored.
    let fix = Fixture::new();
    for headers in [
        hdrs(&[("MCP-Protocol-Version", "2025-11-25")]),
        hdrs(&[("MCP-Protocol-Version", "2025-06-18"), ("Mcp-Method", "prompts/list"), ("Mcp-Name", "x")]),
    ] {
        let body = legacy_body(
            json!(1),
            "tools/call",
            json!({ "name": "get_site_info", "arguments": { "url": "https://a.example/" } }),
        );
        check_with(&fix, &Auth::Anonymous, &headers, &body, 200, &[("/result/isError", json!(false))]);
    }
}

// ---------------------------------------------------------------------------------------
// Modern checks 2 to 5 and their order.

#[test]
fn modern_meta_must_carry_version_and_capabilities() {
    let h = modern_headers("tools/list", None);
    let metas = [
        json!(null),
        json!({}),
        json!({ META_CLIENT_CAPABILITIES: {} }),
        json!({ META_PROTOCOL_VERSION: MODERN }),
        json!({ META_PROTOCOL_VERSION: MODERN, META_CLIENT_CAPABILITIES: "all" }),
        json!({ META_PROTOCOL_VERSION: 20260728, META_CLIENT_CAPABILITIES: {} }),
    ];
    for m in metas {
        let body = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": { "_meta": m } }).to_string();
        check(&h, &body, 400, &[("/id", json!(9)), ("/error/code", json!(INVALID_PARAMS))]);
    }
    // Without params at all, the header alone makes it modern and `_meta` is missing.
    check(&h, r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#, 400, &[("/error/code", json!(INVALID_PARAMS))]);
    // clientInfo is optional, and extra keys are fine.
    let body = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": { "_meta": {
        META_PROTOCOL_VERSION: MODERN, META_CLIENT_CAPABILITIES: {}, META_CLIENT_INFO: { "name": "t", "version": "1" }, "x": 1 } } });
    check(&h, &body.to_string(), 200, &[("/result/tools/0/name", json!("get_site_info"))]);
}

#[test]
fn modern_header_rules() {
    let list = modern_body(json!(1), "tools/list", json!({}));
    let call = modern_body(
        json!(2),
        "tools/call",
        json!({ "name": "get_site_info", "arguments": { "url": "https://a.example/" } }),
    );
    let read = modern_body(json!(3), "resources/read", json!({ "uri": "svc://methodology" }));
    let get = modern_body(json!(4), "prompts/get", json!({ "name": "audit_website", "arguments": { "url": "u" } }));
    let b64 = |s: &str| {
        use base64::Engine as _;
        format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(s))
    };
    let ok = 200;
    let bad = 400;
    let cases: Vec<(&str, Headers, &String, u16)> = vec![
        ("conformant", modern_headers("tools/list", None), &list, ok),
        ("lowercase names", hdrs(&[("mcp-protocol-version", MODERN), ("mcp-method", "tools/list")]), &list, ok),
        ("uppercase names", hdrs(&[("MCP-PROTOCOL-VERSION", MODERN), ("MCP-METHOD", "tools/list")]), &list, ok),
        (
            "spaces trimmed",
            hdrs(&[("MCP-Protocol-Version", " 2026-07-28\t"), ("Mcp-Method", "  tools/list  ")]),
            &list,
            ok,
        ),
        ("base64 method", hdrs(&[("MCP-Protocol-Version", MODERN), ("Mcp-Method", &b64("tools/list"))]), &list, ok),
        ("base64 version", hdrs(&[("MCP-Protocol-Version", &b64(MODERN)), ("Mcp-Method", "tools/list")]), &list, ok),
        ("no version header", hdrs(&[("Mcp-Method", "tools/list")]), &list, ok),
        ("method missing", hdrs(&[("MCP-Protocol-Version", MODERN)]), &list, bad),
        ("method differs", modern_headers("prompts/list", None), &list, bad),
        ("method value case", modern_headers("TOOLS/LIST", None), &list, bad),
        (
            "base64 wrong case",
            hdrs(&[("MCP-Protocol-Version", MODERN), ("Mcp-Method", &b64("TOOLS/LIST"))]),
            &list,
            bad,
        ),
        ("invalid base64", hdrs(&[("MCP-Protocol-Version", MODERN), ("Mcp-Method", "=?base64?%%%?=")]), &list, bad),
        (
            "version differs from meta",
            hdrs(&[("MCP-Protocol-Version", "2025-11-25"), ("Mcp-Method", "tools/list")]),
            &list,
            bad,
        ),
        ("call conformant", modern_headers("tools/call", Some("get_site_info")), &call, ok),
        ("call name trimmed", modern_headers("tools/call", Some("  get_site_info  ")), &call, ok),
        ("call name base64", modern_headers("tools/call", Some(&b64("get_site_info"))), &call, ok),
        ("call name missing", modern_headers("tools/call", None), &call, bad),
        ("call name differs", modern_headers("tools/call", Some("wrong_tool_name")), &call, bad),
        ("call name case", modern_headers("tools/call", Some("GET_SITE_INFO")), &call, bad),
        ("read uri", modern_headers("resources/read", Some("svc://methodology")), &read, ok),
        ("read uri differs", modern_headers("resources/read", Some("svc://checks")), &read, bad),
        ("read uri missing", modern_headers("resources/read", None), &read, bad),
        ("prompt name", modern_headers("prompts/get", Some("audit_website")), &get, ok),
        ("prompt name differs", modern_headers("prompts/get", Some("explain_seo_issue")), &get, bad),
        ("prompt name missing", modern_headers("prompts/get", None), &get, bad),
    ];
    for (label, headers, body, status) in cases {
        let reply = run(&Fixture::new(), &Auth::Anonymous, &headers, body);
        assert_eq!(reply.status, status, "{label}: {:?}", reply.body);
        let b = reply.body.unwrap_or_default();
        if status == bad {
            assert_eq!(b["error"]["code"], json!(HEADER_MISMATCH), "{label}: {b}");
            assert_eq!(b["id"], serde_json::from_str::<Value>(body).unwrap()["id"], "{label}: id echoed");
        } else {
            assert!(b.get("result").is_some(), "{label}: {b}");
        }
    }
}

#[test]
fn non_ascii_names_travel_base64_encoded() {
    use base64::Engine as _;
    let uri = "svc://checks/überschrift";
    let encoded = format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(uri));
    let body = modern_body(json!(1), "resources/read", json!({ "uri": uri }));
    check(&modern_headers("resources/read", Some(&encoded)), &body, 200, &[("/result/contents/0/uri", json!(uri))]);
}

#[test]
fn modern_checks_run_in_order() {
    let body_with_meta = |method: &str, version: &str, caps: bool| {
        let mut m = json!({ META_PROTOCOL_VERSION: version });
        if caps {
            m[META_CLIENT_CAPABILITIES] = json!({});
        }
        json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": { "_meta": m } }).to_string()
    };
    let cases: Vec<(&str, Headers, String, u16, i32)> = vec![
        // 2 before 3: missing capabilities wins over a wrong Mcp-Method.
        (
            "meta before headers",
            modern_headers("prompts/list", None),
            body_with_meta("tools/list", MODERN, false),
            400,
            INVALID_PARAMS,
        ),
        // 3 before 4: a mismatch wins over an unsupported version.
        (
            "headers before version",
            hdrs(&[("MCP-Protocol-Version", "2099-01-01"), ("Mcp-Method", "nope")]),
            body_with_meta("tools/list", "2099-01-01", true),
            400,
            HEADER_MISMATCH,
        ),
        (
            "version",
            hdrs(&[("MCP-Protocol-Version", "2099-01-01"), ("Mcp-Method", "tools/list")]),
            body_with_meta("tools/list", "2099-01-01", true),
            400,
            UNSUPPORTED_VERSION,
        ),
        // 4 before 5: an unsupported version wins over an unknown method.
        (
            "version before method",
            hdrs(&[("MCP-Protocol-Version", "2099-01-01"), ("Mcp-Method", "initialize")]),
            body_with_meta("initialize", "2099-01-01", true),
            400,
            UNSUPPORTED_VERSION,
        ),
        // 3 before 5: an unknown method still needs its Mcp-Method.
        (
            "headers before method",
            hdrs(&[("MCP-Protocol-Version", MODERN)]),
            body_with_meta("foo/bar", MODERN, true),
            400,
            HEADER_MISMATCH,
        ),
        (
            "unknown method",
            modern_headers("foo/bar", None),
            body_with_meta("foo/bar", MODERN, true),
            404,
            METHOD_NOT_FOUND,
        ),
    ];
    for (label, headers, body, status, code) in cases {
        let reply = run(&Fixture::new(), &Auth::Anonymous, &headers, &body);
        assert_eq!(reply.status, status, "{label}: {:?}", reply.body);
        assert_eq!(reply.body.unwrap()["error"]["code"], json!(code), "{label}");
    }
    // The -32022 error names what is supported and what was asked.
    let headers = hdrs(&[("MCP-Protocol-Version", "2099-01-01"), ("Mcp-Method", "tools/list")]);
    check(
        &headers,
        &body_with_meta("tools/list", "2099-01-01", true),
        400,
        &[("/error/data/requested", json!("2099-01-01")), ("/error/data/supported", json!(SUPPORTED_VERSIONS))],
    );
}

#[test]
fn legacy_only_methods_are_404_on_the_modern_path() {
    for method in ["initialize", "ping", "logging/setLevel", "resources/subscribe", "completion/complete", "nope"] {
        check(
            &modern_headers(method, None),
            &modern_body(json!("m"), method, json!({})),
            404,
            &[("/id", json!("m")), ("/error/code", json!(METHOD_NOT_FOUND))],
        );
    }
}

#[test]
fn unknown_methods_on_the_legacy_path_are_200_with_the_error() {
    for method in ["logging/setLevel", "resources/subscribe", "nope", "tools/listt"] {
        check(&[], &legacy_body(json!(1), method, json!({})), 200, &[("/error/code", json!(METHOD_NOT_FOUND))]);
    }
}

// ---------------------------------------------------------------------------------------
// Legacy handshake, notifications, simple form.

#[test]
fn initialize_negotiates_a_legacy_version() {
    let cases = [
        (json!("2025-11-25"), "2025-11-25"),
        (json!("2025-06-18"), "2025-06-18"),
        (json!("2025-03-26"), "2025-03-26"),
        (json!("2024-11-05"), "2024-11-05"),
        (json!(MODERN), DEFAULT_LEGACY_VERSION),
        (json!("2099-01-01"), DEFAULT_LEGACY_VERSION),
        (json!(20250618), DEFAULT_LEGACY_VERSION),
        (Value::Null, DEFAULT_LEGACY_VERSION),
    ];
    for (asked, answered) in cases {
        let params =
            json!({ "protocolVersion": asked, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } });
        let reply = check(
            &[],
            &legacy_body(json!(1), "initialize", params),
            200,
            &[
                ("/result/protocolVersion", json!(answered)),
                ("/result/serverInfo/name", json!("seo-audit")),
                ("/result/serverInfo/version", json!("2.0.0")),
                ("/result/capabilities/tools", json!({ "listChanged": false })),
                ("/result/capabilities/prompts", json!({ "listChanged": false })),
                ("/result/instructions", json!("Audit web pages for SEO.")),
            ],
        );
        // No session is minted.
        assert!(reply.headers.iter().all(|(n, _)| !n.eq_ignore_ascii_case("mcp-session-id")));
    }
}

#[test]
fn notifications_and_idless_messages_are_202_without_body() {
    let fix = Fixture::new();
    let modern_note = modern_body(Value::Null, "notifications/initialized", json!({}));
    let modern_note = {
        let mut v: Value = serde_json::from_str(&modern_note).unwrap();
        v.as_object_mut().unwrap().remove("id");
        v.to_string()
    };
    let cases: Vec<(Vec<(String, String)>, String)> = vec![
        (vec![], r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into()),
        (
            hdrs(&[("MCP-Protocol-Version", "2025-11-25")]),
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#.into(),
        ),
        (vec![], r#"{"jsonrpc":"2.0","method":"tools/list"}"#.into()),
        (vec![], r#"{"jsonrpc":"2.0","method":"notifications/whatever","id":4}"#.into()),
        // A client's answer to a server request.
        (vec![], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into()),
        (modern_headers("notifications/initialized", None), modern_note),
    ];
    for (headers, body) in cases {
        let reply = run(&fix, &Auth::Anonymous, &headers, &body);
        assert_eq!((reply.status, reply.body.is_none(), reply.body_bytes().is_empty()), (202, true, true), "{body}");
    }
    assert_eq!(fix.quota_taken.load(Ordering::SeqCst), 0);
}

#[test]
fn simple_form_is_answered_as_json_rpc() {
    check(
        &[],
        r#"{"method":"tools/list"}"#,
        200,
        &[("/jsonrpc", json!("2.0")), ("/id", Value::Null), ("/result/tools/0/name", json!("get_site_info"))],
    );
    check(
        &[],
        r#"{"method":"tools/list","params":{}}"#,
        200,
        &[("/id", Value::Null), ("/result/ttlMs", json!(DEFAULT_TTL_MS))],
    );
    check(
        &[],
        r#"{"method":"tools/call","params":{"name":"get_site_info","arguments":{"url":"https://a.example/"}}}"#,
        200,
        &[
            ("/id", Value::Null),
            ("/result/isError", json!(false)),
            ("/result/structuredContent/tool", json!("get_site_info")),
        ],
    );
    check(&[], r#"{"id":7,"method":"ping"}"#, 200, &[("/id", json!(7)), ("/result", json!({}))]);
    check(&[], r#"{"method":"nope"}"#, 200, &[("/id", Value::Null), ("/error/code", json!(METHOD_NOT_FOUND))]);
    check(
        &[],
        r#"{"method":"tools/call","params":{"name":"seo_audit","arguments":{"url":"https://a.example/"}}}"#,
        200,
        &[("/result/isError", json!(true))],
    );
}

// ---------------------------------------------------------------------------------------
// Methods in both eras.

/// (method, params, Mcp-Name) of every method both eras share.
fn shared_methods() -> Vec<(&'static str, Value, Option<&'static str>)> {
    vec![
        ("server/discover", json!({}), None),
        ("tools/list", json!({}), None),
        ("resources/list", json!({}), None),
        ("resources/templates/list", json!({}), None),
        ("prompts/list", json!({}), None),
        ("resources/read", json!({ "uri": "svc://methodology" }), Some("svc://methodology")),
        (
            "prompts/get",
            json!({ "name": "audit_website", "arguments": { "url": "https://a.example/" } }),
            Some("audit_website"),
        ),
        (
            "tools/call",
            json!({ "name": "get_site_info", "arguments": { "url": "https://a.example/" } }),
            Some("get_site_info"),
        ),
    ]
}

#[test]
fn every_method_answers_in_both_eras_with_the_right_decoration() {
    for (method, params, name) in shared_methods() {
        let cached = !matches!(method, "prompts/get" | "tools/call");
        let cache = |v: Value| if cached { v } else { json!(ABSENT) };
        check(
            &modern_headers(method, name),
            &modern_body(json!(1), method, params.clone()),
            200,
            &[
                ("/result/resultType", json!("complete")),
                (
                    "/result/_meta/io.modelcontextprotocol~1serverInfo",
                    json!({ "name": "seo-audit", "version": "2.0.0" }),
                ),
                ("/result/ttlMs", cache(json!(DEFAULT_TTL_MS))),
                ("/result/cacheScope", cache(json!("public"))),
            ],
        );
        let legacy_rt = if method == "server/discover" { json!("complete") } else { json!(ABSENT) };
        check(
            &[],
            &legacy_body(json!(1), method, params.clone()),
            200,
            &[
                ("/result/resultType", legacy_rt),
                ("/result/_meta", json!(ABSENT)),
                ("/result/ttlMs", cache(json!(DEFAULT_TTL_MS))),
                ("/result/cacheScope", cache(json!("public"))),
            ],
        );
    }
}

#[test]
fn server_discover_shape() {
    for (headers, body) in [
        (modern_headers("server/discover", None), modern_body(json!(1), "server/discover", json!({}))),
        (vec![], legacy_body(json!(1), "server/discover", json!({}))),
    ] {
        check(
            &headers,
            &body,
            200,
            &[
                ("/result/resultType", json!("complete")),
                ("/result/supportedVersions", json!(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"])),
                ("/result/capabilities", json!({ "tools": {}, "resources": {}, "prompts": {} })),
                ("/result/instructions", json!("Audit web pages for SEO.")),
                ("/result/serverInfo", json!({ "name": "seo-audit", "version": "2.0.0" })),
                ("/result/ttlMs", json!(300_000)),
                ("/result/cacheScope", json!("public")),
            ],
        );
    }
}

#[test]
fn ping_is_empty_object() {
    check(&[], &legacy_body(json!(1), "ping", json!({})), 200, &[("/result", json!({}))]);
    check(
        &hdrs(&[("MCP-Protocol-Version", "2025-06-18")]),
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        200,
        &[("/result", json!({}))],
    );
}

#[test]
fn list_shapes() {
    let h = vec![];
    check(
        &h,
        &legacy_body(json!(1), "tools/list", json!({})),
        200,
        &[
            ("/result/tools/0/name", json!("get_site_info")),
            ("/result/tools/0/title", json!("Title of get_site_info")),
            ("/result/tools/0/description", json!("Does get_site_info.")),
            ("/result/tools/0/inputSchema/required", json!(["url"])),
            ("/result/tools/0/outputSchema/type", json!("object")),
            ("/result/tools/0/annotations", json!({ "readOnlyHint": true, "openWorldHint": false })),
            (
                "/result/tools/2/annotations",
                json!({ "readOnlyHint": false, "openWorldHint": true, "destructiveHint": false }),
            ),
            ("/result/tools/0/category", json!(ABSENT)),
            ("/result/tools/4/name", json!("get_seo_concept")),
            ("/result/nextCursor", json!(ABSENT)),
        ],
    );
    check(
        &h,
        &legacy_body(json!(1), "resources/list", json!({})),
        200,
        &[
            (
                "/result/resources/0",
                json!({ "uri": "svc://methodology", "name": "methodology", "description": "About svc://methodology.", "mimeType": "text/markdown" }),
            ),
            ("/result/resources/2/uri", json!("svc://checks")),
        ],
    );
    check(
        &h,
        &legacy_body(json!(1), "resources/templates/list", json!({})),
        200,
        &[
            ("/result/resourceTemplates/0/uriTemplate", json!("svc://checks/{id}")),
            ("/result/resourceTemplates/0/mimeType", json!("application/json")),
        ],
    );
    check(
        &h,
        &legacy_body(json!(1), "prompts/list", json!({})),
        200,
        &[
            ("/result/prompts/1/name", json!("explain_seo_issue")),
            (
                "/result/prompts/1/arguments",
                json!([
                    { "name": "issue", "description": "the issue", "required": true },
                    { "name": "audience", "description": "the audience", "required": false },
                ]),
            ),
        ],
    );
}

#[test]
fn cursors_page_deterministically() {
    let mut fix = Fixture::new();
    fix.page_size = 2;
    let list = |cursor: Option<&str>| {
        let params = match cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        run(&fix, &Auth::Anonymous, &[], &legacy_body(json!(1), "tools/list", params)).body.unwrap()
    };
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let page = list(cursor.as_deref());
        assert_eq!(page, list(cursor.as_deref()), "same cursor, same page");
        let tools = page["result"]["tools"].as_array().unwrap();
        assert!(tools.len() <= 2);
        names.extend(tools.iter().map(|t| t["name"].as_str().unwrap().to_string()));
        pages += 1;
        match page["result"].get("nextCursor") {
            Some(Value::String(c)) => cursor = Some(c.clone()),
            _ => break,
        }
    }
    assert_eq!(pages, 3);
    let all: Vec<String> = fix.catalog.tools.iter().map(|t| t.name.clone()).collect();
    assert_eq!(names, all);
    // Prompts page too (3 prompts, 2 per page).
    let p = run(&fix, &Auth::Anonymous, &[], &legacy_body(json!(1), "prompts/list", json!({}))).body.unwrap();
    assert!(p["result"]["nextCursor"].is_string());
}

#[test]
fn invalid_cursors_are_invalid_params() {
    use base64::Engine as _;
    let enc = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
    let cursors = [
        json!("garbage!"),
        json!(""),
        json!(enc("o:0")),
        json!(enc("o:99")),
        json!(enc("o:-1")),
        json!(enc("x:1")),
        json!(enc("o:")),
        json!(3),
        json!({}),
    ];
    for method in ["tools/list", "resources/list", "resources/templates/list", "prompts/list"] {
        for c in &cursors {
            check(
                &[],
                &legacy_body(json!(1), method, json!({ "cursor": c })),
                200,
                &[("/error/code", json!(INVALID_PARAMS))],
            );
            check(
                &modern_headers(method, None),
                &modern_body(json!(1), method, json!({ "cursor": c })),
                200,
                &[("/error/code", json!(INVALID_PARAMS))],
            );
        }
        check(&[], &legacy_body(json!(1), method, json!({ "cursor": null })), 200, &[("/error", json!(ABSENT))]);
    }
}

#[test]
fn resources_read_and_not_found_by_era() {
    let modern_read = |uri: &str| {
        (modern_headers("resources/read", Some(uri)), modern_body(json!(1), "resources/read", json!({ "uri": uri })))
    };
    let (h, b) = modern_read("svc://checks");
    check(
        &h,
        &b,
        200,
        &[(
            "/result/contents/0",
            json!({ "uri": "svc://checks", "mimeType": "text/markdown", "text": "# svc://checks" }),
        )],
    );
    let (h, b) = modern_read("svc://checks/title-missing");
    check(&h, &b, 200, &[("/result/contents/0/uri", json!("svc://checks/title-missing"))]);
    let (h, b) = modern_read("svc://nothing");
    check(
        &h,
        &b,
        200,
        &[
            ("/error/code", json!(INVALID_PARAMS)),
            ("/error/data", json!({ "uri": "svc://nothing" })),
            ("/result", json!(ABSENT)),
        ],
    );
    for version in [None, Some("2025-11-25"), Some("2025-06-18"), Some("2024-11-05")] {
        let headers = version.map(|v| hdrs(&[("MCP-Protocol-Version", v)])).unwrap_or_default();
        check(
            &headers,
            &legacy_body(json!(1), "resources/read", json!({ "uri": "svc://nothing" })),
            200,
            &[("/error/code", json!(RESOURCE_NOT_FOUND_LEGACY)), ("/error/data/uri", json!("svc://nothing"))],
        );
        check(
            &headers,
            &legacy_body(json!(1), "resources/read", json!({ "uri": "svc://methodology" })),
            200,
            &[("/result/contents/0/text", json!("# svc://methodology"))],
        );
    }
    check(&[], &legacy_body(json!(1), "resources/read", json!({})), 200, &[("/error/code", json!(INVALID_PARAMS))]);
    check(
        &[],
        &legacy_body(json!(1), "resources/read", json!({ "uri": 5 })),
        200,
        &[("/error/code", json!(INVALID_PARAMS))],
    );
}

#[test]
fn prompts_get_rules() {
    let cases: Vec<(Value, u16, Expect)> = vec![
        (
            json!({ "name": "audit_website", "arguments": { "url": "https://a.example/" } }),
            200,
            vec![("/result/messages/0/role", json!("user")), ("/result/messages/0/content/type", json!("text"))],
        ),
        (
            json!({ "name": "explain_seo_issue", "arguments": { "issue": "missing title" } }),
            200,
            vec![("/result/messages/0/role", json!("user"))],
        ),
        (json!({ "name": "no_such_prompt" }), 200, vec![("/error/code", json!(INVALID_PARAMS))]),
        (json!({ "name": "audit_website" }), 200, vec![("/error/code", json!(INVALID_PARAMS))]),
        (json!({ "name": "audit_website", "arguments": {} }), 200, vec![("/error/code", json!(INVALID_PARAMS))]),
        (
            json!({ "name": "explain_seo_issue", "arguments": { "audience": "dev" } }),
            200,
            vec![("/error/code", json!(INVALID_PARAMS))],
        ),
        (
            json!({ "name": "audit_website", "arguments": { "url": 5 } }),
            200,
            vec![("/error/code", json!(INVALID_PARAMS))],
        ),
        (json!({ "name": "audit_website", "arguments": "url" }), 200, vec![("/error/code", json!(INVALID_PARAMS))]),
        (
            json!({ "name": "explain_seo_issue", "arguments": { "issue": "bogus" } }),
            200,
            vec![
                ("/error/code", json!(INVALID_PARAMS)),
                ("/error/message", json!("invalid params: unknown issue id \"bogus\"")),
            ],
        ),
        (json!({}), 200, vec![("/error/code", json!(INVALID_PARAMS))]),
    ];
    for (params, status, expect) in cases {
        check(&[], &legacy_body(json!(1), "prompts/get", params.clone()), status, &expect);
        let name = params.get("name").and_then(Value::as_str);
        check(&modern_headers("prompts/get", name), &modern_body(json!(1), "prompts/get", params), status, &expect);
    }
}

// ---------------------------------------------------------------------------------------
// Tool calls: results, arguments, keys, quota.

fn call_body(name: &str, arguments: Value) -> String {
    legacy_body(json!(1), "tools/call", json!({ "name": name, "arguments": arguments }))
}

#[test]
fn tool_success_carries_the_same_json_as_text_and_structured_content() {
    for (headers, body) in [
        (vec![], call_body("get_site_info", json!({ "url": "https://a.example/" }))),
        (
            modern_headers("tools/call", Some("get_site_info")),
            modern_body(
                json!(1),
                "tools/call",
                json!({ "name": "get_site_info", "arguments": { "url": "https://a.example/" } }),
            ),
        ),
    ] {
        let reply = check(
            &headers,
            &body,
            200,
            &[("/result/isError", json!(false)), ("/result/content/0/type", json!("text"))],
        );
        let result = &reply.body.unwrap()["result"];
        let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(&text, &result["structuredContent"]);
        assert!(result["structuredContent"].is_object());
    }
}

#[test]
fn tool_call_params_and_arguments() {
    let fix = Fixture::new();
    let cases: Vec<(String, Vec<(&str, Value)>)> = vec![
        (call_body("no_such_tool", json!({})), vec![("/error/code", json!(INVALID_PARAMS))]),
        (legacy_body(json!(1), "tools/call", json!({})), vec![("/error/code", json!(INVALID_PARAMS))]),
        (legacy_body(json!(1), "tools/call", json!({ "name": 3 })), vec![("/error/code", json!(INVALID_PARAMS))]),
        (call_body("get_site_info", json!([1])), vec![("/error/code", json!(INVALID_PARAMS))]),
        // Argument problems are tool errors an agent can read, not protocol errors.
        (call_body("get_site_info", json!({})), vec![("/result/isError", json!(true)), ("/result/content/0/text", json!("invalid_request: Invalid arguments for get_site_info: missing required argument `url`."))]),
        (legacy_body(json!(1), "tools/call", json!({ "name": "get_site_info" })), vec![("/result/isError", json!(true))]),
        (call_body("get_site_info", json!({ "url": 5 })), vec![("/result/content/0/text", json!("invalid_request: Invalid arguments for get_site_info: argument `url` must be of type string."))]),
        (call_body("get_audit_methodology", json!({ "category": "speed" })), vec![("/result/content/0/text", json!("invalid_request: Invalid arguments for get_audit_methodology: argument `category` must be one of: performance, content, technical."))]),
        (call_body("get_audit_methodology", json!({})), vec![("/result/isError", json!(false))]),
        (call_body("get_audit_methodology", json!({ "category": "content", "extra": 1 })), vec![("/result/isError", json!(false))]),
        (call_body("get_site_info", json!({ "url": "https://unreachable.invalid/" })), vec![("/result/isError", json!(true)), ("/result/structuredContent", json!(ABSENT)), ("/result/content/0/text", json!("the page could not be reached: DNS lookup failed"))]),
    ];
    for (body, expect) in cases {
        check_with(&fix, &Auth::Anonymous, &[], &body, 200, &expect);
    }
    // String lengths count code points, as JSON Schema does: `concept` takes 1 to 10.
    let too_long = |n: usize| {
        format!(
            "invalid_request: Invalid arguments for get_seo_concept: argument `concept` must be at most 10 characters long (got {n})."
        )
    };
    let lengths: Vec<(String, Option<String>)> = vec![
        ("canonical".into(), None),
        ("abcdefghij".into(), None),
        ("abcdefghijk".into(), Some(too_long(11))),
        ("a".into(), None),
        (
            "".into(),
            Some("invalid_request: Invalid arguments for get_seo_concept: argument `concept` must be at least 1 character long.".into()),
        ),
        // Two bytes each: 10 fit although they are 20 bytes.
        ("é".repeat(10), None),
        ("é".repeat(11), Some(too_long(11))),
        // Four bytes and two UTF-16 units each.
        ("😀".repeat(10), None),
        ("😀".repeat(11), Some(too_long(11))),
        // A combining accent is a code point of its own: five accented letters are ten.
        ("e\u{301}".repeat(5), None),
        ("e\u{301}".repeat(5) + "x", Some(too_long(11))),
        ("x".repeat(500), Some(too_long(500))),
    ];
    for (concept, refusal) in lengths {
        let body = call_body("get_seo_concept", json!({ "concept": concept }));
        let expect = match &refusal {
            None => {
                vec![("/result/isError", json!(false)), ("/result/structuredContent/arguments/concept", json!(concept))]
            }
            Some(text) => vec![("/result/isError", json!(true)), ("/result/content/0/text", json!(text))],
        };
        check_with(&fix, &Auth::Anonymous, &[], &body, 200, &expect);
    }
    // A length does not apply to a value of the wrong type: only the type is reported.
    check_with(
        &fix,
        &Auth::Anonymous,
        &[],
        &call_body("get_seo_concept", json!({ "concept": 12345678901_u64 })),
        200,
        &[(
            "/result/content/0/text",
            json!("invalid_request: Invalid arguments for get_seo_concept: argument `concept` must be of type string."),
        )],
    );
    let key = mcp_key();
    let keyed: Vec<(String, &str)> = vec![
        (call_body("generate_fixes", json!({ "url": "u", "topN": 50 })), "invalid_request: Invalid arguments for generate_fixes: argument `topN` must be at most 20."),
        (call_body("generate_fixes", json!({ "url": "u", "topN": 0 })), "invalid_request: Invalid arguments for generate_fixes: argument `topN` must be at least 1."),
        (call_body("generate_fixes", json!({ "url": "u", "depth": 2 })), "invalid_request: Invalid arguments for generate_fixes: unknown argument `depth`."),
        (call_body("generate_fixes", json!({ "topN": "5" })), "invalid_request: Invalid arguments for generate_fixes: missing required argument `url`; argument `topN` must be of type number."),
    ];
    for (body, text) in keyed {
        check_with(
            &fix,
            &key,
            &[],
            &body,
            200,
            &[("/result/isError", json!(true)), ("/result/content/0/text", json!(text))],
        );
    }
    check_with(
        &fix,
        &key,
        &[],
        &call_body("generate_fixes", json!({ "url": "u", "topN": 5 })),
        200,
        &[("/result/isError", json!(false))],
    );
}

#[test]
fn write_tools_need_an_mcp_scoped_key() {
    let fix = Fixture::new();
    let body = call_body("seo_audit", json!({ "url": "https://a.example/" }));
    let refusals = [
        (Auth::Anonymous, "no API key was sent"),
        (Auth::Key { scopes: vec!["audit".into()] }, "this API key lacks the `mcp` scope"),
        (Auth::Key { scopes: vec![] }, "this API key lacks the `mcp` scope"),
    ];
    for (auth, why) in refusals {
        let reply = check_with(
            &fix,
            &auth,
            &[],
            &body,
            200,
            &[("/result/isError", json!(true)), ("/result/structuredContent", json!(ABSENT))],
        );
        let text = reply.body.unwrap()["result"]["content"][0]["text"].as_str().unwrap().to_string();
        assert!(text.contains(why), "{text}");
        assert!(text.contains("ask the operator of this service"), "{text}");
        assert!(!text.contains("keys create"), "{text}");
        assert!(text.starts_with("unauthorized: ") || text.starts_with("forbidden: "), "{text}");
        assert!(text.contains("x-api-key"), "{text}");
    }
    // Refusals run no tool and take no quota, even when the arguments are also wrong.
    check_with(
        &fix,
        &Auth::Anonymous,
        &[],
        &call_body("seo_audit", json!({})),
        200,
        &[("/result/isError", json!(true))],
    );
    assert_eq!((fix.calls.load(Ordering::SeqCst), fix.quota_taken.load(Ordering::SeqCst)), (0, 0));
    // The modern path enforces the same.
    check_with(
        &fix,
        &Auth::Anonymous,
        &modern_headers("tools/call", Some("seo_audit")),
        &modern_body(
            json!(1),
            "tools/call",
            json!({ "name": "seo_audit", "arguments": { "url": "https://a.example/" } }),
        ),
        200,
        &[("/result/isError", json!(true)), ("/result/resultType", json!("complete"))],
    );
    // With the scope the tool runs; public tools run for everyone.
    check_with(
        &fix,
        &mcp_key(),
        &[],
        &body,
        200,
        &[("/result/isError", json!(false)), ("/result/structuredContent/tool", json!("seo_audit"))],
    );
    check_with(
        &fix,
        &Auth::Anonymous,
        &[],
        &call_body("get_seo_concept", json!({ "concept": "canonical" })),
        200,
        &[("/result/isError", json!(false))],
    );
    assert_eq!(fix.calls.load(Ordering::SeqCst), 2);
}

#[test]
fn quota_exceeded_is_a_tool_error_with_rate_limit_headers() {
    let mut fix = Fixture::new();
    let window = RateLimit { limit: 10, remaining: 0, reset_secs: 42 };
    let keyed = |standing| Quota::ExceededFor { window, standing };
    let free = Standing::Below { higher: "pro" };
    // (verdict, caller, advice the text must give, advice it must not give)
    let cases: Vec<(Quota, Auth, &[&str], &[&str])> = vec![
        (
            keyed(Standing::Anonymous),
            Auth::Anonymous,
            &["rate_limited: ", "for anonymous use", "ask the operator", "x-api-key"],
            &["tier raises"],
        ),
        (keyed(free), mcp_key(), &["for this API key", "A key of the pro tier raises the limit"], &["keys create"]),
        (keyed(Standing::Top), mcp_key(), &["for this API key"], &["tier", "keys create", "raises"]),
        // Without a standing the crate knows only whether a key was sent.
        (
            Quota::Exceeded(window),
            Auth::Anonymous,
            &["for anonymous use", "ask the operator"],
            &["tier raises", "keys create"],
        ),
        (Quota::Exceeded(window), mcp_key(), &["for this API key"], &["tier", "keys create", "raises"]),
    ];
    for (quota, auth, wanted, unwanted) in cases {
        fix.quota = quota;
        let reply = check_with(
            &fix,
            &auth,
            &[],
            &call_body("get_site_info", json!({ "url": "https://a.example/" })),
            200,
            &[("/result/isError", json!(true))],
        );
        let text = reply.body.as_ref().unwrap()["result"]["content"][0]["text"].as_str().unwrap().to_string();
        for needle in ["10 requests per minute", "Retry in 42 seconds, when the window resets."].iter().chain(wanted) {
            assert!(text.contains(needle), "{quota:?}: {needle} in {text}");
        }
        for needle in unwanted {
            assert!(!text.contains(needle), "{quota:?}: no {needle} in {text}");
        }
        let headers: BTreeMap<String, String> = reply.headers.into_iter().collect();
        let want: BTreeMap<String, String> = [
            ("x-ratelimit-limit", "10"),
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "42"),
            ("retry-after", "42"),
        ]
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
        assert_eq!(headers, want);
    }
    assert_eq!(fix.calls.load(Ordering::SeqCst), 0, "no tool runs over quota");

    fix.quota = Quota::Granted(RateLimit { limit: 30, remaining: 29, reset_secs: 60 });
    let reply = check_with(
        &fix,
        &Auth::Anonymous,
        &[],
        &call_body("get_site_info", json!({ "url": "https://a.example/" })),
        200,
        &[("/result/isError", json!(false))],
    );
    assert_eq!(reply.headers, RateLimit { limit: 30, remaining: 29, reset_secs: 60 }.headers());
}

#[test]
fn only_tool_calls_consume_quota() {
    let fix = Fixture::new();
    for (method, params, name) in shared_methods() {
        run(&fix, &Auth::Anonymous, &modern_headers(method, name), &modern_body(json!(1), method, params.clone()));
        run(&fix, &Auth::Anonymous, &[], &legacy_body(json!(1), method, params));
    }
    for method in ["initialize", "ping"] {
        run(&fix, &Auth::Anonymous, &[], &legacy_body(json!(1), method, json!({})));
    }
    // Two tools/call (one per era) and nothing else took a unit.
    assert_eq!(fix.quota_taken.load(Ordering::SeqCst), 2);
}

// ---------------------------------------------------------------------------------------
// Refused keys.

#[test]
fn refused_keys_answer_401_or_403_for_every_method() {
    let fix = Fixture::new();
    let rejections = [
        (KeyRejection::Unknown, 401, UNAUTHORIZED, "unknown_key"),
        (KeyRejection::Disabled, 403, FORBIDDEN, "key_disabled"),
        (KeyRejection::Expired, 403, FORBIDDEN, "key_expired"),
    ];
    let mut methods = shared_methods();
    methods.push(("initialize", json!({ "protocolVersion": "2025-11-25" }), None));
    methods.push(("ping", json!({}), None));
    methods.push(("nope", json!({}), None));
    for (rejection, status, code, reason) in rejections {
        let auth = Auth::Rejected(rejection);
        for (method, params, name) in &methods {
            let expect = [("/id", json!("r1")), ("/error/code", json!(code)), ("/error/data/reason", json!(reason))];
            check_with(&fix, &auth, &[], &legacy_body(json!("r1"), method, params.clone()), status, &expect);
            check_with(
                &fix,
                &auth,
                &modern_headers(method, *name),
                &modern_body(json!("r1"), method, params.clone()),
                status,
                &expect,
            );
        }
        check_with(
            &fix,
            &auth,
            &[],
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            status,
            &[("/id", Value::Null), ("/error/code", json!(code))],
        );
        check_with(&fix, &auth, &[], r#"{"method":"tools/list"}"#, status, &[("/id", Value::Null)]);
    }
    assert_eq!((fix.calls.load(Ordering::SeqCst), fix.quota_taken.load(Ordering::SeqCst)), (0, 0));
}

// ---------------------------------------------------------------------------------------
// Pieces.

#[test]
fn string_length_bounds_that_are_not_counts_are_ignored() {
    let check = |prop: Value, value: Value, expected: &[&str]| {
        let schema = json!({ "type": "object", "properties": { "s": prop } });
        let args = json!({ "s": value });
        let problems = crate::args::check(&schema, args.as_object().unwrap());
        assert_eq!(problems, expected, "{schema} with {args}");
    };
    check(json!({ "maxLength": 3 }), json!("abcd"), &["argument `s` must be at most 3 characters long (got 4)"]);
    check(json!({ "maxLength": 0 }), json!(""), &[]);
    check(json!({ "maxLength": 0 }), json!("a"), &["argument `s` must be at most 0 characters long (got 1)"]);
    check(json!({ "minLength": 2, "maxLength": 1 }), json!("a"), &["argument `s` must be at least 2 characters long"]);
    check(json!({ "maxLength": u64::MAX }), json!("abcd"), &[]);
    // Not non-negative integers: not ours to enforce, and no panic.
    for bound in [json!(-1), json!(2.5), json!("3"), json!(null), json!([1])] {
        check(json!({ "maxLength": bound.clone(), "minLength": bound }), json!("abcd"), &[]);
    }
    // Lengths only constrain strings; an untyped property holding a number passes.
    check(json!({ "maxLength": 1 }), json!(12345), &[]);
    // `pattern` is documented as unchecked.
    check(json!({ "pattern": "^[a-z]+$" }), json!("ABC"), &[]);
}

#[test]
fn header_values_decode() {
    let cases: &[(&str, Option<&str>)] = &[
        ("tools/list", Some("tools/list")),
        ("  tools/list\t", Some("tools/list")),
        ("=?base64?dG9vbHMvbGlzdA==?=", Some("tools/list")),
        ("=?BASE64?dG9vbHMvbGlzdA==?=", Some("tools/list")),
        ("=?base64?dG9vbHMvbGlzdA?=", Some("tools/list")),
        (" =?base64?w7xiZXI=?= ", Some("über")),
        ("=?base64?//79?=", None),
        ("=?base64?not base64!?=", None),
        ("=?base64?", Some("=?base64?")),
        ("", Some("")),
    ];
    for (raw, want) in cases {
        assert_eq!(decode_header_value(raw).as_deref(), *want, "{raw:?}");
    }
}

#[test]
fn error_mapping_is_one_table() {
    use Era::{Legacy, Modern};
    let cases: Vec<(Error, Era, i32, u16)> = vec![
        (Error::Parse("x".into()), Modern, -32700, 400),
        (Error::InvalidRequest("x".into()), Legacy, -32600, 400),
        (Error::MethodNotFound("x".into()), Modern, -32601, 404),
        (Error::MethodNotFound("x".into()), Legacy, -32601, 200),
        (Error::InvalidParams("x".into()), Modern, -32602, 200),
        (Error::InvalidMeta("x".into()), Modern, -32602, 400),
        (Error::HeaderMismatch("x".into()), Modern, -32020, 400),
        (Error::UnsupportedVersion { requested: "x".into() }, Legacy, -32022, 400),
        (Error::ResourceNotFound { uri: "x".into() }, Modern, -32602, 200),
        (Error::ResourceNotFound { uri: "x".into() }, Legacy, -32002, 200),
        (Error::KeyRejected(KeyRejection::Unknown), Legacy, -32001, 401),
        (Error::KeyRejected(KeyRejection::Disabled), Modern, -32003, 403),
        (Error::KeyRejected(KeyRejection::Expired), Legacy, -32003, 403),
    ];
    for (error, era, code, status) in cases {
        assert_eq!((error.code(era), error.http_status(era)), (code, status), "{error:?} in {era:?}");
        assert_eq!(error.is_auth(), status == 401 || status == 403);
        let message = error.to_string();
        assert!(
            !message.is_empty() && !message.ends_with('.') && message.starts_with(|c: char| c.is_lowercase()),
            "{message}"
        );
    }
}

#[test]
fn tool_results_serialise_consistently() {
    let ok = ToolResult::success(json!({ "score": 90 }));
    assert_eq!(
        ok.to_json(),
        json!({ "content": [{ "type": "text", "text": "{\"score\":90}" }], "structuredContent": { "score": 90 }, "isError": false })
    );
    let wrapped = ToolResult::success(json!([1, 2]));
    assert_eq!(wrapped.structured(), Some(&json!({ "value": [1, 2] })));
    assert_eq!(wrapped.text(), "{\"value\":[1,2]}");
    let err = ToolResult::error("no");
    assert_eq!(err.to_json(), json!({ "content": [{ "type": "text", "text": "no" }], "isError": true }));
}

#[test]
fn handle_is_send_for_a_send_registry() {
    fn assert_send<T: Send>(_: &T) {}
    let fix = Fixture::new();
    let headers = Vec::new();
    let auth = Auth::Anonymous;
    let req = McpRequest { headers: &headers, body: b"{}", auth: &auth };
    let fut = handle(&req, &fix);
    assert_send(&fut);
    assert_eq!(block_on(fut).status, 400);
}

#[test]
fn definitions_lint() {
    assert_eq!(check_definitions(&Fixture::new()), Vec::<String>::new());
    let mut fix = Fixture::new();
    fix.catalog.tools[0].name = "get site info".into();
    fix.catalog.tools[1].output_schema = json!({ "type": "array" });
    fix.catalog.tools[2].input_schema = json!({ "type": "object", "properties": {}, "required": ["url"] });
    fix.catalog.tools[3].description = " ".into();
    let twin = fix.catalog.tools[4].clone();
    fix.catalog.tools.push(twin);
    fix.catalog.resources.push(resource("svc://checks"));
    fix.catalog.resource_templates.push(fix.catalog.resource_templates[0].clone());
    fix.catalog.prompts.push(prompt("audit_website", &[("a", true), ("a", false)]));
    let problems = check_definitions(&fix);
    let expected = [
        "tool name \"get site info\" is not [A-Za-z0-9_.-]{1,128}",
        "outputSchema of tool \"get_audit_methodology\" is not of type \"object\"",
        "inputSchema of tool \"seo_audit\" requires undeclared property \"url\"",
        "tool \"generate_fixes\" has no description",
        "tool \"get_seo_concept\" is defined twice",
        "resource \"svc://checks\" is defined twice",
        "resource template \"svc://checks/{id}\" is defined twice",
        "prompt \"audit_website\" is defined twice",
        "prompt \"audit_website\" declares argument \"a\" twice",
    ];
    assert_eq!(problems, expected);
}

/// Every truncation and several byte substitutions of valid requests still get a
/// well-formed answer: a known status and a single JSON-RPC message (or 202 with none).
#[test]
fn mangled_requests_never_panic_and_always_get_a_json_rpc_answer() {
    let fix = Fixture::new();
    let seeds: Vec<(Headers, String)> = vec![
        (vec![], legacy_body(json!(1), "initialize", json!({ "protocolVersion": "2025-06-18", "capabilities": {} }))),
        (vec![], call_body("get_site_info", json!({ "url": "https://a.example/" }))),
        (vec![], r#"{"method":"tools/call","params":{"name":"seo_audit","arguments":{"url":"x"}}}"#.to_string()),
        (
            modern_headers("tools/call", Some("get_site_info")),
            modern_body(json!("s"), "tools/call", json!({ "name": "get_site_info", "arguments": { "url": "u" } })),
        ),
        (
            modern_headers("prompts/get", Some("audit_website")),
            modern_body(json!(2), "prompts/get", json!({ "name": "audit_website", "arguments": { "url": "u" } })),
        ),
        (modern_headers("tools/list", None), modern_body(json!(3), "tools/list", json!({ "cursor": "bzoy" }))),
    ];
    let mut runs = 0;
    for (headers, body) in &seeds {
        let bytes = body.as_bytes();
        let mut variants: Vec<Vec<u8>> = (0..bytes.len()).map(|i| bytes[..i].to_vec()).collect();
        for i in 0..bytes.len() {
            for b in [b'"', b'{', b']', b'0', b'-', 0xff] {
                let mut v = bytes.to_vec();
                v[i] = b;
                variants.push(v);
            }
        }
        for v in variants {
            let req = McpRequest { headers, body: &v, auth: &Auth::Anonymous };
            let reply = block_on(handle(&req, &fix));
            runs += 1;
            assert!(
                [200, 202, 400, 404].contains(&reply.status),
                "{} for {:?}",
                reply.status,
                String::from_utf8_lossy(&v)
            );
            match &reply.body {
                None => assert_eq!(reply.status, 202),
                Some(b) => {
                    assert_eq!(b["jsonrpc"], "2.0");
                    assert!(b.get("result").is_some() != b.get("error").is_some(), "{b}");
                    assert!(b.get("id").is_some(), "{b}");
                }
            }
        }
    }
    assert!(runs > 3000, "{runs}");
}
