//! The "Site rules" section of `docs/RULES.md` is generated from the site rule table and
//! must not go stale. It sits between two marker lines after the page rules' generated part
//! (which audit-core's own test keeps).

use std::path::Path;

const BEGIN: &str = "<!-- Site rules: generated from the site rule table of crates/crawl; do not edit by hand. -->\n";
const END: &str = "<!-- End of the site rules. -->\n";
/// Where the section goes the first time: after the page rules' generated part.
const PAGE_RULES_END: &str = "<!-- End of the generated part; the sections below are written by hand. -->\n";

#[test]
fn rules_md_has_the_site_rules_of_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
    let current = std::fs::read_to_string(&path).expect("docs/RULES.md");
    let expected = format!("{BEGIN}\n{}\n{END}", crawl::site_rules_markdown());
    let found = current.find(BEGIN).and_then(|b| current[b..].find(END).map(|e| (b, b + e + END.len())));
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        let updated = match found {
            Some((b, e)) => format!("{}{expected}{}", &current[..b], &current[e..]),
            None => {
                let at = current.find(PAGE_RULES_END).expect("the page rules' end marker") + PAGE_RULES_END.len();
                format!("{}\n{expected}{}", &current[..at], &current[at..])
            }
        };
        std::fs::write(&path, updated).expect("docs/RULES.md is writable");
        return;
    }
    let Some((b, e)) = found else {
        panic!("docs/RULES.md has no site rules section; add it with\nUPDATE_DOCS=1 cargo test -p crawl --test it rules_doc::");
    };
    assert!(
        current[b..e] == expected,
        "docs/RULES.md's site rules are stale; regenerate them with\n\
         UPDATE_DOCS=1 cargo test -p crawl --test it rules_doc::\nand commit the result"
    );
    for rule in crawl::SITE_RULES {
        assert!(current[b..e].contains(&format!("### {}\n", rule.meta().id)));
    }
}
