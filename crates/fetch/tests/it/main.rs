//! The integration tests of the fetcher, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p fetch --test it MODULE::`.

mod fetch;
mod guard;
mod properties;
mod proxy;
mod site_headers;
mod validate;
