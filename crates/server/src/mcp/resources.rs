//! The `svc://` resources of the agent-tool endpoint, as JSON-RPC answers: the catalogue
//! and contents are [`app::agent::resources`] (which also reads a URI); here they are mapped
//! to the protocol's types.

use mcp_protocol::{ResourceContents, ResourceDef, ResourceTemplateDef};

use app::agent::resources::{self as content, ResourceInfo};

/// The fixed resources, in a fixed order.
pub fn resource_defs() -> Vec<ResourceDef> {
    content::RESOURCES
        .iter()
        .map(|r: &ResourceInfo| ResourceDef {
            uri: r.uri.into(),
            name: r.name.into(),
            description: r.description.into(),
            mime_type: r.mime_type.into(),
        })
        .collect()
}

/// The resource templates, in a fixed order.
pub fn resource_template_defs() -> Vec<ResourceTemplateDef> {
    content::RESOURCE_TEMPLATES
        .iter()
        .map(|r| ResourceTemplateDef {
            uri_template: r.uri.into(),
            name: r.name.into(),
            description: r.description.into(),
            mime_type: r.mime_type.into(),
        })
        .collect()
}

/// The contents of a resource, or `None` when the URI names nothing.
pub fn read_resource(uri: &str) -> Option<ResourceContents> {
    let (mime, text) = content::read(uri)?;
    Some(ResourceContents { uri: uri.to_string(), mime_type: mime.to_string(), text })
}
