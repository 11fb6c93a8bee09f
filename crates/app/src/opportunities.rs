//! Opportunities: a page's failed checks ranked by expected gain (impact points × weight ÷
//! effort points), what get_opportunities answers and the workflow's `opportunities` step
//! records (docs/API.md, the tools table).

use audit_core::{Audit, Finding, RuleMeta};
use serde::Serialize;

/// How the ranking is computed, as the answer states it.
pub const RANKING: &str =
    "priorityScore = impact points (high 3, medium 2, low 1) x rule weight / effort points (low 1, medium 2, high 3)";

/// One failed check with its priority.
#[derive(Debug, Clone)]
pub struct Ranked<'a> {
    /// The rule that failed.
    pub rule: &'static RuleMeta,
    /// What it found on the page.
    pub finding: &'a Finding,
    /// impact points × weight ÷ effort points, rounded to two decimals.
    pub priority: f64,
}

/// The expected gain of fixing a rule: impact points (3, 2, 1) times weight, divided by
/// effort points (3, 2, 1), so heavy, high-impact, cheap fixes come first.
pub fn priority(rule: &RuleMeta) -> f64 {
    let raw = f64::from(rule.impact.points() * rule.weight) / f64::from(rule.effort.points());
    (raw * 100.0).round() / 100.0
}

/// Failed checks, highest priority first; ties keep the audit's own order (severity,
/// weight, table order), so the ranking is deterministic.
pub fn ranked(audit: &Audit) -> Vec<Ranked<'_>> {
    let mut out: Vec<Ranked<'_>> = audit
        .failures()
        .into_iter()
        .map(|(rule, finding)| Ranked { rule, finding, priority: priority(rule) })
        .collect();
    // A stable sort keeps the failures() order among equal priorities.
    out.sort_by(|a, b| b.priority.total_cmp(&a.priority));
    out
}

/// A page's opportunities (the structured answer of get_opportunities).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Opportunities {
    /// The URL asked for.
    pub url: String,
    /// Where it led after redirects.
    pub final_url: String,
    /// The page's score (0-100).
    pub score: u32,
    /// How the ranking is computed ([`RANKING`]).
    pub ranking: &'static str,
    /// Failed checks, highest priority first.
    pub opportunities: Vec<Opportunity>,
}

/// One failed check, ranked.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Opportunity {
    /// The rule id.
    pub id: &'static str,
    /// What the rule found.
    pub title: String,
    /// The rule's category.
    pub category: &'static str,
    /// The rule's severity.
    pub severity: &'static str,
    /// The rule's impact level.
    pub impact: &'static str,
    /// The rule's effort level.
    pub effort: &'static str,
    /// The rule's weight.
    pub weight: u32,
    /// [`priority`] of the rule.
    pub priority_score: f64,
    /// 1 for the first.
    pub rank: usize,
}

/// The opportunities of the audited page at `url`.
pub fn opportunities(url: &str, audit: &Audit) -> Opportunities {
    let opportunities = ranked(audit)
        .iter()
        .enumerate()
        .map(|(i, r)| Opportunity {
            id: r.rule.id,
            title: r.finding.title.clone(),
            category: r.rule.category.as_str(),
            severity: r.rule.severity.as_str(),
            impact: r.rule.impact.as_str(),
            effort: r.rule.effort.as_str(),
            weight: r.rule.weight,
            priority_score: r.priority,
            rank: i + 1,
        })
        .collect();
    Opportunities {
        url: url.to_string(),
        final_url: audit.page.final_url.clone(),
        score: audit.score().percentage,
        ranking: RANKING,
        opportunities,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(impact: audit_core::Level, effort: audit_core::Level, weight: u32, expected: f64) {
        let mut meta = *audit_core::RULES[0].meta();
        meta.impact = impact;
        meta.effort = effort;
        meta.weight = weight;
        assert_eq!(priority(&meta), expected, "{impact:?} {effort:?} {weight}");
    }

    #[test]
    fn priorities() {
        use audit_core::Level::{High, Low, Medium};
        check(High, Low, 4, 12.0);
        check(Low, High, 4, 1.33);
        check(Medium, Medium, 3, 3.0);
        check(High, High, 1, 1.0);
        check(Medium, Low, 5, 10.0);
    }

    #[test]
    fn opportunities_are_ranked_from_one() {
        let audit = audit_core::audit(audit_core::Page::parse("https://e.example/", b"<p>x</p>", Default::default()));
        let o = opportunities("https://e.example/", &audit);
        assert!(!o.opportunities.is_empty());
        assert!(o.opportunities.windows(2).all(|w| w[0].priority_score >= w[1].priority_score));
        assert_eq!(
            o.opportunities.iter().map(|x| x.rank).collect::<Vec<_>>(),
            (1..=o.opportunities.len()).collect::<Vec<_>>()
        );
    }
}
