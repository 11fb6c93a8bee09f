use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct StructuredDataRetiredRichResult;

static META: RuleMeta = RuleMeta {
    id: "structured-data-retired-rich-result",
    name: "Structured data is not written for a retired rich result only",
    category: Category::StructuredData,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an item of a type whose rich result Google retired (FAQPage, HowTo, Book, Course, ClaimReview, Occupation, LearningResource, SpecialAnnouncement, Vehicle)",
    why: "The markup can be valid, but it earns no rich result any more: effort spent keeping it up buys nothing in Search.",
    fail_example: "{\"@context\":\"https://schema.org\",\"@type\":\"FAQPage\",\"mainEntity\":[...]}",
    pass_example: "markup for rich results Google still shows",
    reference: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    phrases: &["faq rich result", "howto rich result", "retired rich result", "deprecated schema"],
    excluded: &[],
    glossary: &["structured-data", "rich-results"],
};

impl Rule for StructuredDataRetiredRichResult {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let sd = &page.structured_data;
        if sd.items.is_empty() {
            return Outcome::NotApplicable;
        }
        let retired: Vec<_> = sd.items.iter().filter_map(|i| i.notice.as_ref().map(|n| (i, n))).collect();
        let Some((item, notice)) = retired.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Structured data for a retired rich result",
                format!("{} item(s) earn no rich result any more. {notice} (line {})", retired.len(), item.line),
            )
            .current(item.type_.clone())
            .suggested("keep the markup only if another consumer reads it")
            .at(page, util::structured_spots(page, retired.iter().map(|(i, _)| i.line))),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Easy,
            "Google no longer shows a rich result for this markup (FAQ since 2026-05-07, How-to since 2023-09-13, Book actions, Course info, Fact check, Estimated salary, Learning video, Special announcement and Vehicle listing since 2025-06-12). Keep it only if another consumer reads it; spend the effort on markup for rich results Google still shows (Product, Article, Recipe, BreadcrumbList...).",
            "Valid markup for a retired rich result earns nothing in Search.",
        )
    }
}
