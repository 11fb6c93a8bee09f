//! Rules of this category: one file each.

mod og_description_missing;
mod og_image_missing;
mod og_image_relative;
mod og_title_missing;
mod twitter_card_missing;

pub use og_description_missing::OgDescriptionMissing;
pub use og_image_missing::OgImageMissing;
pub use og_image_relative::OgImageRelative;
pub use og_title_missing::OgTitleMissing;
pub use twitter_card_missing::TwitterCardMissing;

use crate::fix::{attr, Difficulty, FixCtx, FixKind, FixTemplate};

/// The fix of the og:image rules: the tag with `existing` (the page's image made absolute),
/// else the page's first image, else a placeholder.
fn og_image_fix(c: &FixCtx, existing: Option<String>) -> Option<FixTemplate> {
    let (img, note) = match existing.or_else(|| c.first_image()) {
        Some(i) => (i, "It uses the page's own image; 1200x630 pixels works best."),
        None => (
            "TODO: full URL of a 1200x630 image for shared links".to_string(),
            "Upload a 1200x630 image and give its full URL.",
        ),
    };
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        format!(
            "<meta property=\"og:image\" content=\"{}\">\n<meta property=\"og:image:alt\" content=\"{}\">",
            attr(&img),
            attr(&c.topic_or_todo("what the image shows"))
        ),
        format!("og:image must be an absolute URL. {note}"),
    )
}
