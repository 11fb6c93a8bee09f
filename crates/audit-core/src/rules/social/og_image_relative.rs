//! `og-image-relative`: og:image is an absolute URL.
//!
//! - **What it checks:** fails when og:image is relative.
//! - **Why it matters:** Social networks do not resolve relative og:image URLs; the image will not show.
//! - **Fails:** `<meta property="og:image" content="/img/share.png">`
//! - **Passes:** `<meta property="og:image" content="https://example.com/img/share.png">`
//! - **Reference:** <https://ogp.me/>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct OgImageRelative;

static META: RuleMeta = RuleMeta {
    id: "og-image-relative",
    name: "og:image is an absolute URL",
    category: Category::Social,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "og:image is relative",
    why: "Social networks do not resolve relative og:image URLs; the image will not show.",
    fail_example: "<meta property=\"og:image\" content=\"/img/share.png\">",
    pass_example: "<meta property=\"og:image\" content=\"https://example.com/img/share.png\">",
    reference: "https://ogp.me/",
};

impl Rule for OgImageRelative {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(image) = page.og.get("og:image").filter(|v| !v.trim().is_empty()) else {
            return Outcome::NotApplicable;
        };
        if util::is_absolute_url(image) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("og:image is a relative URL", "Open Graph requires an absolute image URL.")
                .current(image.clone())
                .suggested(page.resolve(image).unwrap_or_default()),
        )
    }
}
