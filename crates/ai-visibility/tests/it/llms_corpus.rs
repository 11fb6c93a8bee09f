//! llms.txt against the eight real files of the shared corpus (`llms/INDEX.tsv` says
//! which are conformant and which are misused). Skips when `../shared` is absent, unless
//! `SEO_AUDIT_REQUIRE_CORPUS=1` (see `shared_corpus` in main.rs).

use std::fs;
use std::path::PathBuf;

use ai_visibility::{IssueCode, LlmsTxt, Severity};

fn corpus() -> Option<PathBuf> {
    crate::shared_corpus("llms")
}

/// Parses one file and checks its verdict, section count and the codes of its
/// warnings and errors (infos are not listed).
fn check(dir: &std::path::Path, file: &str, valid: bool, sections: usize, codes: &[IssueCode]) -> LlmsTxt {
    let text = fs::read_to_string(dir.join(file)).unwrap();
    let doc = LlmsTxt::parse(&text);
    let mut got: Vec<IssueCode> = doc.issues.iter().filter(|i| i.severity > Severity::Info).map(|i| i.code).collect();
    got.dedup();
    println!(
        "{file}: valid={} sections={} links={} issues={:?}",
        doc.valid(),
        doc.sections.len(),
        doc.links().count(),
        got
    );
    assert_eq!(doc.valid(), valid, "{file}: {:#?}", doc.issues);
    assert_eq!(doc.sections.len(), sections, "{file} sections");
    assert_eq!(got, codes, "{file}: {:#?}", doc.issues);
    assert!(doc.title.is_some(), "{file} has a title");
    doc
}

#[test]
fn real_files_get_the_expected_verdicts() {
    let Some(dir) = corpus() else { return };
    use IssueCode::*;

    // Conformant.
    let doc = check(&dir, "llmstxt.org.llms.txt", true, 1, &[]);
    assert_eq!(doc.title.as_deref(), Some("llms.txt"));
    assert!(doc.summary.as_deref().is_some_and(|s| s.starts_with("A proposal")));
    assert_eq!(doc.sections[0].links.len(), 3);
    assert_eq!(doc.sections[0].links[0].notes.as_deref(), Some("The proposal for llms.txt"));

    let doc = check(&dir, "fastht.ml-sample.llms.txt", true, 3, &[]);
    assert!(doc.details.starts_with("Remember:"));
    assert!(doc.sections[2].optional);
    assert_eq!(doc.sections[0].links[2].notes, None);

    let doc = check(&dir, "fastht.ml-docs.llms.txt", true, 4, &[]);
    assert!(doc.sections.last().is_some_and(|s| s.optional));

    // Conformant-ish: the list item without a link is a warning; the fenced code in the
    // details and the trailing HTML comment are fine.
    let doc = check(&dir, "fastcore.fast.ai.llms.txt", true, 2, &[ListItemWithoutLink]);
    assert!(doc.details.contains("```python"));

    // Multi-line blockquote and a link list before the first H2.
    let doc = check(&dir, "docs.deno.com.llms.txt", true, 5, &[LinksOutsideSections]);
    assert!(doc
        .summary
        .as_deref()
        .is_some_and(|s| s.starts_with("Deno is a secure") && s.ends_with("built-in modules.")));
    assert_eq!(doc.unsectioned_links.len(), 4);

    // Generator style: a flat list under the H1, no section. Usable, with a warning.
    let doc = check(&dir, "docs.litellm.ai.llms.txt", true, 0, &[NoSections]);
    assert_eq!(doc.links().count(), 50);

    // Misused: full docs with prose sections, H3 headings and in-page anchors.
    // The `# comment` lines of its code blocks are not H1s.
    let text = fs::read_to_string(dir.join("python.useinstructor.com.llms.txt")).unwrap();
    let doc = LlmsTxt::parse(&text);
    assert!(!doc.valid());
    assert_eq!(doc.sections.len(), 7);
    for code in [SectionWithoutLinks, Subheading, RelativeLink] {
        assert!(doc.has_issue(code), "instructor: {code:?}");
    }
    assert!(!doc.has_issue(MultipleH1));
    let errors = doc.issues.iter().filter(|i| i.severity == Severity::Error).count();
    println!("python.useinstructor.com.llms.txt: {errors} errors, {} issues", doc.issues.len());

    // Misused as a usage-policy file: no links at all.
    check(&dir, "blog.airat.top.llms.txt", false, 0, &[NoLinks]);
}

/// Every real file Lighthouse's `llms-txt` audit passes has no basic-shape error here, and
/// every disagreement on the whole verdict is one docs/AI-VISIBILITY.md ("llms.txt") explains:
/// Lighthouse checks a title, a link and a length, the format asks for more.
#[test]
fn lighthouse_passes_never_fail_the_basic_shape() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    assert_eq!(files.len(), 8);
    let mut disagreements = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).unwrap();
        let doc = LlmsTxt::parse(&text);
        let lighthouse = ai_visibility::lighthouse_llms_txt_passes(&text);
        if lighthouse {
            let basic: Vec<_> = doc.issues.iter().filter(|i| i.code.is_basic_shape()).collect();
            assert!(basic.is_empty(), "{}: {basic:#?}", path.display());
        }
        if lighthouse != doc.valid() {
            disagreements.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    // Lighthouse passes both; here one lists prose sections without links (errors) and the
    // other has no link at all, which Lighthouse also fails: only the first disagrees.
    assert_eq!(disagreements, ["python.useinstructor.com.llms.txt"]);
}
