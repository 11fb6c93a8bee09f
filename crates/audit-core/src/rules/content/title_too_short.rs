use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TitleTooShort;

static META: RuleMeta = RuleMeta {
    id: "title-too-short",
    name: "Title is at least 30 characters",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "< 30 characters",
    why: "A very short title wastes the most visible part of the search result.",
    fail_example: "<title>Home</title>",
    pass_example: "<title>Handmade oak furniture from Bavaria | Holzwerk</title>",
    reference: "https://moz.com/learn/seo/title-tag",
    phrases: &["title short"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["title-tag"],
};

impl Rule for TitleTooShort {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.title.is_empty() {
            return Outcome::NotApplicable;
        }
        let len = page.title.chars().count();
        if len >= util::TITLE_MIN_CHARS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Title is too short",
                format!("The title has {len} characters; aim for {}-{}.", util::TITLE_MIN_CHARS, util::TITLE_MAX_CHARS),
            )
            .current(page.title.clone())
            .suggested(format!("{}-{} characters", util::TITLE_MIN_CHARS, util::TITLE_MAX_CHARS))
            .at(page, [page.spots.title]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::title_fix(c, super::Problem::TooShort)
    }
}
