//! Times the analysis of each generated hostile page (tests/support/hostile.rs), without a
//! time budget, so the structural limits alone are measured:
//!
//! ```sh
//! cargo run --release -p seo-audit-core --example hostile -- [SIZE_BYTES] [BUDGET_MS] [SHAPE]
//! ```
//!
//! Prints, per shape: parse+facts time, rules+result time, elements, depth, and where the
//! analysis stopped. The figures of docs/SECURITY.md come from here.

#[path = "../tests/support/hostile.rs"]
mod hostile;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5 * 1024 * 1024);
    let budget_ms: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let only = args.next();
    println!(
        "{:<32} {:>9} {:>10} {:>10} {:>9} {:>6} {:>8}  stopped",
        "shape", "bytes", "parse_ms", "rules_ms", "elements", "depth", "flat"
    );
    for shape in hostile::SHAPES {
        if only.as_deref().is_some_and(|o| o != shape.name) {
            continue;
        }
        let html = (shape.generate)(size);
        let started = Instant::now();
        let cpu = hostile::thread_cpu();
        let deadline = cpu + std::time::Duration::from_millis(budget_ms);
        let budget = || budget_ms > 0 && hostile::thread_cpu() >= deadline;
        let page = audit_core::Page::parse_within(
            "https://example.com/",
            html.as_bytes(),
            audit_core::HttpFacts::default(),
            &budget,
        );
        let parsed = started.elapsed();
        let analysis = page.analysis;
        let (elements, depth) = (page.dom_nodes, page.dom_depth);
        let started = Instant::now();
        let result = audit_core::audit(page).to_result("2026-01-01T00:00:00.000Z");
        let json = serde_json::to_string(&result).unwrap();
        let rules = started.elapsed();
        let total_cpu = hostile::thread_cpu() - cpu;
        println!(
            "{:<32} {:>9} {:>10.1} {:>10.1} {:>9} {:>6} {:>8}  {:?} ({} of {} bytes) json {} cpu {:.0} ms",
            shape.name,
            html.len(),
            parsed.as_secs_f64() * 1e3,
            rules.as_secs_f64() * 1e3,
            elements,
            depth,
            analysis.flattened_elements,
            analysis.stopped,
            analysis.parsed_bytes,
            analysis.total_bytes,
            json.len(),
            total_cpu.as_secs_f64() * 1e3
        );
    }
}
