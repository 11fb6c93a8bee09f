use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct OgImageRelative;

static META: RuleMeta = RuleMeta {
    id: "og-image-relative",
    name: "og:image is an absolute URL",
    category: Category::Social,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 95,
    weight: 1,
    threshold: "og:image is relative",
    why: "Social networks do not resolve relative og:image URLs; the image will not show.",
    fail_example: "<meta property=\"og:image\" content=\"/img/share.png\">",
    pass_example: "<meta property=\"og:image\" content=\"https://example.com/img/share.png\">",
    reference: "https://ogp.me/",
    phrases: &["og image relative", "open graph image relative"],
    excluded: &[],
    glossary: &["open-graph"],
};

impl Rule for OgImageRelative {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(image) = page.og.get("og:image").filter(|v| !v.trim().is_empty()) else {
            return Outcome::NotApplicable;
        };
        if util::is_absolute_url(image) {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("og:image is a relative URL", "Open Graph requires an absolute image URL.")
                .current(image.clone())
                .suggested(page.resolve(image).unwrap_or_default())
                .at(page, page.spots.social.get("og:image").copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let existing = c.page.and_then(|p| p.og.get("og:image")).and_then(|i| c.page.and_then(|p| p.resolve(i)));
        // The relative address the issue names, resolved against the page's URL.
        let existing = existing.or_else(|| {
            c.current_token()
                .filter(|_| c.known_url)
                .and_then(|i| c.url.join(i).ok())
                .filter(|u| matches!(u.scheme(), "http" | "https"))
                .map(String::from)
        });
        super::og_image_fix(c, existing)
    }
}
