//! The integration tests of content-gap, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p content-gap --test it MODULE::`.

mod corpus;
mod fixtures;
mod hostile;
mod labelled;
