//! The `svc://` resources of the agent-tool endpoint, as JSON-RPC answers: the catalogue
//! and contents are [`app::agent::resources`]; here a URI is parsed and mapped to the app
//! function that answers it, and the answer to the protocol's types.

use mcp_protocol::{ResourceContents, ResourceDef, ResourceTemplateDef};
use serde::Serialize;

use app::agent::resources::{
    self as content, ResourceInfo, CHECKS_URI, CHECK_PREFIX, CONCEPTS_URI, CONCEPT_PREFIX, DATA_SOURCES_URI, JSON,
    MARKDOWN, METHODOLOGY_URI, SEVERITY_URI,
};
use app::glossary;
use app::methodology::methodology_markdown;

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
    let (mime, text) = match uri {
        METHODOLOGY_URI => (MARKDOWN, methodology_markdown()),
        CONCEPTS_URI => (JSON, pretty(&content::concepts_index())),
        CHECKS_URI => (JSON, pretty(&content::checks())),
        SEVERITY_URI => (JSON, pretty(&content::severity_levels())),
        DATA_SOURCES_URI => (MARKDOWN, content::data_sources_markdown()),
        _ => {
            if let Some(id) = uri.strip_prefix(CHECK_PREFIX) {
                (JSON, pretty(&content::check(&percent_decode(id)?)?))
            } else if let Some(query) = uri.strip_prefix(CONCEPT_PREFIX) {
                let concept = glossary::concept(&percent_decode(query)?);
                if !concept.found {
                    return None;
                }
                (JSON, pretty(&concept.to_json()))
            } else {
                return None;
            }
        }
    };
    Some(ResourceContents { uri: uri.to_string(), mime_type: mime.to_string(), text })
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Decodes `%XX` escapes; `None` for a malformed escape, bytes that are not UTF-8, or
/// nothing at all. The decoder leaves a malformed escape as written, so it is refused
/// first: a resource URI with one names nothing, rather than a check or concept whose
/// name happens to contain `%`.
fn percent_decode(s: &str) -> Option<String> {
    let malformed =
        s.split('%').skip(1).any(|rest| !rest.as_bytes().get(..2).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    if malformed {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(s).decode_utf8().ok()?;
    (!decoded.is_empty()).then(|| decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn escapes_are_decoded_strictly() {
        assert_eq!(percent_decode("canonical%20tag").as_deref(), Some("canonical tag"));
        assert_eq!(percent_decode("caf%C3%A9").as_deref(), Some("café"));
        assert_eq!(percent_decode("title-missing").as_deref(), Some("title-missing"));
        for bad in ["", "%", "%4", "a%zz", "%+F", "%FF", "%C3%A"] {
            assert_eq!(percent_decode(bad), None, "{bad}");
        }
    }
}
