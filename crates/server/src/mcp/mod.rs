//! The catalog of the agent-tool endpoint: what `POST /api/mcp` offers, as pure,
//! deterministic data the server's [`mcp_protocol::Registry`] hands out.
//!
//! - [`calls::tool_defs`]: the tools of docs/API.md with input and output schemas (the
//!   output schemas are the contract of each tool's `structuredContent`).
//! - [`methodology::methodology`] / [`methodology::methodology_markdown`]: the scoring
//!   explanation, generated from the rule table.
//! - [`glossary::concept`]: the forgiving SEO glossary behind get_seo_concept.
//! - [`resources::resource_defs`], [`resources::resource_template_defs`],
//!   [`resources::read_resource`]: the `svc://` resources, mapped from
//!   [`app::agent::resources`] (their catalogue and typed contents).
//! - [`prompts::prompt_defs`] / [`prompts::get_prompt`]: the four prompts, mapped from
//!   [`app::agent::prompts`] (their texts and argument checks).
//! - [`discovery::mcp_json`] / [`discovery::agent_card`]: the `.well-known` documents.
//! - [`server_info`]: name, version and the instructions agents read first
//!   ([`app::agent`]).
//!
//! - [`registry::McpRegistry`]: the [`mcp_protocol::Registry`] of one request (quota on the
//!   shared limiter, `tools/call` dispatched to one function per tool in [`calls`]).
//!
//! Apart from `registry` and `calls`, nothing here does I/O.

pub mod calls;
pub mod discovery;
/// The SEO glossary lives in the application crate (SEO knowledge, not HTTP).
pub use app::glossary;
/// How the audit scores a page lives in the application crate (SEO knowledge, not JSON-RPC).
pub use app::methodology;
pub mod prompts;
pub mod registry;
pub mod resources;
pub mod tools;

pub use registry::catalog;

use mcp_protocol::ServerInfo;

/// Identity and instructions are the application's ([`app::agent`]).
pub use app::agent::{INSTRUCTIONS, SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE, SERVER_VERSION};

/// Identity and instructions of the tool server, with the default caching policy.
pub fn server_info() -> ServerInfo {
    ServerInfo::new(SERVER_NAME, SERVER_VERSION, INSTRUCTIONS)
}
