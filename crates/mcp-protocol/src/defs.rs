//! What the server offers: tools, resources, prompts, and what their calls return.

use serde::Serialize;
use serde_json::{json, Map, Value};

/// How long a client may cache list, read and discovery results, in milliseconds.
pub const DEFAULT_TTL_MS: u64 = 300_000;

/// Items per page of `tools/list`, `resources/list`, `resources/templates/list`
/// and `prompts/list`.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// Who may share a cached result (`cacheScope` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// The result is the same for every client.
    Public,
    /// The result may depend on the caller.
    Private,
}

/// The server's identity and caching policy.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// Machine name, e.g. `seo-audit`.
    pub name: String,
    /// Version string reported in `serverInfo`.
    pub version: String,
    /// Text for agents: what the server does and how to use it.
    pub instructions: String,
    /// `ttlMs` of list, read and discovery results.
    pub ttl_ms: u64,
    /// `cacheScope` of list, read and discovery results.
    pub cache_scope: CacheScope,
}

impl ServerInfo {
    /// A server identity with the default caching policy (public, [`DEFAULT_TTL_MS`]).
    pub fn new(name: impl Into<String>, version: impl Into<String>, instructions: impl Into<String>) -> Self {
        ServerInfo {
            name: name.into(),
            version: version.into(),
            instructions: instructions.into(),
            ttl_ms: DEFAULT_TTL_MS,
            cache_scope: CacheScope::Public,
        }
    }
}

/// Whether a tool is open to everyone or needs a key with the `mcp` scope.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    schemars::JsonSchema,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "McpToolCategory")]
pub enum Category {
    /// Works without a key.
    Public,
    /// Needs an API key with the `mcp` scope; enforced by the crate before the call.
    Write,
}

impl Category {
    /// `public` or `write`, as the discovery documents name it.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Behaviour hints of a tool (`annotations` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpToolAnnotations")]
pub struct ToolAnnotations {
    /// The tool changes nothing.
    pub read_only_hint: bool,
    /// The tool reaches outside the server (fetches a page).
    pub open_world_hint: bool,
    /// The tool may destroy data; omitted where it does not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating the call has no further effect; omitted where it does not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
}

/// One tool as `tools/list` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDef {
    /// `[A-Za-z0-9_.-]+`, unique.
    pub name: String,
    /// Short human title.
    pub title: String,
    /// What the tool does, for the agent.
    pub description: String,
    /// JSON Schema (`type: "object"`) of the arguments; also used to check calls.
    pub input_schema: Value,
    /// JSON Schema (`type: "object"`) every successful `structuredContent` satisfies.
    pub output_schema: Value,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// Public or write; not on the wire.
    #[serde(skip)]
    pub category: Category,
}

/// One fixed resource as `resources/list` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpResource")]
pub struct ResourceDef {
    /// E.g. `svc://methodology`.
    pub uri: String,
    /// Short name.
    pub name: String,
    /// What the resource holds.
    pub description: String,
    /// Media type of the contents.
    pub mime_type: String,
}

/// A family of resources addressed by an RFC 6570 URI template.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "McpResourceTemplate")]
pub struct ResourceTemplateDef {
    /// E.g. `svc://checks/{id}`.
    pub uri_template: String,
    /// Short name.
    pub name: String,
    /// What the resources hold.
    pub description: String,
    /// Media type of the contents.
    pub mime_type: String,
}

/// The text of one resource, as `resources/read` returns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    /// The URI that was read.
    pub uri: String,
    /// Media type of `text`.
    pub mime_type: String,
    /// The contents.
    pub text: String,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "McpPromptArgument")]
pub struct PromptArgument {
    /// Argument name.
    pub name: String,
    /// What to pass.
    pub description: String,
    /// A `prompts/get` without it is refused with -32602.
    pub required: bool,
}

/// One prompt as `prompts/list` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "McpPrompt")]
pub struct PromptDef {
    /// Prompt name, unique.
    pub name: String,
    /// What the prompt is for.
    pub description: String,
    /// Its arguments, all strings on the wire.
    pub arguments: Vec<PromptArgument>,
}

/// Speaker of a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user asks.
    User,
    /// The assistant answers.
    Assistant,
}

/// One text message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub text: String,
}

/// What `prompts/get` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessages {
    /// Optional description of this instance of the prompt.
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<PromptMessage>,
}

impl PromptMessages {
    pub(crate) fn to_json(&self) -> Value {
        let messages: Vec<Value> = self
            .messages
            .iter()
            .map(|m| json!({ "role": m.role, "content": { "type": "text", "text": m.text } }))
            .collect();
        let mut out = Map::new();
        if let Some(d) = &self.description {
            out.insert("description".into(), Value::String(d.clone()));
        }
        out.insert("messages".into(), Value::Array(messages));
        Value::Object(out)
    }
}

/// The outcome of a tool call.
///
/// Built only through [`ToolResult::success`] and [`ToolResult::error`], so that a
/// successful result always carries `structuredContent` and the same JSON as its text,
/// which the official clients check.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    text: String,
    structured: Option<Value>,
    is_error: bool,
}

impl ToolResult {
    /// A successful result. An object is used as is; any other value is wrapped as
    /// `{"value": ...}` because `structuredContent` must be an object.
    pub fn success(structured: Value) -> Self {
        let structured = match structured {
            Value::Object(_) => structured,
            other => json!({ "value": other }),
        };
        ToolResult { text: structured.to_string(), structured: Some(structured), is_error: false }
    }

    /// A failure of the tool itself (bad argument value, unreachable page, missing key):
    /// `isError: true` with a text the agent can act on.
    pub fn error(text: impl Into<String>) -> Self {
        ToolResult { text: text.into(), structured: None, is_error: true }
    }

    /// The text of `content[0]`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `structuredContent`, present on successes.
    pub fn structured(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// `isError`.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The `CallToolResult` JSON.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("content".into(), json!([{ "type": "text", "text": self.text }]));
        if let Some(s) = &self.structured {
            out.insert("structuredContent".into(), s.clone());
        }
        out.insert("isError".into(), Value::Bool(self.is_error));
        Value::Object(out)
    }
}

#[cfg(test)]
mod name_tests {
    use super::Category;
    use strum::VariantArray as _;

    #[test]
    fn categories_round_trip_by_their_names() {
        let names: Vec<&str> = Category::VARIANTS.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, ["public", "write"]);
        for &c in Category::VARIANTS {
            assert_eq!(c.as_str().parse::<Category>().ok(), Some(c));
            assert_eq!(serde_json::to_value(c).ok(), Some(serde_json::Value::from(c.as_str())));
        }
    }
}
