//! html5ever parse alone against the full audit (decode, parse, facts, rules, JSON), over the
//! fixture pages and, when `../shared` is present, the corpus pages; and the structured-data
//! reader alone (`structured_data::read` over each page's JSON-LD blocks and microdata/RDFa
//! elements, taken from the page beforehand).
//!
//! `cargo bench -p seo-audit-core`; figures go to docs/PERFORMANCE.md. The target: the full audit
//! costs at most 1.3x the parse alone.

use std::path::{Path, PathBuf};
use std::time::Duration;

use audit_core::structured_data::{self, MarkupElement};
use audit_core::{audit, markup_of, HttpFacts, JsonLd, Page, Unlimited};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::RcDom;

fn pages(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                if let Ok(bytes) = std::fs::read(&p) {
                    out.push((
                        format!("https://example.com/{}", p.file_name().unwrap_or_default().to_string_lossy()),
                        bytes,
                    ));
                }
            }
        }
    }
    out
}

fn parse_only(bytes: &[u8]) -> usize {
    let (text, _) = audit_core::decode(bytes, None);
    // The same parser options as `Page::parse` (scripting off).
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        ..Default::default()
    };
    let dom = html5ever::parse_document(RcDom::default(), opts).one(text);
    let n = dom.document.children.borrow().len();
    n
}

fn full(url: &str, bytes: &[u8]) -> usize {
    let page = Page::parse(url, bytes, HttpFacts::new().with_status(200));
    let result = audit(page).to_result("2026-01-01T00:00:00.000Z");
    serde_json::to_vec(&result).map_or(0, |v| v.len())
}

fn bench_set(c: &mut Criterion, name: &str, set: &[(String, Vec<u8>)]) {
    if set.is_empty() {
        eprintln!("skipping {name}: no pages");
        return;
    }
    let bytes: usize = set.iter().map(|(_, b)| b.len()).sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20).measurement_time(Duration::from_secs(8));
    group.bench_function("html5ever_parse", |b| {
        b.iter_batched(|| (), |()| set.iter().map(|(_, p)| parse_only(p)).sum::<usize>(), BatchSize::SmallInput)
    });
    group.bench_function("full_audit", |b| {
        b.iter_batched(|| (), |()| set.iter().map(|(u, p)| full(u, p)).sum::<usize>(), BatchSize::SmallInput)
    });
    // The reader's input is taken from each page once, outside the measurement.
    let inputs: Vec<(Vec<JsonLd>, Vec<MarkupElement>)> = set
        .iter()
        .map(|(u, p)| {
            let page = Page::parse(u, p, HttpFacts::new().with_status(200));
            let (text, _) = audit_core::decode(p, None);
            (page.json_ld, markup_of(&text))
        })
        .collect();
    group.bench_function("structured_data_read", |b| {
        b.iter(|| inputs.iter().map(|(j, m)| structured_data::read(j, m, &Unlimited).items.len()).sum::<usize>())
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The workspace's fixtures and audit-core's own (the rule cases and the snapshot pages).
    let mut fixtures = pages(&root.join("fixtures"));
    fixtures.extend(pages(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")));
    bench_set(c, "fixtures", &fixtures);
    let corpus = root.join("../shared/corpus/pages");
    if corpus.is_dir() {
        bench_set(c, "corpus", &pages(&corpus));
    } else {
        eprintln!("skipping corpus: {} not found", corpus.display());
    }
}

criterion_group!(audit_benches, benches);
criterion_main!(audit_benches);
