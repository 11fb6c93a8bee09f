use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalRelative;

static META: RuleMeta = RuleMeta {
    id: "canonical-relative",
    name: "Canonical URL is absolute",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "href is relative",
    why: "Relative canonicals are easy to break when content is copied or served from another path; Google recommends absolute URLs.",
    fail_example: "<link rel=\"canonical\" href=\"/page\">",
    pass_example: "<link rel=\"canonical\" href=\"https://example.com/page\">",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/canonical",
    phrases: &["canonical relative"],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl Rule for CanonicalRelative {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(href) = page.head_canonicals.first() else { return Outcome::NotApplicable };
        if util::is_absolute_url(href) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Canonical URL is relative", "The canonical link uses a relative URL; use an absolute one.")
                .current(href.clone())
                .suggested(page.head_canonical())
                .at(page, page.spots.head_canonicals.first().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::canonical_fix(c, Difficulty::Easy, "Use the absolute URL in the canonical tag.")
    }
}
