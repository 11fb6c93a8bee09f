//! `html-lang-invalid`: html lang is a valid BCP 47 tag.
//!
//! - **What it checks:** fails when lang is not a well-formed BCP 47 tag.
//! - **Why it matters:** An invalid language tag is ignored, as if there were none.
//! - **Fails:** `<html lang="english">`
//! - **Passes:** `<html lang="en-GB">`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/accessibility/html-lang-valid>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct HtmlLangInvalid;

static META: RuleMeta = RuleMeta {
    id: "html-lang-invalid",
    name: "html lang is a valid BCP 47 tag",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "lang is not a well-formed BCP 47 tag",
    why: "An invalid language tag is ignored, as if there were none.",
    fail_example: "<html lang=\"english\">",
    pass_example: "<html lang=\"en-GB\">",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/html-lang-valid",
};

impl Rule for HtmlLangInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(lang) = page.lang.as_deref().map(str::trim).filter(|l| !l.is_empty()) else {
            return Outcome::NotApplicable;
        };
        if util::is_valid_bcp47(lang) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Invalid language tag", format!("\"{lang}\" is not a valid BCP 47 language tag."))
                .current(lang)
                .suggested("en, en-GB, de-AT, ..."),
        )
    }
}
