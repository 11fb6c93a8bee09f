//! The integration tests of the server, in one test binary (one link of the stack instead
//! of one per file): each module was a test file of its own. Run one with
//! `cargo test -p server --test it MODULE::`.

mod common;
mod web_support;

mod abuse;
mod ai;
mod analysis;
mod automation;
mod browser;
mod compute;
mod connections;
mod content;
mod crawl_report;
mod crawls;
mod dispatch;
mod errors;
mod faults;
mod history;
mod hostile;
mod http;
mod manage;
mod mcp_catalog;
mod mcp_clients;
mod mcp_examples;
mod mcp_http;
mod mcp_parity;
mod metrics;
mod on_postgres;
mod render;
mod schedules;
mod storage;
mod tls;
mod web;
mod webhooks;
