use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionMultiple;

static META: RuleMeta = RuleMeta {
    id: "meta-description-multiple",
    name: "Page has one meta description",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "more than one meta description",
    why: "Several descriptions are ambiguous; search engines use one of them or none.",
    fail_example: "two <meta name=description>",
    pass_example: "one",
    reference: "https://www.seonaut.org/",
    phrases: &["multiple description", "duplicate description tag"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["meta-description"],
};

impl Rule for MetaDescriptionMultiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.meta_descriptions.len() <= 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several meta descriptions",
                format!("The page has {} meta descriptions; keep one.", page.meta_descriptions.len()),
            )
            .current(page.meta_descriptions.len().to_string())
            .suggested("1")
            .at(page, page.spots.meta_descriptions.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::description_fix(c, super::Problem::Multiple)
    }
}
