//! `html-too-large`: HTML is under 1 MiB.
//!
//! - **What it checks:** fails when > 1 MiB of HTML.
//! - **Why it matters:** Large documents are slow to download and parse, and crawlers may stop reading them.
//! - **Fails:** a 2 MiB HTML page
//! - **Passes:** a 90 KiB HTML page
//! - **Reference:** <https://developers.google.com/search/docs/crawling-indexing/googlebot>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct HtmlTooLarge;

static META: RuleMeta = RuleMeta {
    id: "html-too-large",
    name: "HTML is under 1 MiB",
    category: Category::Performance,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 90,
    weight: 1,
    threshold: "> 1 MiB of HTML",
    why: "Large documents are slow to download and parse, and crawlers may stop reading them.",
    fail_example: "a 2 MiB HTML page",
    pass_example: "a 90 KiB HTML page",
    reference: "https://developers.google.com/search/docs/crawling-indexing/googlebot",
};

impl Rule for HtmlTooLarge {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.html_bytes <= util::MAX_HTML_BYTES {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "HTML is too large",
                format!(
                    "The HTML is {} KiB; keep it under {} KiB.",
                    page.html_bytes / 1024,
                    util::MAX_HTML_BYTES / 1024
                ),
            )
            .current(format!("{} bytes", page.html_bytes))
            .suggested(format!("<= {} bytes", util::MAX_HTML_BYTES)),
        )
    }
}
