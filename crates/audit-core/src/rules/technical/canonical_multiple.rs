//! Repeating the same canonical URL conflicts with nothing (Google asks not to name different
//! URLs; Lighthouse compares the distinct URLs too): the URLs are compared resolved.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalMultiple;

static META: RuleMeta = RuleMeta {
    id: "canonical-multiple",
    name: "Page declares one canonical URL",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "link rel=canonical elements name more than one URL",
    why: "With several canonicals search engines ignore all of them.",
    fail_example: "two link rel=canonical elements",
    pass_example: "exactly one, or the same URL repeated",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/canonical",
    phrases: &["multiple canonical", "duplicate canonical tag"],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl Rule for CanonicalMultiple {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_canonicals.is_empty() {
            return Outcome::NotApplicable;
        }
        let mut urls: Vec<String> = Vec::new();
        for c in &page.head_canonicals {
            let url = page.resolve(c).unwrap_or_else(|| c.trim().to_string());
            if !urls.iter().any(|u| util::same_url(u, &url)) {
                urls.push(url);
            }
        }
        if urls.len() == 1 {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Several canonical tags",
                format!(
                    "The page declares {} different canonical URLs; search engines ignore conflicting canonicals.",
                    urls.len()
                ),
            )
            .current(page.head_canonicals.join(", "))
            .suggested(page.head_canonical())
            .at(page, page.spots.head_canonicals.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::canonical_fix(c, Difficulty::Easy, "Keep exactly one canonical tag in <head>; remove the others.")
    }
}
