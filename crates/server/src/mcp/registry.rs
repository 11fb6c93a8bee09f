//! [`McpRegistry`]: the server's side of [`mcp_protocol::Registry`] for one request: the
//! catalog (tools, resources, prompts), the caller's identity, quota on the limiter the
//! REST endpoints use, and the dispatch of `tools/call` to one function per tool in
//! [`super::calls`].

use std::collections::BTreeMap;
use std::sync::LazyLock;

use mcp_protocol::{
    CallContext, Catalog, PromptMessages, Quota, RateLimit, Registry, ResourceContents, Standing, ToolResult,
};
use serde_json::{Map, Value};

use super::calls::{self, ToolEnv};
use super::{prompts, resources, server_info};
use crate::auth::Identity;
use crate::state::AppState;

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog {
    info: server_info(),
    tools: calls::tool_defs(),
    resources: resources::resource_defs(),
    resource_templates: resources::resource_template_defs(),
    prompts: prompts::prompt_defs(),
});

/// The agent-tool catalog (tools, resources, templates, prompts): pure data, built once.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The registry of one request to `POST /api/mcp`.
#[derive(Debug, Clone)]
pub struct McpRegistry {
    state: AppState,
    identity: Identity,
}

impl McpRegistry {
    /// A registry acting for `identity` (a key, or the client address when anonymous).
    pub fn new(state: AppState, identity: Identity) -> McpRegistry {
        McpRegistry { state, identity }
    }
}

impl Registry for McpRegistry {
    fn catalog(&self) -> &Catalog {
        &CATALOG
    }

    /// One unit on the same limiter, identity and limit as the REST endpoints
    /// ([`crate::consume_quota`]), so REST and tool calls share one quota; nothing for the
    /// status polls [`app::agent::tools::free_of_quota`] names (docs/API.md, "Quota").
    async fn take_quota(&self, tool: &str, _ctx: &CallContext<'_>) -> Quota {
        if app::agent::tools::free_of_quota(tool) {
            return Quota::Unlimited;
        }
        let limit = self.identity.rate_limit(&self.state.config.rate_limits);
        let d = self.state.limiter.consume(&self.identity.label(), 1, limit).await;
        let window = RateLimit { limit: d.limit, remaining: d.remaining, reset_secs: d.reset_s };
        if d.allowed {
            return Quota::Granted(window);
        }
        if let Some(metrics) = &self.state.metrics {
            metrics.rate_limited(self.identity.tier_label());
        }
        // What would raise the limit: a key, a higher tier, or nothing but waiting (a pro
        // key, or a free key whose own limit already reaches pro's).
        let standing = match &self.identity {
            Identity::Anonymous { .. } => Standing::Anonymous,
            Identity::Key(k) if k.tier == app::Tier::Free && limit < self.state.config.rate_limits.pro => {
                Standing::Below { higher: app::Tier::Pro.as_str() }
            }
            Identity::Key(_) => Standing::Top,
        };
        Quota::ExceededFor { window, standing }
    }

    async fn call_tool(&self, name: &str, arguments: Map<String, Value>, ctx: &CallContext<'_>) -> ToolResult {
        let env = ToolEnv { state: &self.state, identity: &self.identity, protocol: ctx };
        match calls::find(name) {
            Some(tool) => (tool.call)(&env, arguments).await,
            // The protocol layer only calls names of the catalog, which is this table.
            None => calls::tool_error("internal", format!("The tool {name:?} has no implementation.")),
        }
    }

    async fn read_resource(&self, uri: &str) -> Option<ResourceContents> {
        resources::read_resource(uri)
    }

    fn get_prompt(&self, name: &str, arguments: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
        prompts::get_prompt(name, arguments)
    }
}
