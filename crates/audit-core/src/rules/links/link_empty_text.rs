use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LinkEmptyText;

static META: RuleMeta = RuleMeta {
    id: "link-empty-text",
    name: "Links have text or an accessible name",
    category: Category::Links,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 85,
    weight: 1,
    threshold: "a link with no text, aria-label or image alt",
    why: "A link without text gives crawlers and screen readers nothing to describe its target.",
    fail_example: "<a href=\"/x\"><img src=\"i.png\"></a>",
    pass_example: "<a href=\"/x\"><img src=\"i.png\" alt=\"Cart\"></a>",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/link-name",
    phrases: &["link missing text", "link empty text", "empty anchor", "link accessible name", "link empty"],
    excluded: &["descriptive", "generic"],
    glossary: &["anchor-text"],
};

impl Rule for LinkEmptyText {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let web: Vec<_> = page.links.iter().filter(|l| l.kind == LinkKind::Web).collect();
        if web.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = web.iter().filter(|l| l.text.trim().is_empty() && l.label.is_none()).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Links without text",
                format!("{} link(s) have neither text nor an accessible name.", bad.len()),
            )
            .current(first.url.clone().unwrap_or_default())
            .suggested("link text, an aria-label, or alt text on the image inside")
            .at(page, bad.iter().map(|l| l.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::link_fix(
            c,
            super::LinkProblem::EmptyText,
            Difficulty::Easy,
            "Give icon and image links an accessible name with aria-label (or alt text on the image).",
        )
    }
}
