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
