//! `heading-levels-skipped`: Heading levels do not skip.
//!
//! - **What it checks:** fails when a heading more than one level below the previous.
//! - **Why it matters:** A logical outline helps assistive technology and machines understand the structure of the content.
//! - **Fails:** `<h1>..</h1><h3>..</h3>`
//! - **Passes:** `<h1>..</h1><h2>..</h2>`
//! - **Reference:** <https://www.w3.org/WAI/tutorials/page-structure/headings/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct HeadingLevelsSkipped;

static META: RuleMeta = RuleMeta {
    id: "heading-levels-skipped",
    name: "Heading levels do not skip",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 70,
    weight: 1,
    threshold: "a heading more than one level below the previous",
    why: "A logical outline helps assistive technology and machines understand the structure of the content.",
    fail_example: "<h1>..</h1><h3>..</h3>",
    pass_example: "<h1>..</h1><h2>..</h2>",
    reference: "https://www.w3.org/WAI/tutorials/page-structure/headings/",
};

impl Rule for HeadingLevelsSkipped {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.headings.len() < 2 {
            return Outcome::NotApplicable;
        }
        let skip = page.headings.windows(2).find(|w| w[1].level > w[0].level + 1);
        let Some(w) = skip else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Heading levels skipped",
                format!("An <h{}> follows an <h{}>; do not skip heading levels.", w[1].level, w[0].level),
            )
            .current(format!("h{} -> h{}", w[0].level, w[1].level))
            .suggested(format!("h{} -> h{}", w[0].level, w[0].level + 1)),
        )
    }
}
