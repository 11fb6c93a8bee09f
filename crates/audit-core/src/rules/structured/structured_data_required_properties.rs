//! `structured-data-required-properties`: Structured data carries required properties.
//!
//! - **What it checks:** fails when Article, Product, Organization, BreadcrumbList, FAQPage or LocalBusiness without its required properties.
//! - **Why it matters:** Rich results need the properties Google marks required; without them the markup earns nothing.
//! - **Fails:** `{"@context":"https://schema.org","@type":"Product"}` without name
//! - **Passes:** a Product with name and offers, review or aggregateRating
//! - **Reference:** <https://developers.google.com/search/docs/appearance/structured-data/search-gallery>

use crate::rules::prelude::*;

/// See the module documentation.
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
}
