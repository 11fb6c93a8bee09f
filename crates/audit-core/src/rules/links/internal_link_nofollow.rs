use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct InternalLinkNofollow;

static META: RuleMeta = RuleMeta {
    id: "internal-link-nofollow",
    name: "Internal links are followed",
    category: Category::Links,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "rel=nofollow on a link to the same host",
    why: "nofollow on your own links stops crawlers from discovering your pages through them.",
    fail_example: "<a href=\"/about\" rel=\"nofollow\">",
    pass_example: "<a href=\"/about\">",
    reference: "https://developers.google.com/search/docs/crawling-indexing/qualify-outbound-links",
    phrases: &["internal link nofollow", "internal nofollow"],
    excluded: &[],
    glossary: &["nofollow", "internal-linking"],
};

impl Rule for InternalLinkNofollow {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let internal: Vec<_> = page.links.iter().filter(|l| l.kind == LinkKind::Web && l.internal).collect();
        if internal.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = internal.iter().filter(|l| l.rel.iter().any(|r| r == "nofollow")).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Internal links marked nofollow",
                format!("{} internal link(s) carry rel=nofollow.", bad.len()),
            )
            .current(first.url.clone().unwrap_or_default())
            .suggested("remove rel=\"nofollow\" from internal links")
            .at(page, bad.iter().map(|l| l.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::link_fix(
            c,
            super::LinkProblem::InternalNofollow,
            Difficulty::Easy,
            "Remove rel=\"nofollow\" from links to your own pages so they pass signals within the site.",
        )
    }
}
