use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ViewportMissing;

static META: RuleMeta = RuleMeta {
    id: "viewport-missing",
    name: "Page has a viewport meta tag",
    category: Category::Mobile,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 95,
    weight: 2,
    threshold: "no <meta name=viewport>",
    why: "Without a viewport the page renders at desktop width on phones; Google indexes the mobile version.",
    fail_example: "no viewport",
    pass_example: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/viewport",
    phrases: &["viewport missing", "viewport meta tag", "viewport tag", "mobile friendly"],
    excluded: &[],
    glossary: &["viewport", "mobile-first-indexing"],
};

impl Rule for ViewportMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.viewport.is_some() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Viewport meta tag missing",
                "The page has no viewport meta tag, so phones render it at desktop width.",
            )
            .suggested(util::VIEWPORT)
            .at(page, [page.spots.head]),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        super::viewport_fix("Put this in <head> so mobile browsers lay the page out for the screen width.")
    }
}
