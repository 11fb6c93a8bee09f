//! `link-empty-text`: Links have text or an accessible name.
//!
//! - **What it checks:** fails when a link with no text, aria-label or image alt.
//! - **Why it matters:** A link without text gives crawlers and screen readers nothing to describe its target.
//! - **Fails:** `<a href="/x"><img src="i.png"></a>`
//! - **Passes:** `<a href="/x"><img src="i.png" alt="Cart"></a>`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/accessibility/link-name>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct LinkEmptyText;

static META: RuleMeta = RuleMeta {
    id: "link-empty-text",
    name: "Links have text or an accessible name",
    category: Category::Links,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 85,
    weight: 1,
    threshold: "a link with no text, aria-label or image alt",
    why: "A link without text gives crawlers and screen readers nothing to describe its target.",
    fail_example: "<a href=\"/x\"><img src=\"i.png\"></a>",
    pass_example: "<a href=\"/x\"><img src=\"i.png\" alt=\"Cart\"></a>",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/link-name",
};

impl Rule for LinkEmptyText {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let web: Vec<_> = page.links.iter().filter(|l| l.kind == LinkKind::Web).collect();
        if web.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = web.iter().filter(|l| l.text.trim().is_empty() && l.label.is_none()).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Links without text",
                format!("{} link(s) have neither text nor an accessible name.", bad.len()),
            )
            .current(first.url.clone().unwrap_or_default())
            .suggested("link text, an aria-label, or alt text on the image inside"),
        )
    }
}
