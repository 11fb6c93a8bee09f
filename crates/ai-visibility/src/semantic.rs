//! Semantic HTML facts for AI readers, taken from audit-core's [`Page`] (no second parse).

use audit_core::{Heading, Page};
use serde::Serialize;

/// The `semantic_html` object of `/api/ai-readiness`: which landmark elements the page
/// uses and whether its headings form an outline a reader can follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct SemanticHtml {
    /// A `<main>` element is present.
    pub main: bool,
    /// A `<nav>` element is present.
    pub nav: bool,
    /// An `<article>` element is present.
    pub article: bool,
    /// A `<header>` element is present.
    pub header: bool,
    /// A `<footer>` element is present.
    pub footer: bool,
    /// The heading outline.
    pub heading_hierarchy: HeadingHierarchy,
}

/// Whether the headings form a clean outline, and what is wrong when they do not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct HeadingHierarchy {
    /// No issue was found.
    pub valid: bool,
    /// One human sentence per problem, in document order (file-wide ones first).
    pub issues: Vec<String>,
}

impl SemanticHtml {
    /// The facts of one page.
    pub fn from_page(page: &Page) -> SemanticHtml {
        let s = &page.semantic;
        SemanticHtml {
            main: s.main > 0,
            nav: s.nav > 0,
            article: s.article > 0,
            header: s.header > 0,
            footer: s.footer > 0,
            heading_hierarchy: heading_hierarchy(&page.headings),
        }
    }
}

/// Checks a heading outline: exactly one `h1`, the first heading is the `h1`, no level
/// is skipped on the way down (`h2 -> h4`), and no heading is empty. Going up any
/// number of levels is fine: a new `h2` may follow an `h4`.
pub fn heading_hierarchy(headings: &[Heading]) -> HeadingHierarchy {
    let mut issues = Vec::new();
    let h1s = headings.iter().filter(|h| h.level == 1).count();
    match h1s {
        0 if headings.is_empty() => issues.push("no headings at all, so no h1".to_owned()),
        0 => issues.push("no h1".to_owned()),
        1 => {}
        n => issues.push(format!("{n} h1 elements (one expected)")),
    }
    if let Some(first) = headings.first() {
        if first.level != 1 {
            issues.push(format!("first heading is h{}, not h1", first.level));
        }
    }
    for pair in headings.windows(2) {
        let (prev, next) = (pair[0].level, pair[1].level);
        if next > prev + 1 {
            let issue = format!("skipped heading level: h{prev} -> h{next}");
            // One mention per distinct jump keeps the list readable on long pages.
            if !issues.contains(&issue) {
                issues.push(issue);
            }
        }
    }
    for h in headings {
        if h.text.trim().is_empty() {
            let issue = format!("empty h{} heading", h.level);
            if !issues.contains(&issue) {
                issues.push(issue);
            }
        }
    }
    HeadingHierarchy { valid: issues.is_empty(), issues }
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    fn page(body: &str) -> Page {
        Page::parse("https://example.com/", body.as_bytes(), HttpFacts::default())
    }

    fn check(html: &str, landmarks: [bool; 5], issues: &[&str]) {
        let s = SemanticHtml::from_page(&page(html));
        assert_eq!([s.main, s.nav, s.article, s.header, s.footer], landmarks, "landmarks of {html}");
        assert_eq!(s.heading_hierarchy.issues, issues, "issues of {html}");
        assert_eq!(s.heading_hierarchy.valid, issues.is_empty());
    }

    #[test]
    fn landmarks_and_outlines() {
        check(
            "<header><nav>n</nav></header><main><article><h1>A</h1><h2>B</h2><h3>C</h3><h2>D</h2></article></main><footer>f</footer>",
            [true, true, true, true, true],
            &[],
        );
        check("<div><p>text</p></div>", [false; 5], &["no headings at all, so no h1"]);
        check(
            "<main><h2>B</h2><h3>C</h3></main>",
            [true, false, false, false, false],
            &["no h1", "first heading is h2, not h1"],
        );
        check("<h1>A</h1><h1>B</h1>", [false; 5], &["2 h1 elements (one expected)"]);
        check(
            "<h1>A</h1><h2>B</h2><h4>C</h4><h2>D</h2><h4>E</h4><h6>F</h6>",
            [false; 5],
            &["skipped heading level: h2 -> h4", "skipped heading level: h4 -> h6"],
        );
        check("<h2>Intro</h2><h1>A</h1>", [false; 5], &["first heading is h2, not h1"]);
        check(
            "<h1>A</h1><h2> </h2><h3>B</h3><h1></h1>",
            [false; 5],
            &["2 h1 elements (one expected)", "empty h2 heading", "empty h1 heading"],
        );
        // Going back up several levels is a normal outline.
        check("<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4><h2>E</h2>", [false; 5], &[]);
    }

    #[test]
    fn serialises_as_the_wire_shape() {
        let s = SemanticHtml::from_page(&page("<main><h1>A</h1><h3>B</h3></main>"));
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            serde_json::json!({
                "main": true, "nav": false, "article": false, "header": false, "footer": false,
                "heading_hierarchy": {"valid": false, "issues": ["skipped heading level: h1 -> h3"]}
            })
        );
    }
}
