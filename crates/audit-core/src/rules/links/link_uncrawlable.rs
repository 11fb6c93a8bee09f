//! `link-uncrawlable`: Anchors are crawlable.
//!
//! - **What it checks:** fails when <a> without href or with javascript:.
//! - **Why it matters:** Crawlers only follow <a href> with a real URL; script-driven anchors hide pages from them.
//! - **Fails:** <a onclick="go()">Pricing</a> or <a href="javascript:go()">
//! - **Passes:** <a href="/pricing">Pricing</a>
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/crawlable-anchors>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct LinkUncrawlable;

static META: RuleMeta = RuleMeta {
    id: "link-uncrawlable",
    name: "Anchors are crawlable",
    category: Category::Links,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 2,
    threshold: "<a> without href or with javascript:",
    why: "Crawlers only follow <a href> with a real URL; script-driven anchors hide pages from them.",
    fail_example: "<a onclick=\"go()\">Pricing</a> or <a href=\"javascript:go()\">",
    pass_example: "<a href=\"/pricing\">Pricing</a>",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/crawlable-anchors",
};

impl Rule for LinkUncrawlable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.links.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = page
            .links
            .iter()
            .filter(|l| match l.kind {
                // An anchor without href, text or label (`<a id="top"></a>`, `<a name="s2">`) is a
                // jump target, not a link anyone clicks.
                LinkKind::NoHref => !l.text.trim().is_empty() || l.label.is_some(),
                LinkKind::Javascript | LinkKind::Empty => true,
                _ => false,
            })
            .collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Uncrawlable links",
                format!("{} anchor(s) have no href, an empty href or a javascript: URL.", bad.len()),
            )
            .current(first.href.clone().map_or_else(|| format!("<a>{}</a>", first.text), |h| format!("href=\"{h}\"")))
            .suggested("<a href=\"/real-url\">"),
        )
    }
}
