use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct UrlUnderscores;

static META: RuleMeta = RuleMeta {
    id: "url-underscores",
    name: "URL path separates words with hyphens",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 60,
    weight: 1,
    threshold: "underscore in the path",
    why: "Google treats hyphens as word separators but underscores as joiners.",
    fail_example: "https://example.com/my_page",
    pass_example: "https://example.com/my-page",
    reference: "https://developers.google.com/search/docs/crawling-indexing/url-structure",
    phrases: &["url underscore"],
    excluded: &[],
    glossary: &["url-structure"],
};

impl Rule for UrlUnderscores {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        if !url.path().contains('_') {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("URL contains underscores", "Use hyphens rather than underscores to separate words in URLs.")
                .current(url.path().to_string())
                .suggested(url.path().replace('_', "-")),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::clean_url_fix(c, clean, "/products/oak_chair")
    }
}

/// The address with hyphens for the underscores of its path.
fn clean(url: &url::Url) -> String {
    let mut u = url.clone();
    let path = u.path().replace('_', "-");
    u.set_path(&path);
    u.to_string()
}
