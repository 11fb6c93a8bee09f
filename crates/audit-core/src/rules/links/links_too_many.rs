use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LinksTooMany;

static META: RuleMeta = RuleMeta {
    id: "links-too-many",
    name: "Page has at most 100 links",
    category: Category::Links,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 60,
    weight: 1,
    threshold: "> 100 links",
    why: "Every extra link dilutes the value passed to the others and makes the page harder to crawl.",
    fail_example: "a page with 300 links",
    pass_example: "a page with 60 links",
    reference: "https://www.seonaut.org/",
    phrases: &["too multiple link", "excessive link"],
    excluded: &[],
    glossary: &["internal-linking"],
};

impl Rule for LinksTooMany {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let (i, e) = page.link_counts();
        let n = i + e;
        if n <= util::MAX_LINKS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Too many links", format!("The page has {n} links; keep it under {}.", util::MAX_LINKS))
                .current(n.to_string())
                .suggested(format!("<= {}", util::MAX_LINKS)),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Medium,
            "Cut the page to the links a visitor needs (under 100): group navigation into menus of categories, drop repeated links to the same target, and move long link lists to dedicated hub pages.",
            "Each extra link dilutes the others and makes the page harder to use.",
        )
    }
}
