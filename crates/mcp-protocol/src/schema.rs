//! Tool schemas derived from Rust types (schemars): the input schema of a tool's argument
//! type and the output schema of its result type, and a [`ToolDef`] built from them.
//!
//! Schemas use only keywords that draft-07 and draft 2020-12 read the same way: subschemas
//! are inlined (no `$ref`), and neither `$schema` nor `format` is emitted (MCP takes a schema
//! without `$schema` as 2020-12, and some clients' validators refuse what they do not bundle).
//! Output schemas require every field the result always carries and allow additional ones,
//! so a field can be added without breaking a client that validates results. Input schemas
//! are closed (`additionalProperties: false` from `deny_unknown_fields`), so a misspelt
//! argument is refused.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::{Category, ToolAnnotations, ToolDef};

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

/// What a tool declares besides its types and handler: its card.
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
    optional_not_null(&mut schema);
    tidy(&mut schema);
    schema
}

/// [`not_null`] on every property of `schema` and of the objects inside it (the items of an
/// array argument too), without the `default: null` schemars gives an `Option`.
fn optional_not_null(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
        for prop in props.values_mut() {
            not_null(prop);
            if let Some(fields) = prop.as_object_mut() {
                if fields.get("default") == Some(&Value::Null) {
                    fields.remove("default");
                }
            }
            optional_not_null(prop);
        }
    }
    if let Some(items) = obj.get_mut("items") {
        optional_not_null(items);
    }
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
/// a `oneOf` of `const`s (and of `enum`s, which schemars makes of the variants without one).
fn tidy(schema: &mut Value) {
    let Some(obj) = schema.as_object_mut() else { return };
    obj.remove("format");
    if let Some(Value::Array(variants)) = obj.get("oneOf") {
        let strings = |v: &Value| -> Option<Vec<Value>> {
            match (v.get("const"), v.get("enum")) {
                (Some(c), None) => Some(vec![c.clone()]),
                (None, Some(Value::Array(values))) => Some(values.clone()),
                _ => None,
            }
        };
        let consts: Option<Vec<Value>> = variants.iter().map(strings).collect::<Option<Vec<_>>>().map(|v| v.concat());
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
