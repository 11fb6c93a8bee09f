//! The discovery documents: `/.well-known/mcp.json` (the tool-server descriptor merged with the
//! experimental MCP server card) and `/.well-known/agent-card.json` (A2A 1.0). Both are
//! generated from the same tool, resource and prompt tables the endpoint serves.

use mcp_protocol::{Category, MODERN_VERSION, SUPPORTED_VERSIONS};
use serde_json::{json, Value};

use super::calls::tool_defs;
use super::prompts::prompt_defs;
use super::resources::{resource_defs, resource_template_defs};
use super::{SERVER_DESCRIPTION, SERVER_NAME, SERVER_TITLE, SERVER_VERSION};

/// Path of the agent-tool endpoint.
pub const ENDPOINT_PATH: &str = "/api/mcp";
/// Path of the MCP discovery document.
pub const DISCOVERY_PATH: &str = "/.well-known/mcp.json";
/// Path of the A2A agent card.
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";
/// JSON Schema of the experimental MCP server card (SEP-2127).
pub const SERVER_CARD_SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/// A2A protocol version the agent card follows.
pub const A2A_VERSION: &str = "1.0";
/// Name of the API key scheme in the agent card.
const KEY_SCHEME: &str = "apiKey";

fn base(base_url: &str) -> &str {
    base_url.trim_end_matches('/')
}

fn category_name(c: Category) -> &'static str {
    match c {
        Category::Public => "public",
        Category::Write => "write",
    }
}

fn key_header_description() -> String {
    format!(
        "API key for the write tools and higher limits; public tools work without it. To get one, {}.",
        mcp_protocol::KEY_HELP
    )
}

/// The `/.well-known/mcp.json` document.
pub fn mcp_json(base_url: &str) -> Value {
    let base = base(base_url);
    let endpoint = format!("{base}{ENDPOINT_PATH}");
    let tools: Vec<Value> = tool_defs()
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "title": t.title,
                "description": t.description,
                "category": category_name(t.category),
                "inputSchema": t.input_schema,
                "annotations": t.annotations,
            })
        })
        .collect();
    let resources: Vec<Value> = resource_defs()
        .iter()
        .map(|r| json!({ "uri": r.uri, "name": r.name, "description": r.description, "mimeType": r.mime_type }))
        .collect();
    let templates: Vec<Value> = resource_template_defs()
        .iter()
        .map(|r| {
            json!({ "uriTemplate": r.uri_template, "name": r.name, "description": r.description, "mimeType": r.mime_type })
        })
        .collect();
    let prompts: Vec<Value> = prompt_defs()
        .iter()
        .map(|p| {
            let args: Vec<Value> = p
                .arguments
                .iter()
                .map(|a| json!({ "name": a.name, "description": a.description, "required": a.required }))
                .collect();
            json!({ "name": p.name, "description": p.description, "arguments": args })
        })
        .collect();
    json!({
        "$schema": SERVER_CARD_SCHEMA,
        "name": SERVER_NAME,
        "title": SERVER_TITLE,
        "version": SERVER_VERSION,
        "description": SERVER_DESCRIPTION,
        "protocol": MODERN_VERSION,
        "endpoint": endpoint,
        "discovery": format!("{base}{DISCOVERY_PATH}"),
        "agentCard": format!("{base}{AGENT_CARD_PATH}"),
        "websiteUrl": base,
        "remotes": [{
            "type": "streamable-http",
            "url": endpoint,
            "supportedProtocolVersions": SUPPORTED_VERSIONS,
            "headers": [{
                "name": "x-api-key",
                "description": key_header_description(),
                "isRequired": false,
                "isSecret": true,
            }],
        }],
        "capabilities": { "tools": {}, "resources": {}, "prompts": {} },
        "tools": tools,
        "resources": resources,
        "resourceTemplates": templates,
        "prompts": prompts,
    })
}

/// The `/.well-known/agent-card.json` document (A2A 1.0).
pub fn agent_card(base_url: &str) -> Value {
    let base = base(base_url);
    let skills: Vec<Value> = tool_defs()
        .iter()
        .map(|t| {
            let category = category_name(t.category);
            let mut tags = vec!["seo", category];
            if t.annotations.read_only_hint {
                tags.push("read-only");
            }
            let mut skill = json!({
                "id": t.name,
                "name": t.title,
                "description": t.description,
                "tags": tags,
                "examples": app::agent::skill_examples(&t.name),
                "inputModes": ["application/json"],
                "outputModes": ["application/json"],
            });
            if t.category == Category::Write {
                if let Some(obj) = skill.as_object_mut() {
                    obj.insert("securityRequirements".into(), json!([{ "schemes": { KEY_SCHEME: { "list": [] } } }]));
                }
            }
            skill
        })
        .collect();
    json!({
        "name": SERVER_NAME,
        "description": format!(
            "{SERVER_DESCRIPTION} Its interface is the MCP endpoint {base}{ENDPOINT_PATH} (JSON-RPC 2.0, MCP {MODERN_VERSION} and the 2025 revisions); each skill is one MCP tool."
        ),
        "version": SERVER_VERSION,
        "supportedInterfaces": [{
            "url": format!("{base}{ENDPOINT_PATH}"),
            "protocolBinding": "JSONRPC",
            "protocolVersion": A2A_VERSION,
        }],
        "provider": { "organization": SERVER_TITLE, "url": base },
        "documentationUrl": format!("{base}{DISCOVERY_PATH}"),
        "capabilities": { "streaming": false, "pushNotifications": false, "extendedAgentCard": false },
        "securitySchemes": {
            KEY_SCHEME: {
                "apiKeySecurityScheme": {
                    "location": "header",
                    "name": "x-api-key",
                    "description": key_header_description(),
                }
            }
        },
        "defaultInputModes": ["application/json", "text/plain"],
        "defaultOutputModes": ["application/json", "text/plain"],
        "skills": skills,
    })
}
