//! The integration tests of ai-visibility, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p ai-visibility --test it MODULE::`.

// Needs the `provider` feature (see Cargo.toml).
#[cfg(feature = "provider")]
mod geo_provider;
mod llms_corpus;
mod methodology_doc;
mod pages_corpus;
mod properties;
mod readiness;
mod robots_corpus;
mod scan;
