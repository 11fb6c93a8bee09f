//! `charset-missing`: Character encoding is declared.
//!
//! - **What it checks:** fails when no charset in header, BOM or meta.
//! - **Why it matters:** Without a declared encoding browsers and crawlers may guess wrong and garble text.
//! - **Fails:** no `<meta charset>` and no charset in Content-Type
//! - **Passes:** `<meta charset="utf-8">`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/best-practices/charset>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct CharsetMissing;

static META: RuleMeta = RuleMeta {
    id: "charset-missing",
    name: "Character encoding is declared",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no charset in header, BOM or meta",
    why: "Without a declared encoding browsers and crawlers may guess wrong and garble text.",
    fail_example: "no <meta charset> and no charset in Content-Type",
    pass_example: "<meta charset=\"utf-8\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/charset",
};

impl Rule for CharsetMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.meta_charset.is_some()
            || page.charset.header.is_some()
            || page.charset.source == crate::CharsetSource::Bom
        {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Character encoding not declared",
                "Neither the Content-Type header nor a <meta charset> declares the encoding.",
            )
            .suggested("<meta charset=\"utf-8\">"),
        )
    }
}
