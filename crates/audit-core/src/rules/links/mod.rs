//! Rules of this category: one file each.

mod internal_link_nofollow;
mod link_empty_text;
mod link_text_not_descriptive;
mod link_to_http;
mod link_uncrawlable;
mod links_too_many;

pub use internal_link_nofollow::InternalLinkNofollow;
pub use link_empty_text::LinkEmptyText;
pub use link_text_not_descriptive::LinkTextNotDescriptive;
pub use link_to_http::LinkToHttp;
pub use link_uncrawlable::LinkUncrawlable;
pub use links_too_many::LinksTooMany;

use crate::fix::{attr, words_from_slug, Difficulty, FixCtx, FixKind, FixTemplate};
use crate::page::LinkKind;
use crate::rules::util::is_generic_link_text;

/// Which link problem a fix repairs: the link rules share one fix, which finds the first link
/// with the problem and writes it repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinkProblem {
    NotDescriptive,
    EmptyText,
    Uncrawlable,
    InternalNofollow,
}

/// The fix of the link rules: the first link with the problem, repaired.
fn link_fix(c: &FixCtx, problem: LinkProblem, difficulty: Difficulty, why: &str) -> Option<FixTemplate> {
    let (code, stand_in) = repaired_link(c, problem);
    let note = if stand_in { " The page's links were not given." } else { "" };
    FixTemplate::some(FixKind::Html, difficulty, code, format!("{why}{note}"))
}

/// The repaired link, and whether a placeholder stands in for the page's link.
fn repaired_link(c: &FixCtx, problem: LinkProblem) -> (String, bool) {
    let link = c.page.and_then(|p| {
        p.links.iter().find(|l| match problem {
            LinkProblem::NotDescriptive => is_generic_link_text(&l.text),
            LinkProblem::EmptyText => l.text.trim().is_empty() && l.label.is_none() && l.href.is_some(),
            LinkProblem::Uncrawlable => matches!(l.kind, LinkKind::Javascript | LinkKind::NoHref | LinkKind::Fragment),
            LinkProblem::InternalNofollow => l.internal && l.rel.iter().any(|r| r == "nofollow"),
        })
    });
    // Without the page's link, the current value names it for the rules that report
    // the link's address.
    let given = c
        .current_token()
        .filter(|_| matches!(problem, LinkProblem::EmptyText | LinkProblem::InternalNofollow))
        .and_then(|h| url::Url::parse(h).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(String::from);
    let known = link.and_then(|l| l.url.clone()).or(given);
    let stand_in = known.is_none();
    let href = known.unwrap_or_else(|| "TODO: full URL the link leads to".to_string());
    let target_words = url::Url::parse(&href)
        .ok()
        .and_then(|u| u.path_segments().and_then(|mut s| s.rfind(|x| !x.is_empty()).map(str::to_string)))
        .and_then(|s| words_from_slug(&s))
        .unwrap_or_else(|| "TODO: where the link leads".to_string());
    let code = match problem {
        LinkProblem::EmptyText => format!("<a href=\"{}\" aria-label=\"{}\">…</a>", attr(&href), attr(&target_words)),
        LinkProblem::InternalNofollow => {
            let text = link.map(|l| l.text.clone()).filter(|t| !t.is_empty()).unwrap_or(target_words);
            format!("<a href=\"{}\">{}</a>", attr(&href), attr(&text))
        }
        _ => format!("<a href=\"{}\">{}</a>", attr(&href), attr(&target_words)),
    };
    (code, stand_in)
}
