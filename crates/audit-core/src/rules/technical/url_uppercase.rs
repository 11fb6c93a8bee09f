use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct UrlUppercase;

static META: RuleMeta = RuleMeta {
    id: "url-uppercase",
    name: "URL path is lower-case",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 70,
    weight: 1,
    threshold: "upper-case letters in the path",
    why: "URLs are case-sensitive: mixed case invites duplicate URLs for the same page.",
    fail_example: "https://example.com/About-Us",
    pass_example: "https://example.com/about-us",
    reference: "https://www.seonaut.org/",
    phrases: &["url uppercase", "url upper case", "url capital"],
    excluded: &[],
    glossary: &["url-structure"],
};

impl Rule for UrlUppercase {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        if !url.path().chars().any(|c| c.is_ascii_uppercase()) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL contains upper-case letters",
                "The URL path mixes upper- and lower-case letters; use lower case.",
            )
            .current(url.path().to_string())
            .suggested(url.path().to_lowercase()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::clean_url_fix(c, clean, "/Products/Oak-Chair")
    }
}

/// The address with its path in lower case.
fn clean(url: &url::Url) -> String {
    let mut u = url.clone();
    let path = u.path().to_lowercase();
    u.set_path(&path);
    u.to_string()
}
