use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ViewportNotScalable;

static META: RuleMeta = RuleMeta {
    id: "viewport-not-scalable",
    name: "Users can zoom the page",
    category: Category::Mobile,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "user-scalable=no or maximum-scale < 2",
    why: "Disabling zoom makes text unreadable for many users, an accessibility failure.",
    fail_example: "<meta name=\"viewport\" content=\"width=device-width, user-scalable=no\">",
    pass_example: "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/meta-viewport",
    phrases: &["zoom disable", "disable zoom", "zoom prevent", "zoom block", "user scalable", "maximum scale"],
    excluded: &[],
    glossary: &["viewport", "mobile-first-indexing"],
};

impl Rule for ViewportNotScalable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(v) = &page.viewport else { return Outcome::NotApplicable };
        let no_zoom = util::viewport_has(v, "user-scalable", |x| x.eq_ignore_ascii_case("no") || x == "0")
            || util::viewport_has(v, "maximum-scale", |x| x.parse::<f64>().is_ok_and(|s| s < 2.0));
        if !no_zoom {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Zoom is disabled", "The viewport stops users from zooming.")
                .current(v.clone())
                .suggested(util::VIEWPORT)
                .at(page, [page.spots.viewport]),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        super::viewport_fix("Remove user-scalable=no and maximum-scale: people must be able to zoom.")
    }
}
