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
mod thin_content;
mod title_missing;
mod title_multiple;
mod title_too_long;
mod title_too_short;

pub use h1_empty::H1Empty;
pub use h1_missing::H1Missing;
pub use h1_multiple::H1Multiple;
pub use heading_levels_skipped::HeadingLevelsSkipped;
pub use low_text_ratio::LowTextRatio;
pub use meta_description_missing::MetaDescriptionMissing;
pub use meta_description_multiple::MetaDescriptionMultiple;
pub use meta_description_too_long::MetaDescriptionTooLong;
pub use meta_description_too_short::MetaDescriptionTooShort;
pub use thin_content::ThinContent;
pub use title_missing::TitleMissing;
pub use title_multiple::TitleMultiple;
pub use title_too_long::TitleTooLong;
pub use title_too_short::TitleTooShort;
