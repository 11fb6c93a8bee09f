//! Only indexable pages with images counted by `image-alt-missing` (not hidden, not inside
//! `<noscript>`) are concerned: on a page without images the directive changes nothing, and a
//! page kept out of the index (`page-noindex`) is another matter.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct PageNoimageindex;

static META: RuleMeta = RuleMeta {
    id: "page-noimageindex",
    name: "The page's images may be indexed",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "a robots directive (meta robots or googlebot, X-Robots-Tag) says noimageindex on a page with images that is not noindex",
    why: "Google does not index the images of the page, so they bring no visits from image search.",
    fail_example: "<meta name=\"robots\" content=\"noimageindex\">",
    pass_example: "no noimageindex directive",
    reference: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag#noimageindex",
    phrases: &["noimageindex", "images not indexed", "images kept out of the index"],
    excluded: &[],
    glossary: &["meta-robots", "alt-text"],
};

impl Rule for PageNoimageindex {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.is_noindex() || !page.images.iter().any(|i| i.is_shown()) {
            return Outcome::NotApplicable;
        }
        if !page.is_noimageindex() {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Images kept out of the index",
                "A robots directive (meta tag or X-Robots-Tag header) says noimageindex: Google does not index the images of this page.",
            )
            .current(page.robots_directives().join(", "))
            .suggested("no noimageindex")
            .at(page, page.spots.noimageindex.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            super::robots_meta_without(c, |d| d.eq_ignore_ascii_case("noimageindex"), "index, follow"),
            "Use this robots meta tag: the page's own directives without noimageindex (index, follow, the default, when none is left); remove it from any googlebot meta tag and X-Robots-Tag header too. To keep one image out of image search, block its URL in robots.txt for Googlebot-Image instead.",
        )
    }
}
