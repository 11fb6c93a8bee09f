use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionTooLong;

static META: RuleMeta = RuleMeta {
    id: "meta-description-too-long",
    name: "Meta description is at most 160 characters",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 70,
    weight: 1,
    threshold: "> 160 characters",
    why: "Search engines cut long descriptions mid-sentence.",
    fail_example: "a 250-character description",
    pass_example: "a 140-character description",
    reference: "https://moz.com/learn/seo/meta-description",
    phrases: &["description long"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["meta-description"],
};

impl Rule for MetaDescriptionTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(d) = page.meta_description().map(str::trim).filter(|d| !d.is_empty()) else {
            return Outcome::NotApplicable;
        };
        let len = d.chars().count();
        if len <= util::DESCRIPTION_MAX_CHARS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Meta description is too long",
                format!(
                    "The meta description has {len} characters; search results show about {}.",
                    util::DESCRIPTION_MAX_CHARS
                ),
            )
            .current(d)
            .suggested(util::trim_at_word(d, util::DESCRIPTION_MAX_CHARS))
            .at(page, page.spots.meta_descriptions.first().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::description_fix(c, super::Problem::TooLong)
    }
}
