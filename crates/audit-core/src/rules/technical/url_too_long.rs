//! `url-too-long`: URL is reasonably short.
//!
//! - **What it checks:** fails when > 100 characters.
//! - **Why it matters:** Long URLs are truncated in results, hard to share and often carry needless parameters.
//! - **Fails:** a 140-character URL
//! - **Passes:** `https://example.com/short-page`
//! - **Reference:** <https://www.seonaut.org/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct UrlTooLong;

static META: RuleMeta = RuleMeta {
    id: "url-too-long",
    name: "URL is reasonably short",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 70,
    weight: 1,
    threshold: "> 100 characters",
    why: "Long URLs are truncated in results, hard to share and often carry needless parameters.",
    fail_example: "a 140-character URL",
    pass_example: "https://example.com/short-page",
    reference: "https://www.seonaut.org/",
};

impl Rule for UrlTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let len = page.final_url.chars().count();
        if len <= util::URL_MAX_CHARS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL is too long",
                format!("The URL has {len} characters; keep it under {}.", util::URL_MAX_CHARS),
            )
            .current(len.to_string())
            .suggested(format!("<= {}", util::URL_MAX_CHARS)),
        )
    }
}
