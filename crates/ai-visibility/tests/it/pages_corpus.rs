//! Readiness, scan and query generation over the real pages of the shared corpus:
//! nothing panics, every invariant of the response shapes holds, and the figures are
//! printed for review. Skips when `../shared` is absent, unless `SEO_AUDIT_REQUIRE_CORPUS=1`.

use std::fs;
use std::path::PathBuf;

use ai_visibility::{ai_readiness, ai_visibility_scan, generate_queries, GEO_QUERY_COUNT, PILLAR_MAX};
use audit_core::{HttpFacts, Page};

fn corpus() -> Option<PathBuf> {
    crate::shared_corpus("pages")
}

#[test]
fn corpus_pages_scan_cleanly() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut scan_total = 0usize;
    let mut distinct_queries = 0usize;
    for path in &files {
        let domain = path.file_stem().and_then(|s| s.to_str()).unwrap_or("example.com").to_owned();
        let url = format!("https://{domain}/");
        let bytes = fs::read(path).unwrap();
        let page = Page::parse(&url, &bytes, HttpFacts::default());

        let readiness = ai_readiness(&url, &page, None, None);
        assert!(readiness.score <= 100 && readiness.ok, "{domain}");
        assert_eq!(readiness.robots_txt.ai_bots.len(), 3);
        assert_eq!(
            readiness.semantic_html.heading_hierarchy.valid,
            readiness.semantic_html.heading_hierarchy.issues.is_empty()
        );

        let scan = ai_visibility_scan(&page, None, None);
        let p = scan.pillars;
        assert!([p.llms_txt, p.ai_bot_access, p.answer_structure, p.entity_clarity].iter().all(|v| *v <= PILLAR_MAX));
        assert_eq!(scan.score, p.llms_txt + p.ai_bot_access + p.answer_structure + p.entity_clarity);
        scan_total += usize::from(scan.score);

        let queries = generate_queries(&page, &domain);
        assert_eq!(queries.len(), GEO_QUERY_COUNT, "{domain}");
        assert!(queries.iter().all(|q| !q.query.trim().is_empty() && q.query.len() < 300), "{domain}: {queries:#?}");
        let mut texts: Vec<String> = queries.iter().map(|q| q.query.to_lowercase()).collect();
        texts.sort();
        texts.dedup();
        distinct_queries += texts.len();
        println!(
            "{domain}: readiness={} scan={} ({}/{}/{}/{}) first query={:?} topic query={:?}",
            readiness.score,
            scan.score,
            p.llms_txt,
            p.ai_bot_access,
            p.answer_structure,
            p.entity_clarity,
            queries[0].query,
            queries[3].query
        );
    }
    println!(
        "{} pages, mean scan score {:.1} (without llms.txt and robots.txt), {:.2} distinct queries per page",
        files.len(),
        scan_total as f64 / files.len() as f64,
        distinct_queries as f64 / files.len() as f64
    );
    assert_eq!(distinct_queries, files.len() * GEO_QUERY_COUNT, "queries are distinct on every corpus page");
}
