use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct OgDescriptionMissing;

static META: RuleMeta = RuleMeta {
    id: "og-description-missing",
    name: "Page has og:description",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no og:description",
    why: "og:description is the text under a shared link's title.",
    fail_example: "no <meta property=\"og:description\">",
    pass_example: "<meta property=\"og:description\" content=\"...\">",
    reference: "https://ogp.me/",
    phrases: &["og description", "open graph description"],
    excluded: &[],
    glossary: &["open-graph"],
};

impl Rule for OgDescriptionMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.og.get("og:description").is_some_and(|v| !v.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new("Open Graph description missing", "The page has no og:description meta tag.");
        if let Some(s) = util::suggest_og(page, "og:description") {
            f = f.suggested(s);
        }
        Outcome::Fail(f.at(page, [page.spots.head]))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let d = c
            .description_or_written()
            .unwrap_or_else(|| "TODO: describe what this page offers in one or two sentences".to_string());
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<meta property=\"og:description\" content=\"{}\">", attr(&d)),
            "Add to <head>: shared links show this text under the title.",
        )
    }
}
