//! How the audit scores a page, generated from the rule table the engine runs, so the
//! explanation can never drift from the scoring: the get_audit_methodology tool's result
//! ([`Methodology`]) and the `svc://methodology` resource ([`methodology_markdown`]).

use std::fmt::Write as _;

use audit_core::{
    ruleset_fingerprint, Category, Group, Level, RuleMeta, Severity, ENGINE_VERSION, RULES, RULESET_VERSION,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// A methodology group, as get_audit_methodology names it (its `category` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MethodologyGroup {
    /// Speed and resources.
    Performance,
    /// Text, headings, media and structured data.
    Content,
    /// Crawling, indexing and markup.
    Technical,
}

impl MethodologyGroup {
    /// The engine's group.
    pub fn group(self) -> Group {
        match self {
            MethodologyGroup::Performance => Group::Performance,
            MethodologyGroup::Content => Group::Content,
            MethodologyGroup::Technical => Group::Technical,
        }
    }

    fn of(group: Group) -> MethodologyGroup {
        match group {
            Group::Performance => MethodologyGroup::Performance,
            Group::Content => MethodologyGroup::Content,
            // The engine's groups are the three above; a group added later reads as technical
            // until the methodology names it.
            _ => MethodologyGroup::Technical,
        }
    }
}

/// The get_audit_methodology result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Methodology {
    /// The group asked for; null for all.
    pub category: Option<MethodologyGroup>,
    /// The ruleset that scores.
    pub ruleset: Ruleset,
    /// The groups, with their categories and rules.
    pub groups: Vec<MethodologyGroupRules>,
    /// How the percentage is computed.
    pub scoring: &'static str,
}

/// The ruleset's identity.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ruleset {
    /// Version of the ruleset.
    pub version: &'static str,
    /// Fingerprint of the rule table.
    pub fingerprint: &'static str,
    /// Version of the engine.
    pub engine_version: &'static str,
    /// Number of rules.
    pub rules: usize,
}

/// One group's categories.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MethodologyGroupRules {
    /// The group.
    pub group: MethodologyGroup,
    /// Points of 100 its rules weigh.
    pub weight: u32,
    /// Its audit categories.
    pub categories: Vec<CategoryRules>,
}

/// One audit category's rules.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CategoryRules {
    /// The category, as recommendations name it.
    pub category: &'static str,
    /// Points of 100 its rules weigh.
    pub weight: u32,
    /// Its rules.
    pub rules: Vec<RuleDoc>,
}

/// One rule.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleDoc {
    /// Stable rule id.
    pub id: &'static str,
    /// What passing means.
    pub name: &'static str,
    /// Severity of a failure.
    pub severity: Severity,
    /// Points of 100.
    pub weight: u32,
    /// When the rule fails.
    pub threshold: &'static str,
    /// Expected effect of fixing a failure.
    pub impact: Level,
    /// Expected work to fix a failure.
    pub effort: Level,
    /// Why it matters.
    pub why: &'static str,
}

impl Methodology {
    /// All groups, or only `group`.
    pub fn of(group: Option<Group>) -> Methodology {
        let groups = GROUPS
            .iter()
            .copied()
            .filter(|g| group.is_none_or(|only| only == *g))
            .map(|g| MethodologyGroupRules {
                group: MethodologyGroup::of(g),
                weight: group_weight(g),
                categories: Category::ALL
                    .iter()
                    .copied()
                    .filter(|c| c.group() == g)
                    .map(|c| CategoryRules {
                        category: c.as_str(),
                        weight: rules_in(c).map(|m| m.weight).sum(),
                        rules: rules_in(c)
                            .map(|m| RuleDoc {
                                id: m.id,
                                name: m.name,
                                severity: m.severity,
                                weight: m.weight,
                                threshold: m.threshold,
                                impact: m.impact,
                                effort: m.effort,
                                why: m.why,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        Methodology {
            category: group.map(MethodologyGroup::of),
            ruleset: Ruleset {
                version: RULESET_VERSION,
                fingerprint: ruleset_fingerprint(),
                engine_version: ENGINE_VERSION,
                rules: RULES.len(),
            },
            groups,
            scoring: SCORING,
        }
    }
}

/// The get_audit_methodology result as JSON: all groups, or only `group`.
pub fn methodology(group: Option<Group>) -> Value {
    serde_json::to_value(Methodology::of(group)).unwrap_or_default()
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
        let _ = writeln!(out, "## Group `{}` ({} of 100 points)\n", g.as_str(), group_weight(g));
        for c in Category::ALL.iter().copied().filter(|c| c.group() == g) {
            let weight: u32 = rules_in(c).map(|m| m.weight).sum();
            let _ = writeln!(out, "### {} ({weight} points)\n", c.as_str());
            let _ = writeln!(out, "| id | check | severity | weight | fails when |\n|---|---|---|---|---|");
            for m in rules_in(c) {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} |",
                    m.id,
                    m.name.replace('|', "\\|"),
                    m.severity.as_str(),
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
    let free: Vec<String> = crate::agent::tools::free_of_quota_tools().map(|t| format!("`{t}`")).collect();
    let _ = writeln!(
        out,
        "\n## Quota of the agent tools\n\n\
         Each `tools/call` costs one unit of the caller's per-minute quota, shared with the REST API, and a tool \
         with a REST twin costs what the twin costs: `check_ai_readiness`, `scan_ai_visibility`, \
         `analyze_content_gap` (however many competitors) and `auto_fix_batch` one unit each, like \
         `POST /api/ai-readiness`, `/api/ai-visibility-scan`, `/api/content-gap` and `/api/auto-fix-batch`. \
         Status polls are free: {} can be called as often as needed and reports no `x-ratelimit-*` headers. \
         Lists, resource reads and prompts are free too.",
        free.join(", ")
    );
    out
}
