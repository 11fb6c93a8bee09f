use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct OgTitleMissing;

static META: RuleMeta = RuleMeta {
    id: "og-title-missing",
    name: "Page has og:title",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no og:title",
    why: "Social networks and chat apps show og:title on shared links; without it they guess.",
    fail_example: "no <meta property=\"og:title\">",
    pass_example: "<meta property=\"og:title\" content=\"...\">",
    reference: "https://ogp.me/",
    phrases: &["og title", "open graph title"],
    excluded: &[],
    glossary: &["open-graph"],
};

impl Rule for OgTitleMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.og.get("og:title").is_some_and(|v| !v.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new("Open Graph title missing", "The page has no og:title meta tag.");
        if let Some(s) = util::suggest_og(page, "og:title") {
            f = f.suggested(s);
        }
        Outcome::Fail(f.at(page, [page.spots.head]))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let title =
            if c.title.is_empty() { c.topic_or_todo("title of the page for shared links") } else { c.title.clone() };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<meta property=\"og:title\" content=\"{}\">", attr(&title)),
            "Add to <head>: shared links show this title.",
        )
    }
}
