//! How the audit scores a page, generated from the rule table the engine runs, so the
//! explanation can never drift from the scoring (get_audit_methodology and
//! `svc://methodology`).

use std::fmt::Write as _;

use audit_core::{ruleset_fingerprint, Category, Group, RuleMeta, ENGINE_VERSION, RULES, RULESET_VERSION};
use serde_json::{json, Value};

/// The groups in the order the methodology lists them.
pub const GROUPS: [Group; 3] = [Group::Technical, Group::Content, Group::Performance];

/// How the score is computed (docs/API.md, "The audit result"), in one paragraph for agents.
pub const SCORING: &str = "Every rule has an integer weight and the weights of all rules sum to 100. A rule \
     that does not apply to the page (for example the hreflang rules on a page without hreflang alternates) is \
     left out: it counts neither in `total` nor in the denominator. percentage = round(100 * passed weight / \
     applicable weight); score.current equals the percentage and score.max is 100. score.passed and \
     score.total count checks, not points. Each failed rule gives one issue whose type is the rule's severity \
     (critical, warning or notice). The audit is deterministic: the same page bytes and the same ruleset \
     (identified by the ruleset version and fingerprint) always give the same findings.";

fn rules_in(category: Category) -> impl Iterator<Item = &'static RuleMeta> {
    RULES.iter().map(|r| r.meta()).filter(move |m| m.category == category)
}

fn group_weight(group: Group) -> u32 {
    RULES.iter().map(|r| r.meta()).filter(|m| m.category.group() == group).map(|m| m.weight).sum()
}

/// The get_audit_methodology result: all groups, or only `group`.
pub fn methodology(group: Option<Group>) -> Value {
    let groups: Vec<Value> = GROUPS
        .iter()
        .copied()
        .filter(|g| group.is_none_or(|only| only == *g))
        .map(|g| {
            let categories: Vec<Value> = Category::ALL
                .iter()
                .copied()
                .filter(|c| c.group() == g)
                .map(|c| {
                    let rules: Vec<Value> = rules_in(c)
                        .map(|m| {
                            json!({
                                "id": m.id,
                                "name": m.name,
                                "severity": m.severity.name(),
                                "weight": m.weight,
                                "threshold": m.threshold,
                                "impact": m.impact.name(),
                                "effort": m.effort.name(),
                                "why": m.why,
                            })
                        })
                        .collect();
                    let weight: u32 = rules_in(c).map(|m| m.weight).sum();
                    json!({ "category": c.name(), "weight": weight, "rules": rules })
                })
                .collect();
            json!({ "group": g.name(), "weight": group_weight(g), "categories": categories })
        })
        .collect();
    json!({
        "category": group.map(Group::name),
        "ruleset": {
            "version": RULESET_VERSION,
            "fingerprint": ruleset_fingerprint(),
            "engineVersion": ENGINE_VERSION,
            "rules": RULES.len(),
        },
        "groups": groups,
        "scoring": SCORING,
    })
}

/// The `svc://methodology` resource: the same content as Markdown.
pub fn methodology_markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# How seo-audit scores a page\n");
    let _ = writeln!(
        out,
        "Ruleset `{RULESET_VERSION}` (fingerprint `{}`), engine `{ENGINE_VERSION}`, {} rules.\n",
        ruleset_fingerprint(),
        RULES.len()
    );
    let _ = writeln!(out, "## Scoring\n\n{SCORING}\n");
    let _ = writeln!(
        out,
        "Severities: `critical` blocks indexing or breaks the page for everyone; `warning` costs visibility or \
         clicks and should be fixed; `notice` is good practice with a small effect. See `svc://severity-levels`.\n"
    );
    for g in GROUPS {
        let _ = writeln!(out, "## Group `{}` ({} of 100 points)\n", g.name(), group_weight(g));
        for c in Category::ALL.iter().copied().filter(|c| c.group() == g) {
            let weight: u32 = rules_in(c).map(|m| m.weight).sum();
            let _ = writeln!(out, "### {} ({weight} points)\n", c.name());
            let _ = writeln!(out, "| id | check | severity | weight | fails when |\n|---|---|---|---|---|");
            for m in rules_in(c) {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    m.id,
                    m.name.replace('|', "\\|"),
                    m.severity.name(),
                    m.weight,
                    m.threshold.replace('|', "\\|")
                );
            }
            let _ = writeln!(out);
        }
    }
    let _ = writeln!(
        out,
        "Details of every rule (why it matters, failing and passing examples, references): `svc://checks` and \
         `svc://checks/{{id}}`; plain-language explanations: the get_seo_concept tool or `svc://seo-concepts/{{concept}}`."
    );
    out
}
