//! Property tests of [`mcp_protocol::handle`]: whatever the headers and body, it never
//! panics, answers one of the statuses MCP.md allows, and the body is one JSON-RPC
//! response (none for 202).

use base64::Engine;
use mcp_protocol::testing::{block_on, Tiny};
use mcp_protocol::{
    handle, Auth, KeyRejection, McpRequest, Quota, RateLimit, Standing, HEADER_METHOD, HEADER_NAME,
    HEADER_PROTOCOL_VERSION, LEGACY_VERSIONS, MODERN_VERSION,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn auth() -> impl Strategy<Value = Auth> {
    prop_oneof![
        Just(Auth::Anonymous),
        Just(Auth::Key { scopes: vec!["mcp".into(), "audit".into()] }),
        Just(Auth::Key { scopes: vec![] }),
        Just(Auth::Rejected(KeyRejection::Unknown)),
        Just(Auth::Rejected(KeyRejection::Disabled)),
        Just(Auth::Rejected(KeyRejection::Expired)),
    ]
}

fn quota() -> impl Strategy<Value = Quota> {
    let limit = RateLimit { limit: 10, remaining: 0, reset_secs: 30 };
    let over = |standing| Quota::ExceededFor { window: limit, standing };
    prop_oneof![
        Just(Quota::Unlimited),
        Just(Quota::Granted(limit)),
        Just(Quota::Exceeded(limit)),
        Just(over(Standing::Anonymous)),
        Just(over(Standing::Below { higher: "pro" })),
        Just(over(Standing::Top)),
    ]
}

/// Method names: real ones, near misses and noise.
fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "initialize",
            "notifications/initialized",
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "prompts/list",
            "prompts/get",
            "server/discover",
            "completion/complete",
            "logging/setLevel",
            "notifications/cancelled",
        ])
        .prop_map(String::from),
        "[ -~]{0,20}",
    ]
}

fn version() -> impl Strategy<Value = String> {
    let mut known: Vec<String> = LEGACY_VERSIONS.iter().map(|v| v.to_string()).collect();
    known.push(MODERN_VERSION.to_string());
    prop_oneof![prop::sample::select(known), "[0-9-]{0,12}", "\\PC{0,8}"]
}

/// A header value, plain or in the `=?base64?...?=` form (valid or not).
fn header_value(inner: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    inner.prop_flat_map(|v| {
        let encoded = format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(v.as_bytes()));
        prop_oneof![Just(v.clone()), Just(encoded), Just(format!("  {v}  ")), "=\\?base64\\?[ -~]{0,12}\\?="]
    })
}

fn headers() -> impl Strategy<Value = Vec<(String, String)>> {
    let mcp = prop_oneof![
        header_value(version()).prop_map(|v| (HEADER_PROTOCOL_VERSION.to_string(), v)),
        header_value(method()).prop_map(|v| ("Mcp-Method".to_string(), v)),
        header_value(method()).prop_map(|v| (HEADER_METHOD.to_string(), v)),
        header_value("[a-z_:/{}]{0,16}".prop_map(String::from)).prop_map(|v| (HEADER_NAME.to_string(), v)),
        ("[A-Za-z-]{0,16}", "\\PC{0,16}").prop_map(|(n, v)| (n, v)),
    ];
    prop::collection::vec(mcp, 0..6)
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "\\PC{0,16}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{0,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// JSON-RPC-shaped requests with the members MCP looks at, any of them wrong.
fn rpc_object() -> impl Strategy<Value = Value> {
    let id = prop_oneof![Just(None), Just(Some(json!(1))), Just(Some(json!("a"))), json_value().prop_map(Some)];
    let params = prop_oneof![
        Just(None),
        json_value().prop_map(Some),
        (prop::sample::select(vec!["get_site_info", "seo_audit", "nope", "audit_website", "svc://methodology", "svc://checks/x"]),
            json_value(), version(), prop::option::of("[ -~]{0,12}"))
            .prop_map(|(name, args, v, cursor)| {
                let mut p = json!({ "name": name, "uri": name, "arguments": args, "_meta": { "io.modelcontextprotocol/protocolVersion": v } });
                if let Some(c) = cursor { p["cursor"] = json!(c); }
                Some(p)
            }),
        json_value().prop_map(|args| Some(json!({ "name": "get_site_info", "arguments": { "url": args } }))),
    ];
    (prop_oneof![Just(json!("2.0")), json_value()], method(), id, params).prop_map(|(jsonrpc, method, id, params)| {
        let mut obj = json!({ "jsonrpc": jsonrpc, "method": method });
        if let Some(id) = id {
            obj["id"] = id;
        }
        if let Some(p) = params {
            obj["params"] = p;
        }
        obj
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        rpc_object().prop_map(|v| v.to_string().into_bytes()),
        rpc_object().prop_map(|v| v.to_string().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn handle_always_answers_json_rpc(headers in headers(), body in body(), auth in auth(), quota in quota()) {
        let registry = Tiny::new(quota);
        let req = McpRequest { headers: &headers, body: &body, auth: &auth };
        let reply = block_on(handle(&req, &registry));
        prop_assert!(
            matches!(reply.status, 200 | 202 | 400 | 401 | 403 | 404 | 429),
            "status {} for {:?}", reply.status, String::from_utf8_lossy(&body)
        );
        if !matches!(quota, Quota::Exceeded(_) | Quota::ExceededFor { .. }) {
            prop_assert_ne!(reply.status, 429);
        }
        match &reply.body {
            None => prop_assert_eq!(reply.status, 202),
            Some(value) => {
                prop_assert_eq!(&value["jsonrpc"], &json!("2.0"));
                prop_assert!(value.get("id").is_some(), "no id: {}", value);
                prop_assert!(value.get("result").is_some() != value.get("error").is_some(), "{}", value);
                if let Some(error) = value.get("error") {
                    prop_assert!(error["code"].is_i64() && error["message"].is_string(), "{}", value);
                }
                let bytes = reply.body_bytes();
                prop_assert_eq!(&serde_json::from_slice::<Value>(&bytes).expect("JSON body"), value);
            }
        }
        let again = block_on(handle(&req, &Tiny::new(quota)));
        prop_assert_eq!(again, reply, "same request, different reply");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `label` takes 2 to 4 characters: a call is refused exactly when the string's length in
    /// code points (not bytes, not UTF-16 units) falls outside, and the refusal says which bound.
    #[test]
    fn string_lengths_count_code_points(label in "\\PC{0,6}") {
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "get_site_info", "arguments": { "url": "u", "label": label } } }).to_string();
        let req = McpRequest { headers: &[], body: body.as_bytes(), auth: &Auth::Anonymous };
        let reply = block_on(handle(&req, &Tiny::new(Quota::Unlimited)));
        let result = &reply.body.expect("a body")["result"];
        let n = label.chars().count();
        prop_assert_eq!(&result["isError"], &json!(!(2..=4).contains(&n)), "{} characters: {}", n, result);
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        if n < 2 {
            prop_assert!(text.ends_with("argument `label` must be at least 2 characters long."), "{}", text);
        } else if n > 4 {
            let want = format!("argument `label` must be at most 4 characters long (got {n}).");
            prop_assert!(text.ends_with(&want), "{}", text);
        }
    }
}
