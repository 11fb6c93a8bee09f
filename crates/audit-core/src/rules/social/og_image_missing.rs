use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct OgImageMissing;

static META: RuleMeta = RuleMeta {
    id: "og-image-missing",
    name: "Page has og:image",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "no og:image",
    why: "Shared links with an image get far more clicks than those without.",
    fail_example: "no <meta property=\"og:image\">",
    pass_example: "<meta property=\"og:image\" content=\"...\">",
    reference: "https://ogp.me/",
    phrases: &["og image", "open graph image", "social share image"],
    excluded: &["relative"],
    glossary: &["open-graph"],
};

impl Rule for OgImageMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.og.get("og:image").is_some_and(|v| !v.trim().is_empty()) {
            return Outcome::Pass;
        }
        let mut f = Finding::new("Open Graph image missing", "The page has no og:image meta tag.");
        if let Some(s) = util::suggest_og(page, "og:image") {
            f = f.suggested(s);
        }
        Outcome::Fail(f.at(page, [page.spots.head]))
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::og_image_fix(c, None)
    }
}
