//! `twitter-card-missing`: Page declares a Twitter card.
//!
//! - **What it checks:** fails when no twitter:card.
//! - **Why it matters:** X (Twitter) uses twitter:card to decide how a shared link looks.
//! - **Fails:** no `<meta name="twitter:card">`
//! - **Passes:** `<meta name="twitter:card" content="summary_large_image">`
//! - **Reference:** <https://developer.x.com/en/docs/x-for-websites/cards/overview/markup>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct TwitterCardMissing;

static META: RuleMeta = RuleMeta {
    id: "twitter-card-missing",
    name: "Page declares a Twitter card",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no twitter:card",
    why: "X (Twitter) uses twitter:card to decide how a shared link looks.",
    fail_example: "no <meta name=\"twitter:card\">",
    pass_example: "<meta name=\"twitter:card\" content=\"summary_large_image\">",
    reference: "https://developer.x.com/en/docs/x-for-websites/cards/overview/markup",
};

impl Rule for TwitterCardMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.twitter.contains_key("twitter:card") {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Twitter card missing", "The page has no twitter:card meta tag.")
                .suggested("<meta name=\"twitter:card\" content=\"summary_large_image\">"),
        )
    }
}
