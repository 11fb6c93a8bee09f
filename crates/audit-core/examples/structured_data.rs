//! The structured data of a directory of HTML pages, summarised: items by type and source,
//! how many are eligible for a rich result, the commonest errors and warnings:
//! `cargo run -p seo-audit-core --example structured_data -- ../shared/corpus/pages`.

use std::collections::BTreeMap;

use audit_core::structured_data::Source;
use audit_core::{HttpFacts, Page};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "fixtures".into());
    let mut paths = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&dir)];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    // type -> (items, eligible for at least one rich result, checked at all)
    let mut by_type: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut by_source: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems: BTreeMap<(String, String), usize> = BTreeMap::new();
    let (mut pages_with, mut invalid, mut retired, mut not_read) = (0, 0, 0, 0);
    for path in &paths {
        let bytes = std::fs::read(path).expect("read page");
        let page = Page::parse("https://example.com/", &bytes, HttpFacts::new());
        let sd = &page.structured_data;
        pages_with += usize::from(!sd.items.is_empty());
        invalid += sd.invalid_blocks.len();
        not_read += sd.nodes_not_read;
        for item in &sd.items {
            let e = by_type.entry(item.type_.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(!item.eligible.is_empty());
            e.2 += usize::from(!item.eligible.is_empty() || !item.not_eligible.is_empty());
            *by_source
                .entry(match item.source {
                    Source::JsonLd => "json-ld",
                    Source::Microdata => "microdata",
                    Source::Rdfa => "rdfa",
                })
                .or_default() += 1;
            retired += usize::from(item.notice.is_some());
            for p in item.errors.iter().chain(&item.warnings) {
                // The path without indexes and the item type: `offers.price`.
                let path: String =
                    p.path.split('.').skip(1).map(|s| s.split('[').next().unwrap_or(s)).collect::<Vec<_>>().join(".");
                *problems
                    .entry((format!("{:?}", p.severity).to_lowercase(), format!("{} {path}", item.type_)))
                    .or_default() += 1;
            }
        }
    }
    let items: usize = by_type.values().map(|v| v.0).sum();
    println!("{} pages, {pages_with} with structured data, {items} items ({by_source:?}), {invalid} invalid JSON-LD blocks, {retired} items of retired rich results, {not_read} nodes not read", paths.len());
    println!("\n| type | items | checked for a rich result | eligible for one |\n|---|---|---|---|");
    let mut types: Vec<_> = by_type.into_iter().collect();
    types.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    for (t, (n, eligible, checked)) in types {
        println!("| {t} | {n} | {checked} | {eligible} |");
    }
    let mut problems: Vec<_> = problems.into_iter().collect();
    problems.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("\n| severity | property | items |\n|---|---|---|");
    for ((severity, what), n) in problems.into_iter().take(15) {
        println!("| {severity} | {what} | {n} |");
    }
}
