//! The HTML parser ends the head at the first start tag or text the head cannot hold (an
//! `<img>`, a `<div>`, a stray word), and everything after it, metadata included, becomes body
//! (Google: "once Google detects an invalid element in the head, it assumes the end of the
//! head and stops reading any further elements"). Only pages where head metadata comes after
//! that point fail: an invalid element after the last of it costs nothing. The metadata looked
//! at is what the head rules read there only: the canonical link, the meta description and
//! the hreflang links. A `<noscript>` of the head is left out, as a browser running scripts
//! reads it as text.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HeadEndedEarly;

static META: RuleMeta = RuleMeta {
    id: "head-ended-early",
    name: "Head metadata is read as head",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::High,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an element or text the head cannot hold ends it before the canonical, the meta description or hreflang links",
    why: "Search engines stop reading the head at the first element that does not belong there: the canonical, description and hreflang links after it are ignored.",
    fail_example: "<head><title>…</title><img src=\"logo.png\"><link rel=\"canonical\" href=\"…\"></head>",
    pass_example: "<img> and other content in <body>; the head holds only title, meta, link, script, style, base, noscript and template",
    reference: "https://developers.google.com/search/docs/crawling-indexing/valid-page-metadata",
    phrases: &["invalid element in head", "invalid html elements in head", "head ended early", "head closed early", "metadata in body"],
    excluded: &[],
    glossary: &["canonical-url", "meta-description"],
};

impl Rule for HeadEndedEarly {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some((by, line)) = &page.head_ended_by else { return Outcome::Pass };
        let mut lost: Vec<String> = Vec::new();
        let mut spots = Vec::new();
        if page.head_canonicals.is_empty() && !page.canonicals.is_empty() {
            lost.push("the canonical link".into());
            spots.extend(page.spots.canonicals.iter().copied());
        }
        if page.head_meta_description.is_none() && !page.meta_descriptions.is_empty() {
            lost.push("the meta description".into());
            spots.extend(page.spots.meta_descriptions.iter().copied());
        }
        let body_hreflang: Vec<_> = page.hreflang.iter().filter(|h| !h.in_head).collect();
        match body_hreflang.len() {
            0 => {}
            1 => lost.push("an hreflang link".into()),
            n => lost.push(format!("{n} hreflang links")),
        }
        spots.extend(body_hreflang.iter().map(|h| h.spot));
        if lost.is_empty() {
            return Outcome::Pass;
        }
        let lost = match lost.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => unreachable!("not empty"),
        };
        spots.sort();
        // `<img>` reads "The <img>", a text "The text …".
        let subject = match by.strip_prefix("the ") {
            Some(rest) => format!("The {rest}"),
            None => format!("The {by}"),
        };
        Outcome::Fail(
            Finding::new(
                "Head ended early",
                format!(
                    "{subject} at line {line} ends the <head> early: {lost} after it {} read as body, where search engines ignore head metadata.",
                    if lost.contains(" and ") || lost.ends_with("links") { "are" } else { "is" }
                ),
            )
            .current(format!("{by} at line {line}"))
            .suggested(format!("{by} moved into <body>, after the head's metadata"))
            .at(page, spots),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let by = c
            .page
            .and_then(|p| p.head_ended_by.as_ref())
            .map(|(by, line)| format!("{by} at line {line}"))
            .unwrap_or_else(|| "the element or text that ends the head".to_string());
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Easy,
            format!(
                "Move {by} out of <head> into <body> (or below the last <meta>, <link> and <title> of the head), so that the head holds only <title>, <meta>, <link>, <script>, <style>, <base>, <noscript> and <template>."
            ),
            "Search engines read the head up to its first element that does not belong there; a tracking pixel (<img>), a <div> from a tag manager or a stray word left by a template are the usual causes.",
        )
    }
}
