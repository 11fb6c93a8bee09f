//! Where the time of an audit goes, phase by phase, over a directory of HTML pages:
//! `cargo run --release -p seo-audit-core --example phases -- ../shared/corpus/pages`.
//!
//! `PHASE=dump OUT=DIR` writes each page's result JSON (as `PHASE=full` builds it) to
//! `DIR/<page file name>.json`, so that a change meant to leave the output alone can be checked
//! byte for byte (`diff -r` of two dumps).

use std::time::Instant;

use audit_core::{audit, HttpFacts, Page};
use html5ever::tendril::TendrilSink;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "fixtures".into());
    let mut pages = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&dir)];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                pages.push((
                    p.file_name().unwrap_or_default().to_string_lossy().into_owned(),
                    std::fs::read(&p).expect("read page"),
                ));
            }
        }
    }
    let rounds: u32 = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    let opts = || html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts { scripting_enabled: false, ..Default::default() },
        ..Default::default()
    };
    // PHASE=parse or PHASE=full runs one phase alone, for instruction counts under
    // `valgrind --tool=callgrind` (load-independent, unlike wall-clock time).
    match std::env::var("PHASE").as_deref() {
        Ok("parse") => {
            for (_, b) in &pages {
                let (text, _) = audit_core::decode(b, None);
                let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), opts()).one(text);
                std::hint::black_box(&dom);
            }
            return;
        }
        Ok("full") => {
            for (_, b) in &pages {
                let page = Page::parse("https://example.com/a/b", b, HttpFacts::new().with_status(200));
                let json = serde_json::to_vec(&audit(page).to_result("2026-01-01T00:00:00.000Z"));
                std::hint::black_box(json.map(|j| j.len()).unwrap_or(0));
            }
            return;
        }
        Ok("dump") => {
            let out = std::path::PathBuf::from(std::env::var("OUT").expect("OUT=DIR for PHASE=dump"));
            std::fs::create_dir_all(&out).expect("create OUT");
            for (name, b) in &pages {
                let page = Page::parse("https://example.com/a/b", b, HttpFacts::new().with_status(200));
                let json = serde_json::to_vec(&audit(page).to_result("2026-01-01T00:00:00.000Z")).expect("json");
                std::fs::write(out.join(format!("{name}.json")), json).expect("write");
            }
            return;
        }
        _ => {}
    }
    let pages: Vec<Vec<u8>> = pages.into_iter().map(|(_, b)| b).collect();
    let t = Instant::now();
    for _ in 0..rounds {
        for b in &pages {
            let (text, _) = audit_core::decode(b, None);
            let dom = html5ever::parse_document(markup5ever_rcdom::RcDom::default(), opts()).one(text);
            std::hint::black_box(&dom);
        }
    }
    let parse = t.elapsed();
    let t = Instant::now();
    let mut parsed = Vec::new();
    for _ in 0..rounds {
        parsed.clear();
        for b in &pages {
            parsed.push(Page::parse("https://example.com/a/b", b, HttpFacts::default()));
        }
    }
    let facts = t.elapsed();
    let t = Instant::now();
    let mut audits = Vec::new();
    for _ in 0..rounds {
        audits = parsed.iter().cloned().map(audit).collect();
    }
    let rules = t.elapsed();
    let t = Instant::now();
    for _ in 0..rounds {
        for a in &audits {
            std::hint::black_box(serde_json::to_vec(&a.to_result("2026-01-01T00:00:00.000Z")).unwrap());
        }
    }
    let json = t.elapsed();
    let per = |d: std::time::Duration| d.as_secs_f64() * 1000.0 / f64::from(rounds);
    println!("pages {}", pages.len());
    println!("decode+html5ever      {:8.2} ms", per(parse));
    println!("Page::parse (+walk)   {:8.2} ms", per(facts));
    println!("rules (incl. clone)   {:8.2} ms", per(rules));
    println!("to_result + JSON      {:8.2} ms", per(json));
}
