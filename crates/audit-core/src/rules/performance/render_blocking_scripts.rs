//! `render-blocking-scripts`: Head has no render-blocking scripts.
//!
//! - **What it checks:** fails when `<script src>` in `<head>` without async, defer or type=module.
//! - **Why it matters:** Synchronous scripts in the head block rendering until they download and run.
//! - **Fails:** `<head><script src="app.js"></script></head>`
//! - **Passes:** `<script src="app.js" defer></script>`
//! - **Reference:** <https://developer.chrome.com/docs/lighthouse/performance/render-blocking-resources>

use crate::rules::prelude::*;

/// See the module documentation.
#[derive(Debug, Clone, Copy)]
pub struct RenderBlockingScripts;

static META: RuleMeta = RuleMeta {
    id: "render-blocking-scripts",
    name: "Head has no render-blocking scripts",
    category: Category::Performance,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 80,
    weight: 1,
    threshold: "<script src> in <head> without async, defer or type=module",
    why: "Synchronous scripts in the head block rendering until they download and run.",
    fail_example: "<head><script src=\"app.js\"></script></head>",
    pass_example: "<script src=\"app.js\" defer></script>",
    reference: "https://developer.chrome.com/docs/lighthouse/performance/render-blocking-resources",
};

impl Rule for RenderBlockingScripts {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(first) = page.render_blocking_scripts.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Render-blocking scripts",
                format!("{} script(s) in <head> block rendering.", page.render_blocking_scripts.len()),
            )
            .current(first.clone())
            .suggested(format!("<script src=\"{first}\" defer></script>")),
        )
    }
}
