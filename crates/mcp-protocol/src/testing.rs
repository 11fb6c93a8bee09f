//! A tiny registry and an executor for the crate's property tests and its fuzz target, so
//! both drive [`crate::handle`] the same way. Not part of the API other crates should use.

use std::collections::BTreeMap;
use std::future::Future;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Map, Value};

use crate::{
    CallContext, Catalog, Category, PromptArgument, PromptDef, PromptMessage, PromptMessages, Quota, Registry,
    ResourceContents, ResourceDef, ResourceTemplateDef, Role, ServerInfo, ToolAnnotations, ToolDef, ToolResult,
};

/// The registry's futures never wait, so polling with a no-op waker finishes them.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Two tools (one public, one write), one resource, one template, one prompt; tools echo their
/// arguments; the quota answer is fixed at construction.
#[derive(Debug)]
pub struct Tiny {
    catalog: Catalog,
    quota: Quota,
}

impl Tiny {
    /// A registry that answers every quota request with `quota`.
    pub fn new(quota: Quota) -> Self {
        let tool = |name: &str, category: Category| ToolDef {
            name: name.into(),
            title: name.into(),
            description: format!("Does {name}."),
            input_schema: json!({ "type": "object", "properties": { "url": { "type": "string" },
                "n": { "type": "number", "minimum": 1, "maximum": 5 },
                "kind": { "type": "string", "enum": ["a", "b"] },
                "label": { "type": "string", "minLength": 2, "maxLength": 4 } }, "required": ["url"] }),
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
            catalog: Catalog {
                info: ServerInfo::new("fuzz", "0.0.0", "Fuzz registry."),
                tools: vec![tool("get_site_info", Category::Public), tool("seo_audit", Category::Write)],
                resources: vec![ResourceDef {
                    uri: "svc://methodology".into(),
                    name: "methodology".into(),
                    description: "How.".into(),
                    mime_type: "text/markdown".into(),
                }],
                resource_templates: vec![ResourceTemplateDef {
                    uri_template: "svc://checks/{id}".into(),
                    name: "check".into(),
                    description: "One check.".into(),
                    mime_type: "application/json".into(),
                }],
                prompts: vec![PromptDef {
                    name: "audit_website".into(),
                    description: "Audit.".into(),
                    arguments: vec![PromptArgument {
                        name: "url".into(),
                        description: "the url".into(),
                        required: true,
                    }],
                }],
            },
            quota,
        }
    }
}

impl Registry for Tiny {
    fn catalog(&self) -> &Catalog {
        &self.catalog
    }
    fn page_size(&self) -> usize {
        1
    }
    async fn take_quota(&self, _tool: &str, _ctx: &CallContext<'_>) -> Quota {
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
