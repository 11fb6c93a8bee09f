//! Google reads `max-snippet:0` as `nosnippet`; a positive `max-snippet` only shortens the
//! snippet and passes. A page that is not indexed at all (`page-noindex`) shows no snippet
//! anyway, and the rule leaves it out. `data-nosnippet` on an element hides that passage only,
//! and is the way to keep part of a page out of snippets.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct PageNosnippet;

static META: RuleMeta = RuleMeta {
    id: "page-nosnippet",
    name: "Search results may quote the page",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "a robots directive (meta robots or googlebot, X-Robots-Tag) says nosnippet or max-snippet:0",
    why: "Google then shows the page without a text snippet, which is clicked less, and does not use its content in AI Overviews or AI Mode.",
    fail_example: "<meta name=\"robots\" content=\"nosnippet\">",
    pass_example: "no snippet directive, max-snippet:-1, or data-nosnippet on the passages to keep out",
    reference: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag#nosnippet",
    phrases: &["nosnippet", "max-snippet", "snippets are forbidden", "snippet blocked", "snippets disabled"],
    excluded: &[],
    glossary: &["meta-robots", "serp"],
};

impl Rule for PageNosnippet {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.is_noindex() {
            return Outcome::NotApplicable;
        }
        if !page.is_nosnippet() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Snippets are forbidden",
                "A robots directive (meta tag or X-Robots-Tag header) forbids snippets: Google shows the page without a text snippet and keeps its content out of AI Overviews and AI Mode.",
            )
            .current(page.robots_directives().join(", "))
            .suggested("no nosnippet (data-nosnippet on the passages to keep out)")
            .at(page, page.spots.nosnippet.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            super::robots_meta_without(c, crate::page::forbids_snippets, "max-snippet:-1"),
            "Use this robots meta tag: the page's own directives without nosnippet and max-snippet:0 (max-snippet:-1, snippets of any length, when none is left); remove them from any googlebot meta tag and X-Robots-Tag header too. To keep one passage out of snippets, mark its element with data-nosnippet instead.",
        )
    }
}
