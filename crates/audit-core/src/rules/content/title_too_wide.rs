//! The width is measured with Arial's advance widths (Adobe's Helvetica metrics, which Arial
//! shares; `rules/util.rs`, `text_width_px`) at 20 px, the font of a desktop search result's
//! title, against the 600 px of its line. Characters outside printable ASCII count as an
//! average letter, East Asian wide characters as a full em, combining marks as nothing.
//! `title-too-long` stays: the two disagree on titles of narrow or wide letters (docs/RULES.md,
//! "Width and length").

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TitleTooWide;

static META: RuleMeta = RuleMeta {
    id: "title-too-wide",
    name: "Title fits the 600 pixels of a search result",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 75,
    weight: 1,
    threshold:
        "> 600 px in Arial 20 px (Helvetica.afm advance widths; non-ASCII letters as an average letter, CJK as one em)",
    why: "Search results cut titles by width, not by characters: a title of wide letters (W, M, capitals) is cut \
          before 60 characters, and what comes after the cut is never read.",
    fail_example: "WHOLESALE WOODWORKING MACHINERY AND WORKSHOP TOOLS (50 characters, 663 px)",
    pass_example: "Oak dining chairs, handmade in Devon | Oakwood (46 characters, 445 px)",
    reference: "https://developers.google.com/search/docs/appearance/title-link",
    phrases: &["title pixel", "title width", "title wide"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["title-tag"],
};

impl Rule for TitleTooWide {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let title = page.title.trim();
        if title.is_empty() {
            return Outcome::NotApplicable;
        }
        let width = util::text_width_px(title, util::TITLE_FONT_PX);
        if width <= util::TITLE_MAX_PX {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Title is too wide",
                format!(
                    "The title is about {width} px wide in a search result; about {} px are shown.",
                    util::TITLE_MAX_PX
                ),
            )
            .current(page.title.clone())
            .suggested(util::trim_to_width(title, util::TITLE_FONT_PX, util::TITLE_MAX_PX))
            .at(page, [page.spots.title]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::title_fix(c, super::Problem::TooWide)
    }
}
