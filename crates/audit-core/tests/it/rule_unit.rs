//! A rule is one unit: a rule written here, in this module alone, is audited, fixed and
//! documented by the engine's own machinery, with nothing to add anywhere else.

use audit_core::fix::{attr, Difficulty, FixCtx, FixKind, FixTemplate, Given};
use audit_core::{
    audit_with, rule_markdown, Category, Finding, HttpFacts, Level, Outcome, Page, Rule, RuleMeta, Severity,
};

/// Pages must name the brand in their title.
struct TitleNamesBrand;

static META: RuleMeta = RuleMeta {
    id: "x-title-brand",
    name: "The title names the brand",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "title without \"Oakwood\"",
    why: "Our style guide says so.",
    fail_example: "<title>Chairs</title>",
    pass_example: "<title>Chairs | Oakwood</title>",
    reference: "https://example.com/style-guide",
    phrases: &["title brand"],
    excluded: &[],
    glossary: &["title-tag"],
};

impl Rule for TitleNamesBrand {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.title.contains("Oakwood") {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Title lacks the brand", "Add \"| Oakwood\" to the title.").current(page.title.clone()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<title>{} | Oakwood</title>", attr(&c.title)),
            "End the title with the brand.",
        )
    }
}

#[test]
fn a_rule_of_one_file_is_audited_fixed_and_documented() {
    let page = Page::parse("https://example.com/chairs", b"<title>Chairs & tables</title>", HttpFacts::new());

    // Audited: it runs beside the table and its finding is a recommendation of the result.
    let result = audit_with(page.clone(), &[&TitleNamesBrand]).to_result("2026-01-01T00:00:00.000Z");
    let rec = result.recommendations.iter().find(|r| r.id == "x-title-brand").expect("the rule's recommendation");
    assert_eq!(rec.current_value.as_deref(), Some("Chairs & tables"));

    // Fixed: from the page, through the same context the built-in rules' fixes read.
    let ctx = FixCtx::new(Some(&page), Given::new());
    let fix = TitleNamesBrand.fix(&ctx).expect("a fix");
    assert_eq!(fix.code, "<title>Chairs &amp; tables | Oakwood</title>");
    assert_eq!(fix.kind, FixKind::Html);

    // Documented: its section of the rule reference comes from its META alone.
    let doc = rule_markdown(TitleNamesBrand.meta());
    assert!(doc.starts_with("\n### x-title-brand\n\nThe title names the brand.\n"), "{doc}");
    assert!(doc.contains("- **Why it matters:** Our style guide says so.\n"), "{doc}");
    assert!(doc.contains("<https://example.com/style-guide>"), "{doc}");
}

#[test]
fn a_rule_without_a_fix_offers_none() {
    struct NoFix;
    impl Rule for NoFix {
        fn meta(&self) -> &'static RuleMeta {
            &META
        }
        fn check(&self, _: &Page) -> Outcome {
            Outcome::Pass
        }
    }
    let page = Page::parse("https://example.com/", b"<title>x</title>", HttpFacts::new());
    assert!(NoFix.fix(&FixCtx::new(Some(&page), Given::new())).is_none());
}
