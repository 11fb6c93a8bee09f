//! get_seo_concept: the glossary entry for a term or rule id, or suggestions.

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{tool_error, ToolEnv};
use crate::mcp::glossary;
use crate::mcp::tools::{Meta, READ_ONLY_LOCAL};

/// The tool's card.
pub const META: Meta = Meta {
    title: "SEO concept",
    category: Category::Public,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains an SEO term or an audit rule in plain words: definition, why it matters, how to fix or apply \
         it, the audit rule ids that check it and related concepts. Accepts a term in any form ('canonical tag', \
         'og tags', 'JSON-LD', 'LCP', 'llms.txt') or a rule id from an audit ('meta-description-missing'). \
         Public: no API key needed. When the term is unknown the result has found: false and up to 5 suggestions.",
};

/// Longest concept accepted.
const MAX_CONCEPT_CHARS: usize = 200;

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// An SEO term or an audit rule id
    #[schemars(length(min = 1, max = 200))]
    pub concept: String,
}

/// Result: the entry found, or suggestions.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Output {
    /// A glossary entry matched.
    Found(Found),
    /// Nothing matched.
    Missing(Missing),
}

/// The glossary entry of a concept.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    /// Slug of the concept found
    pub concept: String,
    /// Always true.
    pub found: Flag<true>,
    /// Human title.
    pub title: String,
    /// What it is.
    pub definition: String,
    /// Why search engines and assistants care.
    pub why_it_matters: String,
    /// What to do about it.
    pub how_to_fix: String,
    /// Rule ids of the audit that check it.
    pub related_rules: Vec<String>,
    /// Slugs of related concepts.
    pub related: Vec<String>,
}

/// A query no entry matched.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Missing {
    /// The query, as asked
    pub concept: String,
    /// Always false.
    pub found: Flag<false>,
    /// Slugs of the closest concepts, best first (at most 5).
    pub suggestions: Vec<String>,
}

/// A boolean that is always `B`.
#[derive(Debug, Clone, Copy)]
pub struct Flag<const B: bool>;

impl<const B: bool> Serialize for Flag<B> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(B)
    }
}

impl<const B: bool> JsonSchema for Flag<B> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Flag_{B}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "boolean", "const": B })
    }
}

impl From<glossary::Concept> for Output {
    fn from(c: glossary::Concept) -> Output {
        if c.found {
            Output::Found(Found {
                concept: c.concept,
                found: Flag,
                title: c.title,
                definition: c.definition,
                why_it_matters: c.why_it_matters,
                how_to_fix: c.how_to_fix,
                related_rules: c.related_rules,
                related: c.related,
            })
        } else {
            Output::Missing(Missing { concept: c.concept, found: Flag, suggestions: c.suggestions })
        }
    }
}

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let query = args.concept.trim();
    if query.is_empty() {
        return Err(tool_error(
            "invalid_request",
            "concept must name an SEO term or a rule id, e.g. \"canonical tag\"",
        ));
    }
    if query.chars().count() > MAX_CONCEPT_CHARS {
        return Err(tool_error("invalid_request", format!("concept must be at most {MAX_CONCEPT_CHARS} characters")));
    }
    Ok(glossary::concept(query).into())
}
