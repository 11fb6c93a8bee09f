//! `--baseline FILE` and `--fail-on new` of `seo-audit audit` and `seo-audit crawl`
//! (docs/API.md, "Command line audits for CI"): a previous JSON output read back, each
//! finding marked new, unchanged or resolved in every output format, the exit status 1 only
//! when something is new, and a baseline that is not one a clear error (exit 2).

use std::path::Path;
use std::process::Output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;
use test_support::{html, ThreadServer};

/// A page with a title, a description, one heading and an image with alt text.
const GOOD: &str = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
    <title>Copper kettles: care, history and repair</title>\
    <meta name=\"description\" content=\"How to care for a copper kettle, where copper kettles come from, and how to \
    repair one that leaks at the seam.\"></head><body><h1>Copper kettles</h1>\
    <p>Copper kettles heat quickly and evenly.</p><img src=\"/k.jpg\" alt=\"A copper kettle\"></body></html>";

fn audit(dir: &Path, args: &[&str]) -> Output {
    crate::common::command()
        .arg("audit")
        .args(args)
        .env("SEO_AUDIT_DATA", dir)
        .current_dir(dir)
        .output()
        .expect("run seo-audit")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `page` to `index.html` in `dir` and audits it as JSON, at a fixed URL.
fn audit_page(dir: &Path, page: &str, extra: &[&str]) -> Output {
    std::fs::write(dir.join("index.html"), page).expect("write page");
    let mut args = vec!["index.html", "--url", "https://example.com/kettles"];
    args.extend_from_slice(extra);
    audit(dir, &args)
}

fn state_of<'a>(result: &'a Value, rule: &str) -> &'a str {
    result["recommendations"]
        .as_array()
        .expect("recommendations")
        .iter()
        .find(|r| r["id"] == rule)
        .unwrap_or_else(|| panic!("no {rule} in {result}"))["baseline_state"]
        .as_str()
        .expect("baseline_state")
}

#[test]
fn a_new_finding_fails_the_run_with_fail_on_new_and_a_fixed_one_is_listed_resolved() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The baseline: the page without alt text on its image.
    let before = GOOD.replace(" alt=\"A copper kettle\"", "");
    let out = audit_page(dir.path(), &before, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(dir.path().join("baseline.json"), &out.stdout).expect("write baseline");

    // The same page: nothing new, exit 0 with --fail-on new.
    let same = audit_page(dir.path(), &before, &["--baseline", "baseline.json", "--fail-on", "new"]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let result = json(&same);
    assert_eq!(state_of(&result, "image-alt-missing"), "unchanged");
    assert_eq!(result["baseline"]["counts"]["new"], 0);
    assert_eq!(result["baseline"]["file"], "baseline.json");

    // The title gone, the alt text added: the title's finding is new (exit 1), the image's
    // resolved.
    let worse = before
        .replace("<title>Copper kettles: care, history and repair</title>", "")
        .replace("<img src=\"/k.jpg\">", "<img src=\"/k.jpg\" alt=\"A copper kettle\">");
    let out = audit_page(dir.path(), &worse, &["--baseline", "baseline.json", "--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let result = json(&out);
    assert_eq!(state_of(&result, "title-missing"), "new");
    let resolved = result["baseline"]["resolved"].as_array().expect("resolved");
    assert!(resolved.iter().any(|r| r["id"] == "image-alt-missing"), "{resolved:?}");
    assert!(result["baseline"]["counts"]["new"].as_u64() >= Some(1));

    // Without --fail-on the same comparison exits 0: only --min-score would fail it.
    let out = audit_page(dir.path(), &worse, &["--baseline", "baseline.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // --min-score keeps working beside it.
    let out =
        audit_page(dir.path(), &before, &["--baseline", "baseline.json", "--fail-on", "new", "--min-score", "100"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn text_sarif_and_junit_show_the_state_of_each_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = audit_page(dir.path(), GOOD, &[]);
    std::fs::write(dir.path().join("baseline.json"), &out.stdout).expect("write baseline");
    let worse = GOOD.replace(" alt=\"A copper kettle\"", "").replace("<h1>Copper kettles</h1>", "");
    let with = |format: &str| audit_page(dir.path(), &worse, &["--baseline", "baseline.json", "--format", format]);

    let text = String::from_utf8(with("text").stdout).expect("utf-8");
    assert!(text.contains("Against the baseline baseline.json: "), "{text}");
    assert!(text.contains("new       [image-alt-missing]"), "{text}");

    let sarif: Value = json(&with("sarif"));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let alt = results.iter().find(|r| r["ruleId"] == "image-alt-missing").expect("image-alt-missing result");
    assert_eq!(alt["baselineState"], "new");
    assert!(results.iter().all(|r| r["baselineState"].is_string()), "{results:?}");
    if let Some(schema) = crate::ci_formats::sarif_schema() {
        let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
        let errors: Vec<String> =
            validator.iter_errors(&sarif).map(|e| format!("{e} at {}", e.instance_path)).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    let junit = String::from_utf8(with("junit").stdout).expect("utf-8");
    assert!(junit.contains("<failure message=\"[new] "), "{junit}");
    assert!(junit.contains("<property name=\"baselineNew\" value=\""), "{junit}");

    // The other way round: the worse page as baseline, the good one now: its findings are
    // `absent` results.
    let out = audit_page(dir.path(), &worse, &[]);
    std::fs::write(dir.path().join("worse.json"), &out.stdout).expect("write baseline");
    let out = audit_page(dir.path(), GOOD, &["--baseline", "worse.json", "--format", "sarif"]);
    let sarif = json(&out);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let alt = results.iter().find(|r| r["ruleId"] == "image-alt-missing").expect("a resolved result");
    assert_eq!(alt["baselineState"], "absent");
}

#[test]
fn a_baseline_that_is_not_an_audit_result_is_refused_with_what_was_expected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "crawl.json",
            r#"{"ok": true, "crawl": {"url": "https://example.com/", "issues": [], "pages": []}}"#,
            "is a `seo-audit crawl` report",
        ),
        ("notes.txt", "these are notes", "is not JSON"),
        ("sarif.json", r#"{"version": "2.1.0", "runs": []}"#, "is not a seo-audit report"),
        ("compact.json", r#"{"ok": true, "url": "https://example.com/", "top_issues": []}"#, "is the compact form"),
        ("missing.json", "", "Cannot read the baseline missing.json"),
    ];
    for (name, content, says) in cases {
        if !content.is_empty() {
            std::fs::write(dir.path().join(name), content).expect("write");
        }
        let out = audit_page(dir.path(), GOOD, &["--baseline", name]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: invalid_request: "), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(err.trim_end().ends_with('.'), "{name}: {err}");
        if name != "missing.json" {
            assert!(err.contains("`seo-audit audit --format json`"), "{name}: {err}");
        }
        assert!(out.stdout.is_empty(), "{name}: nothing is audited");
    }
    // --fail-on needs a baseline.
    let out = audit_page(dir.path(), GOOD, &["--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--baseline"), "{}", stderr(&out));
}

#[test]
fn a_baseline_of_an_older_ruleset_is_compared_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = GOOD.replace(" alt=\"A copper kettle\"", "");
    let mut old = json(&audit_page(dir.path(), &page, &[]));
    old["meta"]["ruleset_version"] = Value::from("1.0.0");
    old["score"]["ruleset_version"] = Value::from("1.0.0");
    std::fs::write(dir.path().join("old.json"), serde_json::to_vec(&old).expect("json")).expect("write");
    let out = audit_page(dir.path(), &page, &["--baseline", "old.json", "--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("note: the baseline was written with ruleset 1.0.0"), "{err}");
    let result = json(&out);
    assert_eq!(state_of(&result, "image-alt-missing"), "unchanged");
    assert!(result["baseline"]["notes"][0].as_str().is_some_and(|n| n.contains("ruleset 1.0.0")), "{result}");
    assert_eq!(result["baseline"]["ruleset_version"], "1.0.0");
}

/// A site whose `/a` loses its title and links to a missing page once `worse` is set.
fn changing_site(worse: Arc<AtomicBool>) -> ThreadServer {
    ThreadServer::start(move |request| {
        let bad = worse.load(Ordering::SeqCst);
        let page = |title: &str, body: &str| {
            html(&format!(
                "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">{title}\
                 <meta name=\"description\" content=\"Copper kettles: their care and their history, page by page.\">\
                 </head><body><h1>Kettles</h1><p>Copper kettles heat quickly. {body}</p></body></html>"
            ))
        };
        Some(match request.path.as_str() {
            "/" => page("<title>Home of the copper kettle shop</title>", "<a href=\"/a\">a</a>"),
            "/a" if bad => page("", "<a href=\"/\">home</a> <a href=\"/gone\">gone</a>"),
            "/a" => page("<title>Kettles of the copper kettle shop</title>", "<a href=\"/\">home</a>"),
            _ => test_support::status(404),
        })
    })
}

#[test]
fn a_crawl_compares_with_a_crawl_baseline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let worse = Arc::new(AtomicBool::new(false));
    let site = changing_site(Arc::clone(&worse));
    let start = format!("http://127.0.0.1:{}/", site.port());
    let crawl = |extra: &[&str]| {
        crate::common::command()
            .args(["crawl", &start, "--no-sitemaps", "--allow-target", "127.0.0.1"])
            .args(extra)
            .env("SEO_AUDIT_DATA", dir.path())
            .current_dir(dir.path())
            .output()
            .expect("run seo-audit")
    };
    let out = crawl(&["--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["crawl"]["ruleset_version"], audit_core::RULESET_VERSION);
    std::fs::write(dir.path().join("crawl.json"), &out.stdout).expect("write baseline");

    let out = crawl(&["--format", "json", "--baseline", "crawl.json", "--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["baseline"]["counts"]["new"], 0);

    worse.store(true, Ordering::SeqCst);
    let out = crawl(&["--format", "json", "--baseline", "crawl.json", "--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = json(&out);
    let issues = report["crawl"]["issues"].as_array().expect("issues");
    let title = issues.iter().find(|i| i["id"] == "title-missing").expect("title-missing");
    assert_eq!(title["urls"][0]["baseline_state"], "new", "{title}");
    let sarif = json(&crawl(&["--format", "sarif", "--baseline", "crawl.json"]));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "title-missing" && r["baselineState"] == "new"), "{results:?}");
    std::fs::write(dir.path().join("worse.json"), &out.stdout).expect("write baseline");

    // Fixed again: the findings are resolved, nothing is new.
    worse.store(false, Ordering::SeqCst);
    let out = crawl(&["--format", "text", "--baseline", "worse.json", "--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("resolved  [title-missing]"), "{text}");

    // An audit result is no crawl baseline.
    let page = dir.path().join("index.html");
    std::fs::write(&page, GOOD).expect("write");
    let audited = audit(dir.path(), &["index.html", "--url", "https://example.com/"]);
    std::fs::write(dir.path().join("audit.json"), &audited.stdout).expect("write");
    let out = crawl(&["--baseline", "audit.json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("is a `seo-audit audit` report; --baseline takes the JSON output of a previous `seo-audit crawl --format json`"), "{err}");
}
