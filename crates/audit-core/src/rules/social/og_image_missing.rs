//! `og-image-missing`: Page has og:image.
//!
//! - **What it checks:** fails when no og:image.
//! - **Why it matters:** Shared links with an image get far more clicks than those without.
//! - **Fails:** no `<meta property="og:image">`
//! - **Passes:** `<meta property="og:image" content="...">`
//! - **Reference:** <https://ogp.me/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct OgImageMissing;

static META: RuleMeta = RuleMeta {
    id: "og-image-missing",
    name: "Page has og:image",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no og:image",
    why: "Shared links with an image get far more clicks than those without.",
    fail_example: "no <meta property=\"og:image\">",
    pass_example: "<meta property=\"og:image\" content=\"...\">",
    reference: "https://ogp.me/",
};

impl Rule for OgImageMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.og.get("og:image").is_some_and(|v| !v.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new("Open Graph image missing", "The page has no og:image meta tag.");
        if let Some(s) = util::suggest_og(page, "og:image") {
            f = f.suggested(s);
        }
        Outcome::Fail(f)
    }
}
