use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataRecommendedProperties;

static META: RuleMeta = RuleMeta {
    id: "structured-data-recommended-properties",
    name: "Structured data items carry the recommended properties",
    category: Category::StructuredData,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 80,
    weight: 1,
    threshold: "an item with a warning for a rich result its type can earn: a recommended property missing or invalid (see \"Structured data requirements\")",
    why: "The item stays eligible, but its rich result shows less (no rating, no date, no image) than it could.",
    fail_example: "{\"@context\":\"https://schema.org\",\"@type\":\"Article\",\"headline\":\"Oak\"} (no author, dates or image)",
    pass_example: "an Article with headline, author (name and url), datePublished, dateModified and image",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/search-gallery",
    phrases: &["recommended property", "schema recommended", "recommended field", "missing field warning"],
    excluded: &[],
    glossary: &["structured-data", "schema-org", "rich-results"],
};

impl Rule for StructuredDataRecommendedProperties {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let sd = &page.structured_data;
        if sd.items.iter().all(|i| i.eligible.is_empty() && i.not_eligible.is_empty()) {
            return Outcome::NotApplicable;
        }
        let warnings: Vec<_> = sd.warnings().collect();
        let Some((_, first)) = warnings.first() else { return Outcome::Pass };
        let items = sd.items.iter().filter(|i| !i.warnings.is_empty()).count();
        Outcome::Fail(
            Finding::new(
                "Structured data lacks recommended properties",
                format!(
                    "{} warning(s) in {items} item(s): the rich results stay, with less. First: {} (line {}): {}",
                    warnings.len(),
                    first.path,
                    first.line,
                    first.message
                ),
            )
            .current(first.path.clone())
            .suggested(first.message.clone())
            .at(page, util::structured_spots(page, warnings.iter().map(|(_, p)| p.line))),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::complete_or_main(c)
    }
}
