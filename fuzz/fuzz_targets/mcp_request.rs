//! Headers + body → `mcp_protocol::handle` with a tiny registry.
//!
//! Input layout: byte 0 picks the key verdict and the quota; then header lines
//! `name: value` up to the first empty line (`\n\n`); the rest is the body.
#![no_main]

use std::collections::BTreeMap;
use std::future::Future;
use std::task::{Context, Poll, Waker};

use libfuzzer_sys::fuzz_target;
use mcp_protocol::{
    handle, Auth, CallContext, Category, KeyRejection, McpRequest, PromptArgument, PromptDef, PromptMessage,
    PromptMessages, Quota, RateLimit, Registry, ResourceContents, ResourceDef, ResourceTemplateDef, Role, ServerInfo,
    ToolAnnotations, ToolDef, ToolResult,
};
use serde_json::{json, Map, Value};

/// The registry's futures never wait, so polling with a no-op waker finishes them.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

struct Tiny {
    info: ServerInfo,
    tools: Vec<ToolDef>,
    resources: Vec<ResourceDef>,
    templates: Vec<ResourceTemplateDef>,
    prompts: Vec<PromptDef>,
    quota: Quota,
}

impl Tiny {
    fn new(quota: Quota) -> Self {
        let tool = |name: &str, category: Category| ToolDef {
            name: name.into(),
            title: name.into(),
            description: format!("Does {name}."),
            input_schema: json!({ "type": "object", "properties": { "url": { "type": "string" },
                "n": { "type": "number", "minimum": 1, "maximum": 5 },
                "kind": { "type": "string", "enum": ["a", "b"] } }, "required": ["url"] }),
            output_schema: json!({ "type": "object" }),
            annotations: ToolAnnotations {
                read_only_hint: category == Category::Public,
                open_world_hint: category == Category::Write,
                destructive_hint: (category == Category::Write).then_some(false),
                idempotent_hint: None,
            },
            category,
        };
        Tiny {
            info: ServerInfo::new("fuzz", "0.0.0", "Fuzz registry."),
            tools: vec![tool("get_site_info", Category::Public), tool("seo_audit", Category::Write)],
            resources: vec![ResourceDef {
                uri: "svc://methodology".into(),
                name: "methodology".into(),
                description: "How.".into(),
                mime_type: "text/markdown".into(),
            }],
            templates: vec![ResourceTemplateDef {
                uri_template: "svc://checks/{id}".into(),
                name: "check".into(),
                description: "One check.".into(),
                mime_type: "application/json".into(),
            }],
            prompts: vec![PromptDef {
                name: "audit_website".into(),
                description: "Audit.".into(),
                arguments: vec![PromptArgument { name: "url".into(), description: "the url".into(), required: true }],
            }],
            quota,
        }
    }
}

impl Registry for Tiny {
    fn server_info(&self) -> &ServerInfo {
        &self.info
    }
    fn tools(&self) -> &[ToolDef] {
        &self.tools
    }
    fn resources(&self) -> &[ResourceDef] {
        &self.resources
    }
    fn resource_templates(&self) -> &[ResourceTemplateDef] {
        &self.templates
    }
    fn prompts(&self) -> &[PromptDef] {
        &self.prompts
    }
    fn page_size(&self) -> usize {
        1
    }
    fn take_quota(&self, _ctx: &CallContext<'_>) -> Quota {
        self.quota
    }
    async fn call_tool(&self, name: &str, arguments: Map<String, Value>, _ctx: &CallContext<'_>) -> ToolResult {
        ToolResult::success(json!({ "tool": name, "arguments": arguments }))
    }
    async fn read_resource(&self, uri: &str) -> Option<ResourceContents> {
        (uri == "svc://methodology" || uri.starts_with("svc://checks/")).then(|| ResourceContents {
            uri: uri.into(),
            mime_type: "text/markdown".into(),
            text: "# x".into(),
        })
    }
    fn get_prompt(&self, _name: &str, arguments: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
        let url = arguments.get("url").cloned().unwrap_or_default();
        Ok(PromptMessages { description: None, messages: vec![PromptMessage { role: Role::User, text: url }] })
    }
}

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
