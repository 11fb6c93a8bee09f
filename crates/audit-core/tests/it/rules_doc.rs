//! `docs/RULES.md` is generated from the rule table and must not go stale.

use std::path::Path;

#[test]
fn rules_md_matches_the_rule_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
    let expected = audit_core::rules_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("docs/RULES.md is writable");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == expected,
        "docs/RULES.md is stale or missing; regenerate it with\n\
         UPDATE_DOCS=1 cargo test -p audit-core --test it rules_doc::\nand commit the result"
    );
}
