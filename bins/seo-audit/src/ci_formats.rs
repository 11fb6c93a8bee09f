//! The audit as CI systems read it (docs/API.md, "Command line", `--format sarif` and
//! `--format junit`): SARIF 2.1.0 for code scanning, JUnit XML for test reports. Both list the
//! rule table's rules; `--min-score` still decides the exit status.

use std::fmt::Write as _;

use audit_core::{Audit, Outcome, RuleMeta, Severity};
use serde_json::{json, Value};

/// The schema address SARIF files name (the OASIS 2.1.0 schema).
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Where the project documents its rules.
const RULES_URI: &str = "https://github.com/seo-audit/seo-audit/blob/main/docs/RULES.md";

/// The SARIF level of a severity: critical is `error`, warning `warning`, notice `note`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "error",
        Severity::Warning => "warning",
        _ => "note",
    }
}

/// The help text of a rule: what passes, what fails, and where the practice is documented.
fn help(rule: &RuleMeta) -> String {
    let mut text = String::new();
    if !rule.pass_example.is_empty() {
        let _ = write!(text, "Passes: {}", rule.pass_example);
    }
    if !rule.fail_example.is_empty() {
        let _ = write!(text, "{}Fails: {}", if text.is_empty() { "" } else { "\n" }, rule.fail_example);
    }
    if !rule.threshold.is_empty() {
        let _ = write!(text, "{}Threshold: {}", if text.is_empty() { "" } else { "\n" }, rule.threshold);
    }
    if !rule.reference.is_empty() {
        let _ = write!(text, "{}See {}", if text.is_empty() { "" } else { "\n" }, rule.reference);
    }
    if text.is_empty() {
        rule.why.to_string()
    } else {
        text
    }
}

/// What a failed check says: its title, then its description and values.
fn message(finding: &audit_core::Finding) -> String {
    let mut text = finding.title.clone();
    if !finding.description.is_empty() {
        let _ = write!(text, ". {}", finding.description);
    }
    if let Some(current) = &finding.current_value {
        let _ = write!(text, " Current: {current}.");
    }
    if let Some(suggested) = &finding.suggested_value {
        let _ = write!(text, " Suggested: {suggested}.");
    }
    text
}

/// The SARIF 2.1.0 log of an audit: one run of the tool `seo-audit`, its driver listing every
/// rule of the audit (id, name, short and full description, help, default level from the
/// severity), one result per failed rule, located at `location` (the page URL, or the path
/// of the audited file). The score and ruleset version are run properties.
pub fn sarif(audit: &Audit, location: &str) -> Value {
    let rules: Vec<Value> = audit
        .checks
        .iter()
        .map(|c| {
            let r = c.rule;
            let mut rule = json!({
                "id": r.id,
                "name": r.name,
                "shortDescription": { "text": r.name },
                "fullDescription": { "text": if r.why.is_empty() { r.name } else { r.why } },
                "help": { "text": help(r) },
                "defaultConfiguration": { "level": level(r.severity) },
                "properties": {
                    "category": r.category.as_str(),
                    "severity": r.severity.as_str(),
                    "weight": r.weight,
                    "tags": [r.category.as_str()],
                },
            });
            if r.reference.starts_with("https://") || r.reference.starts_with("http://") {
                rule["helpUri"] = json!(r.reference);
            }
            rule
        })
        .collect();
    let results: Vec<Value> = audit
        .checks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match &c.outcome {
            Outcome::Fail(f) => Some(json!({
                "ruleId": c.rule.id,
                "ruleIndex": i,
                "level": level(c.rule.severity),
                "message": { "text": message(f) },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": location } } }],
            })),
            _ => None,
        })
        .collect();
    let score = audit.score();
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "seo-audit",
                "version": audit_core::ENGINE_VERSION,
                "informationUri": RULES_URI,
                "rules": rules,
            } },
            "artifacts": [{ "location": { "uri": location } }],
            "results": results,
            "properties": {
                "score": score.percentage,
                "rulesetVersion": score.ruleset_version,
            },
        }],
    })
}

/// A rule's JUnit class: its category in kebab case (`SEO Technical` → `seo-technical`).
fn class_of(category: audit_core::Category) -> String {
    category.as_str().to_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
}

/// Escapes text for an XML attribute or element.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot carry at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The JUnit XML report of an audit: one `testsuite` named after `location`, one `testcase`
/// per rule (its id as the name, `seo-audit.` and [`class_of`] its category as the class), a `failure` for each
/// failed rule carrying the finding's message (its `type` the severity), `skipped` for a
/// rule that does not apply. The score is a suite property.
pub fn junit(audit: &Audit, location: &str, timestamp: &str) -> String {
    let (mut failures, mut skipped) = (0, 0);
    let mut cases = String::new();
    for c in &audit.checks {
        let r = c.rule;
        let _ = write!(
            cases,
            "    <testcase name=\"{}\" classname=\"seo-audit.{}\" time=\"0\"",
            xml(r.id),
            xml(&class_of(r.category))
        );
        match &c.outcome {
            Outcome::Fail(f) => {
                failures += 1;
                let _ = write!(
                    cases,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&f.title),
                    r.severity.as_str(),
                    xml(&format!("{}: {}\n{}", r.name, message(f), help(r)))
                );
            }
            Outcome::NotApplicable => {
                skipped += 1;
                cases.push_str(">\n      <skipped message=\"not applicable to this page\"/>\n    </testcase>\n");
            }
            _ => cases.push_str("/>\n"),
        }
    }
    let tests = audit.checks.len();
    let score = audit.score();
    let name = xml(location);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"seo-audit\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n  \
         <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" \
         timestamp=\"{ts}\">\n    \
         <properties>\n      \
         <property name=\"score\" value=\"{score}\"/>\n      \
         <property name=\"rulesetVersion\" value=\"{ruleset}\"/>\n    \
         </properties>\n{cases}  </testsuite>\n</testsuites>\n",
        ts = xml(timestamp),
        score = score.percentage,
        ruleset = xml(&score.ruleset_version),
    )
}
