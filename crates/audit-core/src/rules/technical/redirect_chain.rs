//! `redirect-chain`: Page is reached without a chain of redirects.
//!
//! - **What it checks:** fails when redirect hops >= 2.
//! - **Why it matters:** Every redirect hop costs a round trip and some crawl budget; chains dilute signals and slow the first view.
//! - **Fails:** `http://a` → `https://a` → `https://www.a/`
//! - **Passes:** one hop or none
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/redirects>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct RedirectChain;

static META: RuleMeta = RuleMeta {
    id: "redirect-chain",
    name: "Page is reached without a chain of redirects",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "redirect hops >= 2",
    why: "Every redirect hop costs a round trip and some crawl budget; chains dilute signals and slow the first view.",
    fail_example: "http://a → https://a → https://www.a/",
    pass_example: "one hop or none",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/redirects",
};

impl Rule for RedirectChain {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.http.status.is_none() {
            return Outcome::NotApplicable;
        }
        let hops = page.http.redirects.len();
        if hops < 2 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Redirect chain",
                format!("The URL went through {hops} redirects before the page; link to the final URL directly."),
            )
            .current(format!("{hops} redirects"))
            .suggested(page.final_url.clone()),
        )
    }
}
