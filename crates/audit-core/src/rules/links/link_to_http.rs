//! Links are the `<a href>` elements whose target resolves to an `http:` URL (other schemes,
//! fragments and scripts are `link-uncrawlable`'s). A page served over plain HTTP is
//! `not-https`'s and is left out here. Links to the site itself and to other sites count alike.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LinkToHttp;

static META: RuleMeta = RuleMeta {
    id: "link-to-http",
    name: "Links use https",
    category: Category::Links,
    severity: Severity::Notice,
    impact: Level::Low,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "an https page links to an http:// URL",
    why: "The visitor leaves the secure connection (browsers warn on forms there), a link to the site's own http URL costs a redirect on every click and every crawl, and search engines index the https version.",
    fail_example: "<a href=\"http://example.com/guide\">",
    pass_example: "<a href=\"https://example.com/guide\">",
    reference: "https://developers.google.com/search/docs/crawling-indexing/http-https/https",
    phrases: &["links to http", "http link", "insecure link", "non-https link"],
    excluded: &["redirect"],
    glossary: &["https"],
};

impl Rule for LinkToHttp {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        if page.parsed_url().is_none_or(|u| u.scheme() != "https") {
            return Outcome::NotApplicable;
        }
        let web: Vec<_> = page.links.iter().filter(|l| l.kind == LinkKind::Web).collect();
        if web.is_empty() {
            return Outcome::NotApplicable;
        }
        let http: Vec<_> = web.iter().filter(|l| is_http(l)).collect();
        let Some(first) = http.first().and_then(|l| l.url.as_deref()) else { return Outcome::Pass };
        let internal = http.iter().filter(|l| l.internal).count();
        // A `<base href="http://...">` makes every relative link http: it is the one thing to fix.
        let base = page.base_url.as_deref().filter(|b| util::is_http_url(b));
        let cause = base
            .map(|b| format!(" The page's <base href=\"{b}\"> makes its relative links http:// too."))
            .unwrap_or_default();
        Outcome::Fail(
            Finding::new(
                "Links to http:// URLs",
                format!(
                    "{} of {} links go to plain http:// URLs ({internal} of them to this site).{cause}",
                    http.len(),
                    web.len()
                ),
            )
            .current(first.to_string())
            .suggested(util::with_https(first))
            .at(page, http.iter().map(|l| l.spot)),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        // Each distinct target once, with the text of its first link.
        let mut links: Vec<(String, String)> = Vec::new();
        for link in c.page.into_iter().flat_map(|p| &p.links).filter(|l| l.kind == LinkKind::Web && is_http(l)) {
            let Some(url) = link.url.as_deref() else { continue };
            if links.len() == 10 {
                break;
            }
            if !links.iter().any(|(u, _)| u == url) {
                links.push((url.to_string(), link.text.trim().to_string()));
            }
        }
        if links.is_empty() {
            links
                .extend(c.current_token().filter(|v| v.starts_with("http://")).map(|u| (u.to_string(), String::new())));
        }
        let code = if links.is_empty() {
            "<a href=\"https://TODO: the link's address with https\">TODO: the link's text</a>".to_string()
        } else {
            links
                .iter()
                .map(|(u, text)| {
                    let text = if text.is_empty() { "TODO: the link's text" } else { text };
                    format!("<a href=\"{}\">{}</a>", attr(&util::with_https(u)), attr(text))
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        FixTemplate::some(
            FixKind::Html,
            Difficulty::Easy,
            code,
            "Write these links with https:// (check that each target answers over https first); for links to the site itself, a site-wide search and replace of http:// with https:// in the templates does it.",
        )
    }
}

/// Whether a link's resolved target is a plain `http:` URL.
fn is_http(link: &Link) -> bool {
    link.url.as_deref().is_some_and(util::is_http_url)
}
