//! Checks tool arguments against the subset of JSON Schema the tools use, so that a
//! missing or mistyped argument is answered the same way for every tool.

use serde_json::{Map, Value};

/// Problems of `args` against `schema` (`required`, property `type` and `enum`,
/// `minimum`/`maximum`, `additionalProperties: false`), one sentence each; empty when
/// the arguments fit.
pub(crate) fn check(schema: &Value, args: &Map<String, Value>) -> Vec<String> {
    let mut problems = Vec::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if args.get(name).is_none_or(Value::is_null) {
                problems.push(format!("missing required argument `{name}`"));
            }
        }
    }
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    for (name, value) in args {
        let Some(prop) = properties.and_then(|p| p.get(name)) else {
            if closed {
                problems.push(format!("unknown argument `{name}`"));
            }
            continue;
        };
        if value.is_null() {
            continue;
        }
        if let Some(expected) = prop.get("type") {
            let types: Vec<&str> = match expected {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !types.is_empty() && !types.iter().any(|t| has_type(value, t)) {
                problems.push(format!("argument `{name}` must be of type {}", types.join(" or ")));
                continue;
            }
        }
        if let Some(allowed) = prop.get("enum").and_then(Value::as_array) {
            if !allowed.contains(value) {
                let list: Vec<String> =
                    allowed.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect();
                problems.push(format!("argument `{name}` must be one of: {}", list.join(", ")));
                continue;
            }
        }
        if let Some(n) = value.as_f64() {
            if let Some(min) = prop.get("minimum").and_then(Value::as_f64) {
                if n < min {
                    problems.push(format!("argument `{name}` must be at least {min}"));
                }
            }
            if let Some(max) = prop.get("maximum").and_then(Value::as_f64) {
                if n > max {
                    problems.push(format!("argument `{name}` must be at most {max}"));
                }
            }
        }
    }
    problems
}

fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        // Unknown type names are not ours to refuse.
        _ => true,
    }
}
