use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
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
    phrases: &["robot txt block", "robot txt disallow", "block robot txt", "crawl block", "robot disallow"],
    excluded: &["ai", "llms"],
    glossary: &["robots-txt", "indexability", "ai-crawlers"],
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

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let path = if c.known_url { c.url.path().to_string() } else { "/".to_string() };
        let rule = c
            .page
            .and_then(|p| p.http.robots_txt.as_ref())
            .and_then(|r| r.rule.clone())
            .or_else(|| c.current.clone().filter(|v| v.to_ascii_lowercase().starts_with("disallow")));
        let because =
            rule.map_or(String::new(), |r| format!(" The rule that blocks it now is `{r}`; removing it works too."));
        FixTemplate::some(
            FixKind::Robots,
            Difficulty::Easy,
            format!("User-agent: Googlebot\nAllow: {path}\n\nUser-agent: *\nAllow: {path}\n"),
            format!("Add these lines to /robots.txt so search crawlers may fetch the page (the longest matching rule wins, and Allow wins ties).{because}"),
        )
    }
}
