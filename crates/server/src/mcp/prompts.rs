//! The prompts of the agent-tool endpoint, as JSON-RPC answers: the texts and their
//! argument checks are [`app::agent::prompts`]; here they are mapped to the protocol's
//! prompt types.

use std::collections::BTreeMap;

use mcp_protocol::{PromptArgument, PromptDef, PromptMessage, PromptMessages, Role};

use app::agent::prompts::{render, PROMPTS};

/// Every prompt, in a fixed order.
pub fn prompt_defs() -> Vec<PromptDef> {
    PROMPTS
        .iter()
        .map(|p| PromptDef {
            name: p.name.into(),
            description: p.description.into(),
            arguments: p
                .arguments
                .iter()
                .map(|a| PromptArgument {
                    name: a.name.into(),
                    description: a.description.into(),
                    required: a.required,
                })
                .collect(),
        })
        .collect()
}

/// Renders a prompt. `Err` names the argument that is missing or unusable.
pub fn get_prompt(name: &str, args: &BTreeMap<String, String>) -> Result<PromptMessages, String> {
    let rendered = render(name, args).map_err(|e| e.to_string())?;
    Ok(PromptMessages {
        description: Some(rendered.description),
        messages: vec![PromptMessage { role: Role::User, text: rendered.text }],
    })
}
