use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalWithNoindex;

static META: RuleMeta = RuleMeta {
    id: "canonical-with-noindex",
    name: "Canonical and noindex are not combined",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "canonical present and noindex set",
    why: "noindex says 'drop this page' while a canonical says 'index this URL': conflicting signals that search engines resolve unpredictably.",
    fail_example: "<link rel=\"canonical\" href=\"...\"> with <meta name=\"robots\" content=\"noindex\">",
    pass_example: "one or the other",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &["canonical noindex"],
    excluded: &[],
    glossary: &["noindex", "canonical-url"],
};

impl Rule for CanonicalWithNoindex {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.declared_canonical().is_none() {
            return Outcome::NotApplicable;
        }
        if !page.is_noindex() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Canonical combined with noindex",
                "The page has a canonical URL and a noindex directive; keep only the one you mean.",
            )
            .current("canonical + noindex")
            .suggested("remove noindex, or remove the canonical")
            .at(page, page.spots.head_canonicals.iter().chain(&page.spots.noindex).copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Medium,
            format!("<meta name=\"robots\" content=\"index, follow\">\n<link rel=\"canonical\" href=\"{}\">", attr(&c.url_or_todo())),
            "Decide: keep the page indexable with a canonical (this fix), or keep noindex and remove the canonical. Both together send mixed signals.",
        )
    }
}
