//! Rules of this category: one file each.

mod h1_empty;
mod h1_missing;
mod h1_multiple;
mod heading_levels_skipped;
mod low_text_ratio;
mod meta_description_missing;
mod meta_description_multiple;
mod meta_description_too_long;
mod meta_description_too_short;
mod meta_description_too_wide;
mod thin_content;
mod title_missing;
mod title_multiple;
mod title_too_long;
mod title_too_short;
mod title_too_wide;

pub use h1_empty::H1Empty;
pub use h1_missing::H1Missing;
pub use h1_multiple::H1Multiple;
pub use heading_levels_skipped::HeadingLevelsSkipped;
pub use low_text_ratio::LowTextRatio;
pub use meta_description_missing::MetaDescriptionMissing;
pub use meta_description_multiple::MetaDescriptionMultiple;
pub use meta_description_too_long::MetaDescriptionTooLong;
pub use meta_description_too_short::MetaDescriptionTooShort;
pub use meta_description_too_wide::MetaDescriptionTooWide;
pub use thin_content::ThinContent;
pub use title_missing::TitleMissing;
pub use title_multiple::TitleMultiple;
pub use title_too_long::TitleTooLong;
pub use title_too_short::TitleTooShort;
pub use title_too_wide::TitleTooWide;

use crate::fix::{attr, cut, Difficulty, FixCtx, FixKind, FixTemplate};
use crate::rules::util::{
    trim_at_word, trim_to_width, DESCRIPTION_FONT_PX, DESCRIPTION_MAX_PX, TITLE_FONT_PX, TITLE_MAX_CHARS, TITLE_MAX_PX,
    TITLE_MIN_CHARS,
};

/// Which problem of a title (or meta description) a fix repairs: the rules of the two share
/// one fix each, worded for the problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    Missing,
    TooShort,
    TooLong,
    /// Wider than a search result shows (the pixel-width rules).
    TooWide,
    Multiple,
}

/// The fix of the title rules: one title, the page's own (cut, or lengthened) or drafted from
/// its h1.
fn title_fix(c: &FixCtx, problem: Problem) -> Option<FixTemplate> {
    use Problem::{Multiple, TooLong, TooShort, TooWide};
    // A title that is too short or too long is the current value, when the
    // context has none.
    let with_current;
    let c = if c.title.is_empty() && matches!(problem, TooShort | TooLong | TooWide) && c.current.is_some() {
        with_current = FixCtx { title: c.current.clone().unwrap_or_default(), ..c.clone() };
        &with_current
    } else {
        c
    };
    let title = match problem {
        _ if c.title.is_empty() && c.known_topic().is_none() => c.topic_or_todo("name the page in 30 to 60 characters"),
        TooShort => lengthen_title(c),
        TooWide => trim_to_width(&c.suggested_title(), TITLE_FONT_PX, TITLE_MAX_PX),
        _ => c.suggested_title(),
    };
    let drafted = if !c.title.is_empty() {
        ""
    } else if c.page.is_some_and(|p| !p.h1().trim().is_empty()) {
        " No title was given: this one is drafted from the h1; check it."
    } else {
        " No title was given, nor an h1 to draft one from."
    };
    let why = match problem {
        Multiple => "Keep one <title> in <head>; remove the others.",
        TooLong if c.title.is_empty() => "Titles over 60 characters are cut in search results; keep it under 60.",
        TooLong => "Titles over 60 characters are cut in search results; this keeps the front.",
        TooShort => "A title of 30 to 60 characters says more about the page.",
        TooWide => "Titles wider than about 600 px (Arial 20 px) are cut in search results; this keeps the front.",
        Problem::Missing => "Every page needs a unique title in <head>.",
    };
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        format!("<title>{}</title>", attr(&title)),
        format!("{why}{drafted}"),
    )
}

/// A title of 30 to 60 characters: the short title plus the h1 or the site name.
fn lengthen_title(c: &FixCtx) -> String {
    let base = if c.title.is_empty() { c.topic() } else { c.title.clone() };
    let mut out = base.clone();
    for extra in [c.known_topic(), c.known_site_name()].into_iter().flatten() {
        if out.chars().count() >= TITLE_MIN_CHARS {
            break;
        }
        if !extra.is_empty() && !out.to_lowercase().contains(&extra.to_lowercase()) {
            out = format!("{out} | {extra}");
        }
    }
    trim_at_word(&out, TITLE_MAX_CHARS)
}

/// The fix of the meta description rules: one description, the page's own cut to length
/// when it is too long or repeated, else written from the page's text.
fn description_fix(c: &FixCtx, problem: Problem) -> Option<FixTemplate> {
    use Problem::{Multiple, TooLong, TooWide};
    let current = c.current.as_deref().filter(|_| matches!(problem, TooLong | TooWide));
    let written = match problem {
        TooWide => c
            .description
            .as_deref()
            .or(current)
            .map(|d| trim_to_width(&cut(d, 160), DESCRIPTION_FONT_PX, DESCRIPTION_MAX_PX))
            .filter(|d| d.chars().count() >= 70)
            .or_else(|| c.suggested_description()),
        TooLong | Multiple => c
            .description
            .as_deref()
            .or(current)
            .map(|d| cut(d, 160))
            .filter(|d| d.chars().count() >= 70)
            .or_else(|| c.suggested_description()),
        _ => c.suggested_description(),
    };
    let (content, note) = match written {
        Some(d) => (d, "Written from the page's own text; edit it to invite the click."),
        None => (
            "TODO: describe what this page offers in one or two sentences of 70 to 160 characters".to_string(),
            "No page text was available to write it from.",
        ),
    };
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        format!("<meta name=\"description\" content=\"{}\">", attr(&content)),
        format!("Place one such tag in <head>. {note}"),
    )
}

/// The fix of the missing and empty h1 rules: one h1 naming the topic.
fn h1_fix(c: &FixCtx) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        format!("<h1>{}</h1>", attr(&c.topic_or_todo("name the topic of the page"))),
        "Open the main content with one h1 that names the topic of the page.",
    )
}
