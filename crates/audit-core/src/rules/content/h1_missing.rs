use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct H1Missing;

static META: RuleMeta = RuleMeta {
    id: "h1-missing",
    name: "Page has an h1 heading",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 90,
    weight: 3,
    threshold: "no <h1>",
    why: "The main heading tells readers and search engines what the page is about.",
    fail_example: "no <h1>",
    pass_example: "<h1>Blue widgets</h1>",
    reference: "https://moz.com/learn/seo/on-page-factors",
    phrases: &["h1 missing"],
    excluded: &["multiple"],
    glossary: &["h1-heading"],
};

impl Rule for H1Missing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.h1s.is_empty() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("H1 heading missing", "The page has no <h1>; add one main heading that states the topic.")
                .suggested(util::suggest_h1(page)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::h1_fix(c)
    }
}
