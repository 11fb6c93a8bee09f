use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct FaviconMissing;

static META: RuleMeta = RuleMeta {
    id: "favicon-missing",
    name: "Page links a favicon",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no link rel=icon",
    why: "Search results and browser tabs show the site icon; without one the result looks generic.",
    fail_example: "no icon link",
    pass_example: "<link rel=\"icon\" href=\"/favicon.ico\">",
    reference: "https://developers.google.com/search/docs/appearance/favicon-in-search",
    phrases: &["favicon"],
    excluded: &[],
    glossary: &["favicon"],
};

impl Rule for FaviconMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.favicon.is_some() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Favicon missing", "The page declares no <link rel=\"icon\">.")
                .suggested("<link rel=\"icon\" href=\"/favicon.ico\">")
                .at(page, [page.spots.head]),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            "<link rel=\"icon\" href=\"/favicon.ico\" sizes=\"32x32\">\n<link rel=\"icon\" href=\"/icon.svg\" type=\"image/svg+xml\">\n<link rel=\"apple-touch-icon\" href=\"/apple-touch-icon.png\">",
            "Add these to <head> and upload the three icon files; search results show the favicon next to the site name.",
        )
    }
}
