use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct PageNoindex;

static META: RuleMeta = RuleMeta {
    id: "page-noindex",
    name: "Page may be indexed",
    category: Category::Technical,
    severity: Severity::Critical,
    impact: Level::High,
    effort: Level::Low,
    confidence: 90,
    weight: 5,
    threshold: "noindex in meta robots or X-Robots-Tag",
    why: "A noindex directive removes the page from search results entirely.",
    fail_example: "<meta name=\"robots\" content=\"noindex\">",
    pass_example: "no noindex directive",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/is-crawlable",
    phrases: &["noindex", "block index", "not indexable", "prevent index"],
    excluded: &["canonical", "robot txt"],
    glossary: &["noindex", "meta-robots", "indexability"],
};

impl Rule for PageNoindex {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.is_noindex() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Page is blocked from indexing",
                "A robots directive (meta tag or X-Robots-Tag header) tells search engines not to index this page.",
            )
            .current(page.robots_directives().join(", "))
            .suggested("index, follow")
            .at(page, page.spots.noindex.iter().copied()),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        super::robots_meta_fix()
    }
}
