//! The width is measured with Arial's advance widths (Adobe's Helvetica metrics, which Arial
//! shares; `rules/util.rs`, `text_width_px`) at 14 px, the font of a desktop search result's
//! snippet, against the 990 px it shows (Screaming Frog's limit is 985 px). Characters outside
//! printable ASCII count as an average letter, East Asian wide characters as a full em,
//! combining marks as nothing. `meta-description-too-long` stays: the two disagree (docs/RULES.md,
//! "Width and length").

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionTooWide;

static META: RuleMeta = RuleMeta {
    id: "meta-description-too-wide",
    name: "Meta description fits the 990 pixels of a search result",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 65,
    weight: 1,
    threshold:
        "> 990 px in Arial 14 px (Helvetica.afm advance widths; non-ASCII letters as an average letter, CJK as one em)",
    why: "Search results cut snippets by width, not by characters: a description wider than the snippet loses its \
          end mid-sentence, often the call to action.",
    fail_example: "a 141-character description, most of it in capitals: 1,130 px",
    pass_example: "a 138-character description in sentence case: 840 px",
    reference: "https://developers.google.com/search/docs/appearance/snippet",
    phrases: &["description pixel", "description width", "description wide"],
    excluded: &["og", "graph", "twitter"],
    glossary: &["meta-description"],
};

impl Rule for MetaDescriptionTooWide {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(d) = page.meta_description().map(str::trim).filter(|d| !d.is_empty()) else {
            return Outcome::NotApplicable;
        };
        let width = util::text_width_px(d, util::DESCRIPTION_FONT_PX);
        if width <= util::DESCRIPTION_MAX_PX {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Meta description is too wide",
                format!(
                    "The meta description is about {width} px wide in a search result; about {} px are shown.",
                    util::DESCRIPTION_MAX_PX
                ),
            )
            .current(d)
            .suggested(util::trim_to_width(d, util::DESCRIPTION_FONT_PX, util::DESCRIPTION_MAX_PX))
            .at(page, page.spots.meta_descriptions.first().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::description_fix(c, super::Problem::TooWide)
    }
}
