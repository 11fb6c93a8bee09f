//! Rules of this category: one file each.

mod image_alt_missing;
mod image_alt_too_long;
mod image_dimensions_missing;
mod picture_without_img;

pub use image_alt_missing::ImageAltMissing;
pub use image_alt_too_long::ImageAltTooLong;
pub use image_dimensions_missing::ImageDimensionsMissing;
pub use picture_without_img::PictureWithoutImg;
