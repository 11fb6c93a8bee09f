//! `robots-txt-blocked`: robots.txt allows crawling the page.
//!
//! - **What it checks:** fails when Disallow matches the URL for Googlebot.
//! - **Why it matters:** A URL disallowed by robots.txt is not crawled; its content cannot rank.
//! - **Fails:** Disallow: / in robots.txt
//! - **Passes:** no matching Disallow
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/seo/is-crawlable>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct RobotsTxtBlocked;

static META: RuleMeta = RuleMeta {
    id: "robots-txt-blocked",
    name: "robots.txt allows crawling the page",
    category: Category::Technical,
    severity: Severity::Critical,
    impact: Level::High,
    effort: Level::Low,
    confidence: 95,
    weight: 4,
    threshold: "Disallow matches the URL for Googlebot",
    why: "A URL disallowed by robots.txt is not crawled; its content cannot rank.",
    fail_example: "Disallow: / in robots.txt",
    pass_example: "no matching Disallow",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/is-crawlable",
};

impl Rule for RobotsTxtBlocked {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(robots) = &page.http.robots_txt else { return Outcome::NotApplicable };
        if robots.allowed {
            return Outcome::Pass;
        }
        let mut f = Finding::new(
            "Page is blocked by robots.txt",
            "The site's robots.txt disallows this URL for search crawlers, so it will not be crawled.",
        );
        if let Some(rule) = &robots.rule {
            f = f.current(rule.clone());
        }
        Outcome::Fail(f.suggested("Allow the URL for search crawlers in robots.txt"))
    }
}
