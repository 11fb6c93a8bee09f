use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LowTextRatio;

static META: RuleMeta = RuleMeta {
    id: "low-text-ratio",
    name: "Visible text is a fair share of the HTML",
    category: Category::Content,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Medium,
    confidence: 50,
    weight: 1,
    threshold: "text/HTML ratio < 10%",
    why: "Very little text in a lot of markup often means bloated templates and little content.",
    fail_example: "a 200 KB page with 50 words",
    pass_example: "a page whose text is 25% of its bytes",
    reference: "https://www.seonaut.org/",
    phrases: &["text ratio", "text code ratio"],
    excluded: &[],
    glossary: &["text-to-html-ratio"],
};

impl Rule for LowTextRatio {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.html_bytes == 0 {
            return Outcome::NotApplicable;
        }
        let ratio = page.text_ratio();
        if ratio >= util::MIN_TEXT_RATIO {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Low text to HTML ratio",
                format!("Visible text is {ratio:.1}% of the HTML; aim for at least {}%.", util::MIN_TEXT_RATIO),
            )
            .current(format!("{ratio:.1}%"))
            .suggested(format!(">= {}%", util::MIN_TEXT_RATIO)),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Medium,
            "Move inline <script> and <style> blocks into cached external files, remove unused markup and hidden content, and add descriptive text where the page is thin.",
            "A low share of visible text usually means heavy markup; lighter pages load faster and say more.",
        )
    }
}
