//! `h1-multiple`: Page has one h1 heading.
//!
//! - **What it checks:** fails when more than one `<h1>`.
//! - **Why it matters:** One main heading gives the page a clear topic; several dilute it.
//! - **Fails:** two `<h1>`
//! - **Passes:** one `<h1>` and `<h2>` sub-headings
//! - **Reference:** <https://www.seonaut.org/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct H1Multiple;

static META: RuleMeta = RuleMeta {
    id: "h1-multiple",
    name: "Page has one h1 heading",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 60,
    weight: 1,
    threshold: "more than one <h1>",
    why: "One main heading gives the page a clear topic; several dilute it.",
    fail_example: "two <h1>",
    pass_example: "one <h1> and <h2> sub-headings",
    reference: "https://www.seonaut.org/",
};

impl Rule for H1Multiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.h1s.len() <= 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several H1 headings",
                format!("The page has {} <h1> headings; keep one and demote the rest to <h2>.", page.h1s.len()),
            )
            .current(page.h1s.join(" | "))
            .suggested("1"),
        )
    }
}
