//! `docs/RULES.md` is generated from the rule table and must not go stale. The generated part
//! ends at [`END_OF_GENERATED`]; what follows it is written by hand (the agreement with
//! Lighthouse, checked by `lighthouse.rs`) and kept when the file is regenerated.

use std::path::Path;

/// The line that ends the generated part of docs/RULES.md.
const END_OF_GENERATED: &str = "\n<!-- End of the generated part; the sections below are written by hand. -->\n";

#[test]
fn rules_md_matches_the_rule_table() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    if !docs.is_dir() {
        // The packaged crate (`cargo package`) has no workspace around it: the document
        // belongs to the workspace, and is checked there.
        eprintln!("skipping: {} not found (audit-core outside the seo-audit workspace)", docs.display());
        return;
    }
    let path = docs.join("RULES.md");
    let expected = audit_core::rules_markdown();
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    let (generated, by_hand) = match current.find(END_OF_GENERATED) {
        Some(at) => current.split_at(at),
        None => (current.as_str(), ""),
    };
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        let by_hand = if by_hand.is_empty() { END_OF_GENERATED } else { by_hand };
        std::fs::write(&path, format!("{expected}{by_hand}")).expect("docs/RULES.md is writable");
        return;
    }
    assert!(
        generated == expected,
        "docs/RULES.md is stale or missing; regenerate it with\n\
         UPDATE_DOCS=1 cargo test -p seo-audit-core --test it rules_doc::\nand commit the result"
    );
    assert!(
        by_hand.contains("\n## Agreement with Lighthouse\n"),
        "docs/RULES.md lost its hand-written section \"Agreement with Lighthouse\" after the generated part"
    );
}
