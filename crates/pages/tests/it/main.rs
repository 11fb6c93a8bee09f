//! The integration tests of the pages crate: one test binary (docs/PERFORMANCE.md, "Building and testing").

mod render;
