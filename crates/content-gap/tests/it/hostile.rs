//! The comparison is linear in the headings and links of its pages (docs/SECURITY.md, "Work
//! that grows with its input"): 20,000 headings in the body, a page of 20,000 subheadings
//! each the text of an internal link, and that page against two competitors of 5,000 headings
//! each are compared within the analysis budget of 2 s of CPU (thread time of this test build,
//! on a loaded 2-core machine: the comparison with competitors is linear in all their
//! headings together, 30,000 here), where the catalogue's synonyms stemmed anew for
//! each heading, a quadratic count of headings and a scan of every link for every
//! subheading cost 16 s and more.

use std::time::Duration;

use audit_core::{HttpFacts, Page};
use content_gap::{analyze, Basis, GapInput};

/// The service's default analysis budget (`analysis_cpu_ms`).
const BUDGET: Duration = Duration::from_secs(2);

/// CPU time of the calling thread (user and system), from /proc.
fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// A page of `n` subheadings, each also the text of an internal link to a page of its own,
/// and each in a JSON-LD block of a type of its own.
fn hostile_page(n: usize, seed: &str) -> Page {
    let mut html = String::from("<html><head><title>Hostile</title></head><body><h1>Hostile</h1>");
    for i in 0..n {
        html.push_str(&format!(
            "<h2>Shipping returns reviews {seed} {i}</h2><a href=\"/{seed}/p{i}\">Shipping returns reviews {seed} {i}</a>\
             <script type=\"application/ld+json\">{{\"@type\":\"T{seed}{i}\"}}</script>"
        ));
    }
    html.push_str("</body></html>");
    Page::parse("https://hostile.example/", html.as_bytes(), HttpFacts::default())
}

/// The CPU time of one analysis of `input`.
fn measure(what: &str, input: &GapInput) -> content_gap::ContentGapReport {
    let started = thread_cpu();
    let report = analyze(input);
    let spent = thread_cpu() - started;
    eprintln!("{what}: {spent:?} of CPU");
    assert!(spent < BUDGET, "{what}: {spent:?} of CPU");
    report
}

#[cfg(target_os = "linux")]
#[test]
fn hostile_pages_and_bodies_are_compared_within_the_budget() {
    let page = hostile_page(20_000, "own");
    assert!(page.headings.len() > 20_000 && page.links.len() >= 20_000, "the parser kept the page whole");
    let competitors: Vec<Page> = (0..2).map(|c| hostile_page(5_000, &format!("c{c}"))).collect();
    let headings: Vec<String> = (0..20_000).map(|i| format!("Shipping returns reviews faq step {i}")).collect();
    let url = "https://hostile.example/".to_string();

    // The probe's body: 20,000 headings given in the request.
    let input = GapInput { url: url.clone(), headings: Some(headings), ..GapInput::default() };
    let from_body = measure("20,000 headings in the body", &input);
    assert!(from_body.covered.iter().any(|c| c == "Customer reviews"), "{:?}", from_body.covered);

    // The probe's page: 20,000 subheadings, each the text of an internal link.
    let from_page = measure(
        "a page of 20,000 linked subheadings",
        &GapInput { url: url.clone(), page: Some(&page), ..GapInput::default() },
    );
    assert_eq!(from_page.basis, Basis::Model);

    // Against two competitors of 5,000 headings each.
    let input = GapInput { url, page: Some(&page), competitors: &competitors, ..GapInput::default() };
    let against = measure("against 2 competitors of 5,000 headings", &input);
    assert_eq!(against.basis, Basis::Competitors);
}
