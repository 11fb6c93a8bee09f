//! Every page of up to 5 MiB is analysed within the CPU budget, whatever its shape
//! (docs/API.md "Analysis limits"): the generated hostile pages of
//! `crates/audit-core/tests/support/hostile.rs`, each at 1 and 5 MiB, through the service's
//! own analysis path (`pipeline::analyse`) with the default budget of 2 s.

#[path = "../../../audit-core/tests/support/hostile.rs"]
pub(crate) mod shapes;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use app::pipeline::{analyse, thread_cpu_time, AnalysisLimits};

const BUDGET: Duration = server::DEFAULT_ANALYSIS_CPU;

struct Measured {
    name: String,
    bytes: usize,
    cpu: Duration,
    complete: bool,
    flagged: bool,
    title: String,
}

fn measure(name: &str, html: &str) -> Measured {
    let started = thread_cpu_time();
    let limits = AnalysisLimits { cpu: Some(BUDGET) };
    let audit = analyse(
        "https://example.com/",
        html.as_bytes(),
        audit_core::HttpFacts::default(),
        limits,
        &AtomicBool::new(false),
    );
    let complete = audit.page.analysis.is_complete() && audit.page.analysis.flattened_elements == 0;
    let title = audit.page.title.clone();
    let result = audit.to_result("2026-01-01T00:00:00.000Z");
    let json = serde_json::to_vec(&result).expect("serialises");
    assert!(!json.is_empty());
    let flagged = result.recommendations.iter().any(|r| r.id == "html-too-complex");
    Measured { name: name.to_string(), bytes: html.len(), cpu: thread_cpu_time() - started, complete, flagged, title }
}

#[test]
fn every_hostile_page_is_analysed_within_the_cpu_budget() {
    let sizes = [1024 * 1024, 5 * 1024 * 1024];
    let jobs: Vec<(&'static str, usize)> =
        shapes::SHAPES.iter().flat_map(|s| sizes.iter().map(move |&size| (s.name, size))).collect();
    // Two threads (the CI machine's cores); each measures its own CPU time.
    let (left, right) = jobs.split_at(jobs.len() / 2);
    let run = |jobs: Vec<(&'static str, usize)>| {
        std::thread::spawn(move || {
            jobs.into_iter()
                .map(|(name, size)| {
                    let shape = shapes::SHAPES.iter().find(|s| s.name == name).unwrap();
                    measure(name, &(shape.generate)(size))
                })
                .collect::<Vec<_>>()
        })
    };
    let (a, b) = (run(left.to_vec()), run(right.to_vec()));
    let mut all = a.join().unwrap();
    all.extend(b.join().unwrap());
    for m in &all {
        println!(
            "{:<32} {:>8} bytes {:>6} ms cpu complete={} flagged={}",
            m.name,
            m.bytes,
            m.cpu.as_millis(),
            m.complete,
            m.flagged
        );
    }
    for m in &all {
        assert!(
            m.cpu <= BUDGET,
            "{} ({} bytes) took {:?} of CPU, over the {:?} budget",
            m.name,
            m.bytes,
            m.cpu,
            BUDGET
        );
        // What was parsed is audited: the head comes first in every shape.
        assert_eq!(m.title, "Hostile shape", "{}", m.name);
        // A page that was cut or flattened says so; one that was not, does not.
        assert_eq!(m.flagged, !m.complete, "{} ({} bytes)", m.name, m.bytes);
    }
    // The shapes that the standard makes superlinear reach a limit and say so.
    for name in ["deep-div", "deep-list", "template-nesting", "misnested-formatting"] {
        assert!(all.iter().filter(|m| m.name == name).all(|m| m.flagged), "{name} is flagged");
    }
}
