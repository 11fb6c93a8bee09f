//! `url-many-parameters`: URL has few query parameters.
//!
//! - **What it checks:** fails when > 3 query parameters.
//! - **Why it matters:** Many parameters create near-endless URL variants that waste crawl budget.
//! - **Fails:** `https://example.com/p?a=1&b=2&c=3&d=4`
//! - **Passes:** `https://example.com/p?id=1`
//! - **Reference:** <https://developers.google.com/search/docs/crawling-indexing/url-structure>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct UrlManyParameters;

static META: RuleMeta = RuleMeta {
    id: "url-many-parameters",
    name: "URL has few query parameters",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 60,
    weight: 1,
    threshold: "> 3 query parameters",
    why: "Many parameters create near-endless URL variants that waste crawl budget.",
    fail_example: "https://example.com/p?a=1&b=2&c=3&d=4",
    pass_example: "https://example.com/p?id=1",
    reference: "https://developers.google.com/search/docs/crawling-indexing/url-structure",
};

impl Rule for UrlManyParameters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        let n = url.query_pairs().count();
        if n <= util::URL_MAX_PARAMS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL has many parameters",
                format!("The URL carries {n} query parameters; keep at most {}.", util::URL_MAX_PARAMS),
            )
            .current(n.to_string())
            .suggested(format!("<= {}", util::URL_MAX_PARAMS)),
        )
    }
}
