//! HTML bytes → `Page::parse_within` (1.8 s: the parser's share of the service's 2 s budget) → `audit` →
//! `to_result` → JSON. Run with `-timeout=5`: an input that takes longer despite the budget is
//! a bug (see fuzz/README.md).
//!
//! Input layout: the first byte is the length `n` of a charset label (n % 32), the next `n`
//! bytes are the label, used as `Content-Type: text/html; charset=<label>`; the rest is the
//! document.
#![no_main]

use audit_core::{audit, HttpFacts, Page};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (label, body) = match data.split_first() {
        Some((&n, rest)) => rest.split_at(usize::from(n % 32).min(rest.len())),
        None => (&[][..], data),
    };
    let mut http = HttpFacts::new().with_status(200);
    if !label.is_empty() {
        let label = String::from_utf8_lossy(label);
        http.headers.push(("content-type".into(), format!("text/html; charset={label}")));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(1800);
    let budget = || std::time::Instant::now() >= deadline;
    let page = Page::parse_within("https://example.com/a/b.html", body, http, &budget);
    let result = audit(page).to_result("2026-01-01T00:00:00.000Z");
    assert!(result.score.percentage <= 100);
    let json = serde_json::to_vec(&result).expect("audit result serialises");
    assert!(!json.is_empty());
});
