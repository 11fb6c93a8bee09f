//! A hook through which the binary returns freed memory to the system after work that freed
//! a lot of it at once (a large page: [`crate::crawl::runner::LARGE_PAGE_BYTES`]).
//!
//! The allocator is the binary's choice (`#[global_allocator]`), so the call that releases
//! its memory is the binary's too: it installs it at start ([`install_release`]); without
//! one (tests, the library used alone) [`release`] does nothing.

use std::sync::OnceLock;

static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Installs the function that gives freed memory back to the system. The first call wins.
pub fn install_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Gives freed memory back to the system, if the binary said how.
pub(crate) fn release() {
    if let Some(release) = RELEASE.get() {
        release();
    }
}
