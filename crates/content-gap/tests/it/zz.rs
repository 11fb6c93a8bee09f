#[test]
fn dump() {
    let dir = std::path::Path::new("/work/shared/corpus/pages");
    let index = std::fs::read_to_string(dir.join("INDEX.tsv")).unwrap();
    for line in index.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let bytes = std::fs::read(dir.join(c[0])).unwrap();
        let page = audit_core::Page::parse(c[3], &bytes, Default::default());
        let r = content_gap::analyze(&content_gap::GapInput { url: c[3].into(), page: Some(&page), ..Default::default() });
        println!("{:28} {:14} {:9} | {} | {}", c[0], r.page_type.name(), format!("{:?}", r.classification.decided_by), r.page_type_reason, r.gaps.first().map(|g| g.heading.as_str()).unwrap_or("-"));
    }
}
