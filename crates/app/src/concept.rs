//! The get_seo_concept tool's answer as a typed value: the glossary entry of a concept
//! ([`Found`]), or the closest concepts when nothing matched ([`Missing`]). Serialises as
//! [`Concept::to_json`] does.

use schemars::JsonSchema;
use serde::Serialize;

use crate::glossary::Concept;

/// Result: the entry found, or suggestions.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ConceptAnswer {
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

impl From<Concept> for ConceptAnswer {
    fn from(c: Concept) -> ConceptAnswer {
        if c.found {
            ConceptAnswer::Found(Found {
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
            ConceptAnswer::Missing(Missing { concept: c.concept, found: Flag, suggestions: c.suggestions })
        }
    }
}

/// Longest concept asked for, in characters.
pub const MAX_CONCEPT_CHARS: usize = 200;

/// The answer for `query` (an SEO term or a rule id, trimmed): its glossary entry, or the
/// closest concepts.
///
/// # Errors
/// `invalid_request` when `query` is blank or longer than [`MAX_CONCEPT_CHARS`].
pub fn answer(query: &str) -> Result<ConceptAnswer, crate::AppError> {
    let refused = |message: String| crate::AppError::refused(crate::ErrorCode::InvalidRequest, message);
    let query = query.trim();
    if query.is_empty() {
        return Err(refused("concept must name an SEO term or a rule id, e.g. \"canonical tag\"".to_string()));
    }
    if query.chars().count() > MAX_CONCEPT_CHARS {
        return Err(refused(format!("The concept must be at most {MAX_CONCEPT_CHARS} characters.")));
    }
    Ok(crate::glossary::concept(query).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glossary::concept;

    #[test]
    fn a_blank_or_overlong_concept_is_refused() {
        let refused = |query: &str| match answer(query) {
            Err(crate::AppError::Refused(r)) => r.message,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused("  "), "concept must name an SEO term or a rule id, e.g. \"canonical tag\"");
        assert_eq!(refused(&"é".repeat(MAX_CONCEPT_CHARS + 1)), "The concept must be at most 200 characters.");
        assert!(matches!(answer(&format!(" {} ", "a".repeat(MAX_CONCEPT_CHARS))), Ok(ConceptAnswer::Missing(_))));
        assert!(matches!(answer(" canonical tag "), Ok(ConceptAnswer::Found(_))));
    }

    #[test]
    fn the_answer_serialises_as_the_concept_json() {
        for query in ["canonical tag", "OG tags", "canonicle", "xyzzy quux"] {
            let c = concept(query);
            let answer = serde_json::to_value(ConceptAnswer::from(c.clone())).unwrap();
            assert_eq!(answer.to_string(), c.to_json().to_string(), "{query}");
        }
    }
}
