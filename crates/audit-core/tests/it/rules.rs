//! Every rule of [`RULES`] against its own fixture pages: `fixtures/rules/<id>/fail.html` must
//! fail it and `fixtures/rules/<id>/pass.html` must pass it. A rule without a fixture
//! directory fails the test, so a new rule cannot land without its two pages. Further cases
//! sit beside them as `fail-<case>.html` and `pass-<case>.html` and are held to the same.
//!
//! A page may come with a sidecar `<name>.json` (`fail.json`, `pass-<case>.json`) holding what
//! HTTP told the auditor; every field is optional:
//!
//! ```json
//! {"url": "https://example.com/page", "final_url": "...", "status": 404,
//!  "headers": [["x-robots-tag", "noindex"]], "redirects": ["http://..."],
//!  "ttfb_ms": 1200, "load_time_ms": 1300, "robots_txt": {"allowed": false, "rule": "Disallow: /"},
//!  "pad_bytes": 1048576, "also_fails": ["thin-content"]}
//! ```
//!
//! `url` defaults to [`DEFAULT_URL`] and `status` to 200 (the page was fetched; `null` means it
//! was read from a file). `pad_bytes` appends an HTML comment of that many bytes, so a page
//! over a size limit need not be committed at that size. `also_fails` lists the other rules
//! the page is known to fail: pass pages and fail pages are otherwise clean, and the test
//! `fixtures_fail_only_what_they_declare` holds them to it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Outcome, Page, RobotsTxtFact, RULES};
use serde_json::Value;

/// The URL a fixture page is audited at unless its sidecar says otherwise.
const DEFAULT_URL: &str = "https://example.com/page";

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/rules")
}

/// A fixture page, parsed, with the rules its sidecar says it also fails.
struct Fixture {
    page: Page,
    also_fails: BTreeSet<String>,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// Loads `<dir>/<name>.html` and its optional `<name>.json` sidecar.
fn load(dir: &Path, name: &str) -> Result<Fixture, String> {
    let html_path = dir.join(format!("{name}.html"));
    let mut bytes = fs::read(&html_path).map_err(|e| format!("{}: {e}", html_path.display()))?;
    let json_path = dir.join(format!("{name}.json"));
    let side: Value = match fs::read_to_string(&json_path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json_path.display()))?,
        Err(_) => Value::Object(Default::default()),
    };
    if let Some(obj) = side.as_object() {
        const KNOWN: &[&str] = &[
            "url",
            "final_url",
            "status",
            "headers",
            "redirects",
            "ttfb_ms",
            "load_time_ms",
            "robots_txt",
            "pad_bytes",
            "also_fails",
        ];
        if let Some(k) = obj.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(format!("{}: unknown key {k:?}", json_path.display()));
        }
    }
    let url = side["url"].as_str().unwrap_or(DEFAULT_URL);
    let status = match side.get("status") {
        None => Some(200),
        Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().and_then(|s| u16::try_from(s).ok()).ok_or("status is not a u16")?),
    };
    let headers = side["headers"]
        .as_array()
        .map(|hs| {
            hs.iter()
                .filter_map(|h| Some((h.get(0)?.as_str()?.to_ascii_lowercase(), h.get(1)?.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let robots_txt = side
        .get("robots_txt")
        .map(|r| RobotsTxtFact::new(r["allowed"].as_bool().unwrap_or(true), r["rule"].as_str().map(str::to_string)));
    if let Some(n) = side["pad_bytes"].as_u64() {
        let n = usize::try_from(n).map_err(|e| e.to_string())?;
        bytes.extend_from_slice(b"\n<!--");
        bytes.resize(bytes.len() + n, b'x');
        bytes.extend_from_slice(b"-->\n");
    }
    let mut http = HttpFacts::new();
    http.status = status;
    http.final_url = side["final_url"].as_str().map(str::to_string);
    http.redirects = strings(&side["redirects"]);
    http.headers = headers;
    http.ttfb_ms = side["ttfb_ms"].as_u64();
    http.load_time_ms = side["load_time_ms"].as_u64();
    http.robots_txt = robots_txt;
    let also_fails = strings(&side["also_fails"]).into_iter().collect();
    Ok(Fixture { page: Page::parse(url, &bytes, http), also_fails })
}

/// The pages of a rule's directory: `fail`, `pass`, then every `fail-<case>` and
/// `pass-<case>`, by name (without `.html`).
fn cases(dir: &Path) -> Vec<String> {
    let mut extra: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".html").map(str::to_string))
        .filter(|n| n.starts_with("fail-") || n.starts_with("pass-"))
        .collect();
    extra.sort();
    ["fail".to_string(), "pass".to_string()].into_iter().chain(extra).collect()
}

/// The ids of the rules a page fails.
fn failing(page: &Page) -> BTreeSet<String> {
    RULES.iter().filter(|r| matches!(r.check(page), Outcome::Fail(_))).map(|r| r.meta().id.to_string()).collect()
}

#[test]
fn every_rule_fails_its_fail_page_and_passes_its_pass_page() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixtures_dir().join(id);
        if !dir.is_dir() {
            problems.push(format!("{id}: no fixture directory {} (add fail.html and pass.html)", dir.display()));
            continue;
        }
        for name in cases(&dir) {
            let expect_fail = name.starts_with("fail");
            match (load(&dir, &name), expect_fail) {
                (Err(e), _) => problems.push(format!("{id}: {e}")),
                (Ok(f), true) => match rule.check(&f.page) {
                    Outcome::Fail(finding) => {
                        if finding.title.trim().is_empty() || finding.description.trim().is_empty() {
                            problems.push(format!("{id}/{name}: finding without title or description: {finding:?}"));
                        }
                    }
                    other => problems.push(format!("{id}: {name}.html gives {other:?}, expected Fail")),
                },
                (Ok(f), false) => match rule.check(&f.page) {
                    Outcome::Pass => {}
                    other => problems.push(format!("{id}: {name}.html gives {other:?}, expected Pass")),
                },
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_fixture_directory_names_a_rule() {
    let ids: BTreeSet<&str> = RULES.iter().map(|r| r.meta().id).collect();
    let entries = fs::read_dir(fixtures_dir()).expect("fixtures/rules exists");
    let stale: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !ids.contains(name.as_str()))
        .collect();
    assert!(stale.is_empty(), "fixture directories without a rule (renamed or removed?): {stale:?}");
}

/// Each fixture page fails exactly its own rule (for `fail`) or nothing (for `pass`), plus
/// what its sidecar lists in `also_fails`: the pages are otherwise clean, so a rule that
/// starts to misfire on ordinary markup shows up here.
#[test]
fn fixtures_fail_only_what_they_declare() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let dir = fixtures_dir().join(id);
        for name in cases(&dir) {
            let Ok(f) = load(&dir, &name) else { continue };
            let mut expected = f.also_fails.clone();
            if name.starts_with("fail") {
                expected.insert(id.to_string());
            }
            let got = failing(&f.page);
            if got != expected {
                let extra: Vec<_> = got.difference(&expected).collect();
                let missing: Vec<_> = expected.difference(&got).collect();
                problems.push(format!("{id}/{name}: also fails {extra:?}; declared but passing {missing:?}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} fixture(s) fail other rules than declared (fix the page or list the rule in the sidecar's also_fails):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
