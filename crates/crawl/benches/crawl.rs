//! The crawl engine's own cost, without fetching or HTML: URL normalisation, the frontier
//! over the in-memory store on a generated site (2,000 pages of 50 links each), and the
//! site rules over the records of that site; and the record's text facts (the text hash and
//! the near-duplicate signature) of the 86 KB load page (`fixtures/sites/load/article.html`).
//! `cargo bench -p crawl`.

use std::collections::BTreeSet;
use std::hint::black_box;

use crawl::{
    normalize, run_site_rules, CrawledPage, Frontier, Limits, MemoryStore, Outcome, Outlink, Scope, ScopeConfig, Work,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const PAGES: usize = 2_000;
const LINKS: usize = 50;

fn url(i: usize) -> String {
    format!("https://site.test/section-{}/page-{i}", i % 20)
}

/// Page `i` of the generated site: a title, a text hash and 50 links to other pages.
fn record(i: usize, depth: Option<u32>) -> CrawledPage {
    let outlinks = (1..=LINKS)
        .map(|k| Outlink {
            url: url((i * 7 + k * 13) % PAGES),
            anchor: format!("Link {k}"),
            internal: true,
            nofollow: false,
            follow: true,
        })
        .collect();
    CrawledPage {
        url: url(i),
        status: Some(200),
        depth,
        html: true,
        title: Some(format!("Page {i}")),
        meta_description: Some(format!("About page {}", i % 1000)),
        text_hash: Some(format!("{:032x}", i % 1500)),
        outlinks,
        score: Some(80),
        ..CrawledPage::default()
    }
}

fn crawl_generated_site() -> usize {
    let scope = Scope::new(&url(0), ScopeConfig { max_pages: PAGES as u32, ..ScopeConfig::default() }).unwrap();
    let mut frontier = Frontier::resume(MemoryStore::new(), scope, Limits::default()).unwrap();
    let mut fetched = 0;
    while !frontier.is_finished().unwrap() {
        for work in frontier.next_work().unwrap() {
            match work {
                Work::Robots { url } => {
                    frontier.set_robots(&url, crawl::robots_from_answer(Some(404), b""));
                }
                Work::Fetch(entry) => {
                    let i: usize = entry.url.rsplit('-').next().unwrap().parse().unwrap();
                    let page = record(i, entry.depth);
                    frontier.record(entry, Outcome::Answered(&page)).unwrap();
                    fetched += 1;
                }
            }
        }
    }
    fetched
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("crawl");
    g.throughput(Throughput::Elements(1));
    g.bench_function("normalize", |b| {
        b.iter(|| normalize(black_box("HTTPS://Www.Example.COM:443/a/../Blog/Post?x=1#comments")).unwrap())
    });
    g.throughput(Throughput::Elements(PAGES as u64));
    g.sample_size(10);
    assert_eq!(crawl_generated_site(), PAGES);
    g.bench_function("frontier, 2000 pages x 50 links", |b| b.iter(crawl_generated_site));
    let pages: Vec<CrawledPage> = (0..PAGES).map(|i| record(i, Some(2))).collect();
    let sitemap: BTreeSet<String> = (0..PAGES).step_by(2).map(url).collect();
    g.bench_function("site rules, 2000 pages x 50 links", |b| {
        b.iter(|| run_site_rules(black_box(&pages), &sitemap, true).len())
    });
    g.finish();

    // The facts a crawl takes of every page's visible text, on a page of the size real pages
    // have: before the signature's votes were counted eight bits at a time they cost as much
    // as parsing and auditing the page (docs/PERFORMANCE.md, "Crawling").
    let html = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/sites/load/article.html"))
        .expect("the load page");
    let page =
        audit_core::Page::parse("https://site.test/article", &html, audit_core::HttpFacts::new().with_status(200));
    let mut g = c.benchmark_group("text facts, load page");
    g.throughput(Throughput::Bytes(page.visible_text.len() as u64));
    g.bench_function("content_signature", |b| {
        b.iter(|| crawl::content_signature(black_box(&page.visible_text), &page.boilerplate))
    });
    g.bench_function("text_hash", |b| b.iter(|| crawl::text_hash(black_box(&page.visible_text))));
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
