//! The integration tests of the store, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p store --test it MODULE::`. Most tests run twice, on SQLite and on
//! PostgreSQL (`backend::both!`: `NAME::sqlite`, `NAME::postgres`); the PostgreSQL server is
//! one per test process, started by the tests (`test_support::TempPostgres`).

mod automation;
mod backend;
mod crawl_site;
mod crawl_table;
mod crawls;
#[allow(dead_code)] // The crawl tests read more of a fixture crawl than these do.
#[path = "../../../crawl/tests/it/fixture_sites.rs"]
mod fixture_sites;
mod history;
mod outbox;
mod pg_migrations;
mod readiness;
mod reopen;
mod replicas;
mod store;
mod writers;
