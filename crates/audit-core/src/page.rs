//! Page facts: everything the rules need, collected in one walk of the html5ever DOM.
//!
//! Architecture Invariant: rules never see the DOM. Every fact a rule, a later engine
//! (AI visibility, content gap, auto-fix) or the server needs is a field here, computed once.
//! Parsing never fails: oddities of the input are data on the [`Page`], not errors.

use std::collections::BTreeMap;

use html5ever::tendril::StrTendril;
use html5ever::{local_name, ns};
use markup5ever_rcdom::{Handle, NodeData};
use serde::Serialize;
use url::Url;

use crate::charset::{self, Charset};
use crate::locate::{Location, Locator, PathNode, Spot};
use crate::parse::{Analysis, Budget, HeadNoscript, Spans};
use crate::structured_data::JsonLd;

/// The `rel` tokens of the `<link>` elements (and `Link` headers) that point an agent at a
/// document of its own, kept in [`Page::agent_links`]: an AI catalog, an API catalog
/// (RFC 9727) and a markdown alternate (`alternate` with `type="text/markdown"` only).
pub const AGENT_LINK_RELS: &[&str] = &["ai-catalog", "api-catalog", "alternate"];

/// What the HTTP exchange told us about the page. Everything is optional, so a local file
/// (audited before it is deployed) is a page without HTTP facts: [`HttpFacts::new`]. The
/// `with_` methods set one fact each:
///
/// ```
/// use audit_core::{HttpFacts, RobotsTxtFact};
///
/// let http = HttpFacts::new()
///     .with_status(200)
///     .with_header("content-type", "text/html; charset=utf-8")
///     .with_load_time_ms(420)
///     .with_robots_txt(RobotsTxtFact::new(true, None));
/// assert_eq!(http.header("Content-Type"), Some("text/html; charset=utf-8"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpFacts {
    /// Status code of the final response.
    pub status: Option<u16>,
    /// The URL after redirects, when it differs from the requested one.
    pub final_url: Option<String>,
    /// URLs of the redirect hops, in order, excluding the final URL.
    pub redirects: Vec<String>,
    /// All response headers, names lower-case.
    pub headers: Vec<(String, String)>,
    /// Time to first byte in milliseconds.
    pub ttfb_ms: Option<u64>,
    /// Total time of the fetch in milliseconds.
    pub load_time_ms: Option<u64>,
    /// What the site's robots.txt says about this URL, when it was fetched.
    pub robots_txt: Option<RobotsTxtFact>,
}

impl HttpFacts {
    /// No HTTP facts at all (a local file), the same as [`HttpFacts::default`].
    pub fn new() -> HttpFacts {
        HttpFacts::default()
    }

    /// Sets the status code of the final response.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> HttpFacts {
        self.status = Some(status);
        self
    }

    /// Sets the URL after redirects.
    #[must_use]
    pub fn with_final_url(mut self, url: impl Into<String>) -> HttpFacts {
        self.final_url = Some(url.into());
        self
    }

    /// Sets the URLs of the redirect hops, in order, excluding the final URL.
    #[must_use]
    pub fn with_redirects(mut self, redirects: impl IntoIterator<Item = impl Into<String>>) -> HttpFacts {
        self.redirects = redirects.into_iter().map(Into::into).collect();
        self
    }

    /// Adds a response header (the name is stored lower-case).
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> HttpFacts {
        self.headers.push((name.into().to_ascii_lowercase(), value.into()));
        self
    }

    /// Sets the time to first byte in milliseconds.
    #[must_use]
    pub fn with_ttfb_ms(mut self, ms: u64) -> HttpFacts {
        self.ttfb_ms = Some(ms);
        self
    }

    /// Sets the total time of the fetch in milliseconds.
    #[must_use]
    pub fn with_load_time_ms(mut self, ms: u64) -> HttpFacts {
        self.load_time_ms = Some(ms);
        self
    }

    /// Sets what the site's robots.txt says about the URL.
    #[must_use]
    pub fn with_robots_txt(mut self, robots_txt: RobotsTxtFact) -> HttpFacts {
        self.robots_txt = Some(robots_txt);
        self
    }

    /// The first value of a header (name compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Every value of a header (name compared case-insensitively).
    pub fn header_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// One `Link` header value split into `(target, rel tokens, type)` entries (RFC 8288); an entry
/// whose `anchor` names another resource is left out (its link is that resource's, not the
/// response's), and of several `rel` parameters the first counts.
pub fn parse_link_header(value: &str) -> Vec<(String, Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = value.trim();
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>').map(|c| open + c) else { break };
        let target = rest[open + 1..close].trim().to_owned();
        let after = &rest[close + 1..];
        // Parameters run to the next `,` that is outside quotes.
        let mut end = after.len();
        let mut quoted = false;
        for (i, c) in after.char_indices() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let mut rels = None;
        let mut kind = None;
        let mut anchored = false;
        for param in after[..end].split(';') {
            let Some((name, val)) = param.split_once('=') else { continue };
            let val = val.trim().trim_matches('"');
            match name.trim().to_ascii_lowercase().as_str() {
                // RFC 8288 3.3: a second `rel` is ignored.
                "rel" if rels.is_none() => {
                    rels = Some(val.split_ascii_whitespace().map(str::to_ascii_lowercase).collect::<Vec<_>>())
                }
                "type" => kind = Some(val.to_ascii_lowercase()),
                // RFC 8288 3.2: a link with an anchor is about that resource, not this response.
                "anchor" => anchored = !val.is_empty(),
                _ => {}
            }
        }
        if !anchored {
            out.push((target, rels.unwrap_or_default(), kind));
        }
        rest = after.get(end + 1..).unwrap_or("");
    }
    out
}

/// The verdict of the site's robots.txt for the audited URL, computed by the caller (the
/// robots.txt engine lives in `ai-visibility`; audit-core stays free of it and of I/O).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RobotsTxtFact {
    /// Whether a search crawler (Googlebot, else `*`) may fetch the URL.
    pub allowed: bool,
    /// The rule that decided, e.g. `Disallow: /private`.
    pub rule: Option<String>,
    /// Whether the file was read: `false` when it could not be (a server error or no
    /// answer, which crawlers take as a complete disallow).
    pub read: bool,
    /// The file's lines that search engines do not read as written, in order (the caller
    /// keeps a bounded number of them; `problems_total` counts them all), shared by the
    /// audits of every page of the site (not serialised).
    #[serde(skip)]
    pub problems: std::sync::Arc<[RobotsTxtProblem]>,
    /// How many lines have a problem.
    pub problems_total: usize,
}

/// A line of robots.txt that search engines do not read as written (see
/// [`RobotsTxtFact::problems`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RobotsTxtProblem {
    /// 1-based line number.
    pub line: usize,
    /// The line as written (without its comment).
    pub text: String,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The line as it should be written, when that can be told.
    pub corrected: Option<String>,
}

impl RobotsTxtProblem {
    /// A problem of line `line`.
    pub fn new(line: usize, text: String, message: String, corrected: Option<String>) -> RobotsTxtProblem {
        RobotsTxtProblem { line, text, message, corrected }
    }
}

impl RobotsTxtFact {
    /// The verdict: whether a search crawler may fetch the URL, and the rule that decided.
    pub fn new(allowed: bool, rule: Option<String>) -> RobotsTxtFact {
        RobotsTxtFact { allowed, rule, read: true, problems: Default::default(), problems_total: 0 }
    }

    /// The same verdict, with the file's problem lines (`total` counts them all).
    pub fn with_problems(
        mut self,
        problems: impl Into<std::sync::Arc<[RobotsTxtProblem]>>,
        total: usize,
    ) -> RobotsTxtFact {
        let problems = problems.into();
        self.problems_total = total.max(problems.len());
        self.problems = problems;
        self
    }

    /// The same verdict, for a file that could not be read.
    pub fn unread(mut self) -> RobotsTxtFact {
        self.read = false;
        self
    }
}

/// A heading element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Heading {
    /// 1 for `<h1>` ... 6 for `<h6>`.
    pub level: u8,
    /// Text content, white space collapsed.
    pub text: String,
    /// Visible words between this heading and the next one.
    pub section_words: usize,
    /// Where it is (see [`Page::locate`]).
    #[serde(skip)]
    pub spot: Spot,
}

/// An `<img>` element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Image {
    /// The `src` attribute as written.
    pub src: String,
    /// The `alt` attribute; `None` when absent (`Some("")` marks a decorative image).
    pub alt: Option<String>,
    /// The `width` attribute as written.
    pub width: Option<String>,
    /// The `height` attribute as written.
    pub height: Option<String>,
    /// The `loading` attribute as written (`lazy`, `eager`).
    pub loading: Option<String>,
    /// The `role` attribute, trimmed and lower-case.
    pub role: Option<String>,
    /// Whether it has a name besides `alt`: a non-blank `aria-label`, `aria-labelledby` or
    /// `title`.
    pub labelled: bool,
    /// Whether markup hides it from everyone: it or an ancestor carries the `hidden`
    /// attribute, `aria-hidden="true"`, `inert`, or an inline style `display: none` or
    /// `visibility: hidden`.
    pub hidden: bool,
    /// Whether it sits inside `<noscript>`: markup here (the parser runs with scripting off),
    /// text in a browser that runs scripts, as Googlebot's renderer does.
    pub in_noscript: bool,
    /// Where it is (see [`Page::locate`]).
    #[serde(skip)]
    pub spot: Spot,
}

impl Image {
    /// Whether a browser running scripts shows it: not hidden, not inside `<noscript>`. The
    /// image rules count these.
    pub fn is_shown(&self) -> bool {
        !self.in_noscript && !self.hidden
    }
}

/// What kind of target an `<a>` element has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LinkKind {
    /// An http(s) URL (after resolution against the base URL): counted as a link.
    Web,
    /// No `href` attribute at all.
    NoHref,
    /// `href=""` (or white space only).
    Empty,
    /// Only a `#fragment`.
    Fragment,
    /// A `javascript:` URL.
    Javascript,
    /// A `mailto:` URL.
    Mailto,
    /// A `tel:` URL.
    Tel,
    /// A `data:` URL.
    Data,
    /// Another scheme (`ftp:`, `whatsapp:`...): counted as a link, as browsers do, but not
    /// crawlable.
    Other,
    /// An href that does not resolve to a URL.
    Invalid,
}

/// An `<a>` element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Link {
    /// The `href` attribute as written.
    pub href: Option<String>,
    /// The resolved absolute URL for [`LinkKind::Web`] and [`LinkKind::Other`] links.
    pub url: Option<String>,
    /// What kind of target it has.
    pub kind: LinkKind,
    /// `rel` tokens, lower-case.
    pub rel: Vec<String>,
    /// Text content, ASCII white space collapsed and any white space trimmed at both ends (a
    /// no-break space inside stays).
    pub text: String,
    /// `aria-label`, or the `alt` of an image inside the link: an accessible name besides text.
    pub label: Option<String>,
    /// Host equals the page's host.
    pub internal: bool,
    /// The `lang` of the closest element (itself included) that has one, as written.
    pub lang: Option<String>,
    /// The `role` attribute, trimmed.
    pub role: Option<String>,
    /// The `name` attribute, trimmed.
    pub name: Option<String>,
    /// The `id` attribute.
    pub id: Option<String>,
    /// Whether it carries an attribute that belongs to an `href` (`target`, `download`,
    /// `ping`, `rel`, `hreflang`, `type`, `referrerpolicy`): without `href`, the HTML
    /// standard makes an `<a>` a placeholder only when it has none of them.
    pub href_attributes: bool,
    /// Whether it carries an event handler attribute (`onclick` ...).
    pub event_handlers: bool,
    /// Whether it sits inside `<noscript>` (see [`Image::in_noscript`]).
    pub in_noscript: bool,
    /// Where it is (see [`Page::locate`]).
    #[serde(skip)]
    pub spot: Spot,
}

/// A `<link rel="alternate" hreflang>` element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Hreflang {
    /// The `hreflang` value as written.
    pub lang: String,
    /// The `href` as written.
    pub href: String,
    /// The resolved URL, `None` when the href does not resolve.
    pub url: Option<String>,
    /// Whether it is in the head, as a browser running scripts builds it (see
    /// [`Page::head_meta_description`]): search engines read hreflang links there only.
    pub in_head: bool,
    /// Where it is (see [`Page::locate`]).
    #[serde(skip)]
    pub spot: Spot,
}

/// A `<form>` that declares a WebMCP tool (it carries `toolname` or `tooldescription`), as
/// agents read it without running the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct WebMcpForm {
    /// `toolname`, as written.
    pub toolname: Option<String>,
    /// `tooldescription`, as written.
    pub tooldescription: Option<String>,
    /// Its fields (`input` other than buttons and hidden ones, `select`, `textarea`), in order.
    pub fields: Vec<WebMcpField>,
}

/// A `<meta http-equiv="refresh">` a browser acts on (see [`Page::meta_refresh`]), or the
/// HTTP `Refresh` header's (see [`Page::refresh`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefreshPragma {
    /// Seconds before it acts.
    pub seconds: u64,
    /// The URL it goes to, as written; `None` reloads the page.
    pub url: Option<String>,
    /// The `<meta>` element ([`Spot::NONE`] for the header).
    pub spot: Spot,
    /// Whether it is the HTTP `Refresh` header rather than a `<meta>` (its URL is then
    /// resolved already, against the response's URL).
    pub header: bool,
}

/// Refresh pragmas the walk keeps at most before choosing the one a browser acts on (the
/// first whose URL parses): a page of a million `<meta>` elements costs no more.
pub const MAX_REFRESH_CANDIDATES: usize = 8;

/// The delay and target of a `refresh` pragma's `content`, as HTML's "shared declarative
/// refresh steps" read it: `None` when a browser ignores it (no leading digit or dot).
pub fn parse_refresh(content: &str) -> Option<(u64, Option<String>)> {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r');
    let s = content.trim_start_matches(is_space);
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &s[digits..];
    // The fraction is read and dropped; a time of only a dot is zero.
    let after_dot = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if digits == 0 && after_dot.len() == rest.len() {
        return None;
    }
    let seconds = s[..digits].parse::<u64>().unwrap_or(if digits == 0 { 0 } else { u64::MAX });
    // After the time: nothing (the page reloads itself), or `;`, `,` or white space before
    // the URL; anything else and the browser ignores the whole pragma.
    match after_dot.chars().next() {
        None => return Some((seconds, None)),
        Some(c) if c == ';' || c == ',' || is_space(c) => {}
        Some(_) => return None,
    }
    let rest = after_dot.trim_start_matches(is_space);
    let rest = match rest.chars().next() {
        Some(';' | ',') => rest[1..].trim_start_matches(is_space),
        _ => rest,
    };
    let mut url = rest;
    if url.get(..3).is_some_and(|u| u.eq_ignore_ascii_case("url")) {
        let after = url[3..].trim_start_matches(is_space);
        if let Some(value) = after.strip_prefix('=') {
            url = value.trim_start_matches(is_space);
        }
    }
    let url = match url.chars().next() {
        Some(q @ ('"' | '\'')) => url[1..].split(q).next().unwrap_or_default(),
        _ => url,
    };
    let url = url.trim_end_matches(is_space);
    Some((seconds, (!url.is_empty()).then(|| url.to_string())))
}

/// A `<form>` of the page: where its data go when it is submitted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Form {
    /// `action`, as written (`None` without one).
    pub action: Option<String>,
    /// Where the form submits (HTML's "form submission"): `action` resolved against the base
    /// URL, or the document's own URL when `action` is missing or empty; `None` when it does
    /// not parse.
    pub url: Option<String>,
    /// `method`, lower-cased (`get` without one): `dialog` submits nothing over the network.
    pub method: String,
    /// The `<form>` start tag.
    #[serde(skip)]
    pub spot: Spot,
}

/// A field of a [`WebMcpForm`]: a parameter of the tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct WebMcpField {
    /// `name`, the parameter's name; `None` when absent or empty.
    pub name: Option<String>,
    /// Whether it carries `required`.
    pub required: bool,
    /// Whether it carries a description an agent reads (`toolparamdescription` or `title`).
    pub described: bool,
}

/// Where the elements behind the page's facts are, for the facts kept as plain values (see
/// [`Page::locate`]); the facts kept as structs ([`Image`], [`Link`] ...) carry their own.
/// A fact without an element has [`Spot::NONE`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Spots {
    /// `<html>`, when the markup writes it.
    pub html: Spot,
    /// `<head>`, when the markup writes it: where a missing head element goes.
    pub head: Spot,
    /// The `<title>` that [`Page::title`] comes from.
    pub title: Spot,
    /// Every `<title>` inside `<head>` (SVG titles excluded).
    pub head_titles: Vec<Spot>,
    /// Each `<meta name="description">` of [`Page::meta_descriptions`].
    pub meta_descriptions: Vec<Spot>,
    /// Each `<link rel=canonical>` of [`Page::canonicals`].
    pub canonicals: Vec<Spot>,
    /// Each `<link rel=canonical>` of [`Page::head_canonicals`].
    pub head_canonicals: Vec<Spot>,
    /// Each `<meta name="robots">` and `<meta name="googlebot">` with a `content`, in order.
    pub meta_robots: Vec<Spot>,
    /// Those of them whose directives forbid indexing (`noindex`, `none`).
    pub noindex: Vec<Spot>,
    /// Those of them whose directives forbid following links (`nofollow`, `none`).
    pub nofollow: Vec<Spot>,
    /// Those of them whose directives forbid snippets (`nosnippet`, `max-snippet:0`).
    pub nosnippet: Vec<Spot>,
    /// Those of them whose directives forbid indexing the page's images (`noimageindex`).
    pub noimageindex: Vec<Spot>,
    /// The `<meta name="viewport">` of [`Page::viewport`].
    pub viewport: Spot,
    /// The `<meta>` of [`Page::meta_charset`].
    pub meta_charset: Spot,
    /// The `<meta>` of each Open Graph property of [`Page::og`] and Twitter field of
    /// [`Page::twitter`] (the first of each).
    pub social: BTreeMap<String, Spot>,
    /// Each script of [`Page::render_blocking_scripts`].
    pub render_blocking_scripts: Vec<Spot>,
    /// The element of each subresource of [`Page::mixed_content`].
    pub mixed_content: Vec<Spot>,
    /// Elements with microdata or RDFa attributes, each with the line structured data
    /// reports for it.
    pub markup: Vec<(u32, Spot)>,
}

/// Landmark and sectioning elements, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Semantic {
    /// `<main>` elements.
    pub main: usize,
    /// `<nav>` elements.
    pub nav: usize,
    /// `<article>` elements.
    pub article: usize,
    /// `<header>` elements.
    pub header: usize,
    /// `<footer>` elements.
    pub footer: usize,
    /// `<aside>` elements.
    pub aside: usize,
    /// `<section>` elements.
    pub section: usize,
}

/// All facts about one page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Page {
    /// The URL the audit was asked for.
    pub url: String,
    /// The URL the document lives at (after redirects); links and canonicals resolve against
    /// its base URL.
    pub final_url: String,
    /// What the HTTP exchange told (not serialised).
    #[serde(skip)]
    pub http: HttpFacts,
    /// How the bytes were decoded.
    pub charset: Charset,
    /// Size of the HTML in bytes, as received (after content decoding).
    pub html_bytes: usize,
    /// Whether the document starts with a `<!DOCTYPE>`.
    pub has_doctype: bool,
    /// `document.title`: first HTML `<title>` in tree order, white space collapsed; `""` if none.
    pub title: String,
    /// What ended the head before the page closed it, and its line: a start tag or text the
    /// head cannot hold (`<img>`, `<div>`), after which everything is body (not serialised).
    #[serde(skip)]
    pub head_ended_by: Option<(String, u32)>,
    /// Number of HTML `<title>` elements inside `<head>` (SVG titles excluded).
    pub titles_in_head: usize,
    /// `content` of each `<meta name="description">`, in order.
    pub meta_descriptions: Vec<String>,
    /// `content` of the first `<meta name="description">` inside `<head>` (`""` when it has no
    /// `content`): search engines read metadata from the head only, and a `<meta>` after
    /// content the head cannot hold lands in the body.
    pub head_meta_description: Option<String>,
    /// Text of each `<h1>`, in order.
    pub h1s: Vec<String>,
    /// All headings in document order.
    pub headings: Vec<Heading>,
    /// Every `<img>`, in document order.
    pub images: Vec<Image>,
    /// Every `<a>`, in document order.
    pub links: Vec<Link>,
    /// `href` of every `<link rel=canonical>`, as written.
    pub canonicals: Vec<String>,
    /// `href` of every `<link rel=canonical>` in the head (see
    /// [`Page::head_meta_description`]), as written: search engines read canonical links there
    /// only.
    pub head_canonicals: Vec<String>,
    /// `href` of the head's first `<link rel=next>` and first `<link rel=prev>` (or
    /// `previous`), as written: the pagination of a series of pages.
    pub head_pagination: (Option<String>, Option<String>),
    /// `content` of each `<meta name="robots">`, in order.
    pub meta_robots: Vec<String>,
    /// `content` of each `<meta name="googlebot">`, in order.
    pub meta_googlebot: Vec<String>,
    /// `content` of the first `<meta name="viewport">`.
    pub viewport: Option<String>,
    /// The charset label of the first `<meta charset>` (or `http-equiv="content-type"`).
    pub meta_charset: Option<String>,
    /// The `lang` attribute of `<html>`.
    pub lang: Option<String>,
    /// Every `<link rel="alternate" hreflang>`, in document order.
    pub hreflang: Vec<Hreflang>,
    /// Open Graph properties (`og:title` ...), the first value of each.
    pub og: BTreeMap<String, String>,
    /// Twitter card fields (`twitter:card` ...), the first value of each.
    pub twitter: BTreeMap<String, String>,
    /// Every JSON-LD block, in document order.
    pub json_ld: Vec<JsonLd>,
    /// `itemtype` values of microdata items.
    pub microdata_types: Vec<String>,
    /// The structured data of the page (JSON-LD, microdata and RDFa Lite read into one
    /// graph) checked against the search engines' requirements (see
    /// [`crate::structured_data`]). Not serialised with the facts: the audit result carries it.
    #[serde(skip)]
    pub structured_data: crate::structured_data::StructuredData,
    /// `href` of the first `<link rel~=icon>`.
    pub favicon: Option<String>,
    /// The `<link>` elements that lead agents to documents of their own (an AI catalog, an
    /// API catalog, a markdown alternate), in document order: `(rel, href as written,
    /// type)`, one entry per such `rel` token. Not serialised: the AI-readiness check reads it.
    #[serde(skip)]
    pub agent_links: Vec<(String, String, Option<String>)>,
    /// The forms that declare WebMCP tools, in document order. Not serialised: the
    /// AI-readiness check reads it.
    #[serde(skip)]
    pub webmcp_forms: Vec<WebMcpForm>,
    /// Every `<form>`, in document order (not serialised).
    #[serde(skip)]
    pub forms: Vec<Form>,
    /// Each `<picture>` without an `<img>` inside it: such a picture shows nothing (not
    /// serialised).
    #[serde(skip)]
    pub pictures_without_img: Vec<Spot>,
    /// The first `<meta http-equiv="refresh">` whose `content` a browser acts on, anywhere in
    /// the document but inside `<noscript>` (which acts only where scripts are off), and
    /// whose URL parses (of the first eight the walk keeps): its delay in seconds, its
    /// target as written (`None` to reload the page itself) and where it is (not serialised).
    #[serde(skip)]
    pub meta_refresh: Option<RefreshPragma>,
    /// `<meta name="generator">`.
    pub generator: Option<String>,
    /// `src` of every external script.
    pub script_srcs: Vec<String>,
    /// Scripts in `<head>` with `src` and neither `async`, `defer` nor `type=module`.
    pub render_blocking_scripts: Vec<String>,
    /// `http:` subresources of an `https:` page.
    pub mixed_content: Vec<String>,
    /// Visible words (script, style, noscript, template and head excluded).
    pub word_count: usize,
    /// The visible text those words come from, words separated by white space (runs are not
    /// collapsed: the walk's own buffer, kept at no extra cost). Not serialised.
    #[serde(skip)]
    pub visible_text: String,
    /// Byte ranges of [`Page::visible_text`] inside `<nav>`, `<header>` and `<footer>`
    /// elements (the outermost of nested ones), and, on a page with exactly one main landmark
    /// (`<main>` or `role="main"`) holding visible text, everything outside it; in order: the
    /// text a site repeats around each page's own content. Not serialised.
    #[serde(skip)]
    pub boilerplate: Vec<(usize, usize)>,
    /// Bytes of visible text, white space collapsed.
    pub text_bytes: usize,
    /// Number of elements in the document.
    pub dom_nodes: usize,
    /// Deepest element nesting.
    pub dom_depth: usize,
    /// Landmark and sectioning elements, counted.
    pub semantic: Semantic,
    /// Number of `<ul>`/`<ol>` lists.
    pub lists: usize,
    /// Number of `<table>`s.
    pub tables: usize,
    /// Number of `<p>` elements.
    pub paragraphs: usize,
    /// The first paragraph of at least eight words, white space collapsed.
    pub first_paragraph: Option<String>,
    /// Visible words that come before [`Page::first_paragraph`].
    pub words_before_first_paragraph: usize,
    /// The `<base href>` in effect, resolved.
    pub base_url: Option<String>,
    /// Parse errors reported by html5ever (a count; the messages are not stable).
    pub parse_errors: usize,
    /// How much of the document the analysis covered (the parser's limits).
    pub analysis: Analysis,
    /// Where the elements behind the plain facts are. Not serialised.
    #[serde(skip)]
    pub spots: Spots,
    /// What turns spots into locations.
    #[serde(skip)]
    locator: Locator,
}

impl Page {
    /// Parses a page. Never fails: unparseable URLs fall back to `about:blank` resolution,
    /// and any bytes produce a (possibly empty) page. The structural limits of the parser
    /// apply (depth, formatting elements, [`MAX_NODES`](crate::limits::MAX_NODES)), no time
    /// budget: see [`Page::parse_within`].
    pub fn parse(url: &str, bytes: &[u8], http: HttpFacts) -> Page {
        Page::parse_within(url, bytes, http, &crate::parse::Unlimited)
    }

    /// [`Page::parse`] within a [`Budget`]: the parser asks it whether to go on between
    /// chunks of input, and a page whose budget runs out is the page as far as it was
    /// parsed, with [`Page::analysis`] saying where it stopped.
    pub fn parse_within(url: &str, bytes: &[u8], http: HttpFacts, budget: &dyn Budget) -> Page {
        let final_url = http.final_url.clone().unwrap_or_else(|| url.to_string());
        let (text, charset) = charset::decode(bytes, http.header("content-type"));
        // Scripts are not run, so `<noscript>` content is markup, as in a browser with
        // scripting off: its images and links count (the corpus reference agrees).
        let parsed = crate::parse::parse(StrTendril::from_slice(&text), budget);
        let mut walker = Walker {
            head_noscript: parsed.head_noscript,
            lines: parsed.lines,
            spans: parsed.spans,
            ..Walker::default()
        };
        // The walk and the structured-data reader run under the budget of the work after the
        // parse: a cut parse can still leave a large tree, and that work must not take the
        // share of the budget kept for the rules.
        let after_parse = AfterParse(budget);
        let walk_cut = walker.walk(&parsed.dom.document, &after_parse);
        let markup = std::mem::take(&mut walker.markup);
        walker.source = text;
        let mut page = walker.finish(url, final_url, http, charset, bytes.len(), parsed.parse_errors);
        page.analysis = parsed.analysis;
        page.head_ended_by = parsed.head_ended_by;
        page.structured_data = crate::structured_data::read(&page.json_ld, &markup, &after_parse);
        if (walk_cut || page.structured_data.stopped) && page.analysis.stopped.is_none() {
            // The budget ran out after the parse: the page says so as it does for a parse cut
            // short (the rule html-too-complex reports it), never silently.
            page.analysis.stopped = Some(crate::parse::Stop::AfterParse);
        }
        page
    }

    /// Where an element is: its line, column, selector and start tag; `None` for a spot
    /// that points at nothing. A finding lists these with [`Finding::at`](crate::Finding::at).
    pub fn locate(&self, spot: Spot) -> Option<Location> {
        self.locator.locate(spot)
    }

    /// Frees what [`Page::locate`] reads: the decoded document (as large as the page) and
    /// its table of elements. An audit locates its findings as it runs, so a caller that
    /// keeps the page after its audit (a crawl, until the page's record is written) calls
    /// this to keep the facts without a second copy of the document; [`Page::locate`]
    /// answers `None` afterwards.
    pub fn release_source(&mut self) {
        self.locator = Locator::default();
    }

    /// The title text of the first `<h1>`, or `""`.
    pub fn h1(&self) -> &str {
        self.h1s.first().map_or("", String::as_str)
    }

    /// The first meta description, if any.
    pub fn meta_description(&self) -> Option<&str> {
        self.meta_descriptions.first().map(String::as_str)
    }

    /// The first canonical, resolved against the base URL (`""` when absent).
    pub fn canonical(&self) -> String {
        self.canonicals.first().map(|c| self.resolve(c).unwrap_or_else(|| c.clone())).unwrap_or_default()
    }

    /// The first canonical of the head, resolved against the base URL (`""` when absent).
    pub fn head_canonical(&self) -> String {
        self.head_canonicals.first().map(|c| self.resolve(c).unwrap_or_else(|| c.clone())).unwrap_or_default()
    }

    /// The targets of the HTTP `Link` headers' `rel="canonical"` entries (RFC 8288, Google's
    /// "rel=canonical HTTP header"), resolved against the final URL (a header's reference is
    /// relative to the response's URL, never to the document's `<base>`), in order.
    pub fn header_canonicals(&self) -> Vec<String> {
        let base = Url::parse(&self.final_url).ok();
        self.http
            .header_all("link")
            .flat_map(parse_link_header)
            .filter(|(_, rels, _)| rels.iter().any(|r| r == "canonical"))
            .map(|(target, _, _)| match base.as_ref().and_then(|b| b.join(&target).ok()) {
                Some(url) => String::from(url),
                None => target,
            })
            .collect()
    }

    /// The refresh a browser acts on: the HTTP `Refresh` header's when its value is one a
    /// browser reads (HTML reads it with the same steps as the pragma, before the document,
    /// and a document that will refresh acts on no `<meta>` refresh after it), else
    /// [`Page::meta_refresh`].
    pub fn refresh(&self) -> Option<RefreshPragma> {
        let header = self.http.header("refresh").and_then(parse_refresh).and_then(|(seconds, url)| {
            // Read before the document, so against the response's URL, never a `<base>`; a
            // URL that does not parse makes the browser give the header up.
            let url = match url {
                Some(u) => Some(self.parsed_url()?.join(u.trim()).ok()?.to_string()),
                None => None,
            };
            Some(RefreshPragma { seconds, url, spot: Spot::NONE, header: true })
        });
        header.or_else(|| self.meta_refresh.clone())
    }

    /// The canonical URL search engines are told: the head's first canonical, else the first
    /// of the `Link` header (resolved; `None` when neither names one).
    pub fn declared_canonical(&self) -> Option<String> {
        if self.head_canonicals.is_empty() {
            self.header_canonicals().into_iter().next()
        } else {
            Some(self.head_canonical())
        }
    }

    /// The hreflang links of the head.
    pub fn head_hreflang(&self) -> impl Iterator<Item = &Hreflang> + '_ {
        self.hreflang.iter().filter(|h| h.in_head)
    }

    /// Resolves a reference against the document's base URL.
    pub fn resolve(&self, reference: &str) -> Option<String> {
        let base = self.base_url.as_deref().unwrap_or(&self.final_url);
        let base = Url::parse(base).ok()?;
        base.join(reference.trim()).ok().map(String::from)
    }

    /// The parsed final URL, when it parses.
    pub fn parsed_url(&self) -> Option<Url> {
        Url::parse(&self.final_url).ok()
    }

    /// Number of `<a>` elements counted as links (as a browser's DOM counts them, docs/API.md),
    /// internal and external.
    pub fn link_counts(&self) -> (usize, usize) {
        let web = self.links.iter().filter(|l| matches!(l.kind, LinkKind::Web | LinkKind::Other));
        let internal = web.clone().filter(|l| l.internal).count();
        (internal, web.count() - internal)
    }

    /// Number of images without an `alt` attribute.
    pub fn images_missing_alt(&self) -> usize {
        self.images.iter().filter(|i| i.alt.is_none()).count()
    }

    /// Robots directives from `<meta name=robots|googlebot>` and `X-Robots-Tag`, lower-case.
    pub fn robots_directives(&self) -> Vec<String> {
        let header = self.http.header_all("x-robots-tag").flat_map(|v| {
            // `X-Robots-Tag: googlebot: noindex` names a crawler; keep the directives.
            // A header naming another crawler (`bingbot: noindex`) does not concern search
            // crawlers in general; we report what applies to Googlebot and to all.
            let v = match v.split_once(':') {
                Some((agent, rest)) if !agent.contains(',') && !agent.trim().contains(' ') && !is_directive(agent) => {
                    if !agent.trim().eq_ignore_ascii_case("googlebot") {
                        return Vec::new();
                    }
                    rest
                }
                _ => v,
            };
            v.split(',').map(|d| d.trim().to_ascii_lowercase()).collect::<Vec<_>>()
        });
        self.meta_robots
            .iter()
            .chain(&self.meta_googlebot)
            .flat_map(|c| c.split(',').map(|d| d.trim().to_ascii_lowercase()))
            .chain(header)
            .filter(|d| !d.is_empty())
            .collect()
    }

    /// Whether any robots directive forbids indexing.
    pub fn is_noindex(&self) -> bool {
        self.robots_directives().iter().any(|d| d == "noindex" || d == "none")
    }

    /// Whether any robots directive forbids snippets: `nosnippet`, or `max-snippet:0`, which
    /// Google reads as the same.
    pub fn is_nosnippet(&self) -> bool {
        self.robots_directives().iter().any(|d| forbids_snippets(d))
    }

    /// Whether any robots directive forbids indexing the page's images (`noimageindex`).
    pub fn is_noimageindex(&self) -> bool {
        self.robots_directives().iter().any(|d| d == "noimageindex")
    }

    /// Whether any robots directive forbids following links.
    pub fn is_nofollow(&self) -> bool {
        self.robots_directives().iter().any(|d| d == "nofollow" || d == "none")
    }

    /// Every JSON-LD `@type` on the page, in order of appearance, without duplicates.
    pub fn json_ld_types(&self) -> Vec<&str> {
        // A set beside the list: a page may hold 100,000 blocks, and searching the list for
        // each type made that quadratic (8 s of CPU for one audit).
        let mut seen = std::collections::HashSet::new();
        let mut types = Vec::new();
        for t in self.json_ld.iter().flat_map(|b| &b.types) {
            if seen.insert(t.as_str()) {
                types.push(t.as_str());
            }
        }
        types
    }

    /// The text/HTML ratio in percent.
    pub fn text_ratio(&self) -> f64 {
        if self.html_bytes == 0 {
            return 0.0;
        }
        100.0 * self.text_bytes as f64 / self.html_bytes as f64
    }
}

/// Whether one robots directive forbids snippets: `nosnippet`, or `max-snippet` with the value
/// 0 (white space around the colon is allowed here, as in the other directives' values).
pub(crate) fn forbids_snippets(directive: &str) -> bool {
    let d = directive.trim();
    if d.eq_ignore_ascii_case("nosnippet") {
        return true;
    }
    match d.split_once(':') {
        Some((name, value)) => name.trim().eq_ignore_ascii_case("max-snippet") && value.trim() == "0",
        None => false,
    }
}

fn is_directive(s: &str) -> bool {
    matches!(
        s.trim().to_ascii_lowercase().as_str(),
        "noindex"
            | "nofollow"
            | "none"
            | "all"
            | "index"
            | "follow"
            | "unavailable_after"
            | "max-snippet"
            | "max-image-preview"
            | "max-video-preview"
            | "noarchive"
            | "nosnippet"
            | "notranslate"
            | "noimageindex"
            | "indexifembedded"
    )
}

/// Elements whose text is not visible.
fn hides_text(name: &html5ever::LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("head")
            | local_name!("title")
    )
}

/// Whether an inline `style` hides the element from everyone (`display: none`,
/// `visibility: hidden`); style sheets are not read.
fn hides_by_style(style: &str) -> bool {
    // Most styles say neither; only those that name a value worth reading are normalised.
    let lower = style.to_ascii_lowercase();
    if !lower.contains("none") && !lower.contains("hidden") {
        return false;
    }
    let style: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    style.split(';').any(|d| matches!(d.trim_end_matches("!important"), "display:none" | "visibility:hidden"))
}

/// Elements that do not break words when text runs across them.
fn is_inline(name: &html5ever::LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("abbr")
            | local_name!("b")
            | local_name!("bdi")
            | local_name!("bdo")
            | local_name!("cite")
            | local_name!("code")
            | local_name!("data")
            | local_name!("dfn")
            | local_name!("em")
            | local_name!("i")
            | local_name!("kbd")
            | local_name!("mark")
            | local_name!("q")
            | local_name!("s")
            | local_name!("samp")
            | local_name!("small")
            | local_name!("span")
            | local_name!("strong")
            | local_name!("sub")
            | local_name!("sup")
            | local_name!("time")
            | local_name!("u")
            | local_name!("var")
            | local_name!("font")
            | local_name!("label")
    )
}

/// Collapses ASCII white space runs to one space and trims (what `document.title` does).
pub fn collapse(s: &str) -> String {
    // Byte by byte: an ASCII byte is never part of a longer UTF-8 sequence, so the words
    // between white space bytes are whole characters, without decoding any (every title,
    // link and paragraph text goes through here).
    let mut out = String::with_capacity(s.len());
    let mut word_start = None;
    for (i, b) in s.bytes().enumerate() {
        match (b.is_ascii_whitespace(), word_start) {
            (true, Some(start)) => {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&s[start..i]);
                word_start = None;
            }
            (false, None) => word_start = Some(i),
            _ => {}
        }
    }
    if let Some(start) = word_start {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&s[start..]);
    }
    out
}

/// Collapses every Unicode white space run (no-break spaces included, as `innerText` and a
/// JavaScript `\s` do) to one space and trims: for heading and link text.
pub fn collapse_unicode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Counts words: white-space separated tokens that carry a letter or digit.
pub fn count_words(s: &str) -> usize {
    scan_text(s).0
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FFFF)
}

/// One pass over text: the number of words (as [`count_words`]) and the length in bytes the
/// text would have with white space collapsed (as [`collapse`]), without building it.
fn scan_text(s: &str) -> (usize, usize) {
    let (words, len, _) = scan_text_marks(s, &[]);
    (words, len)
}

/// Classes of the ASCII bytes for word scanning: [`WHITE`], [`ALNUM`], or 0 (punctuation
/// and controls: part of a word, not a letter or digit).
const ASCII_CLASS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = if matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            WHITE
        } else if byte.is_ascii_alphanumeric() {
            ALNUM
        } else {
            0
        };
        b += 1;
    }
    table
};
const WHITE: u8 = 1;
const ALNUM: u8 = 2;

/// [`scan_text`] that also reports, for each of the sorted byte offsets `marks`, the number of
/// words that ended before it.
///
/// The text between two marks is scanned in a tight loop; ASCII (most of the text of most
/// pages) is classified by a table lookup, anything else is decoded.
fn scan_text_marks(s: &str, marks: &[usize]) -> (usize, usize, Vec<usize>) {
    let mut counts = Vec::with_capacity(marks.len());
    let (mut words, mut len) = (0usize, 0usize);
    let (mut in_word, mut alnum, mut gap) = (false, false, false);
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut m = 0;
    while i < bytes.len() {
        while m < marks.len() && marks[m] <= i {
            counts.push(words + usize::from(in_word && alnum));
            m += 1;
        }
        let end = marks.get(m).map_or(bytes.len(), |&mark| mark.min(bytes.len()));
        while i < end {
            let b = bytes[i];
            let (white, letter, width, cjk) = if b < 0x80 {
                let class = ASCII_CLASS[usize::from(b)];
                (class == WHITE, class == ALNUM, 1, false)
            } else {
                let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
                (c.is_whitespace(), c.is_alphanumeric(), c.len_utf8(), is_cjk(c))
            };
            i += width;
            if white {
                if in_word {
                    words += usize::from(alnum);
                    in_word = false;
                    gap = true;
                }
                continue;
            }
            if !in_word {
                in_word = true;
                alnum = false;
                if gap && len > 0 {
                    len += 1;
                }
                gap = false;
            }
            len += width;
            alnum |= letter;
            // Chinese and Japanese are written without spaces: each ideograph or kana counts
            // as a word, so a page's length compares fairly with space-separated languages.
            if cjk {
                words += 1;
                alnum = false;
            }
        }
    }
    words += usize::from(in_word && alnum);
    counts.resize(marks.len(), words);
    (words, len, counts)
}

/// Which open element a piece of text also belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Collector {
    Title,
    Heading(usize),
    Link(usize),
    Paragraph,
    JsonLd,
    /// The text of an element whose microdata or RDFa value is its text.
    Markup(usize),
}

enum Step {
    /// An element to enter, its depth, and its position among its siblings of the same name
    /// (1-based; 0 when it has none).
    Enter(Handle, usize, u32),
    Exit(Exit),
}

enum Exit {
    Path,
    Hidden,
    Noscript,
    Inert,
    Lang,
    Block,
    Head,
    Svg,
    Boilerplate,
    Main,
    Markup,
    WebMcpForm,
    /// A `<picture>`: the number of images before it, and where it is.
    Picture(usize, Spot),
    Collector(Collector),
}

/// The boilerplate ranges with, on a page with exactly one main landmark holding visible
/// text, everything outside it added: a template's sidebars, archives and tag clouds are
/// rarely in `<nav>`, `<header>` or `<footer>`, and on a short page they outweigh its own
/// text (a blog whose sidebar lists every post made each short post a near copy of the
/// others). Readability and Screaming Frog's content area read the main content the same way.
fn around_main(boilerplate: Vec<(usize, usize)>, mains: &[(usize, usize)], text: &str) -> Vec<(usize, usize)> {
    let [(start, end)] = *mains else { return boilerplate };
    if text.get(start..end).is_none_or(|t| t.trim().is_empty()) {
        return boilerplate;
    }
    let mut out = Vec::with_capacity(boilerplate.len() + 2);
    if start > 0 {
        out.push((0, start));
    }
    out.extend(boilerplate.into_iter().filter_map(|(a, b)| {
        let (a, b) = (a.max(start), b.min(end));
        (a < b).then_some((a, b))
    }));
    if end < text.len() {
        out.push((end, text.len()));
    }
    out
}

#[derive(Default)]
struct Walker {
    page_links: Vec<Link>,
    headings: Vec<Heading>,
    heading_text_end: Vec<usize>,
    heading_start: Vec<usize>,
    images: Vec<Image>,
    title: Option<String>,
    titles_in_head: usize,
    /// HTML `<title>` elements met so far, anywhere.
    titles_seen: usize,
    meta_descriptions: Vec<String>,
    canonicals: Vec<String>,
    head_canonicals: Vec<String>,
    head_pagination: (Option<String>, Option<String>),
    boilerplate_depth: usize,
    boilerplate_start: usize,
    boilerplate: Vec<(usize, usize)>,
    /// Open `<main>` (or `role="main"`) elements, and the visible text's span of each
    /// outermost one (only the first two are kept: one is all [`Walker::own_text_spans`] uses).
    main_depth: usize,
    main_start: usize,
    mains: Vec<(usize, usize)>,
    meta_robots: Vec<String>,
    meta_googlebot: Vec<String>,
    viewport: Option<String>,
    meta_charset: Option<String>,
    lang: Option<String>,
    hreflang_raw: Vec<(String, String, bool, Spot)>,
    og: BTreeMap<String, String>,
    twitter: BTreeMap<String, String>,
    json_ld_raw: Vec<String>,
    /// The line where each JSON-LD block's `<script>` starts, and where it is.
    json_ld_lines: Vec<(u32, Spot)>,
    /// Start-tag spans of the elements findings may point at (see [`crate::parse::Parsed`]).
    spans: Spans,
    /// The open elements, innermost last: each with its position among the siblings of the
    /// same name, and its index in `nodes` once recorded (`u32::MAX` before).
    open_path: Vec<(Handle, u32, u32)>,
    /// The elements spots point at and their ancestors, for selectors.
    nodes: Vec<PathNode>,
    /// Hashes of the ids of every element: an id is used in a selector only when unique.
    id_hashes: Vec<u64>,
    /// The names of the children of one element, with their counts (a buffer kept between
    /// elements).
    sibling_names: Vec<(html5ever::LocalName, u32, u32)>,
    spots: Spots,
    /// The decoded text, handed to the page's locator at the end.
    source: String,
    /// Start-tag lines of the elements structured data is read from (see
    /// [`crate::parse::Parsed`]).
    lines: std::collections::HashMap<usize, u32>,
    /// Elements with microdata or RDFa attributes (or an `id`, which `itemref` may name), in
    /// document order, each with the nearest such ancestor.
    markup: Vec<crate::structured_data::MarkupElement>,
    /// The open elements of `markup`, innermost last.
    markup_open: Vec<usize>,
    microdata_types: Vec<String>,
    favicon: Option<String>,
    agent_links: Vec<(String, String, Option<String>)>,
    webmcp_forms: Vec<WebMcpForm>,
    /// Every `<form>`: its `action` and `method` as written, and where it is.
    forms_raw: Vec<(Option<String>, Option<String>, Spot)>,
    /// `<picture>` elements without an `<img>` inside them.
    pictures_without_img: Vec<Spot>,
    /// The first [`MAX_REFRESH_CANDIDATES`] refresh pragmas a browser may act on, in order:
    /// it acts on the first whose URL parses ([`Walker::finish`] picks it).
    refresh_candidates: Vec<RefreshPragma>,
    /// Whether a WebMCP form is open (its fields are the tool's parameters).
    webmcp_open: bool,
    generator: Option<String>,
    script_srcs: Vec<String>,
    render_blocking: Vec<String>,
    /// Subresource URLs as written, each with its element.
    subresources: Vec<(String, Spot)>,
    base_href: Option<String>,
    has_doctype: bool,
    dom_nodes: usize,
    dom_depth: usize,
    semantic: Semantic,
    lists: usize,
    tables: usize,
    paragraphs: usize,
    first_paragraph: Option<(String, usize)>,
    /// Where in `visible` the paragraph being collected started.
    paragraph_start: usize,
    /// Visible text, words separated at block boundaries.
    visible: String,
    hidden_depth: usize,
    head_depth: usize,
    svg_depth: usize,
    noscript_depth: usize,
    /// Open elements that hide their subtree from everyone (see [`Image::hidden`]).
    inert_depth: usize,
    /// `lang` of the open elements that have one, innermost last.
    langs: Vec<String>,
    head_meta_description: Option<String>,
    /// Elements a `<noscript>` of the head built (see [`HeadNoscript`]).
    head_noscript: HeadNoscript,
    /// Whether content the head cannot hold has been met outside the head.
    body_content_seen: bool,
    open: Vec<(Collector, String)>,
}

/// Text kept of one heading, link or paragraph; longer text is cut at a character boundary.
pub const MAX_ELEMENT_TEXT_BYTES: usize = 4096;

fn push_capped(buf: &mut String, text: &str, cap: usize) {
    let room = cap.saturating_sub(buf.len());
    if room == 0 {
        return;
    }
    let mut end = room.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    buf.push_str(&text[..end]);
}

/// The value of the first attribute `name` (in no namespace). Names are compared as atoms:
/// one integer comparison per attribute, where comparing their text cost a table look-up and
/// a `memcmp` each (this look-up ran for every element of every page).
fn attr<'a>(attrs: &'a [html5ever::Attribute], name: &html5ever::LocalName) -> Option<&'a str> {
    attrs.iter().find(|a| a.name.ns == ns!() && a.name.local == *name).map(|a| &*a.value)
}

/// [`attr`] for a name html5ever has no static atom for (`toolname`, `typeof`, `vocab`...).
fn attr_named<'a>(attrs: &'a [html5ever::Attribute], name: &str) -> Option<&'a str> {
    attrs.iter().find(|a| a.name.ns == ns!() && &*a.name.local == name).map(|a| &*a.value)
}

/// The budget of the work after the parse, seen as a [`Budget`] of its own by the code that
/// does that work (the structured-data reader asks `exhausted`).
struct AfterParse<'a>(&'a dyn Budget);

impl Budget for AfterParse<'_> {
    fn exhausted(&self) -> bool {
        self.0.after_parse_exhausted()
    }
}

impl Walker {
    /// Walks the tree in document order, asking `budget` every
    /// [`WALK_CHECK_EVERY_NODES`](crate::parse::WALK_CHECK_EVERY_NODES) nodes whether to go
    /// on. Once it says stop, no further node is entered, but the elements already entered
    /// are still exited (their text collected, their depth counters undone), so the page is
    /// what the walk read up to that point. Returns whether the walk was cut.
    fn walk(&mut self, root: &Handle, budget: &dyn Budget) -> bool {
        let mut stack = vec![Step::Enter(root.clone(), 0, 0)];
        let mut until_check = crate::parse::WALK_CHECK_EVERY_NODES;
        let mut cut = false;
        while let Some(step) = stack.pop() {
            match step {
                Step::Exit(exit) => self.exit(exit),
                Step::Enter(..) if cut => {}
                Step::Enter(node, depth, nth) => {
                    until_check -= 1;
                    if until_check == 0 {
                        until_check = crate::parse::WALK_CHECK_EVERY_NODES;
                        if budget.exhausted() {
                            cut = true;
                            continue;
                        }
                    }
                    self.enter(&node, depth, nth, &mut stack);
                    self.push_children(&node.children.borrow(), depth + 1, &mut stack);
                }
            }
        }
        cut
    }

    /// Pushes the children of an element to enter, each with its position among the siblings
    /// of the same name (what a selector's `:nth-of-type` counts).
    fn push_children(&mut self, children: &[Handle], depth: usize, stack: &mut Vec<Step>) {
        let element_name = |node: &Handle| match &node.data {
            NodeData::Element { name, .. } => Some(name.local.clone()),
            _ => None,
        };
        if children.len() > 64 {
            // Many siblings may have many names: count them in a map, not a list.
            let mut counts: std::collections::HashMap<html5ever::LocalName, (u32, u32)> = Default::default();
            for name in children.iter().filter_map(element_name) {
                counts.entry(name).or_default().0 += 1;
            }
            for child in children.iter().rev() {
                let nth = element_name(child).and_then(|n| counts.get_mut(&n)).map_or(0, |(total, seen)| {
                    *seen += 1;
                    if *total > 1 {
                        *total + 1 - *seen
                    } else {
                        0
                    }
                });
                stack.push(Step::Enter(child.clone(), depth, nth));
            }
            return;
        }
        let names = &mut self.sibling_names;
        names.clear();
        for name in children.iter().filter_map(element_name) {
            match names.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, total, _)) => *total += 1,
                None => names.push((name, 1, 0)),
            }
        }
        for child in children.iter().rev() {
            let nth = match &child.data {
                NodeData::Element { name, .. } => {
                    names.iter_mut().find(|(n, _, _)| *n == name.local).map_or(0, |(_, total, seen)| {
                        *seen += 1;
                        if *total > 1 {
                            *total + 1 - *seen
                        } else {
                            0
                        }
                    })
                }
                _ => 0,
            };
            stack.push(Step::Enter(child.clone(), depth, nth));
        }
    }

    /// Where the element being entered is: its start-tag span, and its entry in the table of
    /// elements with the open elements above it (recorded once, when a spot first needs them).
    fn spot(&mut self, node: &Handle) -> Spot {
        let Some(&(start, end, end_line)) = self.spans.get(&(std::rc::Rc::as_ptr(node) as usize)) else {
            return Spot::NONE;
        };
        let first = self.open_path.iter().rposition(|(_, _, i)| *i != u32::MAX).map_or(0, |k| k + 1);
        for k in first..self.open_path.len() {
            let parent = if k == 0 { u32::MAX } else { self.open_path[k - 1].2 };
            let (handle, nth, _) = &self.open_path[k];
            let NodeData::Element { name, attrs, .. } = &handle.data else { continue };
            // An empty id names nothing (`#` is no selector).
            let id = attr(&attrs.borrow(), &local_name!("id")).filter(|id| !id.is_empty()).map(Box::from);
            self.nodes.push(PathNode { parent, name: name.local.clone(), nth: *nth, id });
            self.open_path[k].2 = u32::try_from(self.nodes.len() - 1).unwrap_or(u32::MAX);
        }
        Spot::new(start, end, end_line, self.open_path.last().map_or(u32::MAX, |e| e.2))
    }

    fn exit(&mut self, exit: Exit) {
        match exit {
            Exit::Path => {
                self.open_path.pop();
            }
            Exit::Hidden => self.hidden_depth -= 1,
            Exit::Noscript => self.noscript_depth -= 1,
            Exit::Inert => self.inert_depth -= 1,
            Exit::Lang => {
                self.langs.pop();
            }
            Exit::Head => self.head_depth -= 1,
            Exit::Boilerplate => {
                self.boilerplate_depth -= 1;
                if self.boilerplate_depth == 0 && self.visible.len() > self.boilerplate_start {
                    self.boilerplate.push((self.boilerplate_start, self.visible.len()));
                }
            }
            Exit::Main => {
                self.main_depth -= 1;
                if self.main_depth == 0 && self.mains.len() < 2 {
                    self.mains.push((self.main_start, self.visible.len()));
                }
            }
            Exit::Svg => self.svg_depth -= 1,
            Exit::Markup => {
                self.markup_open.pop();
            }
            Exit::WebMcpForm => self.webmcp_open = false,
            Exit::Picture(images_before, spot) => {
                if self.images.len() == images_before {
                    self.pictures_without_img.push(spot);
                }
            }
            Exit::Block => self.space(),
            Exit::Collector(kind) => {
                let Some(pos) = self.open.iter().rposition(|(k, _)| *k == kind) else { return };
                let (_, text) = self.open.remove(pos);
                self.close(kind, text);
            }
        }
    }

    fn close(&mut self, kind: Collector, text: String) {
        match kind {
            Collector::Title => {
                if self.title.is_none() {
                    self.title = Some(collapse(&text));
                }
            }
            Collector::Heading(i) => {
                if let Some(h) = self.headings.get_mut(i) {
                    h.text = collapse_unicode(&text);
                }
                self.space();
                self.heading_text_end[i] = self.visible.len();
            }
            Collector::Link(i) => {
                if let Some(l) = self.page_links.get_mut(i) {
                    // As `innerText` gives it and `trim()` cuts it: runs of ASCII white space are one
                    // space, a no-break space inside stays one (it is not a word break).
                    l.text = collapse(&text).trim().to_string();
                }
            }
            Collector::Paragraph => {
                if self.first_paragraph.is_none() {
                    let text = collapse(&text);
                    if count_words(&text) >= 8 {
                        // Words before it are counted in the final pass over the text.
                        self.first_paragraph = Some((text, self.paragraph_start));
                    }
                }
            }
            Collector::JsonLd => self.json_ld_raw.push(text),
            Collector::Markup(i) => {
                if let Some(m) = self.markup.get_mut(i) {
                    m.text = Some(collapse(&text).trim().to_string());
                }
            }
        }
    }

    /// Handles a node on the way down, pushing what to undo on the way up onto the stack
    /// (before the children, so it runs after them).
    fn enter(&mut self, node: &Handle, depth: usize, nth: u32, stack: &mut Vec<Step>) {
        match &node.data {
            NodeData::Doctype { .. } => {
                self.has_doctype = true;
            }
            NodeData::Text { contents } => {
                let text = contents.borrow();
                for (kind, buf) in &mut self.open {
                    match kind {
                        // One of each is open at a time: their text is bounded by the page.
                        Collector::Title | Collector::JsonLd => buf.push_str(&text),
                        // Headings and paragraphs nest through other elements, and every open
                        // one takes the same text: cut each, or 500 nested headings would hold
                        // 500 copies of the page.
                        Collector::Heading(_) | Collector::Link(_) | Collector::Paragraph | Collector::Markup(_) => {
                            push_capped(buf, &text, MAX_ELEMENT_TEXT_BYTES)
                        }
                    }
                }
                // Indentation between elements is most text nodes of most pages: one scan
                // tells it (ASCII white space is white space to `trim` too), and only other
                // text is trimmed to see whether anything is left.
                let blank = text.bytes().all(|b| b.is_ascii_whitespace());
                if !blank && self.head_depth == 0 && self.noscript_depth == 0 && !text.trim().is_empty() {
                    self.body_content_seen = true;
                }
                if self.hidden_depth == 0 && self.head_depth == 0 {
                    // Keep one word break for indentation instead of the run.
                    if blank {
                        self.space();
                    } else {
                        self.visible.push_str(&text);
                    }
                }
            }
            NodeData::Element { name, attrs, .. } => {
                self.dom_nodes += 1;
                self.dom_depth = self.dom_depth.max(depth);
                self.open_path.push((node.clone(), nth, u32::MAX));
                stack.push(Step::Exit(Exit::Path));
                let attrs = attrs.borrow();
                // The id of an HTML element is taken in the one pass over its attributes below.
                if name.ns != ns!(html) {
                    if let Some(id) = attr(&attrs, &local_name!("id")) {
                        self.id_hashes.push(hash_id(id));
                    }
                }
                let local: &str = &name.local;
                if name.ns == ns!(svg) {
                    // SVG content: neither its <title> nor its <a> are HTML elements.
                    if local == "svg" {
                        self.svg_depth += 1;
                        stack.push(Step::Exit(Exit::Svg));
                    }
                    return;
                }
                if name.ns != ns!(html) {
                    return;
                }
                if !is_inline(&name.local) {
                    self.space();
                    stack.push(Step::Exit(Exit::Block));
                }
                if hides_text(&name.local) {
                    self.hidden_depth += 1;
                    stack.push(Step::Exit(Exit::Hidden));
                }
                let head_noscript = self.head_noscript.contains(node);
                if name.local == local_name!("noscript") || head_noscript {
                    self.noscript_depth += 1;
                    stack.push(Step::Exit(Exit::Noscript));
                }
                if self.head_depth == 0 && !head_noscript && !crate::parse::is_head_element(&name.local) {
                    self.body_content_seen = true;
                }
                // One pass over the attributes for what every element may carry.
                // Names are matched as atoms (an integer comparison each); the few that
                // html5ever has no static atom for are compared as text, last.
                let (mut hides, mut lang, mut itemtype, mut itemscope) = (false, None, None, false);
                let (mut markup, mut id, mut main_role) = (false, None, false);
                for a in attrs.iter().filter(|a| a.name.ns == ns!()) {
                    match a.name.local {
                        local_name!("hidden") => hides = true,
                        local_name!("aria-hidden") => hides |= a.value.trim().eq_ignore_ascii_case("true"),
                        local_name!("style") => hides |= hides_by_style(&a.value),
                        local_name!("lang") => lang = lang.or(Some(&*a.value)),
                        local_name!("itemtype") => itemtype = itemtype.or(Some(&*a.value)),
                        local_name!("itemscope") => {
                            itemscope = true;
                            markup = true;
                        }
                        local_name!("id") => {
                            id = id.or(Some(&*a.value));
                            markup = true;
                        }
                        local_name!("itemprop") | local_name!("property") => markup = true,
                        local_name!("role") => main_role = a.value.trim().eq_ignore_ascii_case("main"),
                        ref other => match &**other {
                            "inert" => hides = true,
                            "typeof" | "vocab" => markup = true,
                            _ => {}
                        },
                    }
                }
                if let Some(id) = id {
                    self.id_hashes.push(hash_id(id));
                }
                if let (Some(types), true) = (itemtype, itemscope) {
                    self.microdata_types.extend(types.split_whitespace().map(str::to_string));
                }
                if markup {
                    self.markup_element(node, local, &attrs, stack);
                }
                if hides {
                    self.inert_depth += 1;
                    stack.push(Step::Exit(Exit::Inert));
                }
                // The page's main content (a landmark: the element or its ARIA role), when
                // visible and not itself inside the site's navigation, header or footer.
                if (name.local == local_name!("main") || main_role)
                    && self.hidden_depth == 0
                    && self.inert_depth == 0
                    && self.boilerplate_depth == 0
                {
                    if self.main_depth == 0 {
                        self.main_start = self.visible.len();
                    }
                    self.main_depth += 1;
                    stack.push(Step::Exit(Exit::Main));
                }
                if let Some(lang) = lang {
                    self.langs.push(lang.to_string());
                    stack.push(Step::Exit(Exit::Lang));
                }
                match name.local {
                    local_name!("html") => {
                        if self.lang.is_none() {
                            self.lang = attr(&attrs, &local_name!("lang")).map(str::to_string);
                        }
                        if !self.spots.html.is_some() {
                            self.spots.html = self.spot(node);
                        }
                    }
                    local_name!("head") => {
                        if !self.spots.head.is_some() {
                            self.spots.head = self.spot(node);
                        }
                        self.head_depth += 1;
                        stack.push(Step::Exit(Exit::Head));
                    }
                    // The site's navigation, header and footer, around the page's own content
                    // (the outermost one is kept: they nest).
                    local_name!("nav") | local_name!("header") | local_name!("footer") => {
                        // The landmark counts too: this arm is the only one these elements reach.
                        match name.local {
                            local_name!("nav") => self.semantic.nav += 1,
                            local_name!("header") => self.semantic.header += 1,
                            _ => self.semantic.footer += 1,
                        }
                        if self.boilerplate_depth == 0 {
                            self.boilerplate_start = self.visible.len();
                        }
                        self.boilerplate_depth += 1;
                        stack.push(Step::Exit(Exit::Boilerplate));
                    }
                    local_name!("title") => {
                        let spot = self.spot(node);
                        if self.head_depth > 0 {
                            self.titles_in_head += 1;
                            self.spots.head_titles.push(spot);
                        }
                        if self.titles_seen == 0 {
                            self.spots.title = spot;
                        }
                        self.titles_seen += 1;
                        stack.push(Step::Exit(self.open_collector(Collector::Title)));
                    }
                    local_name!("base") => {
                        if self.base_href.is_none() {
                            self.base_href = attr(&attrs, &local_name!("href")).map(str::to_string);
                        }
                    }
                    local_name!("meta") => {
                        let spot = self.spot(node);
                        self.meta(&attrs, spot);
                    }
                    local_name!("form") => {
                        let spot = self.spot(node);
                        self.forms_raw.push((
                            attr(&attrs, &local_name!("action")).map(str::to_string),
                            attr(&attrs, &local_name!("method")).map(str::to_string),
                            spot,
                        ));
                        let toolname = attr_named(&attrs, "toolname");
                        let tooldescription = attr_named(&attrs, "tooldescription");
                        if toolname.is_some() || tooldescription.is_some() {
                            self.webmcp_forms.push(WebMcpForm {
                                toolname: toolname.map(str::to_string),
                                tooldescription: tooldescription.map(str::to_string),
                                fields: Vec::new(),
                            });
                            self.webmcp_open = true;
                            stack.push(Step::Exit(Exit::WebMcpForm));
                        }
                    }
                    // A picture shows its `<img>`; its sources only offer that image other files.
                    local_name!("picture") => {
                        let spot = self.spot(node);
                        stack.push(Step::Exit(Exit::Picture(self.images.len(), spot)));
                    }
                    local_name!("input") | local_name!("select") | local_name!("textarea") if self.webmcp_open => {
                        let kind = attr(&attrs, &local_name!("type"))
                            .map(|t| t.trim().to_ascii_lowercase())
                            .unwrap_or_default();
                        // Buttons and hidden inputs are no parameters an agent fills in.
                        let parameter = name.local != local_name!("input")
                            || !matches!(kind.as_str(), "submit" | "button" | "reset" | "image" | "hidden");
                        if let (true, Some(form)) = (parameter, self.webmcp_forms.last_mut()) {
                            form.fields.push(WebMcpField {
                                name: attr(&attrs, &local_name!("name"))
                                    .map(str::trim)
                                    .filter(|n| !n.is_empty())
                                    .map(str::to_string),
                                required: attr(&attrs, &local_name!("required")).is_some(),
                                described: ["toolparamdescription", "title"]
                                    .iter()
                                    .any(|a| attr_named(&attrs, a).is_some_and(|v| !v.trim().is_empty())),
                            });
                        }
                    }
                    local_name!("link") => {
                        let spot = self.spot(node);
                        self.link_element(&attrs, spot);
                    }
                    local_name!("script") => {
                        let spot = self.spot(node);
                        let ty = attr(&attrs, &local_name!("type")).map(|t| t.trim().to_ascii_lowercase());
                        if ty.as_deref() == Some("application/ld+json") {
                            self.json_ld_lines.push((self.line_of(node), spot));
                            stack.push(Step::Exit(self.open_collector(Collector::JsonLd)));
                        }
                        if let Some(src) = attr(&attrs, &local_name!("src")) {
                            self.script_srcs.push(src.to_string());
                            self.subresources.push((src.to_string(), spot));
                            let deferred = attr(&attrs, &local_name!("async")).is_some()
                                || attr(&attrs, &local_name!("defer")).is_some()
                                || ty.as_deref() == Some("module");
                            if self.head_depth > 0 && !deferred {
                                self.render_blocking.push(src.to_string());
                                self.spots.render_blocking_scripts.push(spot);
                            }
                        }
                    }
                    local_name!("h1")
                    | local_name!("h2")
                    | local_name!("h3")
                    | local_name!("h4")
                    | local_name!("h5")
                    | local_name!("h6") => {
                        let level = local.as_bytes()[1] - b'0';
                        let i = self.headings.len();
                        let spot = self.spot(node);
                        self.headings.push(Heading { level, text: String::new(), section_words: 0, spot });
                        self.heading_start.push(self.visible.len());
                        self.heading_text_end.push(self.visible.len());
                        stack.push(Step::Exit(self.open_collector(Collector::Heading(i))));
                    }
                    local_name!("img") => {
                        let spot = self.spot(node);
                        let src = attr(&attrs, &local_name!("src")).unwrap_or_default().to_string();
                        if !src.is_empty() {
                            self.subresources.push((src.clone(), spot));
                        }
                        let alt = attr(&attrs, &local_name!("alt")).map(str::to_string);
                        if let Some(alt) = alt.as_deref().filter(|a| !a.trim().is_empty()) {
                            // An image's alt is the accessible name of a link around it.
                            if let Some(link) = self.open.iter().rev().find_map(|(k, _)| {
                                if let Collector::Link(i) = k {
                                    Some(*i)
                                } else {
                                    None
                                }
                            }) {
                                if let Some(l) = self.page_links.get_mut(link) {
                                    l.label.get_or_insert_with(|| alt.trim().to_string());
                                }
                            }
                        }
                        self.images.push(Image {
                            src,
                            alt,
                            width: attr(&attrs, &local_name!("width")).map(str::to_string),
                            height: attr(&attrs, &local_name!("height")).map(str::to_string),
                            loading: attr(&attrs, &local_name!("loading")).map(str::to_string),
                            role: attr(&attrs, &local_name!("role")).map(|r| r.trim().to_ascii_lowercase()),
                            labelled: [local_name!("aria-label"), local_name!("aria-labelledby"), local_name!("title")]
                                .iter()
                                .any(|a| attr(&attrs, a).is_some_and(|v| !v.trim().is_empty())),
                            hidden: self.inert_depth > 0,
                            in_noscript: self.noscript_depth > 0,
                            spot,
                        });
                    }
                    local_name!("a") => {
                        let i = self.page_links.len();
                        let spot = self.spot(node);
                        self.page_links.push(Link {
                            href: attr(&attrs, &local_name!("href")).map(str::to_string),
                            url: None,
                            kind: LinkKind::NoHref,
                            rel: attr(&attrs, &local_name!("rel"))
                                .map(|r| r.split_ascii_whitespace().map(|t| t.to_ascii_lowercase()).collect())
                                .unwrap_or_default(),
                            text: String::new(),
                            label: attr(&attrs, &local_name!("aria-label"))
                                .or_else(|| attr(&attrs, &local_name!("title")))
                                .map(|s| s.trim().to_string())
                                .filter(|s| !s.is_empty()),
                            internal: false,
                            lang: self.langs.last().cloned(),
                            role: attr(&attrs, &local_name!("role")).map(|r| r.trim().to_string()),
                            name: attr(&attrs, &local_name!("name")).map(|n| n.trim().to_string()),
                            id: attr(&attrs, &local_name!("id")).map(str::to_string),
                            href_attributes: attrs.iter().any(|a| {
                                a.name.ns == ns!()
                                    && matches!(
                                        &*a.name.local,
                                        "target" | "download" | "ping" | "rel" | "hreflang" | "type" | "referrerpolicy"
                                    )
                            }),
                            event_handlers: attrs.iter().any(|a| a.name.ns == ns!() && a.name.local.starts_with("on")),
                            in_noscript: self.noscript_depth > 0,
                            spot,
                        });
                        stack.push(Step::Exit(self.open_collector(Collector::Link(i))));
                    }
                    local_name!("p") => {
                        self.paragraphs += 1;
                        if self.first_paragraph.is_none() && self.hidden_depth == 0 {
                            self.paragraph_start = self.visible.len();
                            stack.push(Step::Exit(self.open_collector(Collector::Paragraph)));
                        }
                    }
                    local_name!("iframe")
                    | local_name!("audio")
                    | local_name!("video")
                    | local_name!("source")
                    | local_name!("embed") => {
                        if let Some(src) = attr(&attrs, &local_name!("src")) {
                            let spot = self.spot(node);
                            self.subresources.push((src.to_string(), spot));
                        }
                    }
                    local_name!("object") => {
                        if let Some(src) = attr(&attrs, &local_name!("data")) {
                            let spot = self.spot(node);
                            self.subresources.push((src.to_string(), spot));
                        }
                    }
                    local_name!("main") => self.semantic.main += 1,
                    local_name!("article") => self.semantic.article += 1,
                    local_name!("aside") => self.semantic.aside += 1,
                    local_name!("section") => self.semantic.section += 1,
                    local_name!("ul") | local_name!("ol") => self.lists += 1,
                    local_name!("table") => self.tables += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// A word break in the visible text (one is enough between blocks).
    fn space(&mut self) {
        if !self.visible.ends_with(' ') {
            self.visible.push(' ');
        }
    }

    /// The line where an element's start tag is, when the parser kept it (1 otherwise).
    fn line_of(&self, node: &Handle) -> u32 {
        self.lines.get(&(std::rc::Rc::as_ptr(node) as usize)).copied().unwrap_or(1)
    }

    /// Records an element with microdata or RDFa attributes (or an `id`), and opens a text
    /// collector when its value is its text.
    fn markup_element(&mut self, node: &Handle, local: &str, attrs: &[html5ever::Attribute], stack: &mut Vec<Step>) {
        use crate::structured_data::MarkupElement;
        // One pass over the attributes, the first of each name kept (as [`attr`] takes it):
        // every element with an id comes here, and ids are common, so a look-up per name
        // (seventeen of them) was most of what this cost.
        let (mut id, mut itemscope, mut itemtype, mut itemprop, mut itemref) = (None, false, None, None, None);
        let (mut itemid, mut vocab, mut typeof_, mut property, mut resource) = (None, None, None, None, None);
        let (mut content, mut href, mut src, mut data, mut value, mut datetime) = (None, None, None, None, None, None);
        for a in attrs.iter().filter(|a| a.name.ns == ns!()) {
            let slot: &mut Option<&str> = match a.name.local {
                local_name!("id") => &mut id,
                local_name!("itemscope") => {
                    itemscope = true;
                    continue;
                }
                local_name!("itemtype") => &mut itemtype,
                local_name!("itemprop") => &mut itemprop,
                local_name!("itemref") => &mut itemref,
                local_name!("itemid") => &mut itemid,
                local_name!("property") => &mut property,
                local_name!("content") => &mut content,
                local_name!("href") => &mut href,
                local_name!("src") => &mut src,
                local_name!("data") => &mut data,
                local_name!("value") => &mut value,
                local_name!("datetime") => &mut datetime,
                // Names html5ever has no static atom for, compared as text.
                ref other => match &**other {
                    "vocab" => &mut vocab,
                    "typeof" => &mut typeof_,
                    "resource" => &mut resource,
                    _ => continue,
                },
            };
            if slot.is_none() {
                *slot = Some(&*a.value);
            }
        }
        let owned = |v: Option<&str>| v.map(str::to_string);
        // The value an `itemprop` takes from the element (HTML, "Values" of microdata), when
        // it is not the element's text.
        // Search engines take `content` on any element, as schema.org's own examples write
        // it (`<span itemprop="price" content="34.90">34,90 €</span>`).
        let micro_value = owned(content).or_else(|| match local {
            "audio" | "embed" | "iframe" | "img" | "source" | "track" | "video" => owned(src),
            "a" | "area" | "link" => owned(href),
            "object" => owned(data),
            "data" | "meter" => owned(value),
            "time" => owned(datetime),
            _ => None,
        });
        let element = MarkupElement {
            parent: self.markup_open.last().copied(),
            line: self.line_of(node),
            id: owned(id),
            itemscope,
            itemtype: owned(itemtype),
            itemprop: owned(itemprop),
            itemref: owned(itemref),
            itemid: owned(itemid),
            vocab: owned(vocab),
            typeof_: owned(typeof_),
            property: owned(property),
            resource: owned(resource),
            content: owned(content),
            href: owned(href).or_else(|| owned(src)),
            micro_value,
            text: None,
        };
        let needs_text = element.micro_value.is_none()
            && element.content.is_none()
            && ((element.itemprop.is_some() && !element.itemscope)
                || (element.property.is_some() && element.typeof_.is_none() && element.href.is_none()));
        if element.itemscope || element.itemprop.is_some() || element.typeof_.is_some() || element.property.is_some() {
            let spot = self.spot(node);
            self.spots.markup.push((element.line, spot));
        }
        let i = self.markup.len();
        self.markup.push(element);
        self.markup_open.push(i);
        stack.push(Step::Exit(Exit::Markup));
        if needs_text {
            stack.push(Step::Exit(self.open_collector(Collector::Markup(i))));
        }
    }

    fn open_collector(&mut self, kind: Collector) -> Exit {
        self.open.push((kind, String::new()));
        Exit::Collector(kind)
    }

    /// Whether an element being entered is in the head as a browser running scripts builds
    /// it: inside `<head>`, or displaced into the body by a `<noscript>` of the head before
    /// any content the head cannot hold.
    fn in_head(&self) -> bool {
        self.head_depth > 0 || (self.head_noscript.opened_body && !self.body_content_seen)
    }

    fn meta(&mut self, attrs: &[html5ever::Attribute], spot: Spot) {
        if self.in_head()
            && self.head_meta_description.is_none()
            && attr(attrs, &local_name!("name")).is_some_and(|n| n.trim().eq_ignore_ascii_case("description"))
        {
            self.head_meta_description = Some(attr(attrs, &local_name!("content")).unwrap_or_default().to_string());
        }
        if let Some(cs) = attr(attrs, &local_name!("charset")) {
            if self.meta_charset.is_none() {
                self.meta_charset = Some(cs.trim().to_string());
                self.spots.meta_charset = spot;
            }
        }
        let content = attr(attrs, &local_name!("content"));
        if let (Some(equiv), Some(content)) = (attr(attrs, &local_name!("http-equiv")), content) {
            // One inside `<noscript>` acts only where scripts are off: a fallback, left out.
            let candidates = self.refresh_candidates.len() < MAX_REFRESH_CANDIDATES;
            if candidates && self.noscript_depth == 0 && equiv.eq_ignore_ascii_case("refresh") {
                if let Some((seconds, url)) = parse_refresh(content) {
                    self.refresh_candidates.push(RefreshPragma { seconds, url, spot, header: false });
                }
            }
            if equiv.eq_ignore_ascii_case("content-type") {
                if let Some(cs) = charset::charset_param(content) {
                    if self.meta_charset.is_none() {
                        self.meta_charset = Some(cs);
                        self.spots.meta_charset = spot;
                    }
                }
            }
        }
        let Some(content) = content else { return };
        if let Some(name) = attr(attrs, &local_name!("name")) {
            let name = name.trim().to_ascii_lowercase();
            match name.as_str() {
                "description" => {
                    self.meta_descriptions.push(content.to_string());
                    self.spots.meta_descriptions.push(spot);
                }
                "robots" | "googlebot" => {
                    if name == "robots" {
                        self.meta_robots.push(content.to_string());
                    } else {
                        self.meta_googlebot.push(content.to_string());
                    }
                    self.spots.meta_robots.push(spot);
                    let says = |what: &str| {
                        content
                            .split(',')
                            .any(|d| d.trim().eq_ignore_ascii_case(what) || d.trim().eq_ignore_ascii_case("none"))
                    };
                    if says("noindex") {
                        self.spots.noindex.push(spot);
                    }
                    if says("nofollow") {
                        self.spots.nofollow.push(spot);
                    }
                    if content.split(',').any(forbids_snippets) {
                        self.spots.nosnippet.push(spot);
                    }
                    if content.split(',').any(|d| d.trim().eq_ignore_ascii_case("noimageindex")) {
                        self.spots.noimageindex.push(spot);
                    }
                }
                "viewport" if self.viewport.is_none() => {
                    self.viewport = Some(content.to_string());
                    self.spots.viewport = spot;
                }
                "generator" => {
                    self.generator.get_or_insert_with(|| content.to_string());
                }
                n if n.starts_with("twitter:") && !self.twitter.contains_key(n) => {
                    self.twitter.insert(n.to_string(), content.to_string());
                    self.spots.social.insert(n.to_string(), spot);
                }
                _ => {}
            }
        }
        if let Some(prop) = attr(attrs, &local_name!("property")) {
            let prop = prop.trim().to_ascii_lowercase();
            let map = if prop.starts_with("og:") {
                Some(&mut self.og)
            } else if prop.starts_with("twitter:") {
                Some(&mut self.twitter)
            } else {
                None
            };
            if let Some(map) = map {
                if !map.contains_key(&prop) {
                    map.insert(prop.clone(), content.to_string());
                    self.spots.social.insert(prop, spot);
                }
            }
        }
    }

    fn link_element(&mut self, attrs: &[html5ever::Attribute], spot: Spot) {
        let Some(rel) = attr(attrs, &local_name!("rel")) else { return };
        let rel: Vec<String> = rel.split_ascii_whitespace().map(|t| t.to_ascii_lowercase()).collect();
        let href = attr(attrs, &local_name!("href"));
        let in_head = self.in_head();
        if rel.iter().any(|r| r == "canonical") {
            if let Some(href) = href {
                self.canonicals.push(href.to_string());
                self.spots.canonicals.push(spot);
                if in_head {
                    self.head_canonicals.push(href.to_string());
                    self.spots.head_canonicals.push(spot);
                }
            }
        }
        if in_head {
            let (next, prev) = &mut self.head_pagination;
            if rel.iter().any(|r| r == "next") && next.is_none() {
                *next = href.map(str::to_string);
            }
            if rel.iter().any(|r| r == "prev" || r == "previous") && prev.is_none() {
                *prev = href.map(str::to_string);
            }
        }
        if rel.iter().any(|r| r == "icon" || r == "apple-touch-icon") && self.favicon.is_none() {
            self.favicon = href.map(str::to_string);
        }
        if let Some(href) = href {
            let kind = attr(attrs, &local_name!("type")).map(|t| t.trim().to_ascii_lowercase());
            for r in rel.iter().filter(|r| AGENT_LINK_RELS.contains(&r.as_str())) {
                // Only a markdown alternate is an agent's document; other alternates are
                // feeds and translations.
                if r == "alternate" && !kind.as_deref().is_some_and(|k| k.starts_with("text/markdown")) {
                    continue;
                }
                self.agent_links.push((r.clone(), href.to_string(), kind.clone()));
            }
        }
        if rel.iter().any(|r| r == "stylesheet") {
            if let Some(href) = href {
                self.subresources.push((href.to_string(), spot));
            }
        }
        if rel.iter().any(|r| r == "alternate") {
            if let (Some(lang), Some(href)) = (attr(attrs, &local_name!("hreflang")), href) {
                self.hreflang_raw.push((lang.trim().to_string(), href.to_string(), in_head, spot));
            }
        }
    }

    fn finish(
        mut self,
        url: &str,
        final_url: String,
        http: HttpFacts,
        charset: Charset,
        html_bytes: usize,
        parse_errors: usize,
    ) -> Page {
        let text = std::mem::take(&mut self.source);
        let doc_url = Url::parse(&final_url).ok();
        let base = match (&doc_url, &self.base_href) {
            (Some(u), Some(b)) => u.join(b.trim()).ok().or_else(|| doc_url.clone()),
            _ => doc_url.clone(),
        };
        let page_host = doc_url.as_ref().and_then(|u| u.host_str()).map(str::to_ascii_lowercase);
        for link in &mut self.page_links {
            classify_link(link, base.as_ref(), page_host.as_deref());
        }
        let https = doc_url.as_ref().is_some_and(|u| u.scheme() == "https");
        let (mixed_content, mixed_spots) = if https {
            self.subresources
                .iter()
                .filter_map(|(s, spot)| Some((base.as_ref()?.join(s.trim()).ok()?, *spot)))
                .filter(|(u, _)| u.scheme() == "http")
                .map(|(u, spot)| (String::from(u), spot))
                .unzip()
        } else {
            (Vec::new(), Vec::new())
        };
        self.spots.mixed_content = mixed_spots;
        // An id names an element in a selector only when no other element has it.
        self.id_hashes.sort_unstable();
        let unique = |id: &str| {
            let h = hash_id(id);
            let from = self.id_hashes.partition_point(|&x| x < h);
            self.id_hashes.get(from + 1) != Some(&h)
        };
        for node in &mut self.nodes {
            if node.id.as_deref().is_some_and(|id| !unique(id)) {
                node.id = None;
            }
        }
        let locator = Locator::new(text, std::mem::take(&mut self.nodes));
        let hreflang = self
            .hreflang_raw
            .into_iter()
            .map(|(lang, href, in_head, spot)| {
                let url = base.as_ref().and_then(|b| b.join(href.trim()).ok()).map(String::from);
                Hreflang { lang, href, url, in_head, spot }
            })
            .collect();
        // One pass over the visible text counts its words and, at each marked offset (all at
        // block boundaries, so never inside a word), how many words came before it: section
        // lengths and the words before the first paragraph are differences of those counts.
        let n = self.headings.len();
        let mut marks: Vec<usize> = Vec::with_capacity(2 * n + 1);
        marks.extend(self.heading_start.iter().chain(&self.heading_text_end).copied());
        if let Some((_, at)) = &self.first_paragraph {
            marks.push(*at);
        }
        marks.sort_unstable();
        marks.dedup();
        let (word_count, text_bytes, counts) = scan_text_marks(&self.visible, &marks);
        let words_at = |pos: usize| marks.binary_search(&pos).map_or(0, |k| counts[k]);
        for i in 0..n {
            let start = words_at(self.heading_text_end[i]);
            let end = if i + 1 < n { words_at(self.heading_start[i + 1]) } else { word_count };
            self.headings[i].section_words = end.saturating_sub(start);
        }
        let (first_paragraph, words_before) = match self.first_paragraph {
            Some((p, at)) => (Some(p), words_at(at)),
            None => (None, 0),
        };
        Page {
            url: url.to_string(),
            final_url,
            charset,
            html_bytes,
            has_doctype: self.has_doctype,
            title: self.title.unwrap_or_default(),
            head_ended_by: None,
            titles_in_head: self.titles_in_head,
            meta_descriptions: self.meta_descriptions,
            head_meta_description: self.head_meta_description,
            h1s: self.headings.iter().filter(|h| h.level == 1).map(|h| h.text.clone()).collect(),
            headings: self.headings,
            images: self.images,
            links: self.page_links,
            canonicals: self.canonicals,
            head_canonicals: self.head_canonicals,
            head_pagination: self.head_pagination,
            meta_robots: self.meta_robots,
            meta_googlebot: self.meta_googlebot,
            viewport: self.viewport,
            meta_charset: self.meta_charset,
            lang: self.lang,
            hreflang,
            og: self.og,
            twitter: self.twitter,
            json_ld: {
                let mut left = crate::structured_data::MAX_JSON_LD_BYTES;
                self.json_ld_raw
                    .iter()
                    .zip(self.json_ld_lines.iter().copied().chain(std::iter::repeat((1, Spot::NONE))))
                    .map(|(raw, (line, spot))| parse_json_ld(raw, line, spot, &mut left))
                    .collect()
            },
            microdata_types: self.microdata_types,
            structured_data: Default::default(),
            favicon: self.favicon,
            agent_links: self.agent_links,
            webmcp_forms: self.webmcp_forms,
            forms: self
                .forms_raw
                .into_iter()
                .map(|(action, method, spot)| {
                    // HTML: an empty or missing action submits to the document's own URL (not
                    // the base URL); any other, white space only included, resolves against
                    // the base URL (the URL parser drops leading and trailing C0 and spaces).
                    let target = match action.as_deref().filter(|a| !a.is_empty()) {
                        Some(a) => base.as_ref().and_then(|b| b.join(a.trim_matches(|c: char| c <= ' ')).ok()),
                        None => doc_url.clone(),
                    };
                    let method = method.map(|m| m.trim().to_ascii_lowercase()).filter(|m| !m.is_empty());
                    Form { action, url: target.map(String::from), method: method.unwrap_or_else(|| "get".into()), spot }
                })
                .collect(),
            pictures_without_img: self.pictures_without_img,
            // HTML's refresh steps give up on a URL that does not parse before the document
            // is marked as refreshing: the next pragma may then act.
            meta_refresh: self
                .refresh_candidates
                .into_iter()
                .find(|r| r.url.as_deref().is_none_or(|u| base.as_ref().is_none_or(|b| b.join(u.trim()).is_ok()))),
            generator: self.generator,
            script_srcs: self.script_srcs,
            render_blocking_scripts: self.render_blocking,
            mixed_content,
            word_count,
            text_bytes,
            boilerplate: around_main(self.boilerplate, &self.mains, &self.visible),
            visible_text: self.visible,
            dom_nodes: self.dom_nodes,
            dom_depth: self.dom_depth,
            semantic: self.semantic,
            lists: self.lists,
            tables: self.tables,
            paragraphs: self.paragraphs,
            first_paragraph,
            words_before_first_paragraph: words_before,
            base_url: base.map(String::from),
            parse_errors,
            analysis: Analysis::default(),
            http,
            spots: self.spots,
            locator,
        }
    }
}

fn classify_link(link: &mut Link, base: Option<&Url>, page_host: Option<&str>) {
    let Some(href) = link.href.as_deref() else {
        link.kind = LinkKind::NoHref;
        return;
    };
    // Browsers strip leading and trailing C0 controls and spaces from URLs.
    let href = href.trim_matches(|c: char| c <= ' ');
    let lower = href.to_ascii_lowercase();
    link.kind = if href.is_empty() {
        LinkKind::Empty
    } else if href.starts_with('#') {
        LinkKind::Fragment
    } else if lower.starts_with("javascript:") {
        LinkKind::Javascript
    } else if lower.starts_with("mailto:") {
        LinkKind::Mailto
    } else if lower.starts_with("tel:") {
        LinkKind::Tel
    } else if lower.starts_with("data:") {
        LinkKind::Data
    } else if let Some((url, host)) = base.and_then(|b| fast_resolve(href, b)) {
        link.internal = page_host.is_some_and(|p| host.eq_ignore_ascii_case(p));
        link.url = Some(url);
        LinkKind::Web
    } else {
        match base.and_then(|b| b.join(href).ok()) {
            Some(u) => {
                // Like `a.hostname` in a browser: any scheme with a host can be internal.
                link.internal = match (u.host_str(), page_host) {
                    (Some(h), Some(p)) => h.eq_ignore_ascii_case(p),
                    _ => false,
                };
                let kind = if matches!(u.scheme(), "http" | "https") { LinkKind::Web } else { LinkKind::Other };
                link.url = Some(u.into());
                kind
            }
            None => LinkKind::Invalid,
        }
    };
}

/// Resolves the two shapes most hrefs have without a full URL parse: an absolute `http(s)://`
/// URL with a plain lower-case host, and a root-relative path. Only hrefs whose resolution is
/// the href itself (or the base's origin followed by it) qualify: printable ASCII with nothing a
/// URL parser would rewrite (dot segments, characters it percent-encodes, ports, user info,
/// numeric hosts). Everything else returns `None` and goes through `Url::join`, so the result
/// is always what `Url::join` would give. Returns the URL and its host.
fn fast_resolve<'a>(href: &'a str, base: &'a Url) -> Option<(String, &'a str)> {
    let plain = href.bytes().all(|b| {
        (0x21..0x7f).contains(&b) && !matches!(b, b'\\' | b'"' | b'<' | b'>' | b'`' | b'{' | b'}' | b'|' | b'^' | b'\'')
    });
    if !plain || href.contains("/.") {
        return None;
    }
    if let Some(rest) = href.strip_prefix("https://").or_else(|| href.strip_prefix("http://")) {
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let host = &rest[..end];
        let simple_host = !host.is_empty()
            && host.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
            && host.rsplit('.').next().is_some_and(|tld| tld.bytes().any(|b| b.is_ascii_lowercase()))
            && !host.starts_with('.')
            && !host.contains("..");
        if !simple_host || rest[end..].starts_with(['?', '#']) {
            return None;
        }
        let url = if end == rest.len() { format!("{href}/") } else { href.to_string() };
        return Some((url, host));
    }
    if href.starts_with('/') && !href.starts_with("//") && matches!(base.scheme(), "http" | "https") {
        let origin = &base[..url::Position::BeforePath];
        return Some((format!("{origin}{href}"), base.host_str()?));
    }
    None
}

/// A hash of an id, to tell unique ids (FNV-1a: ids are short).
fn hash_id(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Parses one JSON-LD block if it fits in `left`, the page's JSON-LD bytes still to parse
/// (see [`MAX_JSON_LD_BYTES`](crate::structured_data::MAX_JSON_LD_BYTES)).
fn parse_json_ld(raw: &str, line: u32, spot: Spot, left: &mut usize) -> JsonLd {
    let mut text = raw.trim();
    // XHTML leftovers: `//<![CDATA[ ... //]]>` or `<!--...-->` around the JSON.
    for (open, close) in [("//<![CDATA[", "//]]>"), ("<![CDATA[", "]]>"), ("<!--", "-->")] {
        if let Some(rest) = text.strip_prefix(open) {
            text = rest.trim();
            if let Some(rest) = text.strip_suffix(close) {
                text = rest.trim();
            }
        }
    }
    let Some(rest) = left.checked_sub(text.len()) else {
        let types = Vec::new();
        return JsonLd {
            value: None,
            error: None,
            types,
            has_context: false,
            line,
            error_line: None,
            not_read: true,
            spot,
        };
    };
    *left = rest;
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => {
            let mut types = Vec::new();
            collect_types(&value, &mut types, 0);
            let has_context = match &value {
                serde_json::Value::Object(o) => o.contains_key("@context"),
                serde_json::Value::Array(items) => {
                    !items.is_empty() && items.iter().all(|i| i.get("@context").is_some())
                }
                _ => false,
            };
            JsonLd {
                value: Some(value),
                error: None,
                types,
                has_context,
                line,
                error_line: None,
                not_read: false,
                spot,
            }
        }
        Err(e) => {
            // serde_json counts lines from the start of the JSON text; the page's count adds
            // the lines before it inside the element.
            let offset = text.as_ptr() as usize - raw.as_ptr() as usize;
            let before = raw[..offset].bytes().filter(|&b| b == b'\n').count();
            let inside = e.line().saturating_sub(1);
            let error_line = u32::try_from(line as usize + before + inside).unwrap_or(u32::MAX);
            JsonLd {
                value: None,
                error: Some(e.to_string()),
                types: Vec::new(),
                has_context: false,
                line,
                error_line: Some(error_line),
                not_read: false,
                spot,
            }
        }
    }
}

fn collect_types(value: &serde_json::Value, out: &mut Vec<String>, depth: usize) {
    // serde_json's own recursion limit (128) bounds depth already; this keeps us well below.
    if depth > 64 {
        return;
    }
    match value {
        serde_json::Value::Object(map) => {
            match map.get("@type") {
                Some(serde_json::Value::String(t)) => out.push(t.clone()),
                Some(serde_json::Value::Array(ts)) => {
                    out.extend(ts.iter().filter_map(|t| t.as_str().map(str::to_string)));
                }
                _ => {}
            }
            for (k, v) in map {
                if k != "@type" && k != "@context" {
                    collect_types(v, out, depth + 1);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_types(i, out, depth + 1)),
        _ => {}
    }
}

/// The elements with microdata or RDFa attributes that the page walk records from a document,
/// unbounded: the input of [`structured_data::read`](crate::structured_data::read) beside the
/// page's [`JsonLd`] blocks, for the structured data tests and the reader's benchmark.
pub fn markup_of(html: &str) -> Vec<crate::structured_data::MarkupElement> {
    let parsed = crate::parse::parse(StrTendril::from(html), &crate::parse::Unlimited);
    let mut walker =
        Walker { head_noscript: parsed.head_noscript, lines: parsed.lines, spans: parsed.spans, ..Walker::default() };
    walker.walk(&parsed.dom.document, &crate::parse::Unlimited);
    walker.markup
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-wise collapse is the word split it replaced, non-ASCII white space kept.
    #[test]
    fn link_headers_are_split_into_targets_rels_and_types() {
        let parsed =
            parse_link_header(r#"</cat.json>; rel="ai-catalog", </p.md>; rel=alternate; type="text/markdown""#);
        assert_eq!(parsed[0], ("/cat.json".to_owned(), vec!["ai-catalog".to_owned()], None));
        assert_eq!(parsed[1], ("/p.md".to_owned(), vec!["alternate".to_owned()], Some("text/markdown".to_owned())));
        // A comma inside a quoted parameter does not end the entry; several rels in one.
        let parsed = parse_link_header(r#"<https://a.test/x>; title="a, b"; rel="canonical alternate""#);
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].1, ["canonical", "alternate"]);
        assert!(parse_link_header("no brackets; rel=canonical").is_empty());
        // A link about another resource, and a second rel that does not count.
        let parsed =
            parse_link_header(r#"</a.pdf>; rel=canonical; anchor="/b.pdf", </c>; rel=canonical; rel=alternate"#);
        assert_eq!(parsed, [("/c".to_owned(), vec!["canonical".to_owned()], None)]);
    }

    /// The `Link` header's canonical resolves against the page's URL, never against the
    /// document's `<base href>` (which applies to the document's own references).
    #[test]
    fn header_canonicals_resolve_against_the_final_url() {
        let html =
            br#"<html><head><base href="https://cdn.example/assets/"><link rel="canonical" href="page"></head></html>"#;
        let http = HttpFacts::new()
            .with_status(200)
            .with_final_url("https://shop.example/chairs/oak?x=1")
            .with_header("Link", r#"</chairs/oak>; rel="canonical", <https://shop.example/oak.md>; rel="alternate""#)
            .with_header("link", r#"<print>; rel=CANONICAL"#);
        let page = Page::parse("https://shop.example/c", html, http);
        assert_eq!(page.header_canonicals(), ["https://shop.example/chairs/oak", "https://shop.example/chairs/print"]);
        assert_eq!(page.head_canonical(), "https://cdn.example/assets/page");
        assert_eq!(page.declared_canonical().as_deref(), Some("https://cdn.example/assets/page"), "the head's first");
        let header_only = Page::parse(
            "https://shop.example/c",
            b"<p>x</p>",
            HttpFacts::new().with_header("Link", "</c>; rel=canonical"),
        );
        assert_eq!(header_only.declared_canonical().as_deref(), Some("https://shop.example/c"));
        assert_eq!(Page::parse("https://shop.example/c", b"<p>x</p>", HttpFacts::new()).declared_canonical(), None);
    }

    /// What ends the head before the page closes it: a start tag or text the head cannot
    /// hold, not `</head>` or `<body>`, and not the content of a `<noscript>` of the head.
    #[test]
    fn refresh_content_is_read_as_browsers_read_it() {
        let url = |u: &str| Some(u.to_string());
        assert_eq!(parse_refresh("0; url=https://example.com/new"), Some((0, url("https://example.com/new"))));
        assert_eq!(parse_refresh(" 5 ,URL = '/next page' trailing"), Some((5, url("/next page"))));
        assert_eq!(parse_refresh("3;url=\"/a\""), Some((3, url("/a"))));
        assert_eq!(parse_refresh("1.5; /plain"), Some((1, url("/plain"))));
        assert_eq!(parse_refresh("0 url /b"), Some((0, url("url /b"))), "no `=`: the rest is the URL");
        assert_eq!(parse_refresh("300"), Some((300, None)));
        assert_eq!(parse_refresh(".; url="), Some((0, None)));
        assert_eq!(parse_refresh("url=/a"), None, "no time");
        assert_eq!(parse_refresh("5x; url=/a"), None, "junk after the time");
        assert_eq!(parse_refresh(""), None);
    }

    #[test]
    fn what_ended_the_head_early() {
        let ended = |html: &str| Page::parse("https://a.example/", html.as_bytes(), HttpFacts::new()).head_ended_by;
        let at = |what: &str, line: u32| Some((what.to_string(), line));
        assert_eq!(ended("<html><head><title>T</title>\n<img src=x>\n<link rel=canonical href=/>"), at("<img>", 2));
        assert_eq!(
            ended(
                "<head><meta charset=utf-8>\n  Hello world, this is a stray sentence of the template\n<title>T</title>"
            ),
            at("the text \"Hello world, this is a stray sentence of…\"", 2)
        );
        assert_eq!(ended("<head><title>T</title></head>\n<div>x</div>"), None, "closed by the page");
        assert_eq!(ended("<head><title>T</title>\n<body><div>x</div>"), None, "closed by <body>");
        assert_eq!(ended("<head><noscript><img src=pixel></noscript><link rel=canonical href=/></head><body>x"), None);
        assert_eq!(ended("<!doctype html><p>No head at all"), at("<p>", 1));
        // A pixel in a <noscript> of the head builds the body without scripts; with them, the
        // head goes on to the first element it cannot hold.
        assert_eq!(
            ended("<head><noscript><img src=pixel></noscript><link rel=icon href=/i>\n<div>x</div><link rel=canonical href=/>"),
            at("<div>", 2)
        );
        assert_eq!(ended("<head><noscript><img src=pixel></noscript></head><div>x</div>"), None);
        assert_eq!(ended(""), None);
    }

    /// Snippet and image directives: which count, and the meta tags that give them.
    #[test]
    fn snippet_and_image_directives_and_their_tags() {
        let page = |html: &str, header: Option<&str>| {
            let mut http = HttpFacts::new();
            if let Some(h) = header {
                http = http.with_header("X-Robots-Tag", h);
            }
            Page::parse("https://a.example/", html.as_bytes(), http)
        };
        let p = page(
            r#"<meta name="robots" content="index, max-snippet: 0"><meta name="googlebot" content="noimageindex"><meta name="robots" content="max-snippet:20">"#,
            None,
        );
        assert!(p.is_nosnippet() && p.is_noimageindex());
        assert_eq!((p.spots.nosnippet.len(), p.spots.noimageindex.len(), p.spots.meta_robots.len()), (1, 1, 3));
        let p = page(r#"<meta name="robots" content="max-snippet:-1, max-snippet:10, noimage">"#, None);
        assert!(!p.is_nosnippet() && !p.is_noimageindex());
        assert!(p.spots.nosnippet.is_empty() && p.spots.noimageindex.is_empty());
        assert!(page("<p>x</p>", Some("googlebot: nosnippet")).is_nosnippet());
        assert!(page("<p>x</p>", Some("max-snippet:0")).is_nosnippet());
        assert!(!page("<p>x</p>", Some("bingbot: nosnippet, noimageindex")).is_nosnippet());
        assert!(page("<p>x</p>", Some("NoImageIndex")).is_noimageindex());
    }

    #[test]
    fn collapse_keeps_words_and_non_ascii_space() {
        let reference = |s: &str| {
            s.split(|c: char| c.is_ascii_whitespace()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
        };
        for s in ["", "   ", "a", " a ", "a  b\t\nc\r", "\u{a0}x\u{a0} y\u{2003}", "é  ü\x0cß", "\x0bv\x0b w"] {
            assert_eq!(collapse(s), reference(s), "{s:?}");
        }
    }

    /// The scan as first written (one byte at a time, marks checked before each), kept as
    /// the reference the table-driven scan must agree with.
    fn scan_text_marks_reference(s: &str, marks: &[usize]) -> (usize, usize, Vec<usize>) {
        let mut counts = Vec::with_capacity(marks.len());
        let (mut words, mut len) = (0usize, 0usize);
        let (mut in_word, mut alnum, mut gap) = (false, false, false);
        let bytes = s.as_bytes();
        let mut next_mark = marks.first().copied().unwrap_or(usize::MAX);
        let mut i = 0;
        while i < bytes.len() {
            while i >= next_mark {
                counts.push(words + usize::from(in_word && alnum));
                next_mark = marks.get(counts.len()).copied().unwrap_or(usize::MAX);
            }
            let b = bytes[i];
            let (is_space, is_alnum, width, cjk) = if b < 0x80 {
                (matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c), b.is_ascii_alphanumeric(), 1, false)
            } else {
                let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
                (c.is_whitespace(), c.is_alphanumeric(), c.len_utf8(), is_cjk(c))
            };
            i += width;
            if is_space {
                if in_word {
                    words += usize::from(alnum);
                    in_word = false;
                    gap = true;
                }
                continue;
            }
            if !in_word {
                in_word = true;
                alnum = false;
                if gap && len > 0 {
                    len += 1;
                }
                gap = false;
            }
            len += width;
            alnum |= is_alnum;
            if cjk {
                words += 1;
                alnum = false;
            }
        }
        words += usize::from(in_word && alnum);
        counts.resize(marks.len(), words);
        (words, len, counts)
    }

    proptest::proptest! {
        #[test]
        fn table_driven_scan_agrees_with_the_reference(
            text in "[a-zA-Z0-9 .,!?'\\-\t\n\u{b}\u{c}\u{a0}\u{2003}\u{3000}éßЖ日本語かな한글\u{20000}]{0,80}",
            mut marks in proptest::collection::vec(0usize..90, 0..8),
        ) {
            marks.sort_unstable();
            proptest::prop_assert_eq!(scan_text_marks(&text, &marks), scan_text_marks_reference(&text, &marks));
        }
    }

    fn page(html: &str) -> Page {
        Page::parse("https://example.com/dir/page", html.as_bytes(), HttpFacts::default())
    }

    #[test]
    fn title_is_first_html_title_not_svg() {
        let p = page(
            "<html><head><title>  A \n  b </title></head><body><svg><title>x</title></svg><title>second</title></body>",
        );
        assert_eq!(p.title, "A b");
        assert_eq!(p.titles_in_head, 1);
        let p = page("<body><svg><title>icon</title></svg><p>no title</p>");
        assert_eq!(p.title, "");
    }

    #[test]
    fn links_are_classified_per_decisions() {
        let p = page(
            r##"<base href="https://example.com/base/"><a href="x">1</a><a href="https://EXAMPLE.com/y">2</a>
            <a href="https://other.org/">3</a><a href="#top">4</a><a href="">5</a><a>6</a>
            <a href="javascript:void(0)">7</a><a href="mailto:a@b">8</a><a href="tel:1">9</a>
            <a href=" /z ">10</a><a href="data:text/html,x">11</a>"##,
        );
        assert_eq!(p.link_counts(), (3, 1));
        assert_eq!(p.links[0].url.as_deref(), Some("https://example.com/base/x"));
        assert_eq!(p.links[9].url.as_deref(), Some("https://example.com/z"));
        assert_eq!(p.links[5].kind, LinkKind::NoHref);
    }

    #[test]
    fn fast_link_resolution_matches_the_url_crate() {
        let base = Url::parse("https://www.example.com:8443/dir/page?q=1").unwrap();
        for href in [
            "https://a.example.org/x?y=1#z",
            "http://example.com",
            "/root/path?x=1#f",
            "/",
            "https://EXAMPLE.com/",
            "https://example.com:443/",
            "https://1.2.3.4/",
            "/a/../b",
            "/a b",
            "https://a.org?x",
            "/q?a='b'",
            "https://xn--bcher-kva.example/",
        ] {
            let slow = base.join(href).unwrap().to_string();
            if let Some((fast, host)) = fast_resolve(href, &base) {
                assert_eq!(fast, slow, "{href}");
                assert_eq!(Some(host), Url::parse(&slow).unwrap().host_str(), "{href}");
            }
        }
        assert!(fast_resolve("/root", &base).is_some());
        assert!(fast_resolve("https://a.example.org/x", &base).is_some());
    }

    #[test]
    fn canonical_resolves_against_base() {
        let p = page(r#"<head><base href="/b/"><link rel="Canonical foo" href="c"></head>"#);
        assert_eq!(p.canonical(), "https://example.com/b/c");
    }

    #[test]
    fn boilerplate_is_the_text_of_nav_header_and_footer() {
        let p = page(
            "<body><header><nav>Home Shop</nav> Logo</header><main><p>Own words.</p><nav>Related</nav></main>\
             <footer>Contact</footer></body>",
        );
        let cut: Vec<String> = p
            .boilerplate
            .iter()
            .map(|&(a, b)| p.visible_text[a..b].split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(cut, ["Home Shop Logo", "Related", "Contact"]);
        let own: String = (0..p.visible_text.len())
            .filter(|i| !p.boilerplate.iter().any(|&(a, b)| (a..b).contains(i)))
            .map(|i| p.visible_text.as_bytes()[i] as char)
            .collect();
        assert_eq!(own.split_whitespace().collect::<Vec<_>>(), ["Own", "words."]);
    }

    /// The visible text outside `p.boilerplate`, words joined by one space.
    fn own_text(p: &Page) -> String {
        let mut own = String::new();
        let mut at = 0;
        for &(a, b) in &p.boilerplate {
            own.push_str(&p.visible_text[at..a]);
            own.push(' ');
            at = b;
        }
        own.push_str(&p.visible_text[at..]);
        own.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_own_text_of_a_page_with_one_main_landmark_is_inside_it() {
        let body = "<header>Logo</header><div class=sidebar>Every post ever</div>\
             <main><h1>Post</h1><p>Own words.</p><nav>Related</nav></main><div>Archive</div><footer>Contact</footer>";
        assert_eq!(own_text(&page(&format!("<body>{body}</body>"))), "Post Own words.");
        let role = body.replace("<main>", "<div role=\" Main \">").replace("</main>", "</div>");
        assert_eq!(own_text(&page(&format!("<body>{role}</body>"))), "Post Own words.", "the ARIA role");
        // Not one main landmark with text: the page's text less nav, header and footer.
        let two = format!("<body>{body}<main>Second</main></body>");
        assert_eq!(own_text(&page(&two)), "Every post ever Post Own words. Archive Second");
        let empty = "<body><div>Sidebar</div><main> <img alt=''> </main><p>Text</p></body>";
        assert_eq!(own_text(&page(empty)), "Sidebar Text");
        let hidden = "<body><div>Sidebar</div><main hidden>Old</main><p>Text</p></body>";
        assert_eq!(own_text(&page(hidden)), "Sidebar Old Text", "a hidden main is no main");
        let in_header = "<body><header><main>Logo</main></header><p>Text</p></body>";
        assert_eq!(own_text(&page(in_header)), "Text", "a main inside the header is the header's");
        let nested = "<body><aside>Side</aside><main><div role=main>In</div> Out</main></body>";
        assert_eq!(own_text(&page(nested)), "In Out", "the outermost landmark");
    }

    #[test]
    fn pagination_links_of_the_head_only() {
        let p = page(
            r#"<head><link rel="Prev" href="/p/1"><link rel="next" href="/p/3"><link rel="next" href="/p/4"></head>
            <body><link rel="previous" href="/body"></body>"#,
        );
        assert_eq!(p.head_pagination, (Some("/p/3".to_string()), Some("/p/1".to_string())));
        let p = page(r#"<head><link rel="previous" href="/p/1"></head>"#);
        assert_eq!(p.head_pagination, (None, Some("/p/1".to_string())));
    }

    #[test]
    fn visible_words_skip_hidden_elements() {
        let p = page(
            "<head><title>t t t</title><style>a b c</style></head><body><p>one two</p><script>x y</script>\
             <noscript>n n</noscript><template><p>t t</p></template><div>three<b>four</b></div></body>",
        );
        assert_eq!(p.word_count, 3, "one two threefour");
    }

    #[test]
    fn json_ld_with_cdata_and_errors() {
        let p = page(
            r#"<script type="application/ld+json">//<![CDATA[
            {"@context":"https://schema.org","@graph":[{"@type":"Organization"},{"@type":["Article","NewsArticle"]}]}
            //]]></script><script type="application/ld+json">{bad</script>"#,
        );
        assert_eq!(p.json_ld.len(), 2);
        assert_eq!(p.json_ld[0].types, vec!["Organization", "Article", "NewsArticle"]);
        assert!(p.json_ld[0].has_context);
        assert!(p.json_ld[1].error.is_some());
    }

    #[test]
    fn visible_text_is_what_a_reader_sees() {
        let text = |html: &str| collapse_unicode(&page(html).visible_text);
        let cases = [
            (
                "<html><head><title>T</title><style>p{}</style></head><body><p>Hello <b>oak</b> world</p></body></html>",
                "Hello oak world",
            ),
            ("<p>a<!-- hidden -->b</p><script>var x = '<p>no</p>';</script><p>c &amp; d</p>", "ab c & d"),
            ("<P>Upper</P><SCRIPT>x</SCRIPT>", "Upper"),
            ("no tags", "no tags"),
            ("<p>unclosed <script>never closed", "unclosed"),
            // A lone `<` is text to an HTML parser, as in a browser.
            ("<", "<"),
            ("", ""),
        ];
        for (html, expected) in cases {
            assert_eq!(text(html), expected, "{html}");
        }
    }

    #[test]
    fn word_counting() {
        assert_eq!(count_words("one two  three"), 3);
        assert_eq!(count_words("-- | ..."), 0);
        assert_eq!(count_words("日本語の文章"), 6);
        assert_eq!(count_words("Rust 日本"), 3);
        let p = page("<div>three little words</div><p>one two three four five six seven eight</p>");
        assert_eq!(p.words_before_first_paragraph, 3);
    }

    #[test]
    fn headings_and_sections() {
        let p = page("<h1>Main</h1><p>a b c</p><h2>Sub <span>x</span></h2><p>d e</p><h3>Last</h3>");
        let got: Vec<_> = p.headings.iter().map(|h| (h.level, h.text.as_str(), h.section_words)).collect();
        assert_eq!(got, vec![(1, "Main", 3), (2, "Sub x", 2), (3, "Last", 0)]);
    }

    #[test]
    fn mixed_content_and_render_blocking() {
        let p = page(
            r#"<head><script src="http://cdn/a.js"></script><script async src="/b.js"></script>
            <link rel=stylesheet href="http://cdn/s.css"></head><body><img src="https://ok/i.png"></body>"#,
        );
        assert_eq!(p.mixed_content, vec!["http://cdn/a.js", "http://cdn/s.css"]);
        assert_eq!(p.render_blocking_scripts, vec!["http://cdn/a.js"]);
    }

    #[test]
    fn robots_directives_from_meta_and_header() {
        let http = HttpFacts {
            headers: vec![("x-robots-tag".into(), "googlebot: noindex, nofollow".into())],
            ..HttpFacts::default()
        };
        let p = Page::parse("https://e.com/", b"<meta name=ROBOTS content='index'>", http);
        assert!(p.is_noindex());
        assert!(p.is_nofollow());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = "<div>".repeat(3_000);
        let p = page(&html);
        assert!(p.dom_nodes > 1000);
    }
}
