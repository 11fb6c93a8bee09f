//! Full audit results of the pages in `tests/fixtures/pages/`, as JSON snapshots (insta). The
//! timestamp is fixed and the crate version redacted, so a snapshot changes only when what
//! the engine finds changes. Review every changed snapshot before accepting it
//! (`cargo insta review`, or `INSTA_UPDATE=always` and read the diff).

use std::path::Path;

use audit_core::{audit, HttpFacts, Page, RobotsTxtFact};

/// The `scanned_at` of every snapshot.
const FIXED_TIME: &str = "2026-01-01T00:00:00.000Z";

fn fetched(ttfb_ms: u64, load_time_ms: u64) -> HttpFacts {
    HttpFacts::new()
        .with_status(200)
        .with_header("content-type", "text/html; charset=utf-8")
        .with_ttfb_ms(ttfb_ms)
        .with_load_time_ms(load_time_ms)
        .with_robots_txt(RobotsTxtFact::new(true, None))
}

fn check(file: &str, url: &str, http: HttpFacts) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages").join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let result = audit(Page::parse(url, &bytes, http)).to_result(FIXED_TIME);
    let name = file.trim_end_matches(".html");
    insta::assert_json_snapshot!(name, result, {
        ".score.engine_version" => "[engine_version]",
        ".meta.engine_version" => "[engine_version]",
    });
}

#[test]
fn article() {
    check("article.html", "https://example.com/page", fetched(140, 410));
}

#[test]
fn product_with_json_ld() {
    check("product.html", "https://example.com/page", fetched(95, 300));
}

/// Many problems at once, over plain HTTP after two redirects, slow.
#[test]
fn broken() {
    let url = "http://example.com/Old_Site/index.php?page=home&lang=en&ref=nav&sid=42";
    let http = HttpFacts::new()
        .with_status(200)
        .with_final_url(url)
        .with_redirects(["http://example.com/", "http://example.com/Old_Site/"])
        .with_header("content-type", "text/html")
        .with_ttfb_ms(1_850)
        .with_load_time_ms(2_400)
        .with_robots_txt(RobotsTxtFact::new(false, Some("Disallow: /Old_Site/".into())));
    check("broken.html", "http://example.com/", http);
}

#[test]
fn multilingual_with_hreflang() {
    check("multilingual.html", "https://example.com/page", fetched(210, 520));
}

/// A local file: no HTTP facts at all.
#[test]
fn minimal() {
    check("minimal.html", "https://example.com/page", HttpFacts::default());
}
