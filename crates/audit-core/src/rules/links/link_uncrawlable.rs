//! An `<a>` without `href` and without the attributes that belong to one is a placeholder
//! (the HTML standard), not a link, and passes; so do anchors with a `role` or a `name`, jump
//! targets (`id` without `href`), `mailto:` links and anchors inside `<noscript>`, as in
//! Lighthouse's `crawlable-anchors`. Unlike Lighthouse, which fails only the
//! `javascript:void(0)` pattern, every `javascript:` URL fails: Google lists
//! `javascript:goTo('products')` among the URLs it cannot resolve
//! (<https://developers.google.com/search/docs/crawling-indexing/links-crawlable>).

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LinkUncrawlable;

static META: RuleMeta = RuleMeta {
    id: "link-uncrawlable",
    name: "Anchors are crawlable",
    category: Category::Links,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an <a> crawlers cannot follow: a javascript: or unparseable href, a file: URL, or no href but an event handler or link attributes",
    why: "Crawlers only follow <a href> with a real URL; script-driven anchors hide pages from them.",
    fail_example: "<a onclick=\"go()\">Pricing</a> or <a href=\"javascript:go()\">",
    pass_example: "<a href=\"/pricing\">Pricing</a>",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/crawlable-anchors",
    phrases: &["uncrawlable", "javascript link", "link missing href", "anchor missing href"],
    excluded: &[],
    glossary: &["crawlable-links"],
};

impl Rule for LinkUncrawlable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.links.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> = page.links.iter().filter(|l| is_uncrawlable(page, l)).collect();
        let Some(first) = bad.first() else { return Outcome::Pass };
        Outcome::Fail(
            Finding::new(
                "Uncrawlable links",
                format!(
                    "{} anchor(s) look like links crawlers cannot follow: a javascript: or unparseable href, a file: \
                     URL, or no href but a click handler or link attributes.",
                    bad.len()
                ),
            )
            .current(first.href.clone().map_or_else(|| format!("<a>{}</a>", first.text), |h| format!("href=\"{h}\"")))
            .suggested("<a href=\"/real-url\">")
            .at(page, bad.iter().map(|l| l.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::link_fix(
            c,
            super::LinkProblem::Uncrawlable,
            Difficulty::Medium,
            "Crawlers follow only <a> elements with a real href; keep JavaScript handlers as an enhancement.",
        )
    }
}

/// Whether an `<a>` is meant as a link but gives crawlers no URL to follow.
pub(crate) fn is_uncrawlable(page: &Page, link: &Link) -> bool {
    let filled = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.trim().is_empty());
    // A browser running scripts never builds these; a role makes it something else than a link.
    if link.in_noscript || filled(&link.role) {
        return false;
    }
    let raw: String = link.href.as_deref().unwrap_or_default().chars().filter(|c| !c.is_whitespace()).collect();
    let raw = raw.to_ascii_lowercase();
    if raw.starts_with("mailto:") || (raw.is_empty() && filled(&link.id)) {
        return false;
    }
    if raw.starts_with("file:") {
        return true;
    }
    if filled(&link.name) {
        return false;
    }
    if link.href.is_none() {
        // A placeholder, unless it carries what only a link has, or a handler makes it act as one.
        return link.href_attributes || link.event_handlers;
    }
    // An empty href and a bare fragment resolve to the page itself: a link crawlers can follow.
    match link.kind {
        LinkKind::Javascript => true,
        // Judged against a stand-in when the page's own address does not parse.
        LinkKind::Invalid => {
            page.parsed_url().is_some()
                || url::Url::parse("https://example.com/").ok().and_then(|base| base.join(&raw).ok()).is_none()
        }
        _ => false,
    }
}
