//! `docs/AI-VISIBILITY.md`, generated from the scan's check table and the readiness
//! point table.

use std::fmt::Write as _;

use crate::readiness::READINESS_POINTS;
use crate::scan::{Pillar, PILLAR_MAX, SCAN_CHECKS};

/// Renders the scoring methodology of `/api/ai-visibility-scan` and `/api/ai-readiness`.
/// `docs/AI-VISIBILITY.md` is this output; a test fails when it is stale (regenerate with
/// `UPDATE_DOCS=1 cargo test -p ai-visibility --test it methodology_doc::`).
pub fn scan_methodology_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# AI visibility: what earns each point\n\n\
         <!-- Generated from the check tables of crates/ai-visibility; do not edit by hand. -->\n\n\
         Both scores are deterministic: the same page, llms.txt and robots.txt always give the same points. \
         Bot access is judged for the audited page's own URL, from one table of {} AI crawlers. \
         Both responses list each crawler they judged in `crawlers`, with its verdict and the robots.txt group \
         and line that decided it (docs/API.md, \"Which robots.txt line decided\").\n",
        crate::AI_BOTS.len()
    );
    let _ = writeln!(
        out,
        "## `/api/ai-visibility-scan`\n\n\
         Four pillars of {PILLAR_MAX} points each; `score` is their sum (0..100). The response's `details` lists \
         every check below with the points it earned; each check that earns less than its maximum adds one \
         recommendation, biggest loss first.\n"
    );
    for pillar in Pillar::ALL {
        let checks: Vec<_> = SCAN_CHECKS.iter().filter(|c| c.pillar == pillar).collect();
        let total: u32 = checks.iter().map(|c| u32::from(c.max)).sum();
        let _ = writeln!(out, "### {} (`{}`, {total} points)\n", pillar.title(), pillar.key());
        let _ = writeln!(out, "| check | points | earned when |\n|---|---|---|");
        for c in checks {
            let _ = writeln!(out, "| `{}` | {} | {} |", c.id, c.max, escape(c.earns));
        }
        let _ = writeln!(out);
    }
    let total: u32 = READINESS_POINTS.iter().map(|i| u32::from(i.points)).sum();
    let _ = writeln!(
        out,
        "## `/api/ai-readiness`\n\n\
         `score` (0..{total}) is the sum of the items that pass; each failed item adds one recommendation \
         (an absent llms.txt adds one, not two).\n"
    );
    let _ = writeln!(out, "| item | points | earned when |\n|---|---|---|");
    for i in READINESS_POINTS {
        let _ = writeln!(out, "| `{}` | {} | {} |", i.id, i.points, escape(i.earns));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}
