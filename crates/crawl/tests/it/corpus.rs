//! The bounds of a crawl record against the real pages of `../shared/corpus/pages/`
//! (docs/API.md, "What a crawl keeps"): no real page has more links, hreflang alternates or
//! longer link URLs than a record keeps, so the caps cut only pages built to pass them. The
//! page that sets each maximum is printed (`--nocapture`). Skips with a message when the corpus
//! is absent, fails then under `SEO_AUDIT_REQUIRE_CORPUS=1` (CI sets it).

use std::path::Path;

use audit_core::{HttpFacts, Page};
use crawl::{outlinks, CrawledPage, Scope, ScopeConfig};

#[test]
fn no_real_page_passes_a_crawl_records_bounds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/pages");
    let Ok(index) = std::fs::read_to_string(dir.join("INDEX.tsv")) else {
        assert!(
            std::env::var("SEO_AUDIT_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "SEO_AUDIT_REQUIRE_CORPUS=1 but {} is missing",
            dir.display()
        );
        eprintln!("skipping: {} not found (the shared corpus is absent)", dir.display());
        return;
    };
    let header: Vec<&str> = index.lines().next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file_col, url_col) = (col("file"), col("original_url"));
    // (figure, file) of the largest of each.
    let mut links = (0, String::new());
    let mut alternates = (0, String::new());
    let mut url_bytes = (0, String::new());
    let mut anchor_bytes = (0, String::new());
    let mut record_bytes = (0, String::new());
    let mut pages = 0;
    for line in index.lines().skip(1) {
        let row: Vec<&str> = line.split('\t').collect();
        // Pages saved without their address are read as the example domain's home page.
        let (file, url) =
            (row[file_col], Some(row[url_col]).filter(|u| !u.is_empty()).unwrap_or("https://example.com/"));
        let Ok(html) = std::fs::read(dir.join(file)) else { continue };
        let Ok(scope) = Scope::new(url, ScopeConfig::default()) else { continue };
        pages += 1;
        let page = Page::parse(url, &html, HttpFacts::new().with_status(200));
        let all = outlinks(&page, &scope);
        let record = CrawledPage::from_page(url, Some(0), &page, &scope, Some(50));
        let max = |slot: &mut (usize, String), n: usize| {
            if n > slot.0 {
                *slot = (n, file.to_string());
            }
        };
        max(&mut links, all.len());
        max(&mut alternates, page.head_hreflang().count());
        max(&mut url_bytes, all.iter().map(|l| l.url.len()).max().unwrap_or(0));
        max(&mut anchor_bytes, all.iter().map(|l| l.anchor.len()).max().unwrap_or(0));
        max(&mut record_bytes, serde_json::to_string(&record).unwrap().len());
        // Nothing of a real page is left out of its record.
        let urls = |l: &[crawl::Outlink]| l.iter().map(|l| l.url.clone()).collect::<Vec<_>>();
        assert!(urls(&record.outlinks) == urls(&all), "{file}: links not kept as found");
        assert_eq!((record.outlinks_total, record.hreflang_total), (None, None), "{file}");
    }
    eprintln!(
        "{pages} pages; most links {links:?}, hreflang {alternates:?}, longest link URL {url_bytes:?}, \
         longest anchor {anchor_bytes:?}, largest record JSON {record_bytes:?}"
    );
    assert_eq!(pages, 97, "the corpus has 97 pages");
    assert!(links.0 < crawl::MAX_RECORDED_LINKS && alternates.0 < crawl::MAX_RECORDED_HREFLANG);
    assert!(url_bytes.0 <= crawl::MAX_RECORDED_URL_BYTES && anchor_bytes.0 <= crawl::MAX_RECORDED_ANCHOR_BYTES);
    assert!(record_bytes.0 < crawl::MAX_RECORDED_LINK_BYTES);
}
