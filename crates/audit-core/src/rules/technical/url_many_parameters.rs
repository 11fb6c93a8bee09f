use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct UrlManyParameters;

static META: RuleMeta = RuleMeta {
    id: "url-many-parameters",
    name: "URL has few query parameters",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 60,
    weight: 1,
    threshold: "> 3 query parameters",
    why: "Many parameters create near-endless URL variants that waste crawl budget.",
    fail_example: "https://example.com/p?a=1&b=2&c=3&d=4",
    pass_example: "https://example.com/p?id=1",
    reference: "https://developers.google.com/search/docs/crawling-indexing/url-structure",
    phrases: &["url multiple parameter", "multiple query parameter", "url parameter"],
    excluded: &[],
    glossary: &["url-structure", "crawl-budget"],
};

impl Rule for UrlManyParameters {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(url) = page.parsed_url() else { return Outcome::NotApplicable };
        let n = url.query_pairs().count();
        if n <= util::URL_MAX_PARAMS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL has many parameters",
                format!("The URL carries {n} query parameters; keep at most {}.", util::URL_MAX_PARAMS),
            )
            .current(n.to_string())
            .suggested(format!("<= {}", util::URL_MAX_PARAMS)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::clean_url_fix(c, clean, "/products?color=red&size=m&sort=price&page=2")
    }
}

/// The address with its first query parameter only.
fn clean(url: &url::Url) -> String {
    let mut u = url.clone();
    let path = u.path().to_string();
    let keep: Vec<(String, String)> = u.query_pairs().take(1).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    u.set_query(None);
    if !keep.is_empty() {
        u.query_pairs_mut().extend_pairs(keep);
    }
    u.set_path(&path);
    u.to_string()
}
