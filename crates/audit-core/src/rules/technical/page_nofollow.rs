use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct PageNofollow;

static META: RuleMeta = RuleMeta {
    id: "page-nofollow",
    name: "Links on the page may be followed",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "nofollow in meta robots or X-Robots-Tag",
    why: "A page-wide nofollow stops crawlers from discovering pages through this one and passes no link signals.",
    fail_example: "<meta name=\"robots\" content=\"nofollow\">",
    pass_example: "no nofollow directive",
    reference: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
    phrases: &["nofollow", "link not follow", "not follow link"],
    excluded: &["internal"],
    glossary: &["nofollow", "meta-robots"],
};

impl Rule for PageNofollow {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if !page.is_nofollow() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Links on the page are not followed",
                "A robots directive tells crawlers not to follow any link on this page.",
            )
            .current(page.robots_directives().join(", "))
            .suggested("follow")
            .at(page, page.spots.nofollow.iter().copied()),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        super::robots_meta_fix()
    }
}
