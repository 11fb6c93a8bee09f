//! The server's suite on PostgreSQL: the modules below run again, in child processes of this
//! test binary (three, see `PARTS`), with every test server on a fresh database of the test process's PostgreSQL
//! (`SEO_AUDIT_TEST_DATABASE=postgres`, see `common::test_database`): the REST endpoints, the
//! agent tools, workflows, monitors, webhooks, stored history, the AI and content checks.
//! The modules left out test SQLite's file itself (faults: a deleted or replaced file), the
//! browser or the MCP SDK clients (the same requests as `mcp_http`, through other clients),
//! or nothing stored (errors, hostile input, connection handling).
//!
//! Skips with a message when this machine has no PostgreSQL, unless
//! `SEO_AUDIT_REQUIRE_POSTGRES=1` (CI) makes that a failure.

use std::process::Command;

use crate::common::TEST_DATABASE;

/// The modules run on PostgreSQL, in three child runs (three tests) of about the same length,
/// so that the test harness runs them side by side (one run of all of them was the suite's
/// longest test, 102 s), each with the number of tests it must at least pass: a renamed
/// module would run nothing. A filter matches anywhere in a test's path, so `http::` runs
/// `mcp_http::` too.
const PARTS: [(&[&str], usize); 3] = [
    (&["crawls::", "schedules::", "tls::"], 25),
    (&["http::", "manage::", "automation::", "crawl_report::"], 40),
    (&["history::", "content::", "webhooks::", "ai::", "web::"], 40),
];

#[test]
fn crawls_and_schedules_pass_on_postgres() {
    modules_pass_on_postgres(PARTS[0]);
}

#[test]
fn the_rest_routes_and_monitors_pass_on_postgres() {
    modules_pass_on_postgres(PARTS[1]);
}

#[test]
fn agent_tools_history_webhooks_and_checks_pass_on_postgres() {
    modules_pass_on_postgres(PARTS[2]);
}

fn modules_pass_on_postgres((modules, at_least): (&[&str], usize)) {
    if std::env::var_os(TEST_DATABASE).is_some() {
        return; // this is the child run
    }
    if test_support::TempPostgres::shared().is_none() {
        return;
    }
    let mut child = Command::new(std::env::current_exe().unwrap());
    child.env(TEST_DATABASE, "postgres").args(modules);
    let out = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stdout.lines().filter(|l| l.starts_with("test result")).collect::<Vec<_>>().join("\n");
    assert!(out.status.success(), "the suite failed on PostgreSQL:\n{stdout}\n{stderr}");
    let passed: usize =
        summary.split_whitespace().skip_while(|w| *w != "ok.").nth(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(passed >= at_least, "too few tests of {modules:?} ran on PostgreSQL: {summary}");
    eprintln!("on PostgreSQL, {modules:?}: {summary}");
}
