//! Rules of this category: one file each.

mod viewport_missing;
mod viewport_not_device_width;
mod viewport_not_scalable;

pub use viewport_missing::ViewportMissing;
pub use viewport_not_device_width::ViewportNotDeviceWidth;
pub use viewport_not_scalable::ViewportNotScalable;

use crate::fix::{Difficulty, FixKind, FixTemplate};

/// The fix of the viewport rules: the one viewport tag that works, and why.
fn viewport_fix(why: &str) -> Option<FixTemplate> {
    FixTemplate::some(
        FixKind::Html,
        Difficulty::Easy,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        why,
    )
}
