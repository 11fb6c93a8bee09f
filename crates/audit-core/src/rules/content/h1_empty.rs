use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct H1Empty;

static META: RuleMeta = RuleMeta {
    id: "h1-empty",
    name: "The h1 heading has text",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "first <h1> has no text",
    why: "An empty main heading carries no meaning for readers or crawlers.",
    fail_example: "<h1><img src=logo.png></h1>",
    pass_example: "<h1>Blue widgets</h1>",
    reference: "https://www.seonaut.org/",
    phrases: &["h1 empty"],
    excluded: &[],
    glossary: &["h1-heading"],
};

impl Rule for H1Empty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(h1) = page.h1s.first() else { return Outcome::NotApplicable };
        if !h1.trim().is_empty() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("H1 heading is empty", "The first <h1> has no text.")
                .current("")
                .suggested(util::suggest_h1(page))
                .at(page, page.headings.iter().find(|h| h.level == 1).map(|h| h.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::h1_fix(c)
    }
}
