//! The server's side of the contract: what it offers, who is calling, how much quota is left.

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::{Map, Value};

use crate::defs::{
    PromptDef, PromptMessages, ResourceContents, ResourceDef, ResourceTemplateDef, ServerInfo, ToolDef, ToolResult,
    DEFAULT_PAGE_SIZE,
};
use crate::error::KeyRejection;
use crate::version::Era;

/// The scope a key needs for write tools.
pub const MCP_SCOPE: &str = vocab::Scope::Mcp.name();

/// How a caller gets a key that unlocks write tools and raises limits; quoted in the
/// tool results that refuse a call for want of a key or of quota.
pub const KEY_HELP: &str = "ask the operator of this service for one (keys are issued on the service's host, not over the network) and send it in the x-api-key header";

/// What the server found out about the `x-api-key` header before calling [`crate::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// No `x-api-key` header: public tools only, limited by client address.
    Anonymous,
    /// A valid, enabled, unexpired key and its scopes.
    Key {
        /// Scopes granted to the key (`audit`, `mcp`, `webhooks`).
        scopes: Vec<String>,
    },
    /// A key header that is present but refused: every method answers 401 or 403.
    Rejected(KeyRejection),
}

impl Auth {
    /// True when the caller holds a valid key with `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        matches!(self, Auth::Key { scopes } if scopes.iter().any(|s| s == scope))
    }
}

/// The caller's rate-limit window, as the `x-ratelimit-*` headers report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests allowed per window (minute).
    pub limit: u32,
    /// Requests left in the current window, after this one.
    pub remaining: u32,
    /// Seconds until the window resets.
    pub reset_secs: u64,
}

impl RateLimit {
    /// `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`.
    pub fn headers(&self) -> Vec<(String, String)> {
        vec![
            ("x-ratelimit-limit".to_string(), self.limit.to_string()),
            ("x-ratelimit-remaining".to_string(), self.remaining.to_string()),
            ("x-ratelimit-reset".to_string(), self.reset_secs.to_string()),
        ]
    }
}

/// The limiter's verdict on one `tools/call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quota {
    /// No limit applies (e.g. a test registry or an operator-exempt key).
    Unlimited,
    /// One unit was taken; the headers report what is left.
    Granted(RateLimit),
    /// Nothing was taken: the window is used up, and the caller's tier is not known. The
    /// answer suggests a key to an anonymous caller and nothing but waiting to a keyed
    /// one (it might already hold the top tier). Prefer [`Quota::ExceededFor`].
    Exceeded(RateLimit),
    /// Nothing was taken: the window is used up for a caller of this [`Standing`], which
    /// decides the advice of the answer: create a key, get one of a higher tier, or wait.
    ExceededFor {
        /// The used-up window, reported in the headers and `Retry-After`.
        window: RateLimit,
        /// Where the caller stands among the limit tiers.
        standing: Standing,
    },
}

/// Where a caller stands among the limit tiers, as the server knows them, for the advice
/// of an over-quota answer. The tiers and their order are the server's, so it names the
/// higher tier itself rather than the crate knowing the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// No key: any API key raises the limit ([`KEY_HELP`]).
    Anonymous,
    /// A key that a key of a higher tier would outrank.
    Below {
        /// The tier to ask the operator for, as the CLI spells it (`"pro"`).
        higher: &'static str,
    },
    /// A key no tier outranks: only the next window helps.
    Top,
}

/// What the crate knows about the request, handed to the server's hooks.
#[derive(Debug, Clone, Copy)]
pub struct CallContext<'a> {
    /// Era of the request.
    pub era: Era,
    /// Protocol version the request speaks (from `_meta`, the header, or assumed).
    pub protocol_version: &'a str,
    /// The caller's key status.
    pub auth: &'a Auth,
}

/// What a server offers, as data: its identity and every definition the list methods page
/// through and calls are checked against. Lists keep a fixed order: paging cursors are
/// offsets into them. Usually built once and lent by every [`Registry`].
#[derive(Debug, Clone)]
pub struct Catalog {
    /// Identity and caching policy.
    pub info: ServerInfo,
    /// All tools.
    pub tools: Vec<ToolDef>,
    /// All fixed resources.
    pub resources: Vec<ResourceDef>,
    /// All resource templates.
    pub resource_templates: Vec<ResourceTemplateDef>,
    /// All prompts.
    pub prompts: Vec<PromptDef>,
}

impl Catalog {
    /// A catalog with nothing in it yet.
    pub fn new(info: ServerInfo) -> Catalog {
        Catalog { info, tools: Vec::new(), resources: Vec::new(), resource_templates: Vec::new(), prompts: Vec::new() }
    }
}

/// Everything the server offers ([`Catalog`]) and does.
///
/// Calls, reads and prompt rendering are the server's (they do I/O); the crate has
/// already checked names, required arguments, key scope and quota when it calls them.
pub trait Registry: Send + Sync {
    /// The definitions this server offers.
    fn catalog(&self) -> &Catalog;

    /// Items per list page.
    fn page_size(&self) -> usize {
        DEFAULT_PAGE_SIZE
    }

    /// Takes one unit of the caller's quota for a `tools/call` of the tool `tool` about to
    /// run. Called once per call that passed every other check; never for lists, reads,
    /// prompts or discovery. A tool the server keeps free of quota answers
    /// [`Quota::Unlimited`]. Over quota, answer [`Quota::ExceededFor`] so the refusal advises
    /// the caller rightly.
    fn take_quota(&self, tool: &str, ctx: &CallContext<'_>) -> impl Future<Output = Quota> + Send;

    /// Runs a tool. `arguments` already satisfy the `required`, `type`, `enum`,
    /// `minimum`/`maximum`, `minLength`/`maxLength` and `additionalProperties: false`
    /// constraints of its input schema (not `pattern`).
    fn call_tool(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        ctx: &CallContext<'_>,
    ) -> impl Future<Output = ToolResult> + Send;

    /// Reads a resource; `None` when the URI names nothing (answered as not found).
    fn read_resource(&self, uri: &str) -> impl Future<Output = Option<ResourceContents>> + Send;

    /// Renders a prompt whose required arguments are present. `Err` carries a message
    /// for an argument value the prompt cannot use (answered with -32602).
    fn get_prompt(&self, name: &str, arguments: &BTreeMap<String, String>) -> Result<PromptMessages, String>;
}
