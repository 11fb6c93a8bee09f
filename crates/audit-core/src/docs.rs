//! `docs/RULES.md`, generated from the rule table.

use std::fmt::Write as _;

use crate::audit::{ruleset_fingerprint, RULESET_VERSION};
use crate::rule::{Category, RuleMeta};
use crate::rules::RULES;

/// The section of one rule in the rule reference, written from its [`RuleMeta`] alone (a rule
/// of your own gets the same section).
pub fn rule_markdown(m: &RuleMeta) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n### {}\n", m.id);
    let _ = writeln!(out, "{}.\n", m.name);
    let _ = writeln!(
        out,
        "- Severity `{}`, impact `{}`, effort `{}`, confidence {}, weight {}",
        m.severity, m.impact, m.effort, m.confidence, m.weight
    );
    let _ = writeln!(out, "- **What it checks:** fails when {}.", m.threshold.replace('<', "&lt;"));
    let _ = writeln!(out, "- **Why it matters:** {}", m.why);
    let _ = writeln!(out, "- **Fails:** `{}`", m.fail_example.replace('`', "'"));
    let _ = writeln!(out, "- **Passes:** `{}`", m.pass_example.replace('`', "'"));
    let _ = writeln!(out, "- **Reference:** <{}>", m.reference);
    out
}

/// Renders the rule reference. `docs/RULES.md` starts with this output (the hand-written
/// sections after it are kept); a test fails when it is stale (regenerate with `just docs` or
/// `UPDATE_DOCS=1 cargo test -p seo-audit-core --test it rules_doc::`).
pub fn rules_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Rules\n");
    let _ = writeln!(
        out,
        "<!-- Generated from the rule table of crates/audit-core up to the line that ends the generated part; \
         do not edit that part by hand. -->\n\n\
         Ruleset version `{RULESET_VERSION}`, fingerprint `{}`, {} rules. Weights sum to 100; a rule that does \
         not apply to a page is left out of the score's denominator.\n",
        ruleset_fingerprint(),
        RULES.len()
    );
    let _ = writeln!(out, "| id | category | severity | weight | fails when |\n|---|---|---|---|---|");
    for r in RULES {
        let m = r.meta();
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | {} | {} | {} | {} |",
            m.id,
            m.id,
            m.category,
            m.severity,
            m.weight,
            m.threshold.replace('|', "\\|").replace('<', "&lt;")
        );
    }
    for cat in Category::ALL {
        let rules: Vec<_> = RULES.iter().map(|r| r.meta()).filter(|m| m.category == cat).collect();
        if rules.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n## {} (group `{}`)", cat, cat.group());
        for m in rules {
            out.push_str(&rule_markdown(m));
        }
    }
    out.push_str(&crate::structured_data::types::requirements_markdown());
    out
}
