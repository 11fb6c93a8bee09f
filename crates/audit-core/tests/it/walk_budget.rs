//! The work after the parse (the walk over the tree that reads elements and records their
//! locations) runs under a budget of its own (`Budget::after_parse_exhausted`), and a page
//! whose walk is cut says so, never silently (docs/API.md "Analysis limits").

use std::cell::Cell;

use audit_core::{Budget, HttpFacts, Page, Rule, Stop};

/// A budget whose parse share never runs out and whose after-parse share runs out after
/// `allowed` questions (`None`: never).
struct AfterParseAfter {
    allowed: Option<u32>,
    asked: Cell<u32>,
}

impl AfterParseAfter {
    fn new(allowed: Option<u32>) -> AfterParseAfter {
        AfterParseAfter { allowed, asked: Cell::new(0) }
    }
}

impl Budget for AfterParseAfter {
    fn exhausted(&self) -> bool {
        false
    }

    fn after_parse_exhausted(&self) -> bool {
        self.asked.set(self.asked.get() + 1);
        self.allowed.is_some_and(|n| self.asked.get() > n)
    }
}

const IMAGES: usize = 20_000;

/// A heading, then many `<b id>` elements (each one recorded as a markup element and located,
/// as in the hostile page of reopened `<b id>` elements that once took the budget after the
/// parse; closed here, so that nothing else is reported) and images.
fn page_html() -> String {
    let mut html = String::from("<!DOCTYPE html>\n<html><head><title>t</title></head><body><h1>Top</h1>\n");
    for k in 0..IMAGES {
        html.push_str(&format!("<p><b id=\"b{k}\">x</b></p><img src=\"i{k}.png\">\n"));
    }
    html.push_str("</body></html>\n");
    html
}

fn flagged(page: Page) -> Option<audit_core::Finding> {
    let id = audit_core::rules::performance::HtmlTooComplex.meta().id;
    let audit = audit_core::audit(page);
    let check = audit.checks.into_iter().find(|c| c.rule.id == id).expect("the rule ran");
    match check.outcome {
        audit_core::Outcome::Fail(f) => Some(f),
        _ => None,
    }
}

#[test]
fn a_page_whose_walk_runs_out_of_its_budget_is_reported_cut() {
    let html = page_html();
    let budget = AfterParseAfter::new(Some(3));
    let page = Page::parse_within("https://e.com/", html.as_bytes(), HttpFacts::new(), &budget);
    // The parse went to the end; the walk did not.
    assert_eq!(page.analysis.parsed_bytes, page.analysis.total_bytes);
    assert_eq!(page.analysis.stopped, Some(Stop::AfterParse));
    assert!(!page.analysis.is_complete());
    let read = page.images.len();
    assert!(read > 0 && read < IMAGES, "{read} images read");
    // The walk stopped after the third question it was allowed, not at the end of the page.
    assert!(read < 4 * audit_core::limits::WALK_CHECK_EVERY_NODES as usize, "{read} images read");
    // Elements entered before the cut are finished as usual: the heading has its text.
    assert_eq!(page.h1(), "Top");
    let finding = flagged(page).expect("html-too-complex reports the cut");
    assert!(finding.description.contains("reading its elements took more than the analysis budget"), "{finding:?}");
}

#[test]
fn a_walk_within_its_budget_reads_the_whole_page() {
    let html = page_html();
    let budget = AfterParseAfter::new(None);
    let page = Page::parse_within("https://e.com/", html.as_bytes(), HttpFacts::new(), &budget);
    assert!(page.analysis.is_complete(), "{:?}", page.analysis);
    assert_eq!(page.images.len(), IMAGES);
    // The walk asked as it went, not once at the end.
    assert!(budget.asked.get() as usize >= 3 * IMAGES / audit_core::limits::WALK_CHECK_EVERY_NODES as usize);
    assert!(flagged(page).is_none(), "nothing to report");
}
