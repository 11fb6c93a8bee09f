use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ViewportNotDeviceWidth;

static META: RuleMeta = RuleMeta {
    id: "viewport-not-device-width",
    name: "Viewport uses the device width",
    category: Category::Mobile,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "viewport without width=device-width",
    why: "A fixed-width viewport does not adapt to the screen.",
    fail_example: "<meta name=\"viewport\" content=\"width=1024\">",
    pass_example: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/viewport",
    phrases: &["viewport device width", "device width"],
    excluded: &[],
    glossary: &["viewport", "mobile-first-indexing"],
};

impl Rule for ViewportNotDeviceWidth {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(v) = &page.viewport else { return Outcome::NotApplicable };
        if util::viewport_has(v, "width", |x| x.eq_ignore_ascii_case("device-width")) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Viewport not set to device width", "The viewport does not use width=device-width.")
                .current(v.clone())
                .suggested(util::VIEWPORT)
                .at(page, [page.spots.viewport]),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        super::viewport_fix("Put this in <head> so mobile browsers lay the page out for the screen width.")
    }
}
