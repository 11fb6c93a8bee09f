//! Headers + body → `mcp_protocol::handle` with a tiny registry.
//!
//! Input layout: byte 0 picks the key verdict and the quota; then header lines
//! `name: value` up to the first empty line (`\n\n`); the rest is the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_protocol::testing::{block_on, Tiny};
use mcp_protocol::{handle, Auth, KeyRejection, McpRequest, Quota, RateLimit};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let auth = match mode % 5 {
        0 => Auth::Anonymous,
        1 => Auth::Key { scopes: vec!["mcp".into(), "audit".into()] },
        2 => Auth::Key { scopes: vec![] },
        3 => Auth::Rejected(KeyRejection::Unknown),
        _ => Auth::Rejected(KeyRejection::Expired),
    };
    let limit = RateLimit { limit: 10, remaining: 0, reset_secs: 30 };
    let quota = if mode & 0x80 == 0 { Quota::Unlimited } else { Quota::Exceeded(limit) };
    let split = rest.windows(2).position(|w| w == b"\n\n");
    let (head, body) = match split {
        Some(i) => (&rest[..i], &rest[i + 2..]),
        None => (&[][..], rest),
    };
    let headers: Vec<(String, String)> = String::from_utf8_lossy(head)
        .lines()
        .map(|line| match line.split_once(':') {
            Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
            None => (line.to_string(), String::new()),
        })
        .collect();
    let registry = Tiny::new(quota);
    let req = McpRequest { headers: &headers, body, auth: &auth };
    let reply = block_on(handle(&req, &registry));
    assert!(matches!(reply.status, 200 | 202 | 400 | 401 | 403 | 404 | 429), "unexpected status {}", reply.status);
    match &reply.body {
        None => assert_eq!(reply.status, 202),
        Some(body) => {
            assert_eq!(body["jsonrpc"], "2.0");
            assert!(body.get("result").is_some() != body.get("error").is_some(), "{body}");
            let bytes = reply.body_bytes();
            let _: Value = serde_json::from_slice(&bytes).expect("reply body is JSON");
        }
    }
});
