//! The 14 tools of the agent-tool endpoint, as one table ([`TOOLS`], listed in
//! [`super::calls`]): each row names the module that holds the tool's [`Meta`] (title,
//! hints, description), its typed arguments (`Args`), its result type (`Output`) and its
//! handler (`call`). Adding a tool is its module and one line of the table.
//!
//! The input and output schemas are derived from `Args` and `Output` (schemars): doc
//! comments become descriptions, schemars attributes the bounds. The order, names and hints
//! are fixed: agents and their configurations refer to them (docs/API.md, the tools table).
//! Output schemas require every field the result always carries and allow additional ones,
//! so a field can be added without breaking a client that validates results. Input schemas
//! are closed (`additionalProperties: false`), so a misspelt argument is refused.
//!
//! Schemas use only keywords that draft-07 and draft 2020-12 read the same way: subschemas
//! are inlined (no `$ref`), and neither `$schema` nor `format` is emitted (MCP takes a schema
//! without `$schema` as 2020-12, and some clients' validators refuse what they do not bundle).

use std::future::Future;

use futures_util::future::BoxFuture;
use mcp_protocol::{Category, ToolAnnotations, ToolDef, ToolResult};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::auth::Identity;
use crate::state::AppState;
use mcp_protocol::CallContext;

/// What a tool call runs with: the shared state, who is calling, and what the protocol
/// layer knows about the request.
#[derive(Debug, Clone, Copy)]
pub struct ToolEnv<'a> {
    /// Store, fetcher, limiter, config, audit slots.
    pub state: &'a AppState,
    /// The caller: a key or the client address (whose quota was charged).
    pub identity: &'a Identity,
    /// Era, protocol version and key verdict of the request.
    pub protocol: &'a CallContext<'a>,
}

/// A tool result naming an error code and saying what went wrong, e.g.
/// `invalid_url: The URL is not valid (argument url)`.
pub fn tool_error(code: &str, message: impl std::fmt::Display) -> ToolResult {
    ToolResult::error(format!("{code}: {message}"))
}

/// How a tool runs: its module's `call`, behind argument parsing and result encoding.
pub type Handler = for<'a> fn(&'a ToolEnv<'a>, Map<String, Value>) -> BoxFuture<'a, ToolResult>;

/// One agent tool: its name, its definition (description, hints, schemas) and its handler.
#[derive(Clone, Copy)]
pub struct Tool {
    /// The tool's fixed name (its module's name).
    pub name: &'static str,
    /// Its definition, with the schemas derived from its types.
    pub def: fn() -> ToolDef,
    /// Runs it.
    pub call: Handler,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool").field("name", &self.name).finish_non_exhaustive()
    }
}

/// What a tool module declares besides its types and handler.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    /// Short human title.
    pub title: &'static str,
    /// Public, or needs a key with the `mcp` scope.
    pub category: Category,
    /// Behaviour hints.
    pub hints: ToolAnnotations,
    /// What the tool does and when to use it, for the agent.
    pub description: &'static str,
}

impl Meta {
    /// The definition of tool `name` with arguments `A` and result `O`.
    pub fn def<A: JsonSchema, O: JsonSchema>(&self, name: &str) -> ToolDef {
        ToolDef {
            name: name.into(),
            title: self.title.into(),
            description: self.description.into(),
            input_schema: input_schema::<A>(),
            output_schema: output_schema::<O>(),
            annotations: self.hints,
            category: self.category,
        }
    }
}

/// Hints of a tool that changes nothing and reaches nothing outside the server's own data.
/// destructiveHint and idempotentHint only mean something for tools that are not
/// read-only, so read-only tools leave them out.
pub const READ_ONLY_LOCAL: ToolAnnotations =
    ToolAnnotations { read_only_hint: true, open_world_hint: false, destructive_hint: None, idempotent_hint: None };

/// Hints of a tool that fetches pages and stores what it finds, adding each time.
pub const AUDITS: ToolAnnotations = ToolAnnotations {
    read_only_hint: false,
    open_world_hint: true,
    destructive_hint: Some(false),
    idempotent_hint: Some(false),
};

/// The table: `table! { name, ... }` in [`calls`] declares the module of each tool (named
/// like the tool) and the row that reads its `META`, `Args`, `Output` and `call`.
macro_rules! table {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*

        /// Every tool, in the documented order (docs/API.md), which `tools/list` keeps.
        pub static TOOLS: &[$crate::mcp::tools::Tool] = &[$(
            $crate::mcp::tools::Tool {
                name: stringify!($name),
                def: || $name::META.def::<$name::Args, $name::Output>(stringify!($name)),
                call: |env, args| Box::pin($crate::mcp::tools::run(env, args, $name::call)),
            }
        ),*];
    };
}
pub(crate) use table;

/// Parses the arguments (the protocol layer checked them against the input schema
/// already), runs the handler and encodes its result as `structuredContent`.
pub(crate) async fn run<'a, A, O, F, Fut>(env: &'a ToolEnv<'a>, args: Map<String, Value>, handler: F) -> ToolResult
where
    A: DeserializeOwned,
    O: Serialize,
    F: FnOnce(&'a ToolEnv<'a>, A) -> Fut,
    Fut: Future<Output = Result<O, ToolResult>>,
{
    let args = match serde_json::from_value::<A>(Value::Object(args)) {
        Ok(args) => args,
        Err(e) => return tool_error("invalid_request", format!("The arguments are not valid: {e}.")),
    };
    match handler(env, args).await {
        Ok(out) => match serde_json::to_value(out) {
            Ok(value) => ToolResult::success(value),
            Err(e) => tool_error("internal", format!("The result could not be serialised: {e}.")),
        },
        Err(e) => e,
    }
}

fn schema_of<T: JsonSchema>(settings: SchemaSettings) -> Value {
    let settings = settings.with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let mut value = settings.into_generator().into_root_schema_for::<T>().to_value();
    if let Value::Object(root) = &mut value {
        for key in ["$schema", "title", "description"] {
            root.remove(key);
        }
    }
    value
}

/// The input schema of arguments `A`: absent is how an optional argument is left out, so
/// optional properties are not nullable (`null` is read as absent all the same).
pub fn input_schema<A: JsonSchema>() -> Value {
    let mut schema = schema_of::<A>(SchemaSettings::draft2020_12());
    // An input schema always lists what is required, even nothing.
    if let Value::Object(root) = &mut schema {
        root.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    }
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for prop in props.values_mut() {
            not_null(prop);
        }
    }
    tidy(&mut schema);
    schema
}

/// The output schema of result `O`: what it serialises to.
pub fn output_schema<O: JsonSchema>() -> Value {
    let mut schema = schema_of::<O>(SchemaSettings::draft2020_12().for_serialize());
    // Every result is an object, also one that takes several forms (`anyOf`).
    if let Value::Object(root) = &mut schema {
        if !root.contains_key("type") {
            let mut typed = Map::new();
            typed.insert("type".into(), "object".into());
            typed.append(root);
            *root = typed;
        }
    }
    tidy(&mut schema);
    schema
}

/// `prop` without the `null` schemars adds for an `Option`.
fn not_null(prop: &mut Value) {
    let Some(obj) = prop.as_object_mut() else { return };
    if let Some(Value::Array(any)) = obj.get("anyOf") {
        if let [inner, null] = any.as_slice() {
            if null.get("type").and_then(Value::as_str) == Some("null") {
                let mut inner = inner.clone();
                obj.remove("anyOf");
                if let Value::Object(fields) = &mut inner {
                    for (k, v) in std::mem::take(obj) {
                        fields.insert(k, v);
                    }
                }
                *prop = inner;
                return not_null(prop);
            }
        }
    }
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
}

/// Keeps generated schemas to the keywords both drafts read alike: no `format` (schemars'
/// `uint32`, `double` are no standard formats), and an enum whose variants carry doc
/// comments as one `enum` list (what the argument check and every client read) rather than
/// a `oneOf` of `const`s.
fn tidy(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    obj.remove("format");
    if let Some(Value::Array(variants)) = obj.get("oneOf") {
        let consts: Option<Vec<Value>> = variants.iter().map(|v| v.get("const").cloned()).collect();
        if let Some(values) = consts.filter(|c| c.iter().all(Value::is_string)) {
            obj.remove("oneOf");
            obj.insert("type".into(), "string".into());
            obj.insert("enum".into(), Value::Array(values));
        }
    }
    for (key, value) in obj.iter_mut() {
        match key.as_str() {
            "properties" => value.as_object_mut().into_iter().flat_map(|p| p.values_mut()).for_each(tidy),
            "items" | "additionalProperties" | "not" | "if" | "then" | "else" => tidy(value),
            "anyOf" | "oneOf" | "allOf" => value.as_array_mut().into_iter().flatten().for_each(tidy),
            _ => {}
        }
    }
}

#[cfg(test)]
mod table_tests {
    use crate::mcp::calls::{tool_defs, tool_names, TOOLS};

    /// A row's name is its definition's name, and names are unique.
    #[test]
    fn rows_name_their_definitions() {
        for t in TOOLS {
            assert_eq!((t.def)().name, t.name);
        }
        let mut names = tool_names();
        names.dedup();
        assert_eq!(names.len(), TOOLS.len());
    }

    /// Derived schemas are self-contained and read alike in draft-07 and 2020-12: no
    /// references, no `format`, enums as `enum` lists.
    #[test]
    fn derived_schemas_are_plain() {
        for def in tool_defs() {
            for schema in [&def.input_schema, &def.output_schema] {
                let text = schema.to_string();
                for keyword in ["\"$ref\"", "\"$defs\"", "\"format\"", "\"oneOf\"", "\"$schema\""] {
                    assert!(!text.contains(keyword), "{} has {keyword}: {text}", def.name);
                }
            }
            // Optional arguments are left out, never null.
            for (name, prop) in def.input_schema["properties"].as_object().into_iter().flatten() {
                assert!(!prop.to_string().contains("\"null\""), "{}.{name}: {prop}", def.name);
            }
        }
    }
}
