use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HtmlLangMissing;

static META: RuleMeta = RuleMeta {
    id: "html-lang-missing",
    name: "html element declares a language",
    category: Category::Internationalization,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no lang on <html>",
    why:
        "The language tells search engines which audience to show the page to, and screen readers how to pronounce it.",
    fail_example: "<html>",
    pass_example: "<html lang=\"en\">",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/html-has-lang",
    phrases: &["lang missing", "language missing", "language not declar", "lang not declar"],
    excluded: &["hreflang", "invalid"],
    glossary: &["html-lang"],
};

impl Rule for HtmlLangMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.lang.as_deref().is_some_and(|l| !l.trim().is_empty()) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Language not declared", "The <html> element has no lang attribute.")
                .suggested("<html lang=\"en\">")
                .at(page, [page.spots.html]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::lang_fix(c.lang())
    }
}
