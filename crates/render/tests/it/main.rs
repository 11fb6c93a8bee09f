//! The render crate against a real headless Chromium and loopback fixture sites.
//!
//! Skips with a message when no Chromium is installed, unless `SEO_AUDIT_REQUIRE_BROWSER=1`
//! (CI), where a missing browser fails.

mod reap;
mod render;
