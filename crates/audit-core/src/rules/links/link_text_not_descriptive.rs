//! The phrases are Lighthouse's (`link-text`), per language; a link is looked up in the list
//! of its closest `lang` when it has one (a language without a list has no generic phrases),
//! else in every list. Links Google does not follow or that lead nowhere new are not counted:
//! `rel=nofollow`, `javascript:` and `mailto:` hrefs, links to the page itself, anchors
//! without `href` and anchors inside `<noscript>`.

use crate::rules::prelude::*;

/// The rule: its text is `META`, its check and its fix are below.
#[derive(Debug, Clone, Copy)]
pub struct LinkTextNotDescriptive;

static META: RuleMeta = RuleMeta {
    id: "link-text-not-descriptive",
    name: "Links have descriptive text",
    category: Category::Links,
    severity: Severity::Warning,
    impact: Level::Medium,
    effort: Level::Low,
    confidence: 90,
    weight: 1,
    threshold: "a link's whole text is a generic phrase ('click here', 'read more') of its language",
    why: "Link text tells search engines and users what the target is about; generic phrases say nothing.",
    fail_example: "<a href=\"/pricing\">click here</a>",
    pass_example: "<a href=\"/pricing\">See our pricing</a>",
    reference: "https://developer.chrome.com/docs/lighthouse/seo/link-text",
    phrases: &["link descriptive", "generic link text", "generic anchor text", "click here", "read more link"],
    excluded: &[],
    glossary: &["anchor-text"],
};

impl Rule for LinkTextNotDescriptive {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, page: &Page) -> Outcome {
        // The page's own address without its fragment, parsed once: links resolve to
        // normalised URLs, so comparing strings finds the links to the page itself.
        let own = page.parsed_url().map(|mut u| {
            u.set_fragment(None);
            String::from(u)
        });
        let counted: Vec<_> = page.links.iter().filter(|l| is_counted(page, own.as_deref(), l)).collect();
        if counted.is_empty() {
            return Outcome::NotApplicable;
        }
        let bad: Vec<_> =
            counted.iter().filter(|l| util::is_generic_link_text_in(&l.text, l.lang.as_deref())).collect();
        let Some(first) = bad.first().map(|l| l.text.as_str()) else { return Outcome::Pass };
        let spots = bad.iter().map(|l| l.spot);
        Outcome::Fail(
            Finding::new(
                "Links without descriptive text",
                format!("{} link(s) use generic text such as \"{first}\".", bad.len()),
            )
            .current(first.to_string())
            .suggested("text that names the target, e.g. \"Compare pricing plans\"")
            .at(page, spots),
        )
    }

    fn fix(&self, c: &FixCtx) -> Option<FixTemplate> {
        super::link_fix(
            c,
            super::LinkProblem::NotDescriptive,
            Difficulty::Easy,
            "Say where the link leads instead of \"click here\" or \"read more\"; the text is drafted from the target address.",
        )
    }
}

/// Whether a link's text is judged: it has an href that leads somewhere else than this page
/// (`own`, without fragment), and crawlers follow it.
fn is_counted(page: &Page, own: Option<&str>, link: &Link) -> bool {
    let Some(href) = link.href.as_deref() else { return false };
    if link.in_noscript
        || link.rel.iter().any(|r| r == "nofollow")
        || matches!(link.kind, LinkKind::Javascript | LinkKind::Mailto)
    {
        return false;
    }
    let Some(own) = own else { return true };
    let target = match &link.url {
        Some(url) => url.clone(),
        None => match page.resolve(href) {
            Some(url) => url,
            None => return true,
        },
    };
    target.split('#').next() != Some(own)
}
