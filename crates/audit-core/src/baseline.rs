//! A report's findings against an earlier report's (its baseline): which findings are
//! `new`, which `unchanged`, and which of the baseline's are `resolved` (docs/API.md,
//! "Command line audits for CI", "Comparing two audits").
//!
//! A finding is matched by its rule and URL, then element by element: first by CSS selector,
//! then by snippet, never by line, so that an element that only moved (lines added above it)
//! is the same element. A finding that lists no elements (a page-wide finding, or one of a
//! report written before findings listed elements) matches on rule and URL alone. A finding
//! is `new` when its rule did not fail at that URL in the baseline, or when it fails on an
//! element the baseline did not list.
//!
//! [`compare`] is pure: the command line reads both reports from JSON files, the service from
//! its store, and both ask the same question here.

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};

/// One element a finding points at (a `locations` entry of a recommendation): only the
/// selector and the snippet take part in matching.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Element {
    /// 1-based line in the HTML as served, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// 1-based column, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// A CSS selector matching exactly this element.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// The element's start tag, shortened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

/// One finding of a report: a rule that failed at a URL, with the elements it lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finding {
    /// The rule's id.
    pub rule: String,
    /// The page the rule failed on.
    pub url: String,
    /// What the finding says (kept to show a resolved finding; not matched on).
    pub title: String,
    /// The elements listed (a report lists at most a bounded number of them).
    pub elements: Vec<Element>,
    /// How many elements there are in all; 0 when the report did not say (then as many as
    /// listed).
    pub elements_total: usize,
}

impl Finding {
    /// A finding of `rule` at `url` that lists no elements.
    pub fn new(rule: impl Into<String>, url: impl Into<String>) -> Finding {
        Finding { rule: rule.into(), url: url.into(), ..Finding::default() }
    }

    /// Elements in all, listed or not.
    fn total(&self) -> usize {
        self.elements_total.max(self.elements.len())
    }
}

/// How a finding (or an element) stands against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Not in the baseline.
    New,
    /// In the baseline too.
    Unchanged,
    /// In the baseline only: fixed since.
    Resolved,
}

impl State {
    /// The wire name: `new`, `unchanged` or `resolved`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::New => "new",
            State::Unchanged => "unchanged",
            State::Resolved => "resolved",
        }
    }

    /// SARIF's `baselineState`: `new`, `unchanged`, and `absent` for a resolved result.
    pub fn sarif(self) -> &'static str {
        match self {
            State::New => "new",
            State::Unchanged => "unchanged",
            State::Resolved => "absent",
        }
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one current finding stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// `New` or `Unchanged`.
    pub state: State,
    /// The baseline finding it matched, by index.
    pub baseline: Option<usize>,
    /// The state of each listed element, in order (`New` or `Unchanged`).
    pub elements: Vec<State>,
    /// The elements of the matched baseline finding that this one no longer lists, by index
    /// into that finding's elements.
    pub resolved_elements: Vec<usize>,
}

/// The comparison of a report with its baseline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// One per current finding, in the current report's order.
    pub current: Vec<Judged>,
    /// The baseline findings whose rule no longer fails at their URL, by index, in the
    /// baseline's order.
    pub resolved: Vec<usize>,
}

/// How many findings are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Counts {
    /// Findings not in the baseline (or failing on an element it did not list).
    pub new: usize,
    /// Findings in both.
    pub unchanged: usize,
    /// Baseline findings fixed since.
    pub resolved: usize,
}

impl Comparison {
    /// Findings in each state.
    pub fn counts(&self) -> Counts {
        let new = self.current.iter().filter(|j| j.state == State::New).count();
        Counts { new, unchanged: self.current.len() - new, resolved: self.resolved.len() }
    }

    /// Whether any finding is new.
    pub fn has_new(&self) -> bool {
        self.current.iter().any(|j| j.state == State::New)
    }
}

/// `current` against `baseline`: each current finding `new` or `unchanged`, and the baseline's
/// findings that are gone `resolved` (see the module's text for the matching).
///
/// A report lists a bounded number of a finding's elements with their true total. When the
/// baseline listed fewer than it had, as many unmatched current elements as it left out
/// count as unchanged (they may be among those it did not list); when the current report
/// listed fewer than it had, as many unmatched baseline elements are not called resolved.
/// So a cut list never makes a finding new, and only elements beyond the baseline's total
/// do.
pub fn compare(current: &[Finding], baseline: &[Finding]) -> Comparison {
    let mut by_key: HashMap<(&str, &str), VecDeque<usize>> = HashMap::new();
    for (i, b) in baseline.iter().enumerate() {
        by_key.entry((b.rule.as_str(), b.url.as_str())).or_default().push_back(i);
    }
    let mut paired = vec![false; baseline.len()];
    let judged = current
        .iter()
        .map(|c| {
            let matched = by_key.get_mut(&(c.rule.as_str(), c.url.as_str())).and_then(VecDeque::pop_front);
            match matched {
                None => Judged {
                    state: State::New,
                    baseline: None,
                    elements: vec![State::New; c.elements.len()],
                    resolved_elements: Vec::new(),
                },
                Some(i) => {
                    paired[i] = true;
                    let (elements, resolved_elements) = match_elements(c, &baseline[i]);
                    let state = if elements.contains(&State::New) { State::New } else { State::Unchanged };
                    Judged { state, baseline: Some(i), elements, resolved_elements }
                }
            }
        })
        .collect();
    let resolved = paired.iter().enumerate().filter(|(_, p)| !**p).map(|(i, _)| i).collect();
    Comparison { current: judged, resolved }
}

/// The elements of `c` against those of the baseline finding `b` of the same rule and URL:
/// each of `c`'s `New` or `Unchanged`, and `b`'s that `c` no longer has.
fn match_elements(c: &Finding, b: &Finding) -> (Vec<State>, Vec<usize>) {
    // A side that lists no elements cannot say which changed: a report written before
    // findings listed them, or a finding about the page as a whole.
    if c.elements.is_empty() || b.elements.is_empty() {
        return (vec![State::Unchanged; c.elements.len()], Vec::new());
    }
    let mut taken = vec![false; b.elements.len()];
    let mut states: Vec<Option<State>> = vec![None; c.elements.len()];
    let passes: [fn(&Element) -> Option<&str>; 2] = [|e| e.selector.as_deref(), |e| e.snippet.as_deref()];
    for key in passes {
        for (ci, ce) in c.elements.iter().enumerate() {
            let Some(k) = key(ce).filter(|k| !k.is_empty()) else { continue };
            if states[ci].is_some() {
                continue;
            }
            if let Some(bi) = (0..b.elements.len()).find(|&bi| !taken[bi] && key(&b.elements[bi]) == Some(k)) {
                taken[bi] = true;
                states[ci] = Some(State::Unchanged);
            }
        }
    }
    let mut unlisted_in_baseline = b.total() - b.elements.len();
    let elements = states
        .into_iter()
        .map(|s| {
            s.unwrap_or_else(|| {
                if unlisted_in_baseline > 0 {
                    unlisted_in_baseline -= 1;
                    State::Unchanged
                } else {
                    State::New
                }
            })
        })
        .collect();
    let unlisted_now = c.total() - c.elements.len();
    let resolved = taken.iter().enumerate().filter(|(_, t)| !**t).map(|(i, _)| i).skip(unlisted_now).collect();
    (elements, resolved)
}

/// Why a JSON document is not an audit result to compare with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAnAudit {
    /// It is the compact form, which lists at most five findings.
    #[error("it is the compact form (`--format compact`), which lists only the worst five findings; a full JSON result (`--format json`) is needed")]
    Compact,
    /// It lacks the members of an audit result.
    #[error("it is not a seo-audit audit result (no `recommendations`, `checks` and `meta`)")]
    NotAnAudit,
}

/// What a comparison reads of a full audit result (docs/API.md, "The audit result").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFindings {
    /// The audited URL (`page.url`).
    pub url: String,
    /// `meta.ruleset_version`, when the result has one.
    pub ruleset_version: Option<String>,
    /// The score percentage.
    pub score: u32,
    /// One finding per recommendation, in order, at `url`.
    pub findings: Vec<Finding>,
}

/// The findings of a full audit result read as JSON, with or without its envelope; each
/// recommendation's `locations` (and `locations_total`) are its elements. Read as JSON, not
/// as [`crate::AuditResult`], so that results of any version of the engine compare.
///
/// # Errors
/// [`NotAnAudit`] when `value` is not a full audit result.
pub fn audit_findings(value: &serde_json::Value) -> Result<AuditFindings, NotAnAudit> {
    #[derive(Deserialize)]
    struct Recommendation {
        #[serde(default)]
        id: String,
        #[serde(default)]
        title: String,
        #[serde(default)]
        locations: Vec<Element>,
        #[serde(default)]
        locations_total: usize,
    }
    let object = value.as_object().ok_or(NotAnAudit::NotAnAudit)?;
    if object.contains_key("top_issues") && !object.contains_key("recommendations") {
        return Err(NotAnAudit::Compact);
    }
    let (Some(recommendations), Some(_), Some(meta)) = (
        object.get("recommendations").and_then(|r| r.as_array()),
        object.get("checks").and_then(|c| c.as_array()),
        object.get("meta").and_then(|m| m.as_object()),
    ) else {
        return Err(NotAnAudit::NotAnAudit);
    };
    let url = value.pointer("/page/url").and_then(|u| u.as_str()).unwrap_or_default().to_string();
    let mut findings = Vec::with_capacity(recommendations.len());
    for r in recommendations {
        let r: Recommendation = serde_json::from_value(r.clone()).map_err(|_| NotAnAudit::NotAnAudit)?;
        findings.push(Finding {
            rule: r.id,
            url: url.clone(),
            title: r.title,
            elements: r.locations,
            elements_total: r.locations_total,
        });
    }
    let score = value.pointer("/score/percentage").and_then(serde_json::Value::as_u64).unwrap_or(0);
    Ok(AuditFindings {
        url,
        ruleset_version: meta.get("ruleset_version").and_then(|v| v.as_str()).map(str::to_string),
        score: u32::try_from(score).unwrap_or(0),
        findings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(selector: &str, snippet: &str, line: u64) -> Element {
        Element {
            line: Some(line),
            column: Some(1),
            selector: (!selector.is_empty()).then(|| selector.to_string()),
            snippet: (!snippet.is_empty()).then(|| snippet.to_string()),
        }
    }

    fn with(rule: &str, elements: Vec<Element>) -> Finding {
        Finding { elements, ..Finding::new(rule, "https://example.com/") }
    }

    #[test]
    fn a_finding_only_now_is_new_and_one_only_before_is_resolved() {
        let now = [Finding::new("rule-a", "https://example.com/"), Finding::new("rule-b", "https://example.com/")];
        let before =
            [Finding::new("rule-b", "https://example.com/"), Finding::new("lang-missing", "https://example.com/")];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].state, State::New);
        assert_eq!(c.current[1].state, State::Unchanged);
        assert_eq!(c.current[1].baseline, Some(0));
        assert_eq!(c.resolved, vec![1]);
        assert_eq!(c.counts(), Counts { new: 1, unchanged: 1, resolved: 1 });
        assert!(c.has_new());
        // And the other way round: what was new is now resolved.
        let back = compare(&before, &now);
        assert_eq!(back.current[1].state, State::New);
        assert_eq!(back.resolved, vec![0]);
    }

    #[test]
    fn the_same_rule_at_another_url_is_another_finding() {
        let now = [Finding::new("rule-a", "https://example.com/b")];
        let before = [Finding::new("rule-a", "https://example.com/a")];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].state, State::New);
        assert_eq!(c.resolved, vec![0]);
    }

    #[test]
    fn elements_that_moved_lines_are_unchanged() {
        let before = [with("rule-images", vec![el("main > img:nth-of-type(1)", "<img src=a.jpg>", 10)])];
        let now = [with("rule-images", vec![el("main > img:nth-of-type(1)", "<img src=a.jpg>", 42)])];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].state, State::Unchanged);
        assert_eq!(c.current[0].elements, vec![State::Unchanged]);
        assert!(!c.has_new());
    }

    #[test]
    fn an_element_whose_selector_changed_matches_by_its_snippet() {
        let before = [with("rule-images", vec![el("body > img:nth-of-type(2)", "<img src=a.jpg>", 10)])];
        let now = [with("rule-images", vec![el("body > div > img", "<img src=a.jpg>", 12)])];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].elements, vec![State::Unchanged]);
    }

    #[test]
    fn a_new_element_makes_the_finding_new_and_a_gone_one_is_resolved() {
        let before = [with("rule-images", vec![el("#a", "<img id=a>", 1), el("#b", "<img id=b>", 2)])];
        let now = [with("rule-images", vec![el("#a", "<img id=a>", 1), el("#c", "<img id=c>", 3)])];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].state, State::New);
        assert_eq!(c.current[0].elements, vec![State::Unchanged, State::New]);
        assert_eq!(c.current[0].resolved_elements, vec![1]);
        // Fewer elements than before is no new finding.
        let fewer = compare(&[with("rule-images", vec![el("#a", "<img id=a>", 1)])], &before);
        assert_eq!(fewer.current[0].state, State::Unchanged);
        assert_eq!(fewer.current[0].resolved_elements, vec![1]);
        assert!(fewer.resolved.is_empty());
    }

    #[test]
    fn a_side_without_elements_matches_on_rule_and_url() {
        // A baseline written before findings listed elements.
        let before = [Finding::new("rule-images", "https://example.com/")];
        let now = [with("rule-images", vec![el("#a", "<img id=a>", 1)])];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].state, State::Unchanged);
        assert_eq!(c.current[0].elements, vec![State::Unchanged]);
        let back = compare(&before, &now);
        assert_eq!(back.current[0].state, State::Unchanged);
        assert!(back.current[0].resolved_elements.is_empty());
    }

    #[test]
    fn elements_a_cut_list_left_out_are_neither_new_nor_resolved() {
        // The baseline had 3 elements and listed 1: two unmatched ones now may be the two it
        // left out; a third is new.
        let mut before = with("rule-images", vec![el("#a", "", 1)]);
        before.elements_total = 3;
        let now = with("rule-images", vec![el("#a", "", 1), el("#x", "", 2), el("#y", "", 3)]);
        let c = compare(std::slice::from_ref(&now), std::slice::from_ref(&before));
        assert_eq!(c.current[0].state, State::Unchanged);
        let mut more = now.clone();
        more.elements.push(el("#z", "", 4));
        let c = compare(&[more], std::slice::from_ref(&before));
        assert_eq!(c.current[0].elements, vec![State::Unchanged, State::Unchanged, State::Unchanged, State::New]);
        // The current report cut its list: a baseline element it does not list is not resolved.
        let mut cut = with("rule-images", vec![el("#q", "", 1)]);
        cut.elements_total = 2;
        let c = compare(&[cut], &[with("rule-images", vec![el("#a", "", 1)])]);
        assert!(c.current[0].resolved_elements.is_empty());
    }

    #[test]
    fn duplicate_elements_match_one_to_one() {
        let before = [with("link-text-generic", vec![el("", "<a href=/x>", 1)])];
        let now = [with("link-text-generic", vec![el("", "<a href=/x>", 1), el("", "<a href=/x>", 9)])];
        let c = compare(&now, &before);
        assert_eq!(c.current[0].elements, vec![State::Unchanged, State::New]);
    }

    #[test]
    fn audit_results_are_read_from_json_and_other_documents_refused() {
        let result = serde_json::json!({
            "ok": true,
            "page": { "url": "https://example.com/" },
            "score": { "percentage": 71 },
            "recommendations": [
                { "id": "rule-images", "title": "2 images without alt",
                  "locations": [{ "line": 3, "column": 5, "selector": "#a", "snippet": "<img id=a>" }],
                  "locations_total": 2 },
                { "id": "rule-a", "title": "No title" }
            ],
            "checks": [],
            "meta": { "ruleset_version": "1.3.0" }
        });
        let read = audit_findings(&result).unwrap();
        assert_eq!(read.url, "https://example.com/");
        assert_eq!(read.ruleset_version.as_deref(), Some("1.3.0"));
        assert_eq!(read.score, 71);
        assert_eq!(read.findings[0].elements[0].selector.as_deref(), Some("#a"));
        assert_eq!(read.findings[0].elements_total, 2);
        assert!(read.findings[1].elements.is_empty());
        let compact = serde_json::json!({ "url": "https://example.com/", "top_issues": [] });
        assert_eq!(audit_findings(&compact), Err(NotAnAudit::Compact));
        assert_eq!(audit_findings(&serde_json::json!({ "version": "2.1.0", "runs": [] })), Err(NotAnAudit::NotAnAudit));
        assert_eq!(audit_findings(&serde_json::json!([1, 2])), Err(NotAnAudit::NotAnAudit));
    }
}
