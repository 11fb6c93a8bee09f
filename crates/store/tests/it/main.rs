//! The integration tests of the store, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p store --test it MODULE::`. Most tests run twice, on SQLite and on
//! PostgreSQL (`backend::both!`: `NAME::sqlite`, `NAME::postgres`); the PostgreSQL server is
//! one per test process, started by the tests (`test_support::TempPostgres`).

mod automation;
mod backend;
mod crawls;
mod history;
mod outbox;
mod pg_migrations;
mod reopen;
mod replicas;
mod store;
