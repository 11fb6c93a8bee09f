//! The integration tests of the command line, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p seo-audit --test it MODULE::`.

mod common;

mod audit_cmd;
mod baseline;
mod ci_formats;
mod crawl_cmd;
mod crawl_replicas;
mod crawl_restart;
mod error_log;
mod key_secrecy;
mod memory;
mod pre_commit;
mod prometheus;
mod render_cmd;
mod replicas;
mod restart;
mod schedule_replicas;
mod serve;
mod sigterm;
mod webhook_restart;
