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
mod registry;
mod robots_corpus;
mod scan;

/// `../shared/corpus/<sub>` beside the repository, when it is there. Absent, the corpus tests
/// skip with a message, unless `SEO_AUDIT_REQUIRE_CORPUS=1` (`.ci/run` sets it): then its
/// absence fails them.
pub(crate) fn shared_corpus(sub: &str) -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("SEO_AUDIT_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "SEO_AUDIT_REQUIRE_CORPUS=1 but {} is missing (the shared corpus belongs at ../shared/corpus)",
        dir.display()
    );
    eprintln!(
        "skipping: {} not found (the shared corpus is absent; SEO_AUDIT_REQUIRE_CORPUS=1 makes this fail)",
        dir.display()
    );
    None
}
