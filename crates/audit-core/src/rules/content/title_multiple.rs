use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TitleMultiple;

static META: RuleMeta = RuleMeta {
    id: "title-multiple",
    name: "Head holds one title element",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "more than one <title> in <head>",
    why: "Several titles leave it to the search engine to pick one.",
    fail_example: "two <title> elements in <head>",
    pass_example: "one <title>",
    reference: "https://www.seonaut.org/",
    phrases: &["multiple title", "duplicate title tag"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["title-tag"],
};

impl Rule for TitleMultiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.titles_in_head <= 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several title tags",
                format!("The <head> holds {} <title> elements; keep one.", page.titles_in_head),
            )
            .current(page.titles_in_head.to_string())
            .suggested("1")
            .at(page, page.spots.head_titles.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::title_fix(c, super::Problem::Multiple)
    }
}
