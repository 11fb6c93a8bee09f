//! `not-https`: Page is served over HTTPS.
//!
//! - **What it checks:** fails when scheme is http.
//! - **Why it matters:** HTTPS is a ranking signal and browsers mark plain-HTTP pages as not secure.
//! - **Fails:** `http://example.com/`
//! - **Passes:** `https://example.com/`
//! - **Reference:** <https://developers.google.com/search/docs/appearance/page-experience>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct NotHttps;

static META: RuleMeta = RuleMeta {
    id: "not-https",
    name: "Page is served over HTTPS",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Medium,
    confidence: 100,
    weight: 3,
    threshold: "scheme is http",
    why: "HTTPS is a ranking signal and browsers mark plain-HTTP pages as not secure.",
    fail_example: "http://example.com/",
    pass_example: "https://example.com/",
    reference: "https://developers.google.com/search/docs/appearance/page-experience",
};

impl Rule for NotHttps {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        if url.scheme() != "http" {
            return Outcome::Pass;
        }
        let mut https = url.clone();
        let _ = https.set_scheme("https");
        Outcome::Fail(
            Finding::new(
                "Page is not served over HTTPS",
                "The page is served over plain HTTP; serve it over HTTPS and redirect HTTP to it.",
            )
            .current(page.final_url.clone())
            .suggested(String::from(https)),
        )
    }
}
