use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct TwitterCardMissing;

static META: RuleMeta = RuleMeta {
    id: "twitter-card-missing",
    name: "Page declares a Twitter card",
    category: Category::Social,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 80,
    weight: 1,
    threshold: "no twitter:card",
    why: "X (Twitter) uses twitter:card to decide how a shared link looks.",
    fail_example: "no <meta name=\"twitter:card\">",
    pass_example: "<meta name=\"twitter:card\" content=\"summary_large_image\">",
    reference: "https://developer.x.com/en/docs/x-for-websites/cards/overview/markup",
    phrases: &["twitter card", "twitter missing", "twitter tag", "x card"],
    excluded: &[],
    glossary: &["twitter-card"],
};

impl Rule for TwitterCardMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.twitter.contains_key("twitter:card") {
            return Outcome::Pass;
        }
        Outcome::Fail(
            Finding::new("Twitter card missing", "The page has no twitter:card meta tag.")
                .suggested("<meta name=\"twitter:card\" content=\"summary_large_image\">")
                .at(page, [page.spots.head]),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let title =
            if c.title.is_empty() { c.topic_or_todo("title of the page for shared links") } else { c.title.clone() };
        let mut lines = vec![
            "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_string(),
            format!("<meta name=\"twitter:title\" content=\"{}\">", attr(&title)),
        ];
        if let Some(d) = c.description_or_written() {
            lines.push(format!("<meta name=\"twitter:description\" content=\"{}\">", attr(&d)));
        }
        if let Some(img) = c.page.and_then(|p| p.og.get("og:image").cloned()).or_else(|| c.first_image()) {
            lines.push(format!("<meta name=\"twitter:image\" content=\"{}\">", attr(&img)));
        }
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            lines.join("\n"),
            "Add to <head>; X (Twitter) falls back to Open Graph for fields left out.",
        )
    }
}
