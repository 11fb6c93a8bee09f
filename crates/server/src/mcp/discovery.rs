//! The discovery documents: `/.well-known/mcp.json`, `/.well-known/agent-card.json` and
//! `/.well-known/ai-catalog.json`, the
//! typed documents of [`mcp_protocol::discovery`] built from the catalog the endpoint serves
//! and the identity of [`app::agent`].

use mcp_protocol::discovery::{AgentCard, AiCatalog, Identity, McpDiscovery};
use serde_json::Value;

pub use mcp_protocol::discovery::{
    A2A_VERSION, AGENT_CARD_PATH, AI_CATALOG_PATH, DISCOVERY_PATH, ENDPOINT_PATH, SERVER_CARD_SCHEMA,
};

use super::{catalog, SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE, SERVER_VERSION};

const IDENTITY: Identity<'static> = Identity {
    name: SERVER_NAME,
    title: SERVER_TITLE,
    version: SERVER_VERSION,
    description: SERVER_DESCRIPTION,
    skill_examples: app::agent::skill_examples,
};

/// The `/.well-known/mcp.json` document.
pub fn mcp_json(base_url: &str) -> Value {
    serde_json::to_value(McpDiscovery::new(base_url, &IDENTITY, catalog())).unwrap_or(Value::Null)
}

/// The `/.well-known/agent-card.json` document (A2A 1.0).
pub fn agent_card(base_url: &str) -> Value {
    serde_json::to_value(AgentCard::new(base_url, &IDENTITY, catalog())).unwrap_or(Value::Null)
}

/// The `/.well-known/ai-catalog.json` document: the two documents above as catalog entries.
pub fn ai_catalog(base_url: &str) -> Value {
    serde_json::to_value(AiCatalog::new(base_url, &IDENTITY, catalog())).unwrap_or(Value::Null)
}
