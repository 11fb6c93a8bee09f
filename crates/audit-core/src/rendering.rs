//! The served HTML against the rendered DOM: what a search engine that runs JavaScript sees
//! that one that reads the served bytes does not (docs/API.md, "Rendered audits").
//!
//! [`compare`] takes the facts of both versions of a page and what the browser reported
//! ([`Browser`]), and builds the `rendering` section of a rendered audit's result: both views
//! side by side, which fields differ, the links that exist only after rendering, and the
//! findings. Pure: the caller renders the page and parses both documents.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::page::{LinkKind, Page};
use crate::recommendation::{LinkCounts, Recommendation};
use crate::rule::{Category, Level, Severity};

/// Most links listed in [`LinksOnlyRendered::first`].
pub const MAX_LISTED_LINKS: usize = 50;
/// Most blocked browser requests listed in [`Rendering::blocked`] (the count is complete).
pub const MAX_LISTED_BLOCKED: usize = 50;
/// Share of the rendered page's words (percent) that, when they exist only after rendering,
/// makes the content depend on JavaScript; and at least [`MIN_WORDS_ADDED`] words.
pub const WORDS_ADDED_SHARE_PERCENT: usize = 20;
/// Fewest words added by rendering that count (see [`WORDS_ADDED_SHARE_PERCENT`]).
pub const MIN_WORDS_ADDED: usize = 20;
/// Share of the rendered page's links (percent) that, when they exist only after rendering,
/// makes the links depend on JavaScript.
pub const LINKS_ADDED_SHARE_PERCENT: usize = 20;

/// The id of the finding that indexable content (title, description, canonical, h1, a
/// substantial share of words or links) exists only after, or differs after, rendering.
pub const JS_DEPENDENT_CONTENT: &str = "js-dependent-content";
/// The id of the finding that the served HTML has a title, meta description, canonical or
/// h1 that a script removes: the rendered DOM has none.
pub const JS_REMOVED_CONTENT: &str = "js-removed-content";
/// The id of the finding that the meta robots directives differ between the served HTML and
/// the rendered DOM.
pub const JS_ROBOTS_DIRECTIVES: &str = "js-robots-directives";

/// What the browser reported about the render, besides the DOM.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Browser {
    /// The document's URL after redirects and client-side navigation.
    pub final_url: String,
    /// The render reached its time limit; the DOM is the one the page had then.
    pub timed_out: bool,
    /// Wall-clock time of the render, in milliseconds.
    pub elapsed_ms: u64,
    /// Requests the page made, refused ones included.
    pub requests: u32,
    /// Requests refused by the address guard or a limit, in the order they were made.
    pub blocked: Vec<BlockedRequest>,
}

/// A request of the page that the browser was not allowed to make.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct BlockedRequest {
    /// The URL the page asked for.
    pub url: String,
    /// Why it was refused, in a sentence.
    pub reason: String,
}

/// One version of the page (served or rendered), in the fields that decide indexing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RenderingView"))]
#[serde(default)]
pub struct View {
    /// `document.title`, `""` when none.
    pub title: String,
    /// The first meta description.
    pub meta_description: Option<String>,
    /// The first canonical, resolved; `""` when none.
    pub canonical: String,
    /// The directives of `<meta name=robots>` and `<meta name=googlebot>`, lower-case, in
    /// order, without duplicates (`X-Robots-Tag` is the same HTTP header for both views).
    pub robots: Vec<String>,
    /// Whether the page may not be indexed (`noindex` or `none`, meta or `X-Robots-Tag`).
    pub noindex: bool,
    /// Whether links may not be followed (`nofollow` or `none`, meta or `X-Robots-Tag`).
    pub nofollow: bool,
    /// Text of the first `<h1>`, `""` when none.
    pub h1: String,
    /// Number of `<h1>` elements.
    pub h1_count: usize,
    /// Visible words.
    pub word_count: usize,
    /// Links, as `page.links` counts them.
    pub links: LinkCounts,
}

/// Links of the rendered DOM whose URL is on no link of the served HTML.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct LinksOnlyRendered {
    /// How many distinct URLs.
    pub total: usize,
    /// The first [`MAX_LISTED_LINKS`] of them, in document order.
    pub first: Vec<String>,
}

/// The `rendering` section of a rendered audit (docs/API.md, "Rendered audits").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Rendering {
    /// The document's URL in the browser after redirects and client-side navigation.
    pub final_url: String,
    /// The render reached its time limit: the page was audited as it was then.
    pub timed_out: bool,
    /// Wall-clock time of the render, in milliseconds.
    pub elapsed_ms: u64,
    /// Requests the page made through the guard, refused ones included.
    pub requests: u32,
    /// How many requests were refused.
    pub blocked_total: usize,
    /// The first [`MAX_LISTED_BLOCKED`] refused requests, in order.
    pub blocked: Vec<BlockedRequest>,
    /// The served HTML (scripts not run).
    pub served: View,
    /// The DOM after rendering (what the rest of the result audits).
    pub rendered: View,
    /// The fields of `served` and `rendered` that differ, in the order of [`View`]
    /// (`title`, `meta_description`, `canonical`, `robots`, `h1`, `h1_count`, `word_count`,
    /// `links`).
    pub differences: Vec<String>,
    /// Links that exist only after rendering.
    pub links_only_rendered: LinksOnlyRendered,
    /// Whether indexable content depends on JavaScript (the `js-dependent-content` finding).
    pub depends_on_javascript: bool,
    /// Findings about the difference, worst first (`js-robots-directives`,
    /// `js-dependent-content`, `js-removed-content`); not scored.
    pub findings: Vec<Recommendation>,
}

/// The view of `page` ([`View`]).
pub fn view(page: &Page) -> View {
    let (internal, external) = page.link_counts();
    let mut robots: Vec<String> = Vec::new();
    for d in page.meta_robots.iter().chain(&page.meta_googlebot).flat_map(|c| c.split(',')) {
        let d = d.trim().to_ascii_lowercase();
        if !d.is_empty() && !robots.contains(&d) {
            robots.push(d);
        }
    }
    View {
        title: page.title.clone(),
        meta_description: page.meta_description().map(str::to_string),
        canonical: page.canonical(),
        robots,
        noindex: page.is_noindex(),
        nofollow: page.is_nofollow(),
        h1: page.h1().to_string(),
        h1_count: page.headings.iter().filter(|h| h.level == 1).count(),
        word_count: page.word_count,
        links: LinkCounts { internal, external },
    }
}

/// The `rendering` section: `served` (the page as the server sent it) against `rendered`
/// (the DOM the browser left), with what `browser` reported.
pub fn compare(served: &Page, rendered: &Page, browser: Browser) -> Rendering {
    let (s, r) = (view(served), view(rendered));
    let mut differences = Vec::new();
    let mut differ = |name: &str, yes: bool| {
        if yes {
            differences.push(name.to_string());
        }
    };
    differ("title", s.title != r.title);
    differ("meta_description", s.meta_description != r.meta_description);
    differ("canonical", s.canonical != r.canonical);
    differ("robots", s.robots != r.robots);
    differ("h1", s.h1 != r.h1);
    differ("h1_count", s.h1_count != r.h1_count);
    differ("word_count", s.word_count != r.word_count);
    differ("links", s.links != r.links);

    let links = links_only_rendered(served, rendered);
    let mut findings = Vec::new();
    if let Some(f) = robots_finding(&s, &r) {
        findings.push(f);
    }
    let content = content_differences(&s, &r, links.total);
    let depends_on_javascript = !content.is_empty();
    if depends_on_javascript {
        findings.push(content_finding(&content));
    }
    let removed = removed_content(&s, &r);
    if !removed.is_empty() {
        findings.push(removed_finding(&removed));
    }
    let blocked_total = browser.blocked.len();
    let mut blocked = browser.blocked;
    blocked.truncate(MAX_LISTED_BLOCKED);
    Rendering {
        final_url: browser.final_url,
        timed_out: browser.timed_out,
        elapsed_ms: browser.elapsed_ms,
        requests: browser.requests,
        blocked_total,
        blocked,
        served: s,
        rendered: r,
        differences,
        links_only_rendered: links,
        depends_on_javascript,
        findings,
    }
}

/// The distinct URLs of the rendered page's links (as `page.links` counts them) that no
/// link of the served page has.
fn links_only_rendered(served: &Page, rendered: &Page) -> LinksOnlyRendered {
    let counted = |p: &Page| -> Vec<String> {
        p.links
            .iter()
            .filter(|l| matches!(l.kind, LinkKind::Web | LinkKind::Other))
            .filter_map(|l| l.url.clone().or_else(|| l.href.clone()))
            .collect()
    };
    let known: HashSet<String> = counted(served).into_iter().collect();
    let mut seen = HashSet::new();
    let mut out = LinksOnlyRendered::default();
    for url in counted(rendered) {
        if known.contains(&url) || !seen.insert(url.clone()) {
            continue;
        }
        out.total += 1;
        if out.first.len() < MAX_LISTED_LINKS {
            out.first.push(url);
        }
    }
    out
}

/// What indexable content exists only after, or differs after, rendering: one phrase each.
fn content_differences(s: &View, r: &View, links_added: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, served: &str, rendered: &str| {
        if served == rendered || rendered.is_empty() {
            return;
        }
        out.push(if served.is_empty() {
            format!("the {name} exists only after rendering")
        } else {
            format!("the {name} changes when rendered")
        });
    };
    field("title", &s.title, &r.title);
    field("meta description", s.meta_description.as_deref().unwrap_or(""), r.meta_description.as_deref().unwrap_or(""));
    field("canonical", &s.canonical, &r.canonical);
    field("h1", &s.h1, &r.h1);
    let added = r.word_count.saturating_sub(s.word_count);
    if added >= MIN_WORDS_ADDED && added * 100 >= r.word_count * WORDS_ADDED_SHARE_PERCENT {
        out.push(format!("{added} of the rendered page's {} words exist only after rendering", r.word_count));
    }
    let rendered_links = r.links.internal + r.links.external;
    if links_added > 0 && links_added * 100 >= rendered_links * LINKS_ADDED_SHARE_PERCENT {
        out.push(format!("{links_added} link targets exist only after rendering"));
    }
    out
}

/// The fields the served HTML has and the rendered DOM has not (a script removed them), by
/// name, in the order of [`View`].
fn removed_content(s: &View, r: &View) -> Vec<&'static str> {
    let fields = [
        ("title", s.title.as_str(), r.title.as_str()),
        ("meta description", s.meta_description.as_deref().unwrap_or(""), r.meta_description.as_deref().unwrap_or("")),
        ("canonical", s.canonical.as_str(), r.canonical.as_str()),
        ("h1", s.h1.as_str(), r.h1.as_str()),
    ];
    fields
        .into_iter()
        .filter(|(_, served, rendered)| !served.is_empty() && rendered.is_empty())
        .map(|(n, ..)| n)
        .collect()
}

fn removed_finding(names: &[&str]) -> Recommendation {
    let listed = match names {
        [one] => format!("the {one}"),
        [rest @ .., last] => format!("the {} and the {last}", rest.join(", the ")),
        [] => String::new(),
    };
    let pronoun = if names.len() == 1 { "it" } else { "them" };
    Recommendation {
        id: JS_REMOVED_CONTENT.to_string(),
        kind: Severity::Warning,
        category: Category::Technical,
        title: "JavaScript removes indexable content".to_string(),
        description: format!(
            "The served HTML has {listed}, and a script removes {pronoun}: the rendered page has none. Google \
             indexes the rendered page, so it sees the page without {pronoun}, while search engines and AI crawlers \
             that do not run scripts see the served HTML; keep {pronoun} in the page after rendering (the script \
             should update, not remove).",
        ),
        impact: Level::High,
        effort: Level::Medium,
        confidence: 90,
        current_value: Some(format!("removed by rendering: {}", names.join(", "))),
        suggested_value: None,
        ..Recommendation::default()
    }
}

fn content_finding(what: &[String]) -> Recommendation {
    Recommendation {
        id: JS_DEPENDENT_CONTENT.to_string(),
        kind: Severity::Warning,
        category: Category::Technical,
        title: "Indexable content depends on JavaScript".to_string(),
        description: format!(
            "{}. Google renders pages, but later than it reads the served HTML, and other search engines and AI \
             crawlers often do not run scripts at all; put the title, description, canonical, main heading, text \
             and links in the served HTML (server-side rendering or pre-rendering).",
            capitalise(&what.join("; "))
        ),
        impact: Level::High,
        effort: Level::High,
        confidence: 90,
        current_value: None,
        suggested_value: None,
        ..Recommendation::default()
    }
}

fn robots_finding(s: &View, r: &View) -> Option<Recommendation> {
    if s.robots == r.robots {
        return None;
    }
    let listed = |v: &View| if v.robots.is_empty() { "none".to_string() } else { v.robots.join(", ") };
    let (title, description, impact) = match (s.noindex, r.noindex) {
        (false, true) => (
            "JavaScript adds noindex",
            "The served HTML lets the page be indexed, but a script adds a noindex robots directive. Google renders \
             the page and applies the noindex of the rendered page: the page is dropped from its index. Remove the \
             script's directive, or put noindex in the served HTML if the page must stay out.",
            Level::High,
        ),
        (true, false) => (
            "JavaScript removes noindex",
            "The served HTML says noindex and a script removes it. Google does not render a page whose served HTML \
             says noindex, so the script never runs for it and the page stays out of the index. Remove noindex from \
             the served HTML if the page should be indexed.",
            Level::High,
        ),
        _ => (
            "JavaScript changes the robots directives",
            "The robots meta directives of the rendered DOM differ from the served HTML. Search engines that do not \
             run scripts obey the served ones, Google obeys the rendered ones; put the intended directives in the \
             served HTML.",
            Level::Medium,
        ),
    };
    Some(Recommendation {
        id: JS_ROBOTS_DIRECTIVES.to_string(),
        kind: if impact == Level::High { Severity::Critical } else { Severity::Warning },
        category: Category::Technical,
        title: title.to_string(),
        description: description.to_string(),
        impact,
        effort: Level::Low,
        confidence: 95,
        current_value: Some(format!("served: {}; rendered: {}", listed(s), listed(r))),
        suggested_value: None,
        ..Recommendation::default()
    })
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::HttpFacts;

    const URL: &str = "https://shop.example/";

    fn page(html: &str) -> Page {
        Page::parse(URL, html.as_bytes(), HttpFacts::new().with_status(200))
    }

    fn browser() -> Browser {
        Browser { final_url: URL.to_string(), elapsed_ms: 120, requests: 3, ..Browser::default() }
    }

    const SHELL: &str = r#"<!DOCTYPE html><html><head><title></title><script src="/app.js"></script></head>
        <body><div id="root">Loading</div></body></html>"#;

    fn article(extra_head: &str) -> String {
        let words = "Copper kettles are hammered by hand in our workshop and tinned inside. ".repeat(8);
        format!(
            r#"<!DOCTYPE html><html><head><title>Copper kettles, hand hammered</title>
            <meta name="description" content="Hand-hammered copper kettles from our workshop.">
            <link rel="canonical" href="https://shop.example/kettles">{extra_head}</head>
            <body><h1>Copper kettles</h1><p>{words}</p>
            <a href="/kettles/large">Large</a><a href="/kettles/small">Small</a>
            <a href="https://other.example/">Elsewhere</a></body></html>"#
        )
    }

    #[test]
    fn a_client_rendered_shell_depends_on_javascript() {
        let r = compare(&page(SHELL), &page(&article("")), browser());
        assert_eq!(
            r.differences,
            ["title", "meta_description", "canonical", "h1", "h1_count", "word_count", "links"],
            "{r:#?}"
        );
        assert!(r.depends_on_javascript);
        assert_eq!(r.findings.len(), 1);
        let f = &r.findings[0];
        assert_eq!(f.id, JS_DEPENDENT_CONTENT);
        assert!(f.description.starts_with("The title exists only after rendering; "), "{}", f.description);
        assert!(f.description.contains("link targets exist only after rendering"), "{}", f.description);
        assert_eq!(r.links_only_rendered.total, 3);
        assert_eq!(r.links_only_rendered.first[0], "https://shop.example/kettles/large");
        assert_eq!((r.served.word_count, r.rendered.h1_count), (1, 1));
        assert_eq!(r.rendered.links, LinkCounts { internal: 2, external: 1 });
        assert_eq!((r.requests, r.elapsed_ms, r.timed_out), (3, 120, false));
    }

    #[test]
    fn the_same_page_has_no_differences_and_no_findings() {
        let html = article("");
        let r = compare(&page(&html), &page(&html), browser());
        assert!(r.differences.is_empty(), "{r:#?}");
        assert!(!r.depends_on_javascript);
        assert!(r.findings.is_empty());
        assert_eq!(r.links_only_rendered, LinksOnlyRendered::default());
    }

    #[test]
    fn a_script_that_changes_title_and_canonical_is_reported() {
        let served = article("");
        let rendered = served
            .replace("Copper kettles, hand hammered", "Kettles | Shop")
            .replace("https://shop.example/kettles\"", "https://shop.example/other\"");
        let r = compare(&page(&served), &page(&rendered), browser());
        assert_eq!(r.differences, ["title", "canonical"]);
        assert_eq!(r.served.canonical, "https://shop.example/kettles");
        assert_eq!(r.rendered.canonical, "https://shop.example/other");
        assert!(r.depends_on_javascript);
        assert!(
            r.findings[0]
                .description
                .starts_with("The title changes when rendered; the canonical changes when rendered."),
            "{}",
            r.findings[0].description
        );
    }

    #[test]
    fn noindex_added_by_script_is_critical_and_says_google_applies_it() {
        let served = article("");
        let rendered = article(r#"<meta name="robots" content="noindex">"#);
        let r = compare(&page(&served), &page(&rendered), browser());
        assert_eq!(r.differences, ["robots"]);
        assert!(!r.served.noindex && r.rendered.noindex);
        assert!(!r.depends_on_javascript);
        let f = &r.findings[0];
        assert_eq!((f.id.as_str(), f.kind), (JS_ROBOTS_DIRECTIVES, Severity::Critical));
        assert_eq!(f.title, "JavaScript adds noindex");
        assert!(f.description.contains("applies the noindex of the rendered page"), "{}", f.description);
        assert_eq!(f.current_value.as_deref(), Some("served: none; rendered: noindex"));
    }

    #[test]
    fn noindex_removed_by_script_keeps_the_page_out() {
        let served = article(r#"<meta name="robots" content="NoIndex, follow">"#);
        let rendered = article(r#"<meta name="robots" content="follow">"#);
        let r = compare(&page(&served), &page(&rendered), browser());
        assert_eq!(r.served.robots, ["noindex", "follow"]);
        let f = &r.findings[0];
        assert_eq!(f.title, "JavaScript removes noindex");
        assert!(f.description.contains("does not render a page whose served HTML says noindex"));
    }

    #[test]
    fn a_script_that_removes_title_canonical_and_h1_is_reported() {
        let served = article("");
        let rendered = served
            .replace("<title>Copper kettles, hand hammered</title>", "")
            .replace(r#"<link rel="canonical" href="https://shop.example/kettles">"#, "")
            .replace("<h1>Copper kettles</h1>", "");
        let r = compare(&page(&served), &page(&rendered), browser());
        assert_eq!(r.differences, ["title", "canonical", "h1", "h1_count", "word_count"], "{r:#?}");
        assert_eq!((r.rendered.title.as_str(), r.rendered.canonical.as_str()), ("", ""));
        // Nothing was added by the script: the content does not depend on it.
        assert!(!r.depends_on_javascript);
        assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
        let f = &r.findings[0];
        assert_eq!((f.id.as_str(), f.kind, f.impact), (JS_REMOVED_CONTENT, Severity::Warning, Level::High));
        assert_eq!(f.title, "JavaScript removes indexable content");
        assert!(
            f.description.starts_with(
                "The served HTML has the title, the canonical and the h1, and a script removes them: the rendered \
                 page has none."
            ),
            "{}",
            f.description
        );
        assert_eq!(f.current_value.as_deref(), Some("removed by rendering: title, canonical, h1"));
    }

    #[test]
    fn one_removed_field_is_named_alone_and_comes_after_a_dependency() {
        // The shell's description is removed while the script writes the rest.
        let served = SHELL.replace("<title></title>", r#"<title></title><meta name="description" content="Kettles">"#);
        let rendered = article("")
            .replace(r#"<meta name="description" content="Hand-hammered copper kettles from our workshop.">"#, "");
        let r = compare(&page(&served), &page(&rendered), browser());
        let ids: Vec<&str> = r.findings.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, [JS_DEPENDENT_CONTENT, JS_REMOVED_CONTENT]);
        assert!(
            r.findings[1].description.starts_with("The served HTML has the meta description, and a script removes it:"),
            "{}",
            r.findings[1].description
        );
        // A field the served HTML did not have either is not "removed".
        let r = compare(&page(SHELL), &page(SHELL), browser());
        assert!(r.findings.is_empty());
    }

    #[test]
    fn other_directive_changes_are_a_warning() {
        let served = article("");
        let rendered = article(r#"<meta name="googlebot" content="nofollow">"#);
        let r = compare(&page(&served), &page(&rendered), browser());
        let f = &r.findings[0];
        assert_eq!((f.kind, f.title.as_str()), (Severity::Warning, "JavaScript changes the robots directives"));
        assert!(r.rendered.nofollow);
    }

    #[test]
    fn a_few_words_more_are_not_a_dependency_and_lists_are_bounded() {
        let served = article("");
        let rendered = served.replace("</body>", "<p>Cookie banner: we use cookies.</p></body>");
        let r = compare(&page(&served), &page(&rendered), browser());
        assert_eq!(r.differences, ["word_count"]);
        assert!(!r.depends_on_javascript && r.findings.is_empty());

        let many: String = (0..120).map(|i| format!("<a href=\"/p{i}\">p{i}</a><a href=\"/p{i}\">again</a>")).collect();
        let rendered = served.replace("</body>", &format!("{many}</body>"));
        let blocked =
            (0..60).map(|i| BlockedRequest { url: format!("http://10.0.0.{i}/"), reason: "refused".into() }).collect();
        let r = compare(&page(&served), &page(&rendered), Browser { blocked, ..browser() });
        assert_eq!((r.links_only_rendered.total, r.links_only_rendered.first.len()), (120, MAX_LISTED_LINKS));
        assert_eq!((r.blocked_total, r.blocked.len()), (60, MAX_LISTED_BLOCKED));
        assert!(r.depends_on_javascript);
    }
}
