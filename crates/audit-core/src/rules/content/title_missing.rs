use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TitleMissing;

static META: RuleMeta = RuleMeta {
    id: "title-missing",
    name: "Page has a title",
    category: Category::Content,
    severity: Severity::Critical,
    impact: Level::High,
    effort: Level::Low,
    confidence: 100,
    weight: 5,
    threshold: "no <title> text",
    why: "The title is the headline of the search result and the strongest on-page relevance signal.",
    fail_example: "<head></head>",
    pass_example: "<title>Blue widgets | Example</title>",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/document-title",
    phrases: &["title missing", "title empty"],
    excluded: &["og", "graph", "twitter", "multiple"],
    glossary: &["title-tag"],
};

impl Rule for TitleMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.title.is_empty() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Title tag missing",
                "The page has no <title> or an empty one; search engines will make one up.",
            )
            .suggested(util::suggest_title(page))
            .at(page, [if page.spots.title.is_some() { page.spots.title } else { page.spots.head }]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::title_fix(c, super::Problem::Missing)
    }
}
