//! The integration tests of autofix, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p autofix --test it MODULE::`.

mod matching;
mod placeholders;
mod site_rules;
mod templates;
