use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct RenderBlockingScripts;

static META: RuleMeta = RuleMeta {
    id: "render-blocking-scripts",
    name: "Head has no render-blocking scripts",
    category: Category::Performance,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Medium,
    confidence: 80,
    weight: 1,
    threshold: "<script src> in <head> without async, defer or type=module",
    why: "Synchronous scripts in the head block rendering until they download and run.",
    fail_example: "<head><script src=\"app.js\"></script></head>",
    pass_example: "<script src=\"app.js\" defer></script>",
    reference: "https://developer.chrome.com/docs/lighthouse/performance/render-blocking-resources",
    phrases: &["render block"],
    excluded: &[],
    glossary: &["render-blocking-resources", "page-speed", "core-web-vitals", "lcp"],
};

impl Rule for RenderBlockingScripts {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(first) = page.render_blocking_scripts.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Render-blocking scripts",
                format!("{} script(s) in <head> block rendering.", page.render_blocking_scripts.len()),
            )
            .current(first.clone())
            .suggested(format!("<script src=\"{first}\" defer></script>"))
            .at(page, page.spots.render_blocking_scripts.iter().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let mut scripts: Vec<String> =
            c.page.map(|p| p.render_blocking_scripts.iter().take(10).cloned().collect()).unwrap_or_default();
        if scripts.is_empty() {
            scripts.extend(c.current_token().map(str::to_string));
        }
        let (code, note) = if scripts.is_empty() {
            (
                "<script src=\"TODO: address of each render-blocking script\" defer></script>".to_string(),
                " The page's scripts were not given: write this for each of them.",
            )
        } else {
            (
                scripts
                    .iter()
                    .map(|s| format!("<script src=\"{}\" defer></script>", attr(s)))
                    .collect::<Vec<_>>()
                    .join("\n"),
                "",
            )
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            format!("Load scripts in <head> with defer (order kept, runs after parsing) or async (independent scripts such as analytics).{note}"),
        )
    }
}
