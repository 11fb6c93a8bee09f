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

/// The fixture site `render-js` on loopback: its files, and a small page for any other
/// `.html` path (the pages the shell's script links to), 404 for the rest.
fn render_js_site() -> u16 {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sites/render-js");
    let site = test_support::ThreadServer::start(move |request| {
        let path = request.path.clone();
        let file = dir.join(path.trim_start_matches('/'));
        if !path.contains("..") && file.is_file() {
            return Some(test_support::html(&std::fs::read_to_string(file).unwrap_or_default()));
        }
        if path.ends_with(".html") {
            return Some(test_support::html(&format!(
                "<!DOCTYPE html><html><head><title>Page {path}</title></head><body><p>{path}</p></body></html>"
            )));
        }
        Some(test_support::status(404))
    });
    site.port()
}

/// `seo-audit crawl URL --format json` with `extra` arguments.
fn crawl(url: &str, extra: &[&str], chromium: &str) -> Value {
    let mut args = vec!["crawl", url, "--format", "json", "--allow-target", "127.0.0.1", "--max-pages", "5"];
    args.extend_from_slice(extra);
    let out = run(&args, &[("SEO_AUDIT_CHROMIUM", chromium)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The URLs of a crawl report's pages.
fn crawled(report: &Value) -> Vec<String> {
    let pages = report["crawl"]["pages"].as_array().unwrap_or_else(|| panic!("{report:#}"));
    pages.iter().map(|p| p["url"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_rendered_crawl_from_the_command_line_follows_the_links_javascript_writes() {
    let Some(chromium) = test_support::chromium_or_skip() else { return };
    let chromium = chromium.to_str().unwrap();
    let port = render_js_site();
    let start = format!("http://127.0.0.1:{port}/spa.html");
    let linked: Vec<String> = ["/kettles/large.html", "/kettles/small.html", "/care.html"]
        .iter()
        .map(|p| format!("http://127.0.0.1:{port}{p}"))
        .collect();

    // The served shell has no links: the crawl ends at it.
    let served = crawl(&start, &["--no-sitemaps"], chromium);
    assert_eq!(crawled(&served), std::slice::from_ref(&start), "{served:#}");

    // Rendered, the links the script writes are found and crawled.
    let rendered = crawl(&start, &["--no-sitemaps", "--render"], chromium);
    assert_eq!(rendered["crawl"]["state"], "completed", "{rendered:#}");
    let urls = crawled(&rendered);
    for url in &linked {
        assert!(urls.contains(url), "{url} was found by rendering: {urls:?}");
    }
    let spa = rendered["crawl"]["pages"].as_array().unwrap().iter().find(|p| p["url"] == start.as_str()).unwrap();
    assert_eq!(spa["title"], "Copper kettles, hammered by hand in Bavaria", "{spa}");
}
