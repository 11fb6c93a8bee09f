//! `http-status-error`: Page answers with a successful HTTP status.
//!
//! - **What it checks:** fails when status >= 400.
//! - **Why it matters:** Search engines drop pages that answer 4xx or 5xx from their index; users see an error instead of content.
//! - **Fails:** a page that answers 404
//! - **Passes:** a page that answers 200
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/http-status-code>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct HttpStatusError;

static META: RuleMeta = RuleMeta {
    id: "http-status-error",
    name: "Page answers with a successful HTTP status",
    category: Category::Technical,
    severity: Severity::Critical,
    impact: Level::High,
    effort: Level::Medium,
    confidence: 100,
    weight: 6,
    threshold: "status >= 400",
    why: "Search engines drop pages that answer 4xx or 5xx from their index; users see an error instead of content.",
    fail_example: "a page that answers 404",
    pass_example: "a page that answers 200",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/http-status-code",
};

impl Rule for HttpStatusError {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(status) = page.http.status else { return Outcome::NotApplicable };
        if status < 400 {
            return Outcome::Pass;
        }
        let kind = if status >= 500 { "server error" } else { "client error" };
        Outcome::Fail(
            Finding::new(
                format!("Page returns HTTP {status}"),
                format!("The page answered with HTTP {status} ({kind}); search engines will not index it."),
            )
            .current(status.to_string())
            .suggested("200"),
        )
    }
}
