//! Checks tool arguments against the subset of JSON Schema the tools use, so that a
//! missing or mistyped argument is answered the same way for every tool.

use serde_json::{Map, Value};

/// Problems of `args` against `schema` (`required`, property `type` and `enum`,
/// `minimum`/`maximum`, `minLength`/`maxLength`, `additionalProperties: false`), one
/// sentence each; empty when the arguments fit.
///
/// `pattern` is not checked: the crate has no regular-expression engine, and the tools
/// validate the formats they care about (URLs, ids) themselves.
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
        if let Some(s) = value.as_str() {
            // JSON Schema counts a string's length in code points, not bytes or UTF-16 units.
            let len = s.chars().count();
            if let Some(min) = length_bound(prop, "minLength") {
                if len < min {
                    problems.push(format!("argument `{name}` must be at least {}", characters(min)));
                }
            }
            if let Some(max) = length_bound(prop, "maxLength") {
                if len > max {
                    problems.push(format!("argument `{name}` must be at most {} (got {len})", characters(max)));
                }
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

/// A `minLength`/`maxLength` keyword of `prop`. JSON Schema wants a non-negative integer;
/// anything else is ignored rather than refused, like an unknown `type`. A bound beyond
/// `usize` saturates, which no string can exceed.
fn length_bound(prop: &Value, keyword: &str) -> Option<usize> {
    prop.get(keyword).and_then(Value::as_u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

fn characters(n: usize) -> String {
    if n == 1 {
        "1 character long".to_string()
    } else {
        format!("{n} characters long")
    }
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
