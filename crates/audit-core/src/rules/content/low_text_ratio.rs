//! `low-text-ratio`: Visible text is a fair share of the HTML.
//!
//! - **What it checks:** fails when text/HTML ratio < 10%.
//! - **Why it matters:** Very little text in a lot of markup often means bloated templates and little content.
//! - **Fails:** a 200 KB page with 50 words
//! - **Passes:** a page whose text is 25% of its bytes
//! - **Reference:** <https://www.seonaut.org/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct LowTextRatio;

static META: RuleMeta = RuleMeta {
    id: "low-text-ratio",
    name: "Visible text is a fair share of the HTML",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 50,
    weight: 1,
    threshold: "text/HTML ratio < 10%",
    why: "Very little text in a lot of markup often means bloated templates and little content.",
    fail_example: "a 200 KB page with 50 words",
    pass_example: "a page whose text is 25% of its bytes",
    reference: "https://www.seonaut.org/",
};

impl Rule for LowTextRatio {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.html_bytes == 0 {
            return Outcome::NotApplicable;
        }
        let ratio = page.text_ratio();
        if ratio >= util::MIN_TEXT_RATIO {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Low text to HTML ratio",
                format!("Visible text is {ratio:.1}% of the HTML; aim for at least {}%.", util::MIN_TEXT_RATIO),
            )
            .current(format!("{ratio:.1}%"))
            .suggested(format!(">= {}%", util::MIN_TEXT_RATIO)),
        )
    }
}
