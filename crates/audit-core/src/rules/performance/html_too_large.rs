use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct HtmlTooLarge;

static META: RuleMeta = RuleMeta {
    id: "html-too-large",
    name: "HTML is under 1 MiB",
    category: Category::Performance,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 90,
    weight: 1,
    threshold: "> 1 MiB of HTML",
    why: "Large documents are slow to download and parse, and crawlers may stop reading them.",
    fail_example: "a 2 MiB HTML page",
    pass_example: "a 90 KiB HTML page",
    reference: "https://developers.google.com/search/docs/crawling-indexing/googlebot",
    phrases: &["html large", "html size", "html big", "page size", "document size"],
    excluded: &["dom"],
    glossary: &["html-size", "page-speed"],
};

impl Rule for HtmlTooLarge {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.html_bytes <= util::MAX_HTML_BYTES {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new(
                "HTML is too large",
                format!(
                    "The HTML is {} KiB; keep it under {} KiB.",
                    page.html_bytes / 1024,
                    util::MAX_HTML_BYTES / 1024
                ),
            )
            .current(format!("{} bytes", page.html_bytes))
            .suggested(format!("<= {} bytes", util::MAX_HTML_BYTES)),
        )
    }

    fn fix(&self, _: &FixCtx) -> Option<FixTemplate> {
        FixTemplate::some(
            FixKind::Text,
            Difficulty::Hard,
            "Reduce the HTML under 1 MiB: move inline scripts, styles, SVG sprites and JSON state into cached files, paginate long lists, and remove hidden or duplicated markup.",
            "Large documents take longer to download and parse, and crawlers may stop reading them.",
        )
    }
}
