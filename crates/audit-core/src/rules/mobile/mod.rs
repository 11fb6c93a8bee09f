//! Rules of this category: one file each.

mod viewport_missing;
mod viewport_not_device_width;
mod viewport_not_scalable;

pub use viewport_missing::ViewportMissing;
pub use viewport_not_device_width::ViewportNotDeviceWidth;
pub use viewport_not_scalable::ViewportNotScalable;
