//! A hook through which the binary returns freed memory to the system after work that freed
//! a lot of it at once (a large page: [`LARGE_PAGE_BYTES`]), and before a crawl's site rules
//! (the store's cache the crawl filled, given back: `crawl::stored_crawl::judge`).
//!
//! The allocator is the binary's choice (`#[global_allocator]`), so the call that releases
//! its memory is the binary's too: it installs it at start ([`install_release`]); without
//! one (tests, the library used alone) [`release`] does nothing.

use std::sync::OnceLock;

/// Bytes of a response from which its page is a large one: a crawl analyses such pages one
/// at a time in the process, and every analysis of one (a crawl's or a single audit's) gives
/// its freed memory back once its body and document are dropped (docs/SCALING.md, "Large
/// pages"). The pages of real sites measured for docs/SCALING.md are mostly under 200 KB;
/// the fetch's limit is 5 MiB.
pub const LARGE_PAGE_BYTES: usize = 1024 * 1024;

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
