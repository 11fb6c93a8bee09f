use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalPointsElsewhere;

static META: RuleMeta = RuleMeta {
    id: "canonical-points-elsewhere",
    name: "Canonical points to the page itself",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 60,
    weight: 1,
    threshold: "canonical differs from the page URL",
    why: "A canonical to another URL asks search engines to index that URL instead of this one; right for duplicates, a mistake otherwise.",
    fail_example: "<link rel=\"canonical\" href=\"https://example.com/other\">",
    pass_example: "<link rel=\"canonical\" href=\"(this page)\">",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/canonical",
    phrases: &["canonical point another", "canonical point elsewhere", "canonical point other", "canonical mismatch", "canonical not self", "non self referenc canonical"],
    excluded: &[],
    glossary: &["canonical-url", "indexability"],
};

impl Rule for CanonicalPointsElsewhere {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        // The head's canonical, else the `Link` header's (Lighthouse reads both too).
        let Some(canonical) = page.declared_canonical() else { return Outcome::NotApplicable };
        // Pointing a parameter variant (`?utm_source=...`) at the clean URL is the intended use.
        let without_query = page.parsed_url().map(|mut u| {
            u.set_query(None);
            u.set_fragment(None);
            String::from(u)
        });
        if util::same_url(&canonical, &page.final_url) || without_query.is_some_and(|u| util::same_url(&canonical, &u))
        {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Canonical points to another URL",
                "The canonical URL differs from this page's URL, so search engines will index the other URL instead.",
            )
            .current(canonical)
            .suggested(page.final_url.clone())
            .at(page, page.spots.head_canonicals.first().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::canonical_fix(
            c,
            Difficulty::Medium,
            "Point the canonical at the page itself, unless it really duplicates the other URL.",
        )
    }
}
