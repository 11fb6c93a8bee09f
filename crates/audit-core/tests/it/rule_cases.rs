//! One insta snapshot per rule of [`RULES`], beside the rule's fixture cases
//! (`tests/fixtures/rules/<rule-id>/findings.snap`): for every failing case, the finding (rule
//! id, title, description, current and suggested value) and the fix the rule's own
//! [`Rule::fix`](audit_core::Rule::fix) gives for it; the passing cases are listed by name. A
//! change to a message, a suggestion, a fix or a verdict shows up as a snapshot diff to review
//! (`cargo insta review`, or `INSTA_UPDATE=always cargo test -p seo-audit-core --test it
//! rule_cases::` and read the diff).
//!
//! The fix is the rule's template as the rule writes it; how the `autofix` crate renders it for
//! the API (the rule's name as the issue title, the sentence on `TODO:` placeholders) is that
//! crate's machinery and is tested there.

use std::path::{Path, PathBuf};

use audit_core::fix::{FixCtx, Given};
use audit_core::{Outcome, Rule, RULES};

use crate::rule_fixture::{cases, load, rules_dir};

fn fixtures_dir() -> PathBuf {
    rules_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// What one failing case shows: its finding and its fix.
struct Failing {
    case: String,
    url: String,
    text: String,
}

/// A rule's cases: the failing ones with finding and fix, the names of the passing ones.
struct Record {
    failing: Vec<Failing>,
    passing: Vec<String>,
}

/// A value as the snapshot shows it: a JSON string, or `null` when absent.
fn json(value: Option<&str>) -> String {
    value.map_or_else(|| "null".to_string(), |v| serde_json::Value::from(v).to_string())
}

/// The record of one rule over its fixture directory.
fn rule_record(rule: &dyn Rule) -> Result<Record, String> {
    let id = rule.meta().id;
    let dir = fixtures_dir().join(id);
    let mut record = Record { failing: Vec::new(), passing: Vec::new() };
    for name in cases(&dir) {
        let fixture = load(&dir, &name)?;
        let page = &fixture.page;
        match rule.check(page) {
            Outcome::Fail(finding) => {
                // The context the audit's fix plan gives a rule's fix: the page, its address
                // and the finding's value.
                let mut given = Given::new();
                given.url = Some(page.final_url.as_str());
                given.current_value = finding.current_value.as_deref();
                let fix = rule.fix(&FixCtx::new(Some(page), given));
                let mut text = String::new();
                text.push_str(&format!("finding.id: {}\n", json(Some(id))));
                text.push_str(&format!("finding.title: {}\n", json(Some(&finding.title))));
                text.push_str(&format!("finding.description: {}\n", json(Some(&finding.description))));
                text.push_str(&format!("finding.current_value: {}\n", json(finding.current_value.as_deref())));
                text.push_str(&format!("finding.suggested_value: {}\n", json(finding.suggested_value.as_deref())));
                match fix {
                    None => text.push_str("fix: null\n"),
                    Some(t) => {
                        text.push_str(&format!("fix.type: {}\n", json(Some(t.kind.name()))));
                        let difficulty = serde_json::to_value(t.difficulty).map_err(|e| e.to_string())?;
                        text.push_str(&format!("fix.difficulty: {difficulty}\n"));
                        text.push_str(&format!("fix.explanation: {}\n", json(Some(&t.explanation))));
                        // The code as indented lines, so that a diff shows the line that changed.
                        text.push_str("fix.code:\n");
                        for line in t.code.lines() {
                            if line.is_empty() {
                                text.push('\n');
                            } else {
                                text.push_str(&format!("    {line}\n"));
                            }
                        }
                    }
                }
                record.failing.push(Failing { case: name, url: fixture.url, text });
            }
            Outcome::Pass => record.passing.push(name),
            // Not applicable, or an outcome added later: a case must fail or pass.
            other => return Err(format!("{name}: {other:?}; a case must fail or pass")),
        }
    }
    Ok(record)
}

/// The snapshot text of a rule's record: one block per failing case.
fn render(id: &str, record: &Record) -> String {
    let mut out = format!("rule: {id}\npassing: {}\n", record.passing.join(", "));
    for f in &record.failing {
        out.push_str(&format!("\n== {} ({})\n{}", f.case, f.url, f.text));
    }
    out
}

#[test]
fn every_rule_has_a_snapshot_of_its_findings_and_fixes() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        match rule_record(*rule) {
            Ok(record) => {
                if record.failing.is_empty() {
                    problems.push(format!("{id}: no failing case"));
                }
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(fixtures_dir().join(id));
                settings.set_prepend_module_to_snapshot(false);
                settings.bind(|| insta::assert_snapshot!("findings", render(id, &record)));
            }
            Err(e) => problems.push(format!("{id}: {e}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every failing case of every rule gets a fix from the rule itself, with code: the fix plan
/// never has to fall back to a generic text for a finding of the audit.
#[test]
fn every_failing_case_gets_a_fix_from_its_rule() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let Ok(record) = rule_record(*rule) else { continue };
        for f in &record.failing {
            if f.text.contains("\nfix: null\n") || !f.text.contains("\nfix.code:\n    ") {
                problems.push(format!("{id}/{}: no fix, or a fix without code", f.case));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
