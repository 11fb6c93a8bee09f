//! The images counted are those of `image-alt-missing` (not hidden, not inside `<noscript>`)
//! with an alt text; its length is counted in characters (Unicode scalar values) after white
//! space is collapsed, as a screen reader reads it. Screaming Frog's threshold ("Alt Text Over
//! 100 Characters").

use crate::page::Image;
use crate::rules::prelude::*;
use crate::rules::util::ALT_MAX_CHARS;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ImageAltTooLong;

static META: RuleMeta = RuleMeta {
    id: "image-alt-too-long",
    name: "Alt texts are short descriptions",
    category: Category::Images,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "an <img> whose alt text is longer than 100 characters",
    why: "Screen readers read an alt text whole, with no way to skip ahead, and search engines take it as the image's short description; a longer explanation belongs in a caption or the text around the image.",
    fail_example: "an alt text of two sentences and 180 characters",
    pass_example: "<img src=\"a.png\" alt=\"Red leather shoe, side view\">",
    reference: "https://www.w3.org/WAI/tutorials/images/informative/",
    phrases: &["alt text too long", "long alt", "alt text over"],
    excluded: &[],
    glossary: &["alt-text"],
};

/// The shown images with an alt text, and that text as read (white space collapsed).
fn alts(page: &Page) -> Vec<(&Image, String)> {
    page.images
        .iter()
        .filter(|i| i.is_shown())
        .filter_map(|i| i.alt.as_deref().map(|a| (i, crate::page::collapse(a))))
        .filter(|(_, alt)| !alt.is_empty())
        .collect()
}

/// Whether an alt text, as read, is over the threshold.
fn too_long(alt: &str) -> bool {
    alt.chars().count() > ALT_MAX_CHARS
}

impl Rule for ImageAltTooLong {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let with_alt = alts(page);
        if with_alt.is_empty() {
            return Outcome::NotApplicable;
        }
        let long: Vec<_> = with_alt.iter().filter(|(_, alt)| too_long(alt)).collect();
        let Some((_, first)) = long.first() else { return Outcome::Pass };
        let longest = long.iter().map(|(_, alt)| alt.chars().count()).max().unwrap_or(0);
        Outcome::Fail(
            Finding::new(
                "Alt text too long",
                format!(
                    "{} of {} alt texts are over {ALT_MAX_CHARS} characters (the longest has {longest}).",
                    long.len(),
                    with_alt.len()
                ),
            )
            .current(first.clone())
            .suggested(util::trim_at_word(first, ALT_MAX_CHARS))
            .at(page, long.iter().map(|(i, _)| i.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // Each image once (a page may show one image several times).
        let mut long: Vec<(&Image, String)> = Vec::new();
        for (image, alt) in c.page.map(alts).unwrap_or_default() {
            if too_long(&alt) && !long.iter().any(|(i, a)| i.src == image.src && *a == alt) {
                long.push((image, alt));
            }
        }
        let imgs: Vec<String> = long
            .iter()
            .take(10)
            .map(|(i, alt)| {
                format!("<img src=\"{}\" alt=\"{}\">", attr(&i.src), attr(&util::trim_at_word(alt, ALT_MAX_CHARS)))
            })
            .collect();
        let code = if imgs.is_empty() {
            "<img src=\"TODO: address of the image\" alt=\"TODO: what the image shows, in up to 100 characters\">"
                .to_string()
        } else {
            imgs.join("\n")
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            "Say what each image shows in at most 100 characters (the texts here are the old ones cut at a word: rewrite them so they read whole, and change only the alt of each <img>, keeping its other attributes); move a longer explanation into a caption (<figcaption>) or the text beside the image.",
        )
    }
}
