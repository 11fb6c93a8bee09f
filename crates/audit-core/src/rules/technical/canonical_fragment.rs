//! The canonical read is the one search engines are told ([`Page::declared_canonical`]: the
//! head's first, else the HTTP `Link` header's). Search engines drop a URL's fragment, so a
//! canonical with one names the URL without it: harmless for `#top`, but a single-page app's
//! routes (`/#/pricing`, `/#!/pricing`) then all name the home page. A notice: search engines
//! crawl such routes as one URL anyway, and a section's fragment (tailcall.run's old operator
//! pages name `/docs/…-directives#upstream-directive`) only names the page it is on.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalFragment;

static META: RuleMeta = RuleMeta {
    id: "canonical-fragment",
    name: "Canonical URL has no fragment",
    category: Category::Technical,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "the canonical URL contains #",
    why: "Search engines ignore everything after #, so the canonical names the URL without it; for pages told apart by their fragment (routes such as /#/pricing) every page then names the same URL, and only one can be indexed.",
    fail_example: "<link rel=\"canonical\" href=\"https://example.com/#/pricing\">",
    pass_example: "<link rel=\"canonical\" href=\"https://example.com/pricing\">",
    reference: "https://developers.google.com/search/docs/crawling-indexing/url-structure",
    phrases: &["canonical fragment", "canonical hash", "canonical contains #"],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl Rule for CanonicalFragment {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let Some(canonical) = page.declared_canonical() else { return Outcome::NotApplicable };
        let Some((without, fragment)) = canonical.split_once('#') else { return Outcome::Pass };
        let route = fragment.starts_with('/') || fragment.starts_with('!');
        let description = if route {
            format!("The canonical URL's fragment (#{fragment}) looks like an app route; search engines drop it and read {without}, so every route names that one URL. Give each route a URL of its own (a path, with the History API) and canonicalise to it.")
        } else {
            format!(
                "Search engines drop the fragment (#{fragment}) and read {without}; write the canonical without it."
            )
        };
        let at = if page.head_canonicals.is_empty() { None } else { page.spots.head_canonicals.first().copied() };
        Outcome::Fail(
            Finding::new("Canonical URL contains a fragment", description)
                .current(canonical.clone())
                .suggested(without.to_string())
                .at(page, at),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let canonical = c.page.and_then(Page::declared_canonical).or_else(|| c.current_token().map(str::to_string));
        let url = match canonical.as_deref().and_then(|u| u.split_once('#')) {
            Some((without, _)) => without.to_string(),
            None => c.url_or_todo(),
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            format!("<link rel=\"canonical\" href=\"{}\">", attr(&url)),
            "Write the canonical URL without its #fragment (in the head, and in the Link header if the server sends one). If the page is told apart from others only by its fragment, give it a URL of its own first.",
        )
    }
}
