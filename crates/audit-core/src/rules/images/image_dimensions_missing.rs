use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct ImageDimensionsMissing;

static META: RuleMeta = RuleMeta {
    id: "image-dimensions-missing",
    name: "Images declare width and height",
    category: Category::Images,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "any <img> without both width and height",
    why: "Without dimensions the browser cannot reserve space, and the layout shifts as images load (CLS).",
    fail_example: "<img src=\"a.png\" alt=\"x\">",
    pass_example: "<img src=\"a.png\" alt=\"x\" width=\"640\" height=\"480\">",
    reference: "https://web.dev/articles/optimize-cls",
    phrases: &["image dimension", "image width height", "width height missing", "layout shift image"],
    excluded: &[],
    glossary: &["image-dimensions", "core-web-vitals", "cls"],
};

impl Rule for ImageDimensionsMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.images.is_empty() {
            return Outcome::NotApplicable;
        }
        let missing: Vec<&str> =
            page.images.iter().filter(|i| i.width.is_none() || i.height.is_none()).map(|i| i.src.as_str()).collect();
        let Some(first) = missing.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Images without dimensions",
                format!("{} of {} images lack width or height attributes.", missing.len(), page.images.len()),
            )
            .current(first.to_string())
            .suggested("width=\"W\" height=\"H\"")
            .at(page, page.images.iter().filter(|i| i.width.is_none() || i.height.is_none()).map(|i| i.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let imgs: Vec<String> = c
            .page
            .map(|p| {
                p.images
                    .iter()
                    .filter(|i| i.width.is_none() || i.height.is_none())
                    .take(10)
                    .map(|i| {
                        let alt = i.alt.clone().unwrap_or_default();
                        format!(
                            "<img src=\"{}\" alt=\"{}\" width=\"{}\" height=\"{}\">",
                            attr(&i.src),
                            attr(&alt),
                            attr(i.width.as_deref().unwrap_or("TODO: width in pixels")),
                            attr(i.height.as_deref().unwrap_or("TODO: height in pixels"))
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let src = c.current_token().unwrap_or("TODO: address of each image without a size");
        let code = if imgs.is_empty() {
            format!(
                "<img src=\"{}\" alt=\"\" width=\"TODO: width in pixels\" height=\"TODO: height in pixels\">",
                attr(src)
            )
        } else {
            imgs.join("\n")
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            "Give every image its intrinsic width and height (the file's real size in pixels) so the browser reserves space and the layout does not shift.",
        )
    }
}
