//! `og-title-missing`: Page has og:title.
//!
//! - **What it checks:** fails when no og:title.
//! - **Why it matters:** Social networks and chat apps show og:title on shared links; without it they guess.
//! - **Fails:** no `<meta property="og:title">`
//! - **Passes:** `<meta property="og:title" content="...">`
//! - **Reference:** <https://ogp.me/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct OgTitleMissing;

static META: RuleMeta = RuleMeta {
    id: "og-title-missing",
    name: "Page has og:title",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no og:title",
    why: "Social networks and chat apps show og:title on shared links; without it they guess.",
    fail_example: "no <meta property=\"og:title\">",
    pass_example: "<meta property=\"og:title\" content=\"...\">",
    reference: "https://ogp.me/",
};

impl Rule for OgTitleMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.og.get("og:title").is_some_and(|v| !v.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new("Open Graph title missing", "The page has no og:title meta tag.");
        if let Some(s) = util::suggest_og(page, "og:title") {
            f = f.suggested(s);
        }
        Outcome::Fail(f)
    }
}
