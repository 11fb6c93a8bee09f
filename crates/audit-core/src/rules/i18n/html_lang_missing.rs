//! `html-lang-missing`: html element declares a language.
//!
//! - **What it checks:** fails when no lang on `<html>`.
//! - **Why it matters:** The language tells search engines which audience to show the page to, and screen readers how to pronounce it.
//! - **Fails:** `<html>`
//! - **Passes:** `<html lang="en">`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/accessibility/html-has-lang>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct HtmlLangMissing;

static META: RuleMeta = RuleMeta {
    id: "html-lang-missing",
    name: "html element declares a language",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 2,
    threshold: "no lang on <html>",
    why:
        "The language tells search engines which audience to show the page to, and screen readers how to pronounce it.",
    fail_example: "<html>",
    pass_example: "<html lang=\"en\">",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/html-has-lang",
};

impl Rule for HtmlLangMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.lang.as_deref().is_some_and(|l| !l.trim().is_empty()) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Language not declared", "The <html> element has no lang attribute.")
                .suggested("<html lang=\"en\">"),
        )
    }
}
