//! Finding Chromium for the tests that drive a real browser.

use std::path::PathBuf;

/// The switch that turns a missing browser from a skip into a failure (CI sets it).
pub const REQUIRE_BROWSER: &str = "SEO_AUDIT_REQUIRE_BROWSER";

/// The Chromium binary: `$CHROMIUM`, else the first of the usual names on `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(path);
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Chromium, or `None` after printing why the test is skipped; panics instead when
/// `SEO_AUDIT_REQUIRE_BROWSER=1`.
pub fn chromium_or_skip() -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        assert!(
            std::env::var(REQUIRE_BROWSER).as_deref() != Ok("1"),
            "{REQUIRE_BROWSER}=1 but no Chromium was found (install Debian's `chromium` or set CHROMIUM)"
        );
        eprintln!("skipped: no Chromium found (set CHROMIUM, or install it; {REQUIRE_BROWSER}=1 makes this fail)");
    }
    found
}
