//! The real pages of the shared corpus (`../shared/corpus/pages`, never copied into the
//! repository): no gap heading is a bare template label, each names the page's own topic,
//! and every page type says what decided it. Absent, the test skips with a message, unless
//! `SEO_AUDIT_REQUIRE_CORPUS=1`: then its absence fails it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use audit_core::{HttpFacts, Page};
use content_gap::{analyze, fold, GapInput};

use crate::labelled::is_bare_label;

fn corpus_pages() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/pages");
    if dir.join("INDEX.tsv").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("SEO_AUDIT_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "SEO_AUDIT_REQUIRE_CORPUS=1 but {} is missing (the shared corpus belongs at ../shared/corpus)",
        dir.join("INDEX.tsv").display()
    );
    eprintln!(
        "skipping: {} not found (the shared corpus is absent; SEO_AUDIT_REQUIRE_CORPUS=1 makes this fail)",
        dir.join("INDEX.tsv").display()
    );
    None
}

#[test]
fn corpus_gap_headings_are_concrete() {
    let Some(dir) = corpus_pages() else { return };
    let index = std::fs::read_to_string(dir.join("INDEX.tsv")).unwrap();
    let mut header = index.lines().next().unwrap().split('\t');
    let url_col = header.position(|c| c == "original_url").expect("original_url column");
    let (mut pages, mut gaps) = (0, 0);
    let mut types: BTreeMap<String, usize> = BTreeMap::new();
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, url) = (cols[0], cols[url_col]);
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let page = Page::parse(url, &bytes, HttpFacts::default());
        let report = analyze(&GapInput { url: url.into(), page: Some(&page), ..GapInput::default() });
        pages += 1;
        *types.entry(format!("{} by {:?}", report.page_type.name(), report.classification.decided_by)).or_default() +=
            1;
        assert!(!report.page_type_reason.is_empty(), "{file}");
        // The page's own words: its h1, title and address.
        let own = fold(&format!("{} {} {}", page.h1(), page.title, url.replace(['/', '-', '_', '.'], " ")));
        let own: Vec<&str> = own.split_whitespace().collect();
        for g in &report.gaps {
            gaps += 1;
            assert!(!is_bare_label(&g.heading), "{file}: bare label {g:?}");
            let named = fold(&g.heading).split_whitespace().any(|w| w.chars().count() >= 3 && own.contains(&w));
            assert!(named, "{file}: {:?} names nothing of the page ({})", g.heading, page.title);
            assert!(!g.reason.is_empty(), "{file}: {g:?}");
        }
    }
    eprintln!("{pages} corpus pages, {gaps} gaps; page types: {types:?}");
    assert!(pages >= 50 && gaps > 0, "{pages} pages, {gaps} gaps");
}
