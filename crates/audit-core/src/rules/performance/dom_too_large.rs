use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct DomTooLarge;

static META: RuleMeta = RuleMeta {
    id: "dom-too-large",
    name: "DOM has at most 1,500 elements",
    category: Category::Performance,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::High,
    confidence: 80,
    weight: 1,
    threshold: "> 1,500 elements",
    why: "A large DOM costs memory, slows style calculation and layout, and makes interaction sluggish.",
    fail_example: "a page with 4,000 elements",
    pass_example: "a page with 800 elements",
    reference: "https://developer.chrome.com/docs/lighthouse/performance/dom-size",
    phrases: &["dom large", "dom size", "dom element", "dom node", "excessive dom"],
    excluded: &[],
    glossary: &["dom-size", "page-speed", "core-web-vitals", "inp"],
};

impl Rule for DomTooLarge {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.dom_nodes <= util::MAX_DOM_NODES {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "DOM is too large",
                format!("The page has {} elements; keep it under {}.", page.dom_nodes, util::MAX_DOM_NODES),
            )
            .current(page.dom_nodes.to_string())
            .suggested(format!("<= {}", util::MAX_DOM_NODES)),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Hard,
            "Simplify the markup below 1,500 elements: remove wrapper divs, render long lists and tables in pages or on demand, and drop hidden duplicate menus for mobile and desktop.",
            "A large DOM slows style calculation and layout on every change.",
        )
    }
}
