//! `page-nofollow`: Links on the page may be followed.
//!
//! - **What it checks:** fails when nofollow in meta robots or X-Robots-Tag.
//! - **Why it matters:** A page-wide nofollow stops crawlers from discovering pages through this one and passes no link signals.
//! - **Fails:** `<meta name="robots" content="nofollow">`
//! - **Passes:** no nofollow directive
//! - **Reference:** <https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct PageNofollow;

static META: RuleMeta = RuleMeta {
    id: "page-nofollow",
    name: "Links on the page may be followed",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "nofollow in meta robots or X-Robots-Tag",
    why: "A page-wide nofollow stops crawlers from discovering pages through this one and passes no link signals.",
    fail_example: "<meta name=\"robots\" content=\"nofollow\">",
    pass_example: "no nofollow directive",
    reference: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
};

impl Rule for PageNofollow {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.is_nofollow() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Links on the page are not followed",
                "A robots directive tells crawlers not to follow any link on this page.",
            )
            .current(page.robots_directives().join(", "))
            .suggested("follow"),
        )
    }
}
