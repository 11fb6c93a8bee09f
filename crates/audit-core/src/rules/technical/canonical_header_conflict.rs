//! A canonical may be given in HTML (`<link rel="canonical">` in the head) or in the HTTP
//! `Link` header (`Link: <https://example.com/a>; rel="canonical"`); search engines read both,
//! and Google asks not to name different URLs in the two. Only pages whose response has a
//! canonical `Link` header are concerned; two different URLs within the header conflict too
//! (several within the head are `canonical-multiple`'s, and the head's first is the one
//! compared). The URLs are compared resolved (the header's against the page's URL, the head's
//! against its base URL), as `canonical-multiple` compares those of the head.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct CanonicalHeaderConflict;

static META: RuleMeta = RuleMeta {
    id: "canonical-header-conflict",
    name: "HTTP and HTML canonicals agree",
    category: Category::Technical,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "the Link header's rel=canonical names another URL than the head's canonical (or, with none in the head, than another of its own)",
    why: "Given different canonical URLs in the header and the HTML, search engines may ignore both and pick one themselves.",
    fail_example: "Link: <https://example.com/a>; rel=\"canonical\" with <link rel=\"canonical\" href=\"https://example.com/b\">",
    pass_example: "the same URL in both, or a canonical in one place only",
    reference: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
    phrases: &["canonical header", "http canonical", "canonicals differ", "canonical mismatch"],
    excluded: &[],
    glossary: &["canonical-url"],
};

impl Rule for CanonicalHeaderConflict {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        let header = page.header_canonicals();
        if header.is_empty() {
            return Outcome::NotApplicable;
        }
        let mut distinct: Vec<&String> = Vec::new();
        for url in &header {
            if !distinct.iter().any(|u| util::same_url(u, url)) {
                distinct.push(url);
            }
        }
        // Several canonicals within the head are canonical-multiple's: the head's first is the
        // one the header is compared with.
        let head = (!page.head_canonicals.is_empty()).then(|| page.head_canonical());
        let description = match &head {
            Some(head) => match distinct.iter().find(|u| !util::same_url(u, head)) {
                Some(other) => format!(
                    "The Link header names {other} as canonical and the head names {head}; search engines may ignore both."
                ),
                None => return Outcome::Pass,
            },
            None if distinct.len() > 1 => format!(
                "The Link header names {} different canonical URLs; search engines may ignore all of them.",
                distinct.len()
            ),
            None => return Outcome::Pass,
        };
        // The head's canonical is what the page's own HTML says: the header is brought in line
        // with it (or with the header's first value when the head names none).
        let keep = page.declared_canonical().unwrap_or_else(|| header[0].clone());
        Outcome::Fail(
            Finding::new("HTTP and HTML canonicals differ", description)
                .current(format!("Link: {}; head: {}", header.join(", "), head.as_deref().unwrap_or("none")))
                .suggested(format!("Link: <{keep}>; rel=\"canonical\""))
                .at(page, page.spots.head_canonicals.first().copied()),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        let url = c.page.and_then(Page::declared_canonical).unwrap_or_else(|| c.url_or_todo());
        FixTemplate::some(
            FixKind::HttpHeader,
            Difficulty::Medium,
            format!("Link: <{url}>; rel=\"canonical\""),
            "Send one canonical Link header naming the same URL as the head's <link rel=\"canonical\"> (or remove the header and keep the HTML canonical).",
        )
    }
}
