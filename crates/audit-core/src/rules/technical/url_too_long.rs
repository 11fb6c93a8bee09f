use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct UrlTooLong;

static META: RuleMeta = RuleMeta {
    id: "url-too-long",
    name: "URL is reasonably short",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 70,
    weight: 1,
    threshold: "> 100 characters",
    why: "Long URLs are truncated in results, hard to share and often carry needless parameters.",
    fail_example: "a 140-character URL",
    pass_example: "https://example.com/short-page",
    reference: "https://www.seonaut.org/",
    phrases: &["url long"],
    excluded: &[],
    glossary: &["url-structure"],
};

impl Rule for UrlTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let len = page.final_url.chars().count();
        if len <= util::URL_MAX_CHARS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "URL is too long",
                format!("The URL has {len} characters; keep it under {}.", util::URL_MAX_CHARS),
            )
            .current(len.to_string())
            .suggested(format!("<= {}", util::URL_MAX_CHARS)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::clean_url_fix(
            c,
            clean,
            "/shop/furniture/chairs/dining/oak/how-to-choose-the-right-oak-chair-for-a-small-dining-room",
        )
    }
}

/// The address shortened: its last segment, cut to five words, without the query.
fn clean(url: &url::Url) -> String {
    let mut u = url.clone();
    let path = u.path().to_string();
    let last = path.split('/').rfind(|s| !s.is_empty()).unwrap_or("").to_lowercase().replace('_', "-");
    let words: Vec<&str> = last.split('-').filter(|w| !w.is_empty()).take(5).collect();
    let path = format!("/{}", words.join("-"));
    u.set_query(None);
    u.set_path(&path);
    u.to_string()
}
