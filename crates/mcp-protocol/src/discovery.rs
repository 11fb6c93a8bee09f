//! The discovery documents of an MCP server, as typed values: `/.well-known/mcp.json` (the
//! tool-server descriptor merged with the experimental MCP server card, [`McpDiscovery`])
//! and `/.well-known/agent-card.json` (A2A 1.0, [`AgentCard`]). Both are built from the
//! [`Catalog`] the endpoint serves, so they list what `tools/list` lists; their JSON
//! Schemas (schemars) are the ones the OpenAPI document gives.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::{
    Catalog, Category, PromptDef, ResourceDef, ResourceTemplateDef, ToolAnnotations, KEY_HELP, MODERN_VERSION,
    SUPPORTED_VERSIONS,
};

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
/// Where the AI catalog is served (Lighthouse's agentic-browsing audits look there).
pub const AI_CATALOG_PATH: &str = "/.well-known/ai-catalog.json";
/// The AI catalog format version written.
pub const AI_CATALOG_VERSION: &str = "1.0";

/// The header that carries an API key.
const KEY_HEADER: &str = "x-api-key";

/// Who the server is, as the discovery documents name it.
#[derive(Debug, Clone, Copy)]
pub struct Identity<'a> {
    /// Machine name.
    pub name: &'a str,
    /// Human name.
    pub title: &'a str,
    /// Version of the descriptor.
    pub version: &'a str,
    /// One sentence on what the server does.
    pub description: &'a str,
    /// Example requests of a tool's skill in the agent card.
    pub skill_examples: fn(&str) -> &'static [&'static str],
}

/// `/.well-known/ai-catalog.json`: the agent-facing artifacts of the server, each an entry an
/// agent can fetch (the MCP server card and the A2A agent card).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "AiCatalog")]
pub struct AiCatalog {
    /// The catalog format version ([`AI_CATALOG_VERSION`]).
    pub spec_version: String,
    /// One entry per artifact.
    pub entries: Vec<AiCatalogEntry>,
}

/// One artifact of the AI catalog.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "AiCatalogEntry")]
pub struct AiCatalogEntry {
    /// `urn:air:<publisher>:<namespace>:<name>`: the publisher is the server's host.
    pub identifier: String,
    /// Human name.
    pub display_name: String,
    /// What it is for.
    pub description: String,
    /// The kind of artifact (`mcp-server`, `a2a-agent`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Where the artifact's document is.
    pub url: String,
    /// Requests it answers, as a user would word them.
    pub representative_queries: Vec<String>,
    /// Who stands behind it.
    pub trust_manifest: TrustManifest,
}

/// The trust manifest of an AI catalog entry.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "AiCatalogTrustManifest")]
pub struct TrustManifest {
    /// The publisher's identity: `did:web:<host>` of the server.
    pub identity: String,
}

impl AiCatalog {
    /// The AI catalog of the server `who` at `base_url`: its MCP server card and its A2A
    /// agent card, with the first examples of the catalog's tools as representative queries.
    pub fn new(base_url: &str, who: &Identity<'_>, catalog: &Catalog) -> AiCatalog {
        let base = base_url.trim_end_matches('/');
        let authority = base.split_once("://").map_or(base, |(_, rest)| rest);
        let authority = authority.split('/').next().unwrap_or(authority);
        // A URN part and a did:web name carry no `:`; a port or an IPv6 address does, so it
        // is written as `-` in the URN and percent-encoded in the DID, as did:web says.
        let publisher: String = authority.trim_matches(|c| c == '[' || c == ']').replace(':', "-");
        let did = format!("did:web:{}", authority.replace(':', "%3A"));
        let queries: Vec<String> = catalog
            .tools
            .iter()
            .filter_map(|t| (who.skill_examples)(&t.name).first())
            .take(5)
            .map(|q| q.to_string())
            .collect();
        let entry = |name: &str, display: &str, kind: &str, path: &str, description: String| AiCatalogEntry {
            identifier: format!("urn:air:{publisher}:{}:{name}", who.name),
            display_name: display.into(),
            description,
            kind: kind.into(),
            url: format!("{base}{path}"),
            representative_queries: queries.clone(),
            trust_manifest: TrustManifest { identity: did.clone() },
        };
        AiCatalog {
            spec_version: AI_CATALOG_VERSION.into(),
            entries: vec![
                entry(
                    "mcp",
                    who.title,
                    "mcp-server",
                    DISCOVERY_PATH,
                    format!("{} MCP endpoint {base}{ENDPOINT_PATH}.", who.description),
                ),
                entry(
                    "agent-card",
                    who.title,
                    "a2a-agent",
                    AGENT_CARD_PATH,
                    format!("{} Its A2A agent card: one skill per tool.", who.description),
                ),
            ],
        }
    }
}

/// An empty JSON object (`{}`): a capability without options.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema)]
#[schemars(rename = "EmptyObject")]
pub struct Empty {}

/// `/.well-known/mcp.json`: the tool-server descriptor merged with the MCP server card.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpDiscovery")]
pub struct McpDiscovery {
    /// The server card's JSON Schema.
    #[serde(rename = "$schema")]
    pub schema: String,
    /// Machine name.
    pub name: String,
    /// Human name.
    pub title: String,
    /// Version of the descriptor.
    pub version: String,
    /// What the server does.
    pub description: String,
    /// The protocol version the endpoint speaks natively.
    pub protocol: String,
    /// Absolute URL of the agent-tool endpoint.
    pub endpoint: String,
    /// Absolute URL of this document.
    pub discovery: String,
    /// Absolute URL of the A2A agent card.
    pub agent_card: String,
    /// The site.
    pub website_url: String,
    /// How to reach the endpoint.
    pub remotes: Vec<Remote>,
    /// What the server offers (`tools`, `resources`, `prompts`).
    pub capabilities: Capabilities,
    /// Every tool, as `tools/list` lists it (without the output schema).
    pub tools: Vec<DiscoveredTool>,
    /// The fixed resources.
    pub resources: Vec<ResourceDef>,
    /// The resource templates.
    pub resource_templates: Vec<ResourceTemplateDef>,
    /// The prompts.
    pub prompts: Vec<PromptDef>,
}

/// One way to reach the endpoint.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpRemote")]
pub struct Remote {
    /// The transport (`streamable-http`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The endpoint's URL.
    pub url: String,
    /// Every protocol version the endpoint answers.
    pub supported_protocol_versions: Vec<String>,
    /// Headers a client may send.
    pub headers: Vec<RemoteHeader>,
}

/// A header a client may send.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpRemoteHeader")]
pub struct RemoteHeader {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// Whether every request needs it.
    pub is_required: bool,
    /// Whether it is a secret.
    pub is_secret: bool,
}

/// The capabilities of the server: each an empty object.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema)]
#[schemars(rename = "McpCapabilities")]
pub struct Capabilities {
    /// Tools.
    pub tools: Empty,
    /// Resources.
    pub resources: Empty,
    /// Prompts.
    pub prompts: Empty,
}

/// A tool as the descriptor lists it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpTool")]
pub struct DiscoveredTool {
    /// Its name.
    pub name: String,
    /// Short human title.
    pub title: String,
    /// What it does.
    pub description: String,
    /// `public` (no key) or `write` (a key with the `mcp` scope).
    pub category: Category,
    /// JSON Schema of its arguments.
    pub input_schema: Value,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
}

/// `/.well-known/agent-card.json` (A2A 1.0): each skill is one tool.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "AgentCard")]
pub struct AgentCard {
    /// Machine name.
    pub name: String,
    /// What the agent does and where its interface is.
    pub description: String,
    /// Version of the card.
    pub version: String,
    /// The A2A interfaces the agent answers: none. Its one interface is the MCP endpoint the
    /// description names, which answers MCP methods, not A2A's (`message/send`), so the
    /// card claims no A2A interface a client would call in vain.
    pub supported_interfaces: Vec<Interface>,
    /// Who runs it.
    pub provider: Provider,
    /// Where its documentation is (the MCP descriptor).
    pub documentation_url: String,
    /// A2A capabilities (none).
    pub capabilities: AgentCapabilities,
    /// How to authenticate.
    pub security_schemes: SecuritySchemes,
    /// Media types accepted.
    pub default_input_modes: Vec<String>,
    /// Media types answered.
    pub default_output_modes: Vec<String>,
    /// One skill per tool.
    pub skills: Vec<Skill>,
}

/// An interface of the agent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "A2aInterface")]
pub struct Interface {
    /// Its URL.
    pub url: String,
    /// `JSONRPC`.
    pub protocol_binding: String,
    /// The A2A version.
    pub protocol_version: String,
}

/// Who runs the agent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "A2aProvider")]
pub struct Provider {
    /// Name.
    pub organization: String,
    /// Site.
    pub url: String,
}

/// A2A capabilities.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "A2aCapabilities")]
pub struct AgentCapabilities {
    /// Server-sent streams.
    pub streaming: bool,
    /// Push notifications.
    pub push_notifications: bool,
    /// An extended card for authenticated clients.
    pub extended_agent_card: bool,
}

/// The security schemes of the card: an API key in a header.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "A2aSecuritySchemes")]
pub struct SecuritySchemes {
    /// The API key scheme.
    #[serde(rename = "apiKey")]
    pub api_key: ApiKeyScheme,
}

/// An API key scheme, as A2A wraps it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "A2aApiKeyScheme")]
pub struct ApiKeyScheme {
    /// Where the key goes.
    pub api_key_security_scheme: ApiKeyLocation,
}

/// Where an API key goes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "A2aApiKeyLocation")]
pub struct ApiKeyLocation {
    /// `header`.
    pub location: String,
    /// The header's name.
    pub name: String,
    /// What the key is for and how to get one.
    pub description: String,
}

/// One skill of the agent: one tool.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "A2aSkill")]
pub struct Skill {
    /// The tool's name.
    pub id: String,
    /// Its title.
    pub name: String,
    /// What it does.
    pub description: String,
    /// `seo`, its category, and `read-only` when it changes nothing.
    pub tags: Vec<String>,
    /// Example requests.
    pub examples: Vec<String>,
    /// Media types accepted.
    pub input_modes: Vec<String>,
    /// Media types answered.
    pub output_modes: Vec<String>,
    /// For a write tool: the API key scheme.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_requirements: Option<Vec<SecurityRequirement>>,
}

/// A security requirement of a skill.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "A2aSecurityRequirement")]
pub struct SecurityRequirement {
    /// The schemes required, by name.
    pub schemes: RequiredSchemes,
}

/// The schemes a skill requires.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "A2aRequiredSchemes")]
pub struct RequiredSchemes {
    /// The API key, with no scopes listed.
    #[serde(rename = "apiKey")]
    pub api_key: ScopeList,
}

/// Scopes of a required scheme.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[schemars(rename = "A2aScopeList")]
pub struct ScopeList {
    /// Scope names.
    pub list: Vec<String>,
}

fn key_header_description() -> String {
    format!("API key for the write tools and higher limits; public tools work without it. To get one, {KEY_HELP}.")
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

impl McpDiscovery {
    /// The descriptor of the server `who` at `base_url`, offering `catalog`.
    pub fn new(base_url: &str, who: &Identity<'_>, catalog: &Catalog) -> McpDiscovery {
        let base = base_url.trim_end_matches('/');
        let endpoint = format!("{base}{ENDPOINT_PATH}");
        let tools = catalog
            .tools
            .iter()
            .map(|t| DiscoveredTool {
                name: t.name.clone(),
                title: t.title.clone(),
                description: t.description.clone(),
                category: t.category,
                input_schema: t.input_schema.clone(),
                annotations: t.annotations,
            })
            .collect();
        McpDiscovery {
            schema: SERVER_CARD_SCHEMA.into(),
            name: who.name.into(),
            title: who.title.into(),
            version: who.version.into(),
            description: who.description.into(),
            protocol: MODERN_VERSION.into(),
            endpoint: endpoint.clone(),
            discovery: format!("{base}{DISCOVERY_PATH}"),
            agent_card: format!("{base}{AGENT_CARD_PATH}"),
            website_url: base.into(),
            remotes: vec![Remote {
                kind: "streamable-http".into(),
                url: endpoint,
                supported_protocol_versions: strings(SUPPORTED_VERSIONS),
                headers: vec![RemoteHeader {
                    name: KEY_HEADER.into(),
                    description: key_header_description(),
                    is_required: false,
                    is_secret: true,
                }],
            }],
            capabilities: Capabilities::default(),
            tools,
            resources: catalog.resources.clone(),
            resource_templates: catalog.resource_templates.clone(),
            prompts: catalog.prompts.clone(),
        }
    }
}

impl AgentCard {
    /// The agent card of the server `who` at `base_url`: one skill per tool of `catalog`.
    pub fn new(base_url: &str, who: &Identity<'_>, catalog: &Catalog) -> AgentCard {
        let base = base_url.trim_end_matches('/');
        let json_only = || strings(&["application/json"]);
        let skills = catalog
            .tools
            .iter()
            .map(|t| {
                let mut tags = strings(&["seo", t.category.as_str()]);
                if t.annotations.read_only_hint {
                    tags.push("read-only".into());
                }
                let write = t.category == Category::Write;
                Skill {
                    id: t.name.clone(),
                    name: t.title.clone(),
                    description: t.description.clone(),
                    tags,
                    examples: strings((who.skill_examples)(&t.name)),
                    input_modes: json_only(),
                    output_modes: json_only(),
                    security_requirements: write.then(|| {
                        vec![SecurityRequirement { schemes: RequiredSchemes { api_key: ScopeList::default() } }]
                    }),
                }
            })
            .collect();
        let both = || strings(&["application/json", "text/plain"]);
        AgentCard {
            name: who.name.into(),
            description: format!(
                "{} Its interface is the MCP endpoint {base}{ENDPOINT_PATH} (JSON-RPC 2.0, MCP {MODERN_VERSION} and the 2025 revisions); each skill is one MCP tool.",
                who.description
            ),
            version: who.version.into(),
            supported_interfaces: Vec::new(),
            provider: Provider { organization: who.title.into(), url: base.into() },
            documentation_url: format!("{base}{DISCOVERY_PATH}"),
            capabilities: AgentCapabilities { streaming: false, push_notifications: false, extended_agent_card: false },
            security_schemes: SecuritySchemes {
                api_key: ApiKeyScheme {
                    api_key_security_scheme: ApiKeyLocation {
                        location: "header".into(),
                        name: KEY_HEADER.into(),
                        description: key_header_description(),
                    },
                },
            },
            default_input_modes: both(),
            default_output_modes: both(),
            skills,
        }
    }
}
