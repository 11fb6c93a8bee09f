//! The real pages of `../shared/corpus/pages/`: each audits without panic, and the page facts
//! (defined as the DOM reports them, docs/API.md "The audit result") agree with what Chromium's DOM
//! reports (`browser-facts.jsonl`) on at least 99% of fields. Skips with a message when the corpus
//! is absent, fails then under `SEO_AUDIT_REQUIRE_CORPUS=1` (see [`shared_corpus`]).

use std::path::{Path, PathBuf};

use audit_core::{audit, HttpFacts, Page};
use serde_json::{json, Value};

/// Fields the corpus records; `file` and `url` identify the page.
const FIELDS: &[&str] = &[
    "title",
    "meta_description",
    "h1",
    "h1_count",
    "images_total",
    "images_missing_alt",
    "links_internal",
    "links_external",
    "canonical",
    "robots",
    "og_title",
    "og_image",
    "schema_jsonld",
    "lang",
    "hreflang",
];

/// Disagreements we understand and accept, as (file, field, reason). Every entry is listed in
/// the issue note; keep the list short and each reason specific.
const KNOWN: &[(&str, &str, &str)] = &[];

/// Legacy encodings a browser falls back to for undeclared or wrongly declared pages.
const LEGACY: &[&encoding_rs::Encoding] =
    &[encoding_rs::WINDOWS_1252, encoding_rs::SHIFT_JIS, encoding_rs::EUC_KR, encoding_rs::GBK];

/// Whether the browser's text is our text's UTF-8 bytes decoded with a legacy encoding: the
/// page is valid UTF-8 without a (correct) declaration and the reference is garbled, while we
/// decode it right (the issue requires that we do).
fn is_reference_mojibake(browser: &Value, ours: &Value) -> bool {
    let (Some(browser), Some(ours)) = (browser.as_str(), ours.as_str()) else { return false };
    let collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    LEGACY.iter().any(|enc| collapse(&enc.decode_without_bom_handling(ours.as_bytes()).0) == collapse(browser))
}

/// The shared corpus directory (`../shared/corpus` beside the repository) when `file` is in it.
/// Absent, the tests that need it skip with a message, unless `SEO_AUDIT_REQUIRE_CORPUS=1`
/// (CI sets it): then its absence fails them.
pub(crate) fn shared_corpus(file: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if dir.join(file).is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("SEO_AUDIT_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "SEO_AUDIT_REQUIRE_CORPUS=1 but {} is missing (the shared corpus belongs at ../shared/corpus)",
        dir.join(file).display()
    );
    eprintln!(
        "skipping: {} not found (the shared corpus is absent; SEO_AUDIT_REQUIRE_CORPUS=1 makes this fail)",
        dir.join(file).display()
    );
    None
}

fn corpus() -> Option<PathBuf> {
    shared_corpus("pages/browser-facts.jsonl").map(|dir| dir.join("pages"))
}

/// Our facts in the shape of one browser-facts row.
fn facts(page: &Page) -> Value {
    let (internal, external) = page.link_counts();
    json!({
        "title": page.title,
        "meta_description": page.meta_description(),
        "h1": page.h1(),
        "h1_count": page.h1s.len(),
        "images_total": page.images.len(),
        "images_missing_alt": page.images_missing_alt(),
        "links_internal": internal,
        "links_external": external,
        "canonical": page.canonical(),
        "robots": page.meta_robots.first().cloned().unwrap_or_default(),
        "og_title": page.og.get("og:title").cloned().unwrap_or_default(),
        "og_image": page.og.get("og:image").cloned().unwrap_or_default(),
        "schema_jsonld": page.json_ld.len(),
        "lang": page.lang.clone().unwrap_or_default(),
        "hreflang": page.hreflang.len(),
    })
}

#[test]
fn corpus_pages_agree_with_the_browser() {
    let Some(dir) = corpus() else { return };
    let rows = std::fs::read_to_string(dir.join("browser-facts.jsonl")).expect("read browser-facts.jsonl");
    let (mut compared, mut agreed, mut garbled) = (0usize, 0usize, 0usize);
    let mut unexplained = Vec::new();
    for line in rows.lines().filter(|l| !l.trim().is_empty()) {
        let expected: Value = serde_json::from_str(line).expect("valid jsonl row");
        let file = expected["file"].as_str().expect("file");
        let url = expected["url"].as_str().expect("url");
        let bytes = std::fs::read(dir.join(file)).expect("read page");
        let page = Page::parse(url, &bytes, HttpFacts::default());
        // Every page must also go through the whole engine without panicking.
        let result = audit(page.clone()).to_result("2026-01-01T00:00:00.000Z");
        assert!(result.score.percentage <= 100);
        let ours = facts(&page);
        for field in FIELDS {
            compared += 1;
            if ours[field] == expected[field] {
                agreed += 1;
                continue;
            }
            if is_reference_mojibake(&expected[field], &ours[field]) {
                garbled += 1;
                continue;
            }
            let known = KNOWN.iter().any(|(f, k, _)| *f == file && k == field);
            let line = format!("{file} {field}: browser {} / ours {}", expected[field], ours[field]);
            eprintln!("{} {line}", if known { "known" } else { "DIFF " });
            if !known {
                unexplained.push(line);
            }
        }
    }
    let share = 100.0 * (agreed + garbled) as f64 / compared as f64;
    eprintln!(
        "corpus facts: {agreed}/{compared} fields equal, {garbled} more where the reference decoded valid UTF-8 \
         with a legacy charset and ours is the correct text; agreement {share:.2}%"
    );
    assert!(share >= 99.0, "only {share:.2}% of fields agree:\n{}", unexplained.join("\n"));
    assert!(unexplained.is_empty(), "disagreements without a listed reason:\n{}", unexplained.join("\n"));
}

/// The result's bounds (`audit_core::bound`, docs/SECURITY.md) cut nothing of a real page:
/// no text, heading, hreflang link, location or structured-data item of the corpus is lost.
/// Prints the largest result, the figure docs/SECURITY.md gives beside the bound.
#[test]
fn no_real_page_loses_anything_to_the_results_bounds() {
    let Some(dir) = corpus() else { return };
    let rows = std::fs::read_to_string(dir.join("browser-facts.jsonl")).expect("read browser-facts.jsonl");
    let mut largest = (0, String::new());
    let mut cut = Vec::new();
    for line in rows.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("valid jsonl row");
        let (file, url) = (row["file"].as_str().expect("file"), row["url"].as_str().expect("url"));
        let bytes = std::fs::read(dir.join(file)).expect("read page");
        let (result, cuts) =
            audit(Page::parse(url, &bytes, HttpFacts::default())).to_result_with_cuts("2026-01-01T00:00:00.000Z");
        let len = audit_core::bound::json_len(&result);
        assert!(len <= audit_core::bound::MAX_RESULT_BYTES, "{file}: {len} bytes");
        if len > largest.0 {
            largest = (len, file.to_string());
        }
        if !cuts.none() {
            cut.push(format!("{file}: {cuts:?}"));
        }
    }
    eprintln!("largest audit result of the corpus: {} bytes ({})", largest.0, largest.1);
    assert!(cut.is_empty(), "real pages cut by the result's bounds:\n{}", cut.join("\n"));
}
