use crate::fix::json_ld_script;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataRequiredProperties;

static META: RuleMeta = RuleMeta {
    id: "structured-data-required-properties",
    name: "Structured data carries required properties",
    category: Category::StructuredData,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 85,
    weight: 1,
    threshold:
        "Article, Product, Organization, BreadcrumbList, FAQPage or LocalBusiness without its required properties",
    why: "Rich results need the properties Google marks required; without them the markup earns nothing.",
    fail_example: "{\"@context\":\"https://schema.org\",\"@type\":\"Product\"} without name",
    pass_example: "a Product with name and offers, review or aggregateRating",
    reference: "https://developers.google.com/search/docs/appearance/structured-data/search-gallery",
    phrases: &["required property", "structured data property", "schema required", "required field"],
    excluded: &[],
    glossary: &["structured-data", "schema-org", "rich-results"],
};

impl Rule for StructuredDataRequiredProperties {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let found = util::structured_data_gaps(page);
        let Some((checked, missing)) = found else { return Outcome::NotApplicable };
        let Some(first) = missing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Structured data lacks required properties",
                format!("{} of {checked} checked item(s) miss required properties, e.g. {first}.", missing.len()),
            )
            .current(first.clone())
            .suggested("add the required properties"),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let existing = c.page.and_then(|p| p.json_ld.iter().find_map(|b| b.value.clone()));
        let fixed = match existing {
            Some(serde_json::Value::Object(map)) if map.contains_key("@type") => super::complete(c, map),
            _ => super::main_json_ld(c),
        };
        FixTemplate::some(
            FixKind::JsonLd,
            Difficulty::Medium,
            json_ld_script(&fixed),
            "The markup with the properties Google requires for this type filled in from the page; check every value (prices and ratings must match what the page shows).",
        )
    }
}
