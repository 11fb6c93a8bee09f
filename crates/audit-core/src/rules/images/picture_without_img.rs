//! A `<picture>` shows its `<img>`: its `<source>` elements only offer that image other files
//! (formats, sizes), and without an `<img>` inside it the browser shows nothing. Every
//! `<picture>` counts, hidden ones included (the markup is broken wherever it is); one inside
//! a `<template>` is no part of the page yet and is not read. The HTML as served is read: a
//! lazy loader that keeps the `<img>` in a `<script type="text/template">` inside the picture
//! and writes it in later fails too, rightly for the crawlers that read HTML without running
//! scripts (AI crawlers among them), which find no image there; The Verge's article pages do
//! this (docs/PERFORMANCE.md, "Page rules on real pages").

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct PictureWithoutImg;

static META: RuleMeta = RuleMeta {
    id: "picture-without-img",
    name: "Each <picture> holds an <img>",
    category: Category::Images,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "a <picture> with no <img> inside it",
    why: "The <img> is what a <picture> displays, and where its alt text and size are read: without one the browser shows nothing, and search engines find no image to index.",
    fail_example: "<picture><source srcset=\"a.webp\" type=\"image/webp\"></picture>",
    pass_example: "<picture><source srcset=\"a.webp\" type=\"image/webp\"><img src=\"a.jpg\" alt=\"A red shoe\" width=\"640\" height=\"480\"></picture>",
    reference: "https://developer.mozilla.org/en-US/docs/Web/HTML/Reference/Elements/picture",
    phrases: &["picture without img", "picture element without img", "picture with no img"],
    excluded: &["og", "open graph", "social"],
    glossary: &["alt-text"],
};

impl Rule for PictureWithoutImg {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(first) = page.pictures_without_img.first() else {
            // Pass where pictures have their images, or where there are images at all.
            return if page.images.is_empty() { Outcome::NotApplicable } else { Outcome::Pass };
        };
        let n = page.pictures_without_img.len();
        Outcome::Fail(
            Finding::new(
                "<picture> without <img>",
                format!(
                    "{n} <picture> element{} no <img> inside in the HTML: a browser shows nothing there unless a script adds one, and crawlers that read the HTML find no image.",
                    if n == 1 { " has" } else { "s have" }
                ),
            )
            .current(page.locate(*first).map_or_else(|| "<picture>".to_string(), |l| l.snippet))
            .suggested("<img src=\"…\" alt=\"…\" width=\"…\" height=\"…\"> as the <picture>'s last child")
            .at(page, page.pictures_without_img.iter().copied()),
        )
    }

    fn fix(&self, _c: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            "<picture>\n  <source srcset=\"TODO: the image.webp\" type=\"image/webp\">\n  <img src=\"TODO: the image.jpg\" alt=\"TODO: what the image shows\" width=\"TODO\" height=\"TODO\">\n</picture>",
            "Keep the <picture>'s <source> elements and add an <img> as its last child: the fallback file, its alt text and its size. A lazy loader that writes the <img> in later can keep it in the HTML with loading=\"lazy\" instead.",
        )
    }
}
