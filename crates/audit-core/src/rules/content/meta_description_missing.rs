//! Only the head counts, as for Google and Lighthouse: a `<meta name=description>` after
//! content the head cannot hold (where the parser has already moved into the body) is not
//! read as the page's description.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct MetaDescriptionMissing;

static META: RuleMeta = RuleMeta {
    id: "meta-description-missing",
    name: "Page has a meta description",
    category: Category::Content,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "no meta description in <head>, or an empty one",
    why: "The description is the snippet under the title in results; without it search engines pick any text from the page.",
    fail_example: "no <meta name=description>",
    pass_example: "<meta name=\"description\" content=\"...\">",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/meta-description",
    phrases: &["description missing", "description empty"],
    excluded: &["og", "graph", "twitter", "multiple"],
    glossary: &["meta-description"],
};

impl Rule for MetaDescriptionMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.head_meta_description.as_deref().is_some_and(|d| !d.trim().is_empty()) {
            return Outcome::Pass;
        }
        let description = if page.head_meta_description.is_none() && page.meta_description().is_some() {
            "The page's meta description is outside <head>, where search engines do not read it; move it into the \
             head, before any element the head cannot hold."
        } else {
            "The page has no meta description; write one of 70-160 characters that sums up the page."
        };
        let mut f = Finding::new("Meta description missing", description);
        if let Some(s) = util::suggest_description(page) {
            f = f.suggested(s);
        }
        Outcome::Fail(f.at(page, util::misplaced_or_head(page, &page.spots.meta_descriptions)))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::description_fix(c, super::Problem::Missing)
    }
}
