//! `dom-too-large`: DOM has at most 1,500 elements.
//!
//! - **What it checks:** fails when > 1,500 elements.
//! - **Why it matters:** A large DOM costs memory, slows style calculation and layout, and makes interaction sluggish.
//! - **Fails:** a page with 4,000 elements
//! - **Passes:** a page with 800 elements
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/performance/dom-size>

use crate::rules::prelude::*;

/// See the module documentation.
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
}
