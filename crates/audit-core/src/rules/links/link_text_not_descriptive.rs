//! `link-text-not-descriptive`: Links have descriptive text.
//!
//! - **What it checks:** fails when link text like 'click here' or 'read more'.
//! - **Why it matters:** Link text tells search engines and users what the target is about; generic phrases say nothing.
//! - **Fails:** <a href="/pricing">click here</a>
//! - **Passes:** <a href="/pricing">See our pricing</a>
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/link-text>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct LinkTextNotDescriptive;

static META: RuleMeta = RuleMeta {
    id: "link-text-not-descriptive",
    name: "Links have descriptive text",
    category: Category::Links,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 2,
    threshold: "link text like 'click here' or 'read more'",
    why: "Link text tells search engines and users what the target is about; generic phrases say nothing.",
    fail_example: "<a href=\"/pricing\">click here</a>",
    pass_example: "<a href=\"/pricing\">See our pricing</a>",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/link-text",
};

impl Rule for LinkTextNotDescriptive {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let web: Vec<_> = page.links.iter().filter(|l| l.kind == LinkKind::Web).collect();
        if web.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<&str> =
            web.iter().filter(|l| util::is_generic_link_text(&l.text)).map(|l| l.text.as_str()).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Links without descriptive text",
                format!("{} link(s) use generic text such as \"{first}\".", bad.len()),
            )
            .current(first.to_string())
            .suggested("text that names the target, e.g. \"Compare pricing plans\""),
        )
    }
}
