//! The integration tests of the store, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p store --test it MODULE::`.

mod automation;
mod history;
mod outbox;
mod pg_migrations;
mod reopen;
mod store;
