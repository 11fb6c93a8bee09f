//! The "Site rules" section of `docs/RULES.md`, generated from [`SITE_RULES`].

use std::fmt::Write as _;

use crate::rules::SITE_RULES;
use crate::score::{site_score, worked_example, MIN_PENALTY_SHARE, SEVERITY_PENALTY};

/// Renders the "Site rules" section of `docs/RULES.md` (between its markers; a test of
/// this crate fails when it is stale, regenerate with
/// `UPDATE_DOCS=1 cargo test -p crawl --test it rules_doc::`).
pub fn site_rules_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## Site rules\n");
    let _ = writeln!(
        out,
        "A site crawl (docs/API.md, \"Site crawl\") runs the page rules above on every HTML page it fetches, \
         then these {} rules over the whole set of pages, their links and the site's sitemaps. Links with `rel` \
         `nofollow`, `ugc` or `sponsored`, and the links of a page whose robots directives say `nofollow`, are \
         recorded but not followed (as Screaming Frog does by default).\n",
        SITE_RULES.len()
    );
    let _ = writeln!(out, "| id | severity | fails when |\n|---|---|---|");
    for r in SITE_RULES {
        let m = r.meta();
        let _ = writeln!(out, "| [`{}`](#{}) | {} | {} |", m.id, m.id, m.severity, m.threshold.replace('<', "&lt;"));
    }
    for r in SITE_RULES {
        let m = r.meta();
        let _ = writeln!(out, "\n### {}\n", m.id);
        let _ = writeln!(out, "{}.\n", m.name);
        let _ = writeln!(out, "- Severity `{}`", m.severity);
        let _ = writeln!(out, "- **What it checks:** fails when {}.", m.threshold.replace('<', "&lt;"));
        let _ = writeln!(out, "- **Why it matters:** {}", m.why);
        let _ = writeln!(out, "- **Fails:** {}", m.fail_example);
        let _ = writeln!(out, "- **Passes:** {}", m.pass_example);
        let _ = writeln!(out, "- **Reference:** <{}>", m.reference);
    }
    let _ = writeln!(out, "\n### Site score\n");
    let penalties: Vec<String> = SEVERITY_PENALTY.iter().map(|(s, p)| format!("`{s}` {p}")).collect();
    let _ = writeln!(
        out,
        "The site score (0-100) is the mean of the page scores of the HTML pages the crawl audited, less a \
         penalty for each site rule that fails, rounded to the nearest integer (halves away from zero) and \
         kept within 0-100. A failing rule costs its severity's penalty ({}) times \
         `{MIN_PENALTY_SHARE} + {} × min(1, affected / crawled)`, where `affected` is the number of distinct \
         URLs in its findings and `crawled` the number of URLs the crawl fetched (answered or failed). A rule \
         that fails costs at least a quarter of its penalty however few URLs it affects, and all of it when \
         it affects every URL. A crawl that audited no page has no site score.\n",
        penalties.join(", "),
        1.0 - MIN_PENALTY_SHARE
    );
    let (scores, crawled, results) = worked_example();
    let score = site_score(scores.iter().copied(), crawled, &results).unwrap_or_else(|| unreachable!());
    let _ = writeln!(
        out,
        "Worked example: {crawled} URLs crawled, {} pages audited with a mean score of {}.",
        scores.len(),
        score.mean_page_score
    );
    for r in results.iter().filter(|r| !r.findings.is_empty()) {
        let p = score.penalties.iter().find(|(id, _)| *id == r.id).map_or(0.0, |(_, p)| *p);
        let base = SEVERITY_PENALTY.iter().find(|(s, _)| *s == r.severity).map_or(0.0, |(_, p)| *p);
        let _ = writeln!(
            out,
            "- `{}` ({}) affects {} URLs: {base} × ({MIN_PENALTY_SHARE} + {} × {}/{crawled}) = {p}",
            r.id,
            r.severity,
            r.affected(),
            1.0 - MIN_PENALTY_SHARE,
            r.affected()
        );
    }
    let _ = writeln!(
        out,
        "\nThe penalties sum to {}; {} − {} = {:.3}, and the site score is **{}**.",
        score.penalty,
        score.mean_page_score,
        score.penalty,
        score.mean_page_score - score.penalty,
        score.score
    );
    out
}
