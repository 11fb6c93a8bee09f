//! Properties of the rule table as a whole (docs/API.md "The audit result", docs/RULES.md): ids,
//! weights, categories, documentation fields, the fingerprint, and deterministic results.

use std::collections::BTreeSet;
use std::path::Path;

use audit_core::{audit, rule_by_id, ruleset_fingerprint, Category, Group, HttpFacts, Page, RULES};

/// The `scanned_at` every result in these tests carries, so results compare byte for byte.
const FIXED_TIME: &str = "2026-01-01T00:00:00.000Z";

fn is_kebab_case(id: &str) -> bool {
    !id.is_empty()
        && id
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

#[test]
fn ids_are_unique_kebab_case_and_found_by_lookup() {
    let mut seen = BTreeSet::new();
    for rule in RULES {
        let id = rule.meta().id;
        assert!(is_kebab_case(id), "{id:?} is not kebab-case");
        assert!(seen.insert(id), "{id} is listed twice");
        assert_eq!(rule_by_id(id).map(|m| m.id), Some(id));
    }
    assert_eq!(rule_by_id("no-such-rule"), None);
}

#[test]
fn weights_sum_to_100_and_each_counts() {
    let sum: u32 = RULES.iter().map(|r| r.meta().weight).sum();
    assert_eq!(sum, 100);
    for rule in RULES {
        let m = rule.meta();
        assert!(m.weight > 0, "{} has weight 0 and cannot move the score", m.id);
        assert!(m.confidence <= 100, "{} has confidence {}", m.id, m.confidence);
    }
}

#[test]
fn every_category_belongs_to_one_group() {
    let groups = [Group::Technical, Group::Content, Group::Performance];
    for cat in Category::ALL {
        let g = cat.group();
        assert_eq!(groups.iter().filter(|x| **x == g).count(), 1, "{cat:?}");
        assert_eq!(g.to_string().parse::<Group>().ok(), Some(g));
    }
    for g in groups {
        assert!(Category::ALL.iter().any(|c| c.group() == g), "group {g:?} has no category");
    }
    let names: BTreeSet<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), Category::ALL.len(), "category names are distinct");
    for rule in RULES {
        assert!(Category::ALL.contains(&rule.meta().category), "{}", rule.meta().id);
    }
}

#[test]
fn every_rule_is_documented() {
    for rule in RULES {
        let m = rule.meta();
        for (field, value) in [
            ("name", m.name),
            ("why", m.why),
            ("fail_example", m.fail_example),
            ("pass_example", m.pass_example),
            ("reference", m.reference),
            ("threshold", m.threshold),
        ] {
            assert!(!value.trim().is_empty(), "{}: {field} is empty", m.id);
        }
        assert!(m.reference.starts_with("https://"), "{}: reference {:?} is not a https URL", m.id, m.reference);
        assert_ne!(m.fail_example, m.pass_example, "{}: examples are the same", m.id);
    }
}

#[test]
fn fingerprint_is_16_lowercase_hex_digits() {
    let fp = ruleset_fingerprint();
    assert_eq!(fp.len(), 16, "{fp}");
    assert!(fp.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{fp}");
    assert_eq!(fp, ruleset_fingerprint(), "computed once, the same every time");
}

/// The same bytes and HTTP facts audited twice give byte-identical JSON, full and compact.
#[test]
fn results_are_deterministic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/pages exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty());
    for path in pages {
        let bytes = std::fs::read(&path).expect("readable fixture");
        let run = || {
            let http = HttpFacts::new()
                .with_status(200)
                .with_header("content-type", "text/html; charset=utf-8")
                .with_ttfb_ms(120);
            let a = audit(Page::parse("https://example.com/page", &bytes, http));
            let full = serde_json::to_string(&a.to_result(FIXED_TIME)).expect("serialisable");
            let compact = serde_json::to_string(&a.to_compact(FIXED_TIME)).expect("serialisable");
            (full, compact)
        };
        assert_eq!(run(), run(), "{}", path.display());
    }
}
