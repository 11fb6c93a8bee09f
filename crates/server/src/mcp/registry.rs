//! [`McpRegistry`]: the server's side of [`mcp_protocol::Registry`] for one request: the
//! catalog (tools, resources, prompts), the caller's identity, the application's charge of
//! each call (on the limiter the REST endpoints use) in the protocol's terms, and the
//! dispatch of `tools/call` to one function per tool in [`super::calls`].

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

    /// The call's unit, charged by the application ([`app::App::charge_call`]: one unit on
    /// the limiter of the REST endpoints, nothing for the status polls), answered in the
    /// protocol's terms.
    async fn take_quota(&self, tool: &str, _ctx: &CallContext<'_>) -> Quota {
        use app::quota::{CallCharge, Decision, Payer, Raise};
        let window = |d: Decision| RateLimit { limit: d.limit, remaining: d.remaining, reset_secs: d.reset_s };
        let limiter = std::sync::Arc::clone(&self.state.limiter);
        let payer = Payer::new(self.identity.clone(), limiter, &self.state.config.rate_limits);
        match self.state.app.charge_call(tool, &payer).await {
            CallCharge::Free => Quota::Unlimited,
            CallCharge::Granted(decision) => Quota::Granted(window(decision)),
            CallCharge::Refused { decision, raise } => {
                let standing = match raise {
                    Raise::Key => Standing::Anonymous,
                    Raise::Tier(tier) => Standing::Below { higher: tier.as_str() },
                    Raise::Nothing => Standing::Top,
                };
                Quota::ExceededFor { window: window(decision), standing }
            }
        }
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
