//! Static checks of a registry's definitions, for the server's own tests.

use std::collections::HashSet;

use serde_json::Value;

use crate::registry::Registry;

/// Every way the registry's definitions break what MCP clients rely on, one sentence
/// each; empty when they are sound. Checked: tool names `[A-Za-z0-9_.-]+` and unique,
/// non-empty descriptions, input and output schemas of `type: "object"` whose `required`
/// names declared properties, unique resource URIs and template names, unique prompt
/// names and argument names.
///
/// The server calls this from a test, so a bad definition fails the build rather than a
/// client.
pub fn check_definitions<R: Registry>(reg: &R) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    for tool in &reg.catalog().tools {
        let name = &tool.name;
        let valid_name = !name.is_empty()
            && name.len() <= 128
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !valid_name {
            problems.push(format!("tool name {name:?} is not [A-Za-z0-9_.-]{{1,128}}"));
        }
        if !seen.insert(name.as_str()) {
            problems.push(format!("tool {name:?} is defined twice"));
        }
        if tool.description.trim().is_empty() {
            problems.push(format!("tool {name:?} has no description"));
        }
        for (label, schema) in [("inputSchema", &tool.input_schema), ("outputSchema", &tool.output_schema)] {
            if schema.get("type") != Some(&Value::String("object".into())) {
                problems.push(format!("{label} of tool {name:?} is not of type \"object\""));
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            let required = schema.get("required").and_then(Value::as_array);
            for r in required.into_iter().flatten() {
                let declared = r.as_str().is_some_and(|r| properties.is_some_and(|p| p.contains_key(r)));
                if !declared {
                    problems.push(format!("{label} of tool {name:?} requires undeclared property {r}"));
                }
            }
        }
    }
    let mut uris = HashSet::new();
    for r in &reg.catalog().resources {
        if !uris.insert(r.uri.as_str()) {
            problems.push(format!("resource {:?} is defined twice", r.uri));
        }
    }
    let mut templates = HashSet::new();
    for t in &reg.catalog().resource_templates {
        if !templates.insert(t.uri_template.as_str()) {
            problems.push(format!("resource template {:?} is defined twice", t.uri_template));
        }
    }
    let mut prompts = HashSet::new();
    for p in &reg.catalog().prompts {
        if !prompts.insert(p.name.as_str()) {
            problems.push(format!("prompt {:?} is defined twice", p.name));
        }
        let mut args = HashSet::new();
        for a in &p.arguments {
            if !args.insert(a.name.as_str()) {
                problems.push(format!("prompt {:?} declares argument {:?} twice", p.name, a.name));
            }
        }
    }
    problems
}
