//! `favicon-missing`: Page links a favicon.
//!
//! - **What it checks:** fails when no link rel=icon.
//! - **Why it matters:** Search results and browser tabs show the site icon; without one the result looks generic.
//! - **Fails:** no icon link
//! - **Passes:** `<link rel="icon" href="/favicon.ico">`
//! - **Reference:** <https://developers.google.com/search/docs/appearance/favicon-in-search>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct FaviconMissing;

static META: RuleMeta = RuleMeta {
    id: "favicon-missing",
    name: "Page links a favicon",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no link rel=icon",
    why: "Search results and browser tabs show the site icon; without one the result looks generic.",
    fail_example: "no icon link",
    pass_example: "<link rel=\"icon\" href=\"/favicon.ico\">",
    reference: "https://developers.google.com/search/docs/appearance/favicon-in-search",
};

impl Rule for FaviconMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.favicon.is_some() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Favicon missing", "The page declares no <link rel=\"icon\">.")
                .suggested("<link rel=\"icon\" href=\"/favicon.ico\">"),
        )
    }
}
