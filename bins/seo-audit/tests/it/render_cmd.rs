//! `seo-audit audit URL --render` (docs/API.md, "Rendered audits"): the rendered audit with its
//! `rendering` section, `not_configured` without a browser, and a file refused.
//!
//! The test that renders skips with a message when no Chromium is installed, unless
//! `SEO_AUDIT_REQUIRE_BROWSER=1` (CI sets it) turns the absence into a failure.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

/// The client-rendered shell of the fixture site `render-js`.
const SPA: &str = include_str!("../../../../fixtures/sites/render-js/spa.html");

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let data = tempfile::tempdir().expect("tempdir");
    let mut cmd = crate::common::command();
    cmd.args(args).env("SEO_AUDIT_DATA", data.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run seo-audit")
}

#[test]
fn a_rendered_audit_from_the_command_line() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let site = test_support::ThreadServer::start(move |_| Some(test_support::html(SPA)));
    let url = site.url("/spa.html");
    let out = run(
        &["audit", &url, "--render", "--allow-target", "127.0.0.1"],
        &[("SEO_AUDIT_CHROMIUM", chromium.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["page"]["title"], "Copper kettles, hammered by hand in Bavaria");
    assert_eq!(result["rendering"]["served"]["title"], "");
    assert_eq!(result["rendering"]["depends_on_javascript"], true);
    assert_eq!(result["rendering"]["findings"][0]["id"], "js-dependent-content");

    // Without --render, the served shell and no `rendering`.
    let out = run(&["audit", &url, "--allow-target", "127.0.0.1"], &[]);
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["page"]["title"], "");
    assert!(result.get("rendering").is_none());
}

#[test]
fn render_without_a_browser_or_of_a_file_exits_2() {
    let site = test_support::ThreadServer::start(move |_| Some(test_support::html(SPA)));
    let url = site.url("/");
    let out = run(
        &["audit", &url, "--render", "--allow-target", "127.0.0.1"],
        &[("SEO_AUDIT_CHROMIUM", "/nonexistent/chromium")],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: not_configured: "), "{stderr}");
    assert!(stderr.contains("chromium"), "{stderr}");

    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites/render-js/spa.html");
    let out = run(&["audit", file.to_str().unwrap(), "--render"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: invalid_request: --render needs a URL"), "{stderr}");
}
