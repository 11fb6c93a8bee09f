use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CharsetMissing;

static META: RuleMeta = RuleMeta {
    id: "charset-missing",
    name: "Character encoding is declared",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no charset in header, BOM or meta",
    why: "Without a declared encoding browsers and crawlers may guess wrong and garble text.",
    fail_example: "no <meta charset> and no charset in Content-Type",
    pass_example: "<meta charset=\"utf-8\">",
    reference: "https://developer.chrome.com/docs/lighthouse/best-practices/charset",
    phrases: &["charset", "character encoding", "encoding not declar"],
    excluded: &[],
    glossary: &["charset"],
};

impl Rule for CharsetMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.meta_charset.is_some()
            || page.charset.header.is_some()
            || page.charset.source == crate::CharsetSource::Bom
        {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "Character encoding not declared",
                "Neither the Content-Type header nor a <meta charset> declares the encoding.",
            )
            .suggested("<meta charset=\"utf-8\">")
            .at(page, [page.spots.head]),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            "<meta charset=\"utf-8\">",
            "Put this first in <head> (within the first 1024 bytes) and save the file as UTF-8.",
        )
    }
}
