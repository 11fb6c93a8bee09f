//! The per-rule fixture cases of `crates/audit-core/tests/fixtures/rules/<rule-id>/`, loaded
//! into pages (the layout is described in docs/RULES.md, "Rule fixtures").
//!
//! Used by audit-core's tests: `tests/it/rules.rs` (every case fails or passes its rule) and
//! `tests/it/rule_cases.rs` (the insta snapshot of each rule's findings and fixes, beside its
//! cases).
//!
//! A case is `fail.html`, `pass.html`, `fail-<case>.html` or `pass-<case>.html`, with an
//! optional sidecar `<name>.json` holding what HTTP told the auditor; every field is optional:
//!
//! ```json
//! {"url": "https://example.com/page", "final_url": "...", "status": 404,
//!  "headers": [["x-robots-tag", "noindex"]], "redirects": ["http://..."],
//!  "ttfb_ms": 1200, "load_time_ms": 1300, "robots_txt": {"allowed": false, "rule": "Disallow: /",
//!    "read": true, "problems": [[3, "Dissallow: /x", "why", "Disallow: /x"]], "problems_total": 1},
//!  "pad_bytes": 1048576, "pad_to_bytes": 1048576,
//!  "repeat": {"markup": "<p>x</p>", "count": 1500},
//!  "also_fails": ["thin-content"]}
//! ```
//!
//! `url` defaults to [`DEFAULT_URL`] and `status` to 200 (the page was fetched; `null` means it
//! was read from a file). `pad_bytes` appends an HTML comment of that many bytes, and
//! `pad_to_bytes` one that makes the document exactly that many bytes long, so that a page at
//! a size limit need not be committed at that size. `repeat` replaces the comment
//! `<!--repeat-->` in the page by `count` copies of `markup` (a thousand links, elements
//! nested five hundred deep). `also_fails` lists the other rules the page is known to fail:
//! the full-article pages are otherwise clean; a small page that only makes sense for its own
//! rule says `"also_fails": "*"` and is not held to the others.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Page, RobotsTxtFact, RobotsTxtProblem};
use serde_json::Value;

/// The URL a fixture page is audited at unless its sidecar says otherwise.
pub const DEFAULT_URL: &str = "https://example.com/page";

/// `crates/audit-core/tests/fixtures/rules`, from the directory of audit-core's manifest.
pub fn rules_dir(audit_core_dir: &Path) -> PathBuf {
    audit_core_dir.join("tests/fixtures/rules")
}

/// What a case's page is held to besides its own rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Others {
    /// It fails exactly these other rules.
    Exactly(BTreeSet<String>),
    /// A small page: the other rules are not looked at (`"also_fails": "*"`).
    Unchecked,
}

/// A fixture page, parsed, with what its sidecar says.
pub struct Fixture {
    pub page: Page,
    /// The URL it was audited at.
    pub url: String,
    pub others: Others,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// Loads `<dir>/<name>.html` and its optional `<name>.json` sidecar.
// `HttpFacts` is filled field by field from its default rather than built as a literal, so
// that this loader keeps compiling should the struct become `#[non_exhaustive]`.
#[allow(clippy::field_reassign_with_default)]
pub fn load(dir: &Path, name: &str) -> Result<Fixture, String> {
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
            "pad_to_bytes",
            "repeat",
            "also_fails",
        ];
        if let Some(k) = obj.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(format!("{}: unknown key {k:?}", json_path.display()));
        }
    }
    let url = side["url"].as_str().unwrap_or(DEFAULT_URL).to_string();
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
    let robots_txt = side.get("robots_txt").map(|r| {
        let problems: Vec<RobotsTxtProblem> = r["problems"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .map(|p| {
                        RobotsTxtProblem::new(
                            p[0].as_u64().unwrap_or(1) as usize,
                            p[1].as_str().unwrap_or_default().to_string(),
                            p[2].as_str().unwrap_or_default().to_string(),
                            p[3].as_str().map(str::to_string),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let total = r["problems_total"].as_u64().map_or(problems.len(), |n| n as usize);
        let fact = RobotsTxtFact::new(r["allowed"].as_bool().unwrap_or(true), r["rule"].as_str().map(str::to_string))
            .with_problems(problems, total);
        if r["read"].as_bool() == Some(false) {
            fact.unread()
        } else {
            fact
        }
    });
    if let Some(repeat) = side.get("repeat") {
        const MARKER: &[u8] = b"<!--repeat-->";
        let markup = repeat["markup"].as_str().ok_or("repeat.markup is not a string")?;
        let count = repeat["count"].as_u64().and_then(|n| usize::try_from(n).ok()).ok_or("repeat.count")?;
        let at = bytes
            .windows(MARKER.len())
            .position(|w| w == MARKER)
            .ok_or_else(|| format!("{}: repeat without <!--repeat--> in the page", html_path.display()))?;
        let copies = markup.repeat(count);
        bytes.splice(at..at + MARKER.len(), copies.into_bytes());
    }
    if let Some(n) = side["pad_bytes"].as_u64() {
        let n = usize::try_from(n).map_err(|e| e.to_string())?;
        pad(&mut bytes, n);
    }
    if let Some(total) = side["pad_to_bytes"].as_u64() {
        let total = usize::try_from(total).map_err(|e| e.to_string())?;
        // The comment's own `\n<!--` and `-->\n` take nine bytes.
        let n = total.checked_sub(bytes.len() + 9).ok_or("pad_to_bytes is smaller than the page")?;
        pad(&mut bytes, n);
        assert_eq!(bytes.len(), total);
    }
    let mut http = HttpFacts::default();
    http.status = status;
    http.final_url = side["final_url"].as_str().map(str::to_string);
    http.redirects = strings(&side["redirects"]);
    http.headers = headers;
    http.ttfb_ms = side["ttfb_ms"].as_u64();
    http.load_time_ms = side["load_time_ms"].as_u64();
    http.robots_txt = robots_txt;
    let others = match &side["also_fails"] {
        Value::String(s) if s == "*" => Others::Unchecked,
        Value::String(s) => return Err(format!("{}: also_fails is {s:?}, not a list or \"*\"", json_path.display())),
        v => Others::Exactly(strings(v).into_iter().collect()),
    };
    Ok(Fixture { page: Page::parse(&url, &bytes, http), url, others })
}

fn pad(bytes: &mut Vec<u8>, n: usize) {
    bytes.extend_from_slice(b"\n<!--");
    bytes.resize(bytes.len() + n, b'x');
    bytes.extend_from_slice(b"-->\n");
}

/// The cases of a rule's directory: `fail`, `pass`, then every `fail-<case>` and
/// `pass-<case>`, by name (without `.html`).
pub fn cases(dir: &Path) -> Vec<String> {
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
