//! One insta snapshot per rule of `audit_core::RULES` (`snapshots/it__rule_cases__<id>.snap`):
//! for every failing case of the rule's fixture directory, the finding (rule id, title,
//! description, current and suggested value) and the auto-fix the audit's fix plan gives for
//! it; the passing cases are listed by name. A change to a message, a suggestion, a template
//! or a verdict shows up as a snapshot diff to review.
//!
//! Why here and not in audit-core: the fixtures belong to audit-core
//! (`crates/audit-core/tests/fixtures/rules/`, so that its published crate tests its rules on
//! them), but audit-core cannot depend on autofix (autofix depends on it). autofix is not
//! published, so its tests may read audit-core's fixtures through the workspace path, with the
//! same loader audit-core's tests use. Review a change with `INSTA_UPDATE=always cargo test -p
//! autofix --test it rule_cases::` (or `cargo insta review`), then read the `.snap` files.

use std::path::Path;

use audit_core::{Outcome, RULES};
use autofix::{fix_for_rule, FixContext};
use serde_json::{json, Value};

use crate::rule_fixture::{cases, load, rules_dir};

fn fixtures_dir() -> std::path::PathBuf {
    rules_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../audit-core"))
}

/// The snapshot of one rule: its failing cases with finding and fix, its passing cases.
fn rule_record(id: &str) -> Result<Value, String> {
    let rule = RULES.iter().find(|r| r.meta().id == id).ok_or("no such rule")?;
    let dir = fixtures_dir().join(id);
    let mut failing = Vec::new();
    let mut passing = Vec::new();
    for name in cases(&dir) {
        let fixture = load(&dir, &name)?;
        let page = &fixture.page;
        match rule.check(page) {
            Outcome::Fail(finding) => {
                // The context the fix plan gives a template (app's `fixes::fix_plan`), plus
                // the finding's value, as the report page passes it.
                let context = FixContext {
                    url: Some(page.final_url.clone()),
                    current_value: finding.current_value.clone(),
                    page: Some(page),
                    ..FixContext::default()
                };
                let fix = fix_for_rule(id, Some(&context)).map(|f| serde_json::to_value(f).expect("a fix serialises"));
                failing.push(json!({
                    "case": name,
                    "url": fixture.url,
                    "finding": {
                        "id": id,
                        "title": finding.title,
                        "description": finding.description,
                        "current_value": finding.current_value,
                        "suggested_value": finding.suggested_value,
                    },
                    "autofix": fix,
                }));
            }
            Outcome::Pass => passing.push(Value::String(name)),
            // Not applicable, or an outcome added later: a case must fail or pass.
            other => return Err(format!("{name}: {other:?}; a case must fail or pass")),
        }
    }
    Ok(json!({ "rule": id, "failing": failing, "passing": passing }))
}

/// The snapshot text of a rule's record: one block per failing case, the fix's code as
/// indented lines so that a diff shows the line that changed; other values as JSON strings
/// (`null` when absent).
fn render(record: &Value) -> String {
    let mut out = format!("rule: {}\n", record["rule"].as_str().unwrap_or_default());
    let passing: Vec<&str> = record["passing"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    out.push_str(&format!("passing: {}\n", passing.join(", ")));
    for case in record["failing"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "\n== {} ({})\n",
            case["case"].as_str().unwrap_or_default(),
            case["url"].as_str().unwrap_or_default()
        ));
        for key in ["id", "title", "description", "current_value", "suggested_value"] {
            out.push_str(&format!("finding.{key}: {}\n", case["finding"][key]));
        }
        let fix = &case["autofix"];
        if fix.is_null() {
            out.push_str("autofix: null\n");
            continue;
        }
        for key in ["ruleId", "issueTitle", "type", "difficulty", "explanation"] {
            out.push_str(&format!("autofix.{key}: {}\n", fix[key]));
        }
        out.push_str("autofix.fix:\n");
        for line in fix["fix"].as_str().unwrap_or_default().lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("    {line}\n"));
            }
        }
    }
    out
}

#[test]
fn every_rule_has_a_snapshot_of_its_findings_and_fixes() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        match rule_record(id) {
            Ok(record) => {
                if record["failing"].as_array().is_none_or(Vec::is_empty) {
                    problems.push(format!("{id}: no failing case"));
                }
                insta::assert_snapshot!(id, render(&record));
            }
            Err(e) => problems.push(format!("{id}: {e}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every failing case of every rule gets a fix from the rule's own template: the fix plan
/// never has to fall back to a generic text for a finding of the audit.
#[test]
fn every_failing_case_gets_its_rules_template() {
    let mut problems = Vec::new();
    for rule in RULES {
        let id = rule.meta().id;
        let Ok(record) = rule_record(id) else { continue };
        for case in record["failing"].as_array().into_iter().flatten() {
            let fix = &case["autofix"];
            if fix["ruleId"] != id || fix["fix"].as_str().is_none_or(|f| f.trim().is_empty()) {
                problems.push(format!("{id}/{}: {fix}", case["case"]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
