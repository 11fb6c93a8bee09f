//! The tools of the agent-tool endpoint, as one table ([`TOOLS`], listed in
//! [`super::calls`]): each row names the module that holds the tool's typed arguments
//! (`Args`), its result type (`Output`) and its handler (`call`); its card (title, hints,
//! description) is [`app::agent::tools`]'. Adding a tool is its module, its card and one
//! line of the table.
//!
//! The input and output schemas are derived from `Args` and `Output`
//! ([`mcp_protocol::Meta::def`]): doc comments become descriptions, schemars attributes the
//! bounds. The order, names and hints are fixed: agents and their configurations refer to
//! them (docs/API.md, the tools table).

use std::future::Future;

use futures_util::future::BoxFuture;
use mcp_protocol::{Category, Meta, ToolAnnotations, ToolDef, ToolResult};
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

/// The protocol's card of the tool `name`, from its card in [`app::agent::tools`].
///
/// # Panics
/// When the tool has no card (the table's tests call this for every row).
pub fn meta(name: &str) -> Meta {
    let card = app::agent::tools::card(name).unwrap_or_else(|| panic!("tool {name} has no card in app::agent::tools"));
    let h = card.hints;
    Meta {
        title: card.title,
        category: if card.needs_key { Category::Write } else { Category::Public },
        hints: ToolAnnotations {
            read_only_hint: h.read_only,
            open_world_hint: h.open_world,
            destructive_hint: h.destructive,
            idempotent_hint: h.idempotent,
        },
        description: card.description,
    }
}

/// The table: `table! { name, ... }` in [`calls`] declares the module of each tool (named
/// like the tool) and the row that reads its card, `Args`, `Output` and `call`.
macro_rules! table {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*

        /// Every tool, in the documented order (docs/API.md), which `tools/list` keeps.
        pub static TOOLS: &[$crate::mcp::tools::Tool] = &[$(
            $crate::mcp::tools::Tool {
                name: stringify!($name),
                def: || $crate::mcp::tools::meta(stringify!($name)).def::<$name::Args, $name::Output>(stringify!($name)),
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
        // Every card is a tool's, in the table's order.
        let cards: Vec<&str> = app::agent::tools::CARDS.iter().map(|(n, _)| *n).collect();
        assert_eq!(cards, tool_names());
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
