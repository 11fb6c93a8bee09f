//! `slow-response`: Server responds within 800 ms.
//!
//! - **What it checks:** fails when time to first byte > 800 ms.
//! - **Why it matters:** A slow server delays everything else; Google recommends a TTFB under 800 ms.
//! - **Fails:** a server that takes 1.5 s to answer
//! - **Passes:** a server that answers in 200 ms
//! - **Reference:** <https://web.dev/articles/ttfb>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct SlowResponse;

static META: RuleMeta = RuleMeta {
    id: "slow-response",
    name: "Server responds within 800 ms",
    category: Category::Performance,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::High,
    confidence: 70,
    weight: 1,
    threshold: "time to first byte > 800 ms",
    why: "A slow server delays everything else; Google recommends a TTFB under 800 ms.",
    fail_example: "a server that takes 1.5 s to answer",
    pass_example: "a server that answers in 200 ms",
    reference: "https://web.dev/articles/ttfb",
};

impl Rule for SlowResponse {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(ms) = page.http.ttfb_ms.or(page.http.load_time_ms) else { return Outcome::NotApplicable };
        if ms <= util::SLOW_RESPONSE_MS {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Slow server response",
                format!("The server took {ms} ms to respond; aim for under {} ms.", util::SLOW_RESPONSE_MS),
            )
            .current(format!("{ms} ms"))
            .suggested(format!("<= {} ms", util::SLOW_RESPONSE_MS)),
        )
    }
}
