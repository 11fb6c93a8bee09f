//! The page text kept with every stored audit (`app::page_text`), on the load-run page
//! (`fixtures/sites/load/article.html`, 86 KB): work the service adds to the engine's for each
//! audit (docs/PERFORMANCE.md, "The service: audits per second over HTTP").
//!
//! `cargo bench -p app --bench page_text`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn page_text(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/sites/load/article.html");
    let html = std::fs::read(path).expect("the load-run page");
    let audit = audit_core::audit(audit_core::Page::parse("http://127.0.0.1/article.html", &html, Default::default()));
    let mut group = c.benchmark_group("page_text");
    group.throughput(Throughput::Bytes(u64::try_from(audit.page.visible_text.len()).unwrap_or(0)));
    group.bench_function("load page", |b| b.iter(|| app::page_text(std::hint::black_box(&audit))));
    group.finish();
}

criterion_group!(benches, page_text);
criterion_main!(benches);
