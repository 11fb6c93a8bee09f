//! `seo-audit audit`: a local file as if served at `--url`, a live URL on loopback, the three
//! formats, `--min-score` and the exit statuses with the error code on stderr.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    let data = tempfile::tempdir().expect("tempdir");
    crate::common::command().args(args).env("SEO_AUDIT_DATA", data.path()).output().expect("run seo-audit")
}

/// A page of audit-core's fixtures (`crates/audit-core/tests/fixtures/`).
fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/audit-core/tests/fixtures").join(rel)
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Serves one HTML page to every request, on a loopback port, from a thread.
fn serve_page(html: &'static str) -> u16 {
    test_support::ThreadServer::start(move |_| Some(test_support::html(html))).port()
}

#[test]
fn a_local_file_is_audited_as_if_served_at_the_url() {
    let file = fixture("pages/article.html");
    let file = file.to_str().expect("utf-8 path");
    let out = run(&["audit", file, "--url", "https://www.example.com/guides/cast-iron"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let result = json(&out);
    assert_eq!(result["ok"], true);
    assert_eq!(result["page"]["url"], "https://www.example.com/guides/cast-iron");
    assert_eq!(result["page"]["status_code"], 0, "a file has no HTTP status");
    let pct = result["score"]["percentage"].as_u64().expect("percentage");
    assert!(pct <= 100);
    assert_eq!(result["meta"]["checks_executed"], audit_core::RULES.len());

    let compact = json(&run(&["audit", file, "--url", "https://www.example.com/", "--format", "compact"]));
    assert_eq!(compact["score"]["percentage"].as_u64(), compact["score"]["current"].as_u64());
    assert!(compact["top_issues"].as_array().expect("top_issues").len() <= 5);

    let text = run(&["audit", file, "--url", "https://www.example.com/", "--format", "text"]);
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.contains("Score "), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour when stdout is not a terminal");
}

#[test]
fn min_score_sets_the_exit_status() {
    let file = fixture("pages/broken.html");
    let file = file.to_str().expect("utf-8 path");
    let low = run(&["audit", file, "--url", "https://example.com/", "--format", "compact", "--min-score", "100"]);
    assert_eq!(low.status.code(), Some(1), "a broken page scores under 100");
    assert!(json(&low)["score"]["percentage"].as_u64().expect("pct") < 100, "the result is still printed");
    let ok = run(&["audit", file, "--url", "https://example.com/", "--format", "compact", "--min-score", "0"]);
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn failures_exit_2_with_the_error_code() {
    for (args, code) in [
        (vec!["audit", "ftp://example.com/"], "invalid_url"),
        (vec!["audit", "http://user:pw@example.com/"], "invalid_url"),
        (vec!["audit", "http://10.0.0.1/"], "blocked_target"),
        (vec!["audit", "http://169.254.169.254/latest/meta-data"], "blocked_target"),
        (vec!["audit", "missing/page.html"], "invalid_request"),
        (vec!["audit", "fixtures/none.html", "--url", "https://example.com/"], "invalid_request"),
        (vec!["audit", "index.html"], "invalid_request"),
        (vec!["audit", "https://example.com/", "--url", "https://example.org/"], "invalid_request"),
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with(&format!("error: {code}: ")), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_live_page_on_loopback_needs_allow_target() {
    let port = serve_page("<html lang=en><head><title>Loopback fixture page for the CLI test</title></head><body><h1>Hi</h1></body></html>");
    let url = format!("http://127.0.0.1:{port}/");
    let refused = run(&["audit", &url]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("blocked_target"));

    let out = run(&["audit", &url, "--allow-target", "127.0.0.1"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let result = json(&out);
    assert_eq!(result["page"]["status_code"], 200);
    assert_eq!(result["page"]["title"], "Loopback fixture page for the CLI test");
}

/// A local target must be an HTML file: a directory, a Markdown file or a binary is refused
/// with exit 2 and the code a URL answering the same would get.
#[test]
fn local_targets_that_are_not_html_files_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let markdown = dir.path().join("README.md");
    std::fs::write(&markdown, "# Title\n\nSome text.\n").expect("write");
    let binary = dir.path().join("tool.html");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\x00\x00\x00").expect("write");
    let plain = dir.path().join("plain.html");
    std::fs::write(&plain, "Just words in a file named .html, as a browser would show them.").expect("write");
    for (path, code) in [(&markdown, "not_html"), (&binary, "not_html"), (&dir.path().to_path_buf(), "invalid_request")]
    {
        let out = run(&["audit", path.to_str().expect("utf-8"), "--url", "https://example.com/"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path:?}: {stderr}");
        assert!(stderr.starts_with(&format!("error: {code}: ")), "{path:?}: {stderr}");
    }
    // A .html file is HTML whatever it starts with, as a browser treats it.
    let out = run(&["audit", plain.to_str().expect("utf-8"), "--url", "https://example.com/"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Without --url the audit runs and says what it could not judge.
    let page = fixture("pages/article.html");
    let out = run(&["audit", page.to_str().expect("utf-8"), "--format", "compact"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no --url given"));
}

/// `audit` reads the service's settings: a `--config` file (here its allow-list) and the
/// `SEO_AUDIT_*` variables; a target without a scheme whose first segment is a host is a URL.
#[test]
fn audit_reads_the_settings_file_and_takes_scheme_less_urls() {
    let port = serve_page(
        "<html lang=en><head><title>Loopback page for the settings test</title></head><body><h1>Hi</h1></body></html>",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("seo-audit.toml");
    std::fs::write(&config, "allow_targets = [\"127.0.0.1\"]\n").expect("write");
    let target = format!("http://127.0.0.1:{port}/pages/one.html");
    let out = run(&["audit", &target, "--config", config.to_str().expect("utf-8"), "--format", "compact"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["url"], target);
    // Without a scheme it is still a URL (https), not a missing file: the TLS handshake
    // with the plain-http loopback server is what fails.
    let bare = format!("127.0.0.1:{port}/pages/one.html");
    let out = run(&["audit", &bare, "--config", config.to_str().expect("utf-8")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: target_unreachable: "), "{stderr}");
    let missing = run(&["audit", &target, "--config", "/nonexistent/seo-audit.toml"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).starts_with("error: invalid_request: The settings are not valid: ")
    );
    let out = run(&["audit", "https://example.com/", "--min-score", "101"]);
    assert_eq!(out.status.code(), Some(2), "--min-score is 0 to 100");
}

/// A bare host is tried with `https://`; when nothing listens on its port 443 (a site that
/// serves only HTTP) the refusal says to try `http://` (docs/API.md, "Errors").
#[test]
fn a_bare_host_refused_on_443_is_told_to_try_http() {
    if std::net::TcpStream::connect(("127.0.0.1", 443)).is_ok() {
        eprintln!("skipped: something listens on 127.0.0.1:443 here");
        return;
    }
    let out = run(&["audit", "127.0.0.1", "--allow-target", "127.0.0.1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: target_unreachable: The connection to 127.0.0.1 was refused"), "{stderr}");
    assert!(stderr.trim_end().ends_with("If the site has no HTTPS, try http://127.0.0.1/."), "{stderr}");
}
