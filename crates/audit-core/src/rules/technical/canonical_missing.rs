//! Search engines read canonical links in the head only (Google's documentation; Lighthouse
//! leaves body links out too), so the canonical rules look at those; a canonical given in the
//! HTTP `Link` header (`rel="canonical"`) counts as declared, as Google reads it there too.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalMissing;

static META: RuleMeta = RuleMeta {
    id: "canonical-missing",
    name: "Page declares a canonical URL",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no link rel=canonical in <head> and no rel=canonical Link header",
    why: "Without a canonical, search engines guess which of several URL variants (parameters, trailing slash, http/https) to index.",
    fail_example: "no canonical link",
    pass_example: "<link rel=\"canonical\" href=\"https://example.com/page\">",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/canonical",
    phrases: &["canonical missing", "canonical not declar"],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl Rule for CanonicalMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.head_canonicals.is_empty() || !page.header_canonicals().is_empty() {
            return Outcome::Pass;
        }
        let description = if page.canonicals.is_empty() {
            "The page has no <link rel=\"canonical\">; declare the preferred URL."
        } else {
            "The page's <link rel=\"canonical\"> is outside <head>, where search engines ignore it; move it into the head."
        };
        Outcome::Fail(
            Finding::new("Canonical tag missing", description)
                .suggested(format!("<link rel=\"canonical\" href=\"{}\">", page.final_url))
                .at(page, util::misplaced_or_head(page, &page.spots.canonicals)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::canonical_fix(c, Difficulty::Easy, "Add this tag to <head>: it names the preferred URL of the page.")
    }
}
