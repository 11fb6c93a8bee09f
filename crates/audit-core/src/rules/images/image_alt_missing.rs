//! As axe's `image-alt` (Lighthouse): images with `role=presentation` or `none`, with a name
//! from `aria-label`, `aria-labelledby` or a non-empty `title`, hidden ones (`hidden`,
//! `aria-hidden="true"`, `inert`, on them or an ancestor) and images inside `<noscript>`
//! (which a browser running scripts, like Googlebot's renderer, never builds) are not
//! counted; an alt of white space only is neither a description nor the empty alt of a
//! decorative image, and fails.

use crate::fix::words_from_slug;
use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ImageAltMissing;

static META: RuleMeta = RuleMeta {
    id: "image-alt-missing",
    name: "Images have alt attributes",
    category: Category::Images,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 2,
    threshold: "an <img> without alt (or with an alt of white space only) that is neither decorative, named otherwise nor hidden",
    why: "Alt text is how search engines and screen readers understand images; images without it do not rank in image search.",
    fail_example: "<img src=\"a.png\">",
    pass_example: "<img src=\"a.png\" alt=\"Red shoe, side view\"> or alt=\"\" for decoration",
    reference: "https://developer.chrome.com/docs/lighthouse/accessibility/image-alt",
    phrases: &["image alt", "alt missing", "alt text", "alt attribute"],
    excluded: &["og", "graph"],
    glossary: &["alt-text"],
};

impl Rule for ImageAltMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let counted: Vec<_> = page.images.iter().filter(|i| i.is_shown()).collect();
        if counted.is_empty() {
            return Outcome::NotApplicable;
        }
        let missing: Vec<_> = counted
            .iter()
            .filter(|i| {
                let blank = i.alt.as_deref().is_some_and(|a| !a.is_empty() && a.trim().is_empty());
                let presentational = matches!(i.role.as_deref(), Some("presentation" | "none"));
                blank || (i.alt.is_none() && !presentational && !i.labelled)
            })
            .collect();
        let Some(first) = missing.first() else { return Outcome::Pass };
        let spots = missing.iter().map(|i| i.spot);
        Outcome::Fail(
            Finding::new(
                "Images without alt text",
                format!("{} of {} images have no alt text.", missing.len(), counted.len()),
            )
            .current(first.src.clone())
            .suggested("alt=\"describe the image\" (alt=\"\" for decorative images)")
            .at(page, spots),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let imgs: Vec<String> = c
            .page
            .map(|p| {
                p.images
                    .iter()
                    .filter(|i| i.alt.is_none())
                    .take(10)
                    .map(|i| {
                        let name = i.src.rsplit('/').next().unwrap_or("");
                        let alt = words_from_slug(name.split(['?', '#']).next().unwrap_or(""))
                            .unwrap_or_else(|| c.topic_or_todo("what the image shows"));
                        format!(
                            "<img src=\"{}\" alt=\"{}\"{}>",
                            attr(&i.src),
                            attr(&alt),
                            dims(i.width.as_deref(), i.height.as_deref())
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Without the page's images, the current value names the first one.
        let given = c.current_token().filter(|_| imgs.is_empty());
        let (code, drafted) = match given {
            _ if !imgs.is_empty() => {
                (imgs.join("\n"), "the alt texts here are drafted from the file names: check them")
            }
            Some(src) => {
                let name = src.split(['?', '#']).next().unwrap_or("").rsplit('/').next().unwrap_or("");
                let alt = words_from_slug(name).unwrap_or_else(|| c.topic_or_todo("what the image shows"));
                (format!("<img src=\"{}\" alt=\"{}\">", attr(src), attr(&alt)), "the alt text here is drafted from the file name: check it, and do the same for every image without alt")
            }
            None => (
                "<img src=\"TODO: address of each image without alt\" alt=\"TODO: what the image shows\">".to_string(),
                "the page's images were not given: write this for each image without alt",
            ),
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            format!("Describe what each image shows ({drafted}); use alt=\"\" for purely decorative images."),
        )
    }
}

/// The image's width and height attributes, when it has both.
fn dims(w: Option<&str>, h: Option<&str>) -> String {
    match (w, h) {
        (Some(w), Some(h)) => format!(" width=\"{}\" height=\"{}\"", attr(w), attr(h)),
        _ => String::new(),
    }
}
