use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataRequiredProperties;

static META: RuleMeta = RuleMeta {
    id: "structured-data-required-properties",
    name: "Structured data items are eligible for their rich results",
    category: Category::StructuredData,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 90,
    weight: 1,
    threshold: "an item (JSON-LD, microdata or RDFa) with an error for a rich result its type can earn: a required property missing or invalid (see \"Structured data requirements\")",
    why: "An error costs the item its rich result: Google shows nothing for markup that lacks what it requires.",
    fail_example:
        "{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Pan\",\"offers\":{\"@type\":\"Offer\",\"price\":\"$19\"}}",
    pass_example: "a Product with name, image and an Offer with a numeric price and an ISO 4217 currency",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/search-gallery",
    phrases: &["required property", "structured data property", "schema required", "required field"],
    excluded: &["recommended", "retired"],
    glossary: &["structured-data", "schema-org", "rich-results"],
};

impl Rule for StructuredDataRequiredProperties {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let sd = &page.structured_data;
        let checked = sd.items.iter().filter(|i| !i.eligible.is_empty() || !i.not_eligible.is_empty()).count();
        if checked == 0 {
            return Outcome::NotApplicable;
        }
        let errors: Vec<_> = sd.errors().collect();
        let Some((_, first)) = errors.first() else { return Outcome::Pass };
        let items = sd.items.iter().filter(|i| !i.errors.is_empty()).count();
        Outcome::Fail(
            Finding::new(
                "Structured data lacks required properties",
                format!(
                    "{} error(s) in {items} of {checked} item(s) cost rich results, e.g. {} (line {}): {}",
                    errors.len(),
                    first.path,
                    first.line,
                    first.message
                ),
            )
            .current(first.path.clone())
            .suggested(first.message.clone())
            .at(page, util::structured_spots(page, errors.iter().map(|(_, p)| p.line))),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::complete_or_main(c)
    }
}
