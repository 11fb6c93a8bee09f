use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TitleTooLong;

static META: RuleMeta = RuleMeta {
    id: "title-too-long",
    name: "Title is at most 60 characters",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "> 60 characters",
    why: "Search engines truncate long titles, cutting off what comes last.",
    fail_example: "a 90-character title",
    pass_example: "a 50-character title",
    reference: "https://moz.com/learn/seo/title-tag",
    phrases: &["title long"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["title-tag"],
};

impl Rule for TitleTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let len = page.title.chars().count();
        if len == 0 {
            return Outcome::NotApplicable;
        }
        if len <= util::TITLE_MAX_CHARS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Title is too long",
                format!("The title has {len} characters; search results show about {}.", util::TITLE_MAX_CHARS),
            )
            .current(page.title.clone())
            .suggested(util::trim_at_word(&page.title, util::TITLE_MAX_CHARS))
            .at(page, [page.spots.title]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::title_fix(c, super::Problem::TooLong)
    }
}
