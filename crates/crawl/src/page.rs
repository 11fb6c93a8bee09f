//! What the crawl keeps of a fetched page: small plain records, no HTML (docs/RULES.md,
//! "Site rules"). The site rules read these; the runner stores them row by row.

use audit_core::{LinkKind, Page};
use serde::{Deserialize, Serialize};

use crate::urls::{normalize, normalize_relative, normalize_serialized, Scope};

/// A link found on a crawled page.
///
/// Written in a record as an array, `[url, anchor, internal, nofollow, follow]`, and read
/// from that or from the object form records had before: a page's links are most of its
/// record, and the five field names were about half of each link's bytes, written, logged
/// and read back for every page of a crawl (docs/PERFORMANCE.md, "Site crawl", session 19).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Outlink {
    /// The target, normalised ([`normalize`](crate::normalize)).
    pub url: String,
    /// The anchor text (or the `aria-label` or image `alt` when the link has no text).
    pub anchor: String,
    /// Whether the target belongs to the crawled site ([`Scope::same_site`]).
    pub internal: bool,
    /// Whether the link carries `rel` `nofollow`, `ugc` or `sponsored`.
    pub nofollow: bool,
    /// Whether the crawl follows it: internal, no `nofollow`-like `rel` on the link and no
    /// `nofollow` robots directive on the page (Screaming Frog's default). Links not followed
    /// are still recorded: they count as inlinks of their target.
    pub follow: bool,
}

impl Serialize for Outlink {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The field order of the struct: its derived reading takes an array in that order.
        (&self.url, &self.anchor, self.internal, self.nofollow, self.follow).serialize(serializer)
    }
}

/// The links of a parsed page: `<a href>` elements with an http(s) target, one per target
/// (the first anchor kept; followed when any of its links is), normalised, in document order.
/// Every one: a crawl record keeps the first [`MAX_RECORDED_LINKS`] of them
/// ([`recorded_outlinks`]).
pub fn outlinks(page: &Page, scope: &Scope) -> Vec<Outlink> {
    let mut out = Vec::new();
    each_outlink(page, scope, |link| out.push(link));
    out
}

/// Links a crawl record keeps at most ([`CrawledPage::outlinks`]): the first in document
/// order, within [`MAX_RECORDED_LINK_BYTES`], the others counted in
/// [`CrawledPage::outlinks_total`]. The page of the shared corpus of real pages (97 news,
/// shop, documentation and wiki pages) with the most has 3,850 distinct link targets
/// (`readability-archive-of-our-own.html`; `crates/crawl/tests/it/corpus.rs` finds it), so no
/// real page of it loses one; Screaming Frog's default is 10,000.
pub const MAX_RECORDED_LINKS: usize = 5_000;

/// The JSON a crawl record's links take at most, in bytes (each link counted as written:
/// its URL, its anchor and its flags, as an array). The corpus page with the most links
/// makes a record of 284 KB in all; past the budget links are counted, not kept, so that a
/// page of thousands of long URLs and anchors cannot make a record of tens of megabytes
/// (docs/SECURITY.md, "The bytes one caller can add").
pub const MAX_RECORDED_LINK_BYTES: usize = 768 * 1024;

/// The longest URL a crawl record keeps, in bytes: the longest the fetcher fetches
/// (`fetch::MAX_URL_LEN`; the corpus's longest link is 1,780 bytes). A link, alternate,
/// canonical, pagination or redirect target longer than this could never be fetched; a link
/// or alternate is counted ([`CrawledPage::outlinks_total`], [`CrawledPage::hreflang_total`])
/// but not kept.
pub const MAX_RECORDED_URL_BYTES: usize = 2_048;

/// Bytes of a recorded link's anchor text kept (cut at a character boundary). The parser
/// keeps 4,096 bytes of a link's text; the corpus's longest anchor is 1,752 bytes (a teaser
/// wrapped in its link), and no site rule reads the anchor.
pub const MAX_RECORDED_ANCHOR_BYTES: usize = 2_048;

/// Hreflang alternates a crawl record keeps at most (as the audit result lists,
/// `audit_core::MAX_LISTED_HREFLANG`), within [`MAX_RECORDED_HREFLANG_BYTES`]; the others are
/// counted in [`CrawledPage::hreflang_total`]. The corpus's most is 84 (`mozilla.org.html`).
pub const MAX_RECORDED_HREFLANG: usize = 500;

/// The JSON a crawl record's hreflang alternates take at most, in bytes (84 alternates of
/// real pages take about 7 KB).
pub const MAX_RECORDED_HREFLANG_BYTES: usize = 128 * 1024;

/// Bytes of an hreflang value kept in a record: a language tag (`de-CH`, `x-default`) is far
/// shorter; a longer value is no language, counted but not kept.
pub const MAX_RECORDED_LANG_BYTES: usize = 64;

/// Bytes of the title, meta description and first `<h1>` a crawl record keeps, each (cut at a
/// character boundary): the duplicate rules compare what is kept. A title of a kilobyte is
/// already far past what a search result shows (about 60 characters).
pub const MAX_RECORDED_TEXT_BYTES: usize = 1_024;

/// The largest crawl record, as JSON, in bytes: the links' and alternates' budgets, three
/// texts of [`MAX_RECORDED_TEXT_BYTES`] written with every byte escaped (6 bytes each), five
/// URLs of [`MAX_RECORDED_URL_BYTES`] (the page's, canonical, next, previous, redirect), the
/// values of a crawl's extractors ([`crate::MAX_EXTRACTORS`] of
/// [`crate::MAX_EXTRACT_VALUE_BYTES`], escaped likewise) and the fixed fields, rounded up. `crates/crawl/src/page.rs` tests it on a page built to pass every
/// other bound.
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;

/// The first `max` bytes of `s`, cut at a character boundary.
fn cut(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// The bytes `s` takes as a JSON string's contents (quotes not counted): `"` and `\` are
/// escaped in two, the other control characters in two or six.
fn json_len(s: &str) -> usize {
    s.bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..0x20 => 6,
            _ => 1,
        })
        .sum()
}

/// The links a crawl record keeps ([`MAX_RECORDED_LINKS`], [`MAX_RECORDED_LINK_BYTES`],
/// [`MAX_RECORDED_URL_BYTES`], [`MAX_RECORDED_ANCHOR_BYTES`]) and how many distinct targets
/// the page links to in all.
pub fn recorded_outlinks(page: &Page, scope: &Scope) -> (Vec<Outlink>, usize) {
    // A link as JSON, less its URL and anchor: `["","",false,false,false]` and the comma
    // before the next.
    const LINK_JSON: usize = 26;
    let mut kept = Vec::new();
    let (mut total, mut bytes, mut full) = (0, 0, false);
    each_outlink(page, scope, |mut link| {
        total += 1;
        // A URL no crawl could fetch is skipped; once the count or the budget is reached
        // nothing more is kept, so that the links kept are the page's first ones.
        if full || link.url.len() > MAX_RECORDED_URL_BYTES {
            return;
        }
        link.anchor = cut(link.anchor, MAX_RECORDED_ANCHOR_BYTES);
        let cost = LINK_JSON + json_len(&link.url) + json_len(&link.anchor);
        full = kept.len() == MAX_RECORDED_LINKS || bytes + cost > MAX_RECORDED_LINK_BYTES;
        if !full {
            bytes += cost;
            kept.push(link);
        }
    });
    (kept, total)
}

/// Calls `f` with each of [`outlinks`].
fn each_outlink(page: &Page, scope: &Scope, f: impl FnMut(Outlink)) {
    let page_nofollow = page.is_nofollow();
    // Each target's place in `out`: a later followed link to a target changes its first
    // entry, so the links are gathered before `f` sees any.
    let mut seen: foldhash::HashMap<String, usize> = foldhash::HashMap::default();
    let mut out: Vec<Outlink> = Vec::new();
    for link in &page.links {
        if link.kind != LinkKind::Web {
            continue;
        }
        let Some(target) = link.url.as_deref() else {
            continue;
        };
        // The parser's URLs are already serialized: most need no parse to be normalised.
        let (url, internal) = match normalize_serialized(target) {
            Some((url, site)) => (url.to_string(), site == *scope.site()),
            None => match normalize(target) {
                Ok(url) => (url.to_string(), scope.same_site(&url)),
                Err(_) => continue,
            },
        };
        // Stripped here as the frontier strips what it queues, so a link's target is the
        // URL crawled and its inlinks count it.
        let url = match scope.strip_params(&url) {
            std::borrow::Cow::Owned(stripped) => stripped,
            std::borrow::Cow::Borrowed(_) => url,
        };
        let nofollow = link.rel.iter().any(|r| matches!(r.as_str(), "nofollow" | "ugc" | "sponsored"));
        if let Some(&at) = seen.get(&url) {
            // A target linked twice is followed when either link is: a search engine follows
            // the followed one, whatever the other says.
            if !nofollow {
                let first: &mut Outlink = &mut out[at];
                first.nofollow = false;
                first.follow = internal && !page_nofollow;
            }
            continue;
        }
        seen.insert(url.clone(), out.len());
        let anchor = if link.text.is_empty() { link.label.clone().unwrap_or_default() } else { link.text.clone() };
        out.push(Outlink { url, anchor, internal, nofollow, follow: internal && !nofollow && !page_nofollow });
    }
    out.into_iter().for_each(f);
}

/// One URL of the crawl, as the site rules see it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawledPage {
    /// The URL fetched, normalised.
    pub url: String,
    /// The HTTP status; `None` when the fetch failed (no answer, blocked by the address
    /// guard, too large...).
    pub status: Option<u16>,
    /// Why the fetch failed, when it did.
    pub error: Option<String>,
    /// The normalised `Location` of a 3xx answer.
    pub redirect_to: Option<String>,
    /// Click depth from the start URL (0 for it); `None` for a URL found in a sitemap and
    /// linked from no page reached by links.
    pub depth: Option<u32>,
    /// Whether the answer was an HTML page that was parsed and audited.
    pub html: bool,
    /// `document.title`, white space collapsed (`None` when empty or not HTML).
    pub title: Option<String>,
    /// The head's meta description, white space collapsed (`None` when absent or empty).
    pub meta_description: Option<String>,
    /// The text of the first `<h1>`, white space collapsed (`None` when there is none or it
    /// is empty). Kept in the record only (records written before it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h1: Option<String>,
    /// [`text_hash`] of the visible text (`None` when not HTML or no visible text).
    pub text_hash: Option<String>,
    /// [`content_signature`] of the page's own text (`None` when it has too few words).
    /// Kept in the record only (records written before it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_signature: Option<u64>,
    /// The head's first canonical link, resolved and normalised.
    pub canonical: Option<String>,
    /// The head's hreflang alternates: language, normalised URL; the first
    /// [`MAX_RECORDED_HREFLANG`] with a language of at most [`MAX_RECORDED_LANG_BYTES`] and a
    /// URL of at most [`MAX_RECORDED_URL_BYTES`].
    pub hreflang: Vec<(String, String)>,
    /// How many hreflang alternates the head names in all, present only when
    /// [`CrawledPage::hreflang`] keeps fewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hreflang_total: Option<usize>,
    /// The head's `<link rel=next>`, resolved and normalised. Kept in the record only, as
    /// [`CrawledPage::prev`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The head's `<link rel=prev>` (or `previous`), resolved and normalised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
    /// Where the page's refresh sends a browser ([`audit_core::Page::refresh`]: the HTTP
    /// `Refresh` header's, else the first `<meta>` refresh a browser acts on, outside
    /// `<noscript>`), resolved against the base URL and
    /// normalised; `None` without one, for a reload of the page itself, or a jump to a
    /// `#part` of it. The crawl fetches it as it fetches a canonical's target (one click
    /// deeper, no inlink), as a browser and Google follow it. Kept in the record only
    /// (records written before it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh: Option<String>,
    /// Whether a robots directive (meta or `X-Robots-Tag`) forbids indexing.
    pub noindex: bool,
    /// The page's links ([`outlinks`]): the first [`MAX_RECORDED_LINKS`] with a URL of at most
    /// [`MAX_RECORDED_URL_BYTES`], their anchors cut at [`MAX_RECORDED_ANCHOR_BYTES`]. The
    /// crawl follows and counts as inlinks the links kept, no others.
    pub outlinks: Vec<Outlink>,
    /// How many distinct link targets the page has in all, present only when
    /// [`CrawledPage::outlinks`] keeps fewer: nothing is left out silently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outlinks_total: Option<usize>,
    /// The page score of the audit (0-100), for HTML pages.
    pub score: Option<u32>,
    /// The rich results an item of the page's structured data is not eligible for, each with
    /// the path of its first error without indexes (`Product.offers.price`); at most
    /// [`MAX_RICH_RESULT_ERRORS`], in page order. Kept in the record only (records written
    /// before it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rich_result_errors: Vec<RichResultError>,
    /// The distinct types (schema.org short names, the first of each item) of the page's
    /// top-level structured data items, whatever their errors; at most
    /// [`MAX_STRUCTURED_DATA_TYPES`], in page order. Kept in the record only (records
    /// written before it have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structured_data_types: Vec<String>,
    /// The values of the crawl's extractors on this page ([`crate::Extractors::extract`]):
    /// each extractor's name and value (`None`: it matched nothing), in the crawl's order, each
    /// within [`crate::MAX_EXTRACT_VALUE_BYTES`]; empty for a crawl without extractors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extracted: Vec<(String, Option<String>)>,
}

/// A rich result an item of a page is not eligible for (see
/// [`CrawledPage::rich_result_errors`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RichResultError {
    /// The rich result (`Product snippet`).
    pub rich_result: String,
    /// The path of the first error that costs it, without indexes (`Product.offers.price`).
    pub path: String,
}

/// Rich results a record keeps per page at most: the structured data of one page may list
/// thousands of items, a record stays small.
pub const MAX_RICH_RESULT_ERRORS: usize = 8;

/// Types a record keeps per page at most ([`CrawledPage::structured_data_types`]): a page
/// may list thousands of items, a record stays small.
pub const MAX_STRUCTURED_DATA_TYPES: usize = 8;

/// The longest type name a record keeps, in bytes: schema.org's longest type names are under
/// 50 characters; a longer `@type` names no type a rule knows and is left out, so that eight
/// types of a megabyte each cannot grow a record past [`MAX_RECORD_BYTES`].
pub const MAX_RECORDED_TYPE_BYTES: usize = 128;

/// Bytes of a rich result error's path a record keeps (cut at a character boundary): a real
/// path is a few property names (`Product.offers.price`); property names are the page's own
/// text, so a path is bounded here for [`MAX_RECORD_BYTES`] to hold.
pub const MAX_RECORDED_PATH_BYTES: usize = 512;

/// The distinct types of the page's top-level items (see
/// [`CrawledPage::structured_data_types`]).
fn structured_data_types(page: &Page) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in &page.structured_data.items {
        if out.len() == MAX_STRUCTURED_DATA_TYPES {
            break;
        }
        if !item.type_.is_empty() && item.type_.len() <= MAX_RECORDED_TYPE_BYTES && !out.contains(&item.type_) {
            out.push(item.type_.clone());
        }
    }
    out
}

/// The distinct rich results the page's items are not eligible for, with the first error
/// of each (see [`CrawledPage::rich_result_errors`]).
fn rich_result_errors(page: &Page) -> Vec<RichResultError> {
    let mut out: Vec<RichResultError> = Vec::new();
    for item in &page.structured_data.items {
        for rich_result in &item.not_eligible {
            if out.len() == MAX_RICH_RESULT_ERRORS || out.iter().any(|e| e.rich_result == *rich_result) {
                continue;
            }
            let first = item.errors.iter().find(|p| p.rich_result == *rich_result);
            // `Product.offers[0].price` and `Product.offers[3].price` are one fault of a
            // template: the indexes go.
            let path = first.map(|p| strip_indexes(&p.path)).unwrap_or_else(|| item.type_.clone());
            out.push(RichResultError { rich_result: rich_result.clone(), path: cut(path, MAX_RECORDED_PATH_BYTES) });
        }
    }
    out
}

fn strip_indexes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0usize;
    for c in path.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

impl CrawledPage {
    /// A URL whose fetch failed.
    pub fn failed(url: impl Into<String>, depth: Option<u32>, error: impl Into<String>) -> CrawledPage {
        CrawledPage { url: url.into(), depth, error: Some(error.into()), ..CrawledPage::default() }
    }

    /// A URL that answered 3xx with `Location` `to` (normalised by the caller, or `None`
    /// when it did not resolve), or any non-HTML answer when `to` is `None`.
    /// A target longer than [`MAX_RECORDED_URL_BYTES`] is not kept (it could not be fetched).
    pub fn answered(url: impl Into<String>, depth: Option<u32>, status: u16, to: Option<String>) -> CrawledPage {
        let redirect_to = to.filter(|u| u.len() <= MAX_RECORDED_URL_BYTES);
        CrawledPage { url: url.into(), depth, status: Some(status), redirect_to, ..CrawledPage::default() }
    }

    /// An HTML answer, from the page audit-core parsed (its `http` facts carry the status
    /// and headers). `url` is the URL fetched (normalised); the page's own links come from
    /// [`outlinks`].
    pub fn from_page(
        url: impl Into<String>,
        depth: Option<u32>,
        page: &Page,
        scope: &Scope,
        score: Option<u32>,
    ) -> CrawledPage {
        CrawledPage::from_page_with(url, depth, page, TextFacts::of(page), scope, score)
    }

    /// [`CrawledPage::from_page`] with the facts of the page's visible text computed before
    /// ([`TextFacts::take`], which frees the text): the crawl computes them where the page
    /// was audited and keeps the page without its text until its record is built.
    pub fn from_page_with(
        url: impl Into<String>,
        depth: Option<u32>,
        page: &Page,
        text: TextFacts,
        scope: &Scope,
        score: Option<u32>,
    ) -> CrawledPage {
        let base = page.base_url.as_deref().or(Some(page.final_url.as_str())).and_then(|b| normalize(b).ok());
        let resolve = |r: &str| {
            base.as_ref()
                .and_then(|b| normalize_relative(b, r).ok())
                .map(String::from)
                .filter(|u| u.len() <= MAX_RECORDED_URL_BYTES)
        };
        let collapse =
            |s: &str| Some(cut(audit_core::text::collapse(s), MAX_RECORDED_TEXT_BYTES)).filter(|s| !s.is_empty());
        let mut hreflang = Vec::new();
        let mut hreflang_count = 0;
        let (mut hreflang_bytes, mut full) = (0, false);
        for h in page.head_hreflang() {
            // An alternate that does not resolve is no alternate: neither kept nor counted.
            let Some(url) = base.as_ref().and_then(|b| normalize_relative(b, &h.href).ok()).map(String::from) else {
                continue;
            };
            hreflang_count += 1;
            let lang = h.lang.trim().to_ascii_lowercase();
            // As links: one no language or no fetchable URL is skipped, the count and budget
            // end the list. `["lang","url"]` and the comma before the next.
            if full || lang.len() > MAX_RECORDED_LANG_BYTES || url.len() > MAX_RECORDED_URL_BYTES {
                continue;
            }
            let cost = 8 + json_len(&lang) + json_len(&url);
            full = hreflang.len() == MAX_RECORDED_HREFLANG || hreflang_bytes + cost > MAX_RECORDED_HREFLANG_BYTES;
            if !full {
                hreflang_bytes += cost;
                hreflang.push((lang, url));
            }
        }
        let (outlinks, outlinks_count) = recorded_outlinks(page, scope);
        CrawledPage {
            url: url.into(),
            status: page.http.status,
            error: None,
            redirect_to: None,
            depth,
            html: true,
            title: collapse(&page.title),
            meta_description: page.head_meta_description.as_deref().and_then(collapse),
            h1: page.h1s.first().and_then(|h| collapse(h)),
            text_hash: text.text_hash,
            content_signature: text.content_signature,
            // The head's canonical, else the `Link` header's (both absolute, normalised here).
            canonical: page.declared_canonical().as_deref().and_then(resolve),
            hreflang_total: (hreflang_count > hreflang.len()).then_some(hreflang_count),
            hreflang,
            next: page.head_pagination.0.as_deref().and_then(resolve),
            prev: page.head_pagination.1.as_deref().and_then(resolve),
            refresh: page
                .refresh()
                .and_then(|r| r.url)
                .as_deref()
                .filter(|u| !u.trim_start().starts_with('#'))
                .and_then(resolve),
            noindex: page.is_noindex(),
            outlinks_total: (outlinks_count > outlinks.len()).then_some(outlinks_count),
            outlinks,
            score,
            rich_result_errors: rich_result_errors(page),
            structured_data_types: structured_data_types(page),
            extracted: Vec::new(),
        }
    }

    /// Whether `other` answered the very same visible text ([`CrawledPage::text_hash`]; a
    /// page without visible text is the same as none).
    pub fn same_text(&self, other: &CrawledPage) -> bool {
        self.text_hash.is_some() && self.text_hash == other.text_hash
    }

    /// Whether the page may appear in search results: answered 200 with HTML and no
    /// `noindex`, and its canonical (when it has one) names itself.
    pub fn indexable(&self) -> bool {
        self.status == Some(200)
            && self.html
            && !self.noindex
            && self.canonical.as_deref().is_none_or(|c| c == self.url)
    }
}

/// What a crawl record keeps of a page's visible text: its [`text_hash`] and its
/// [`content_signature`], 24 bytes whatever the page's size (docs/SCALING.md, "Large pages").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextFacts {
    /// [`text_hash`] of the visible text.
    pub text_hash: Option<String>,
    /// [`content_signature`] of the page's own text.
    pub content_signature: Option<u64>,
}

impl TextFacts {
    /// The facts of `page`'s visible text.
    pub fn of(page: &Page) -> TextFacts {
        TextFacts {
            text_hash: text_hash(&page.visible_text),
            content_signature: content_signature(&page.visible_text, &page.boilerplate),
        }
    }

    /// The facts of `page`'s visible text, then the text and the decoded document freed
    /// ([`Page::release_source`]): a crawl keeps an audited page until the frontier thread
    /// has built its record, and a page of 5 MB would otherwise keep two copies of its size
    /// (the visible text and the document) all that time. What the record reads besides the
    /// text (links, head facts, structured data) stays.
    pub fn take(page: &mut Page) -> TextFacts {
        let facts = TextFacts::of(page);
        page.visible_text = String::new();
        page.boilerplate = Vec::new();
        page.release_source();
        facts
    }
}

/// The hash `duplicate-content` compares: XXH3-128 (hex) of the visible text with every
/// run of white space collapsed to one space and the ends trimmed. `None` for a page without
/// visible text. A fixed function, so hashes stay comparable across processes, replicas and
/// a resumed crawl; not a cryptographic one, which nothing here needs (two pages of one site
/// made to collide would only be reported as duplicates of each other). SHA-256 before:
/// 2.3% of a crawl's CPU for the load page's 70 KB of text, XXH3 a tenth of that.
pub fn text_hash(visible_text: &str) -> Option<String> {
    // Collapsed into one buffer and hashed at once: a hasher fed word by word spends more
    // on the calls than on the hashing.
    let collapsed = text::collapse_white_space(visible_text, usize::MAX);
    if collapsed.is_empty() {
        return None;
    }
    Some(format!("{:032x}", xxhash_rust::xxh3::xxh3_128(collapsed.as_bytes())))
}

/// Pages whose own text has fewer words than this get no [`content_signature`]: a few
/// words share too much by chance to say two pages are near duplicates.
pub const MIN_SIGNATURE_WORDS: usize = 50;

/// The SimHash (64 bits) of a page's own text: `visible_text` without the `boilerplate`
/// ranges (its `<nav>`, `<header>` and `<footer>`, and what lies outside its one main landmark: [`audit_core::Page::boilerplate`]), in
/// lower case, as overlapping runs of three words. Each word is hashed once ([`word_hash`])
/// and each run's hash is [`run_hash`] of its three words' hashes, both fixed functions, so signatures stay comparable across processes and
/// replicas; bit `i` of the signature is set when more runs have bit `i` set than not.
/// Texts sharing most of their runs differ in few bits: [`signature_similarity`] compares
/// them. `None` below [`MIN_SIGNATURE_WORDS`] words.
pub fn content_signature(visible_text: &str, boilerplate: &[(usize, usize)]) -> Option<u64> {
    // Streamed word by word: a page of 5 MB of text would otherwise hold its own copy, a
    // lower-cased copy and a vector of every word (about 23 MB at once, docs/SCALING.md). The
    // words and runs are those of lower-casing the whole text and splitting it on every
    // character that is not alphanumeric.
    let mut runs = Runs::default();
    let mut lower = String::new();
    for piece in own_text_pieces(visible_text, boilerplate) {
        words_of(piece, &mut |hash| runs.push(hash), &mut lower);
    }
    runs.signature()
}

/// The pieces of a page's own text: `visible_text` outside its `boilerplate` ranges (sorted,
/// as [`audit_core::Page::boilerplate`] gives them), in order. [`content_signature`] reads
/// their words as one run of words.
pub fn own_text_pieces<'t>(visible_text: &'t str, boilerplate: &[(usize, usize)]) -> Vec<&'t str> {
    let mut at = 0;
    let mut pieces = Vec::with_capacity(boilerplate.len() + 1);
    for &(start, end) in boilerplate {
        if let Some(piece) = visible_text.get(at..start) {
            pieces.push(piece);
        }
        at = at.max(end);
    }
    pieces.push(visible_text.get(at..).unwrap_or_default());
    pieces
}

/// Gives `push` the [`word_hash`] of each word of `piece`, in order: the runs of bytes
/// between ASCII characters that are not letters or digits (a byte of a UTF-8 sequence is
/// never ASCII, so every cut is on a character boundary). An ASCII run is then a whole word,
/// hashed lower-cased as it lies in the text; only a run holding other characters is split
/// and lower-cased character by character. Most text is ASCII; decoding every character of
/// it was most of this function's time.
///
/// The words are found 64 bytes at a time: [`word_bytes`] gives a mask of the block's bytes
/// that belong to words, and the changes in that mask are the words' starts and ends, taken
/// lowest first. A loop over the bytes, ending at each word's end, mispredicted its exit
/// once a word and was half of the signature's time (148 µs for the load page's 70 KB of
/// text and 11,158 words, `cargo bench -p crawl --bench crawl -- content_signature`).
fn words_of(piece: &str, push: &mut impl FnMut(u64), lower: &mut String) {
    let bytes = piece.as_bytes();
    let mut word = |start: usize, end: usize| {
        if let Some(hash) = ascii_word_hash(bytes, start, end) {
            push(hash);
            return;
        }
        let segment = piece.get(start..end).unwrap_or_default();
        for word in segment.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            lower.clear();
            lower.push_str(&word.to_lowercase());
            // Lower-casing can yield a character that is not alphanumeric (`İ` gives `i` and
            // a combining dot), which splits the word as it split the lower-cased text.
            for sub in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                push(word_hash(sub.as_bytes()));
            }
        }
    };
    // Where the word being read began, when one is open at the block's start.
    let mut open: Option<usize> = None;
    for (n, block) in bytes.chunks(64).enumerate() {
        let base = 64 * n;
        let inside = word_bytes(block);
        // Bit `i`: byte `i` is in a word and the one before it is not, or the reverse. A
        // block shorter than 64 bytes (the last) ends with bytes outside words, which ends
        // an open word at the text's end.
        let mut edges = inside ^ (inside << 1 | u64::from(open.is_some()));
        while edges != 0 {
            let at = base + edges.trailing_zeros() as usize;
            edges &= edges - 1;
            match open.take() {
                Some(start) => word(start, at),
                None => open = Some(at),
            }
        }
        debug_assert!(block.len() == 64 || open.is_none(), "the last block ends every word");
    }
    if let Some(start) = open {
        word(start, bytes.len());
    }
}

/// The bytes of `block` (up to 64) that belong to words, as bit `i` for byte `i`: ASCII
/// letters and digits, and every byte of a character outside ASCII. Eight bytes at a time:
/// with the top bit of each byte cleared, adding a constant to all eight sets a byte's top
/// bit exactly when it is at least some value (no byte carries into the next), which tests
/// the ranges `0`-`9` and, with bit 5 set, `a`-`z` for the eight at once.
fn word_bytes(block: &[u8]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut mask = 0u64;
    for (k, chunk) in block.chunks(8).enumerate() {
        let x = match chunk.first_chunk::<8>() {
            Some(eight) => u64::from_le_bytes(*eight),
            None => short_chunk(chunk),
        };
        let y = x & LOW7;
        // At least `b`: top bit of `y + (0x80 - b)` in each byte.
        let at_least = |v: u64, b: u64| v.wrapping_add(ONES * (0x80 - b)) & HIGH;
        let digit = at_least(y, 0x30) & !at_least(y, 0x3a);
        let folded = y | (ONES * 0x20);
        let letter = at_least(folded, 0x61) & !at_least(folded, 0x7b);
        // The padding of a short chunk is zero: neither a letter, a digit nor high.
        let inside = (x & HIGH) | digit | letter;
        // The eight top bits gathered into one byte, byte `j`'s as bit `j`.
        let gathered = (inside >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= gathered << (8 * k);
    }
    mask
}

/// The [`word_hash`] of the ASCII word `bytes[start..end]`, lower-cased, or `None` when it
/// holds a byte outside ASCII. Its chunks are read eight bytes at a time where the text has
/// eight bytes from the chunk on, the bytes past the word masked off: the same numbers as
/// [`short_chunk`] gives, without its branches on the length.
fn ascii_word_hash(bytes: &[u8], start: usize, end: usize) -> Option<u64> {
    // Bit 5 of every byte: an ASCII letter with it set is lower case, and an ASCII digit
    // always has it, so for a word of ASCII letters and digits (the only ASCII words
    // `content_signature` hashes) setting it lower-cases the chunk as `make_ascii_lowercase`
    // would, eight bytes in one operation instead of a test and a branch per byte.
    const LOWER: u64 = 0x2020_2020_2020_2020;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut hash = (end - start) as u64;
    let mut high = 0;
    let mut at = start;
    while at < end {
        let n = (end - at).min(8);
        // The chunk's own bytes: the padding past the word stays zero, not lower-cased.
        let own = u64::MAX >> (8 * (8 - n));
        let value = match bytes.get(at..at + 8).and_then(|b| b.first_chunk::<8>()) {
            Some(eight) => u64::from_le_bytes(*eight) & own,
            None => short_chunk(&bytes[at..at + n]),
        };
        high |= value;
        hash = word_hash_step(hash, value | (LOWER & own));
        at += n;
    }
    (high & HIGH == 0).then_some(hash)
}

/// The hash of a word's UTF-8 bytes: eight bytes at a time, each chunk rotated in and
/// multiplied ([`word_hash_step`], the FxHash step, seeded with the length). A word of up to
/// eight bytes maps to its hash one to one, so two such words never collide; [`run_hash`]
/// then mixes every bit. Hashing was most of the signature's time with SipHash (each word
/// hashed in three runs). An ASCII word straight from the text is hashed by
/// [`ascii_word_hash`], lower-cased as it is read, to the same number.
fn word_hash(word: &[u8]) -> u64 {
    word.chunks(8).fold(word.len() as u64, |hash, chunk| {
        let value = match chunk.first_chunk::<8>() {
            Some(eight) => u64::from_le_bytes(*eight),
            None => short_chunk(chunk),
        };
        word_hash_step(hash, value)
    })
}

/// One chunk of eight bytes (a little-endian number) into a word's hash.
fn word_hash_step(hash: u64, chunk: u64) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    (hash.rotate_left(5) ^ chunk).wrapping_mul(K)
}

/// The bytes of a chunk shorter than eight as a little-endian number (the missing high
/// bytes zero), read as two overlapping loads: copying the chunk into an eight-byte buffer
/// called `memcpy` for every word (7% of the signature's time; most words are one such
/// chunk).
fn short_chunk(chunk: &[u8]) -> u64 {
    let n = chunk.len();
    if let (Some(low), Some(high)) = (chunk.first_chunk::<4>(), chunk.last_chunk::<4>()) {
        u64::from(u32::from_le_bytes(*low)) | u64::from(u32::from_le_bytes(*high)) << (8 * (n - 4))
    } else if let (Some(low), Some(high)) = (chunk.first_chunk::<2>(), chunk.last_chunk::<2>()) {
        u64::from(u16::from_le_bytes(*low)) | u64::from(u16::from_le_bytes(*high)) << (8 * (n - 2))
    } else {
        chunk.first().map_or(0, |&b| u64::from(b))
    }
}

/// The hash of a run of three words from their [`word_hash`]es: order-sensitive (a
/// multiply-xor chain) and then mixed so that every bit of the result depends on every bit
/// of the three (the finaliser of MurmurHash3), as SimHash needs independent bits. Hashing
/// each word once and combining, instead of hashing the run's bytes, hashes every word once
/// instead of three times.
fn run_hash(first: u64, second: u64, third: u64) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut x = (first.wrapping_mul(K) ^ second).wrapping_mul(K) ^ third;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The words' hashes of a text as they come and the votes of its runs of three.
#[derive(Default)]
struct Runs {
    words: usize,
    last: [u64; 2],
    votes: Votes,
}

impl Runs {
    fn push(&mut self, word: u64) {
        self.words += 1;
        if self.words >= 3 {
            self.votes.add(run_hash(self.last[0], self.last[1], word));
        }
        self.last = [self.last[1], word];
    }

    fn signature(self) -> Option<u64> {
        (self.words >= MIN_SIGNATURE_WORDS).then(|| self.votes.signature())
    }
}

/// The SimHash votes: for each of the 64 bits, how many of the runs' hashes have it set.
/// The hashes come in groups of eight, added bit-sliced (all 64 bits at once) by a tree of
/// carry-save adders into running sums of weight one, two and four (`ones`, `twos`,
/// `fours`: five operations an adder, seven adders a group), which leaves one word of
/// weight eight a group; that word goes into 64 counters of eight bits kept as eight bit
/// planes (plane `l` holds bit `l` of every counter), a ripple of carries through the
/// planes, three operations a plane. That is about seven operations a hash where a ripple
/// per hash took 24 (the Harley-Seal way of counting bits). The planes are emptied into
/// the totals every 255 groups, before a counter could overflow; a last group of fewer
/// than eight is counted bit by bit. (A loop over the 64 bits took 2.0 ms of a 2.3 ms page
/// audit on the load page; byte-wide counters fed from a table took a third of the
/// signature's time; the ripple per hash, 148 µs for the load page's text.)
#[derive(Clone)]
struct Votes {
    group: [u64; 8],
    grouped: usize,
    ones: u64,
    twos: u64,
    fours: u64,
    planes: [u64; 8],
    pending: u32,
    set: [u32; 64],
    runs: u32,
}

impl Default for Votes {
    fn default() -> Votes {
        Votes {
            group: [0; 8],
            grouped: 0,
            ones: 0,
            twos: 0,
            fours: 0,
            planes: [0; 8],
            pending: 0,
            set: [0; 64],
            runs: 0,
        }
    }
}

/// A carry-save adder over 64 bit positions at once: the sum bits and the carry bits of
/// `a + b + c` at each position.
#[inline(always)]
fn carry_save(a: u64, b: u64, c: u64) -> (u64, u64) {
    let u = a ^ b;
    (u ^ c, (a & b) | (u & c))
}

impl Votes {
    fn add(&mut self, hash: u64) {
        self.group[self.grouped] = hash;
        self.grouped += 1;
        if self.grouped == self.group.len() {
            self.grouped = 0;
            self.add_group();
        }
    }

    /// Adds the eight hashes of `group` into the sums, and the group's word of weight
    /// eight into the planes.
    fn add_group(&mut self) {
        let [h0, h1, h2, h3, h4, h5, h6, h7] = self.group;
        let (ones, twos_a) = carry_save(self.ones, h0, h1);
        let (ones, twos_b) = carry_save(ones, h2, h3);
        let (twos, fours_a) = carry_save(self.twos, twos_a, twos_b);
        let (ones, twos_a) = carry_save(ones, h4, h5);
        let (ones, twos_b) = carry_save(ones, h6, h7);
        let (twos, fours_b) = carry_save(twos, twos_a, twos_b);
        let (fours, eights) = carry_save(self.fours, fours_a, fours_b);
        (self.ones, self.twos, self.fours) = (ones, twos, fours);
        let mut carry = eights;
        for plane in &mut self.planes {
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
        }
        self.runs += 8;
        self.pending += 1;
        if self.pending == 255 {
            self.flush_planes();
        }
    }

    /// Empties the planes (weight eight) into the totals.
    fn flush_planes(&mut self) {
        for (level, plane) in self.planes.iter().enumerate() {
            for (bit, total) in self.set.iter_mut().enumerate() {
                *total += ((plane >> bit) as u32 & 1) << (level + 3);
            }
        }
        self.planes = [0; 8];
        self.pending = 0;
    }

    /// Empties everything counted into the totals: the planes, the running sums and the
    /// hashes of a group not yet full.
    fn flush(&mut self) {
        self.flush_planes();
        let partial = self.group[..self.grouped].iter().map(|&hash| (hash, 1));
        let sums = [(self.ones, 1), (self.twos, 2), (self.fours, 4)];
        for (word, weight) in sums.into_iter().chain(partial) {
            for (bit, total) in self.set.iter_mut().enumerate() {
                *total += ((word >> bit) as u32 & 1) * weight;
            }
        }
        self.runs += self.grouped as u32;
        (self.ones, self.twos, self.fours, self.grouped) = (0, 0, 0, 0);
    }

    /// Bit `i` is set when more runs have it set than not (the sum of +1 and -1 votes is
    /// positive).
    fn signature(mut self) -> u64 {
        self.flush();
        (0..64).filter(|&bit| 2 * u64::from(self.set[bit]) > u64::from(self.runs)).fold(0u64, |sig, bit| sig | 1 << bit)
    }
}

/// How alike two [`content_signature`]s are, in percent: the share of their 64 bits that
/// agree (100 for equal signatures, about 50 for unrelated texts).
pub fn signature_similarity(a: u64, b: u64) -> u32 {
    (64 - (a ^ b).count_ones()) * 100 / 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::HttpFacts;

    use crate::urls::ScopeConfig;

    #[test]
    fn content_signatures_of_near_and_far_texts() {
        let words = |seed: usize, n: usize| -> String {
            (0..n).map(|i| format!("w{}", (i * 7 + seed * 13) % 997)).collect::<Vec<_>>().join(" ")
        };
        let text = words(1, 200);
        let sig = content_signature(&text, &[]).unwrap();
        let one_word_changed = text.replacen("w7 ", "changed ", 1);
        let near = content_signature(&one_word_changed, &[]).unwrap();
        assert!(signature_similarity(sig, near) >= 90, "{}", signature_similarity(sig, near));
        let far = content_signature(&words(2, 200), &[]).unwrap();
        assert!(signature_similarity(sig, far) < 80, "{}", signature_similarity(sig, far));
        // The same own text between another navigation and footer: the same signature.
        let framed = format!("menu a b c {text} footer x y z");
        let boilerplate = [(0, 11), (11 + text.len(), framed.len())];
        assert_eq!(content_signature(&framed, &boilerplate), Some(sig));
        assert_eq!(content_signature(&words(1, MIN_SIGNATURE_WORDS - 1), &[]), None);
        assert_eq!(signature_similarity(sig, sig), 100);
        assert_eq!(signature_similarity(0, u64::MAX), 0);
    }

    /// The signatures estimate what docs/RULES.md says ("How alike near copies are"): for two
    /// texts whose runs of three words have cosine similarity `c`, each of the 64 bits differs
    /// with probability `acos(c) / π`, independently. Over 4,000 pairs of texts (a text of 60 to
    /// 600 words from a vocabulary of 5,000, the other with 1 to 30% of its words replaced,
    /// words repeated as in prose), the differing bits must sum to their expectation within
    /// four standard deviations, and scatter around it as a binomial does (the sum of the
    /// squared deviations within 25% of the binomial variance). A hash whose bits were
    /// correlated, or biased towards agreeing, would fail one or the other.
    #[test]
    fn differing_bits_follow_the_angle_between_the_texts() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let runs = |words: &[u64]| {
            let mut counts = std::collections::HashMap::<(u64, u64, u64), f64>::new();
            for w in words.windows(3) {
                *counts.entry((w[0], w[1], w[2])).or_default() += 1.0;
            }
            counts
        };
        let text = |words: &[u64]| words.iter().map(|w| format!("w{w}")).collect::<Vec<_>>().join(" ");
        let (mut excess, mut variance, mut squares) = (0.0_f64, 0.0_f64, 0.0_f64);
        for _ in 0..4000 {
            let len = 60 + next(541) as usize;
            // Zipf-like draws: low word numbers come often, as common words do in prose.
            let a: Vec<u64> = (0..len)
                .map(|_| {
                    let bound = 1 + next(5000);
                    next(bound)
                })
                .collect();
            let mut b = a.clone();
            let replaced = 1 + len * (1 + next(30) as usize) / 100;
            for _ in 0..replaced {
                let at = next(len as u64) as usize;
                b[at] = 5000 + next(5000);
            }
            let (ra, rb) = (runs(&a), runs(&b));
            let dot: f64 = ra.iter().map(|(k, v)| v * rb.get(k).copied().unwrap_or(0.0)).sum();
            let norm =
                |r: &std::collections::HashMap<(u64, u64, u64), f64>| r.values().map(|v| v * v).sum::<f64>().sqrt();
            let p = (dot / (norm(&ra) * norm(&rb))).clamp(-1.0, 1.0).acos() / std::f64::consts::PI;
            let (sa, sb) = (content_signature(&text(&a), &[]).unwrap(), content_signature(&text(&b), &[]).unwrap());
            let differing = f64::from((sa ^ sb).count_ones());
            excess += differing - 64.0 * p;
            variance += 64.0 * p * (1.0 - p);
            squares += (differing - 64.0 * p).powi(2);
        }
        let sd = variance.sqrt();
        assert!(excess.abs() < 4.0 * sd, "the bits differ {excess:.1} more than expected (sd {sd:.1})");
        let spread = squares / variance;
        assert!((0.75..1.25).contains(&spread), "the bits scatter {spread:.2} times as a binomial does");
    }

    /// The signature's definition on the whole text: lower-case the page's own text, split it on
    /// what is not alphanumeric, hash each run of three words.
    fn whole_text(visible_text: &str, boilerplate: &[(usize, usize)]) -> Option<u64> {
        let mut own = String::new();
        let mut at = 0;
        for &(start, end) in boilerplate {
            own.push_str(&visible_text[at..start]);
            own.push(' ');
            at = at.max(end);
        }
        own.push_str(&visible_text[at..]);
        let lower = own.to_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        if words.len() < MIN_SIGNATURE_WORDS {
            return None;
        }
        let mut votes = [0i32; 64];
        for run in words.windows(3) {
            let [a, b, c] = [0, 1, 2].map(|k| word_hash(run[k].as_bytes()));
            let h = run_hash(a, b, c);
            for (bit, vote) in votes.iter_mut().enumerate() {
                *vote += if h >> bit & 1 == 1 { 1 } else { -1 };
            }
        }
        Some(votes.iter().enumerate().filter(|(_, v)| **v > 0).fold(0u64, |sig, (bit, _)| sig | 1 << bit))
    }

    /// The streamed signature is the one of the whole-text definition.
    #[test]
    fn the_streamed_signature_is_the_whole_text_one() {
        let text: String = (0..300)
            .map(|i| match i % 5 {
                0 => format!("Stuhl{i}"),
                1 => format!("ÉCOLE-{i}"),
                2 => "İstanbul,".to_string(),
                3 => format!("naïve.{i}"),
                _ => format!("OAK  chair{i}"),
            })
            .collect::<Vec<_>>()
            .join(" ");
        let cut = text.char_indices().nth(120).unwrap().0;
        let boilerplate = [(0, cut)];
        assert!(content_signature(&text, &[]).is_some());
        assert_eq!(content_signature(&text, &[]), whole_text(&text, &[]));
        assert_eq!(content_signature(&text, &boilerplate), whole_text(&text, &boilerplate));
    }

    /// Texts drawn at random from pieces that put words, separators and characters that are
    /// not ASCII side by side (words of up to 150 bytes included): the scan's words are the whole-text definition's, and so is the signature,
    /// with boilerplate cut out or not.
    #[test]
    fn the_scan_gives_the_whole_text_words_and_signature_on_random_texts() {
        let pieces = [
            "a", "Zz", "word", "OAK", "x9", "0", "ß", "É", "İ", "naïve", "日本", " ", "  ", "-", ".", "\n", "@[`{",
            "\u{7f}", "\u{a0}", "é-É", "straße", "ÀB", "q",
        ];
        let long = "abcdefghij".repeat(15);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for round in 0..400 {
            let mut text = String::new();
            let target = 64 * (1 + next(6)) + next(70);
            while text.len() < target {
                match next(12) {
                    0 => text.push_str(&long[..1 + next(long.len() - 1)]),
                    _ => text.push_str(pieces[next(pieces.len())]),
                }
                if next(3) == 0 {
                    text.push(' ');
                }
            }
            // Enough words for a signature half the time.
            if round % 2 == 0 {
                text.push_str(&" w".repeat(MIN_SIGNATURE_WORDS));
            }
            // Word by word (a signature hides a few wrong words: most of its bits stand).
            let mut scanned = Vec::new();
            words_of(&text, &mut |hash| scanned.push(hash), &mut String::new());
            let lower = text.to_lowercase();
            let words = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
            let defined: Vec<u64> = words.map(|w| word_hash(w.as_bytes())).collect();
            assert_eq!(scanned, defined, "{text:?}");
            assert_eq!(content_signature(&text, &[]), whole_text(&text, &[]), "{text:?}");
            let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            let (a, b) = (cuts[next(cuts.len())], cuts[next(cuts.len())]);
            let boilerplate = [(a.min(b), a.max(b))];
            assert_eq!(
                content_signature(&text, &boilerplate),
                whole_text(&text, &boilerplate),
                "{text:?} {boilerplate:?}"
            );
        }
    }

    /// The carry-save sums and the bit-plane counters give each bit's count of the hashes
    /// that set it, across groups of eight, a last group not full, the planes' flushes every
    /// 255 groups (2,040 runs), and the majority of those counts.
    #[test]
    fn the_votes_count_each_bit_across_flushes() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1u32, 2, 7, 8, 9, 254, 255, 256, 509, 510, 511, 1000, 2039, 2040, 2041, 2048, 4097, 4160, 20_000] {
            let (mut votes, mut naive) = (Votes::default(), [0u32; 64]);
            for i in 0..n {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Some bits almost always set, some almost never: counts near 0 and near n.
                let usually_set: u64 = if i % 7 == 0 { 0 } else { 0xff00 };
                let usually_clear: u64 = if i % 5 == 0 { 0 } else { 0xf0 << 40 };
                let hash = (state | usually_set) & !usually_clear;
                votes.add(hash);
                for (bit, count) in naive.iter_mut().enumerate() {
                    *count += (hash >> bit) as u32 & 1;
                }
            }
            let mut counted = votes.clone();
            counted.flush();
            assert_eq!(counted.set, naive, "{n} runs");
            assert_eq!(counted.runs, n);
            let majority = (0..64).filter(|&b| 2 * naive[b] > n).fold(0u64, |sig, b| sig | 1 << b);
            assert_eq!(votes.signature(), majority, "{n} runs");
        }
    }

    /// The mask of word bytes is the definition's, byte by byte, for every byte value at
    /// every place of a block, every block length, and blocks all inside or all outside.
    #[test]
    fn word_bytes_marks_letters_digits_and_non_ascii_bytes() {
        let inside = |b: u8| b.is_ascii_alphanumeric() || !b.is_ascii();
        let naive = |block: &[u8]| block.iter().enumerate().fold(0u64, |m, (i, &b)| m | u64::from(inside(b)) << i);
        for value in 0..=255u8 {
            for len in 1..=64 {
                for place in [0, len / 2, len - 1] {
                    let mut block = vec![b' '; len];
                    block[place] = value;
                    assert_eq!(word_bytes(&block), naive(&block), "{value:#x} at {place} of {len}");
                    let mut block = vec![b'a'; len];
                    block[place] = value;
                    assert_eq!(word_bytes(&block), naive(&block), "{value:#x} at {place} of {len}");
                }
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = 1 + (state % 64) as usize;
            let block: Vec<u8> = (0..len).map(|i| state.rotate_left(i as u32 * 7) as u8).collect();
            assert_eq!(word_bytes(&block), naive(&block), "{block:?}");
        }
    }

    #[test]
    fn a_short_chunk_is_its_bytes_zero_padded() {
        let bytes = [0x81u8, 0x02, 0xf3, 0x44, 0x05, 0xa6, 0x07];
        for n in 0..=7 {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(short_chunk(&bytes[..n]), u64::from_le_bytes(padded), "{n} bytes");
        }
    }

    #[test]
    fn an_ascii_word_is_hashed_as_its_lower_case_at_every_length() {
        // Lengths across the chunk boundaries (1 to 24 bytes: full and partial chunks of
        // eight), letters of both cases and digits, as `content_signature` takes them.
        let alphabet = b"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ZyXwVuTs";
        for len in 1..=24 {
            for start in [0, 7, 19] {
                let word = &alphabet[start..start + len];
                let lower = word.to_ascii_lowercase();
                // Read in place, with the text's next bytes past the word (masked off).
                let hashed = ascii_word_hash(alphabet, start, start + len);
                assert_eq!(hashed, Some(word_hash(&lower)), "{}", String::from_utf8_lossy(word));
            }
        }
        // Words that differ only in their length (padding) still differ.
        assert_ne!(ascii_word_hash(b"ab", 0, 2), Some(word_hash(b"ab\0")));
    }

    #[test]
    fn text_hash_ignores_white_space_runs_only() {
        assert_eq!(text_hash("a  b\n\tc "), text_hash(" a b c"));
        assert_ne!(text_hash("a b c"), text_hash("a bc"));
        assert_ne!(text_hash("a b c"), text_hash("A b c"));
        assert_eq!(text_hash(" \n "), None);
    }

    #[test]
    fn a_page_becomes_a_record() {
        let html = br##"<html><head><title> Oak  chairs </title><meta name="description" content="Chairs.">
            <link rel="canonical" href="/chairs#x"><link rel="alternate" hreflang="DE" href="/de/chairs">
            </head><body><a href="/a#one">A</a><a href="/a#two">again</a><a href="https://www.shop.test/b" rel="nofollow">B</a>
            <a href="https://other.test/"><img alt="Other"></a><a href="mailto:x@y.z">mail</a></body></html>"##;
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let page = audit_core::Page::parse("https://shop.test/chairs", html, HttpFacts::new().with_status(200));
        let record = CrawledPage::from_page("https://shop.test/chairs", Some(1), &page, &scope, Some(80));
        assert_eq!(record.title.as_deref(), Some("Oak chairs"));
        assert_eq!(record.meta_description.as_deref(), Some("Chairs."));
        assert_eq!(record.h1, None);
        assert_eq!(record.canonical.as_deref(), Some("https://shop.test/chairs"));
        assert_eq!(record.hreflang, vec![("de".to_string(), "https://shop.test/de/chairs".to_string())]);
        assert!(record.indexable());
        let links: Vec<_> =
            record.outlinks.iter().map(|l| (l.url.as_str(), l.anchor.as_str(), l.internal, l.follow)).collect();
        assert_eq!(
            links,
            vec![
                ("https://shop.test/a", "A", true, true),
                ("https://www.shop.test/b", "B", true, false),
                ("https://other.test/", "Other", false, false),
            ]
        );
    }

    /// A canonical given in the `Link` header is the page's canonical when the head names
    /// none (search engines read it there too), and the head's wins when both do (the
    /// conflict is the page rule canonical-header-conflict's).
    #[test]
    fn the_link_header_canonical_is_recorded_when_the_head_names_none() {
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let record = |head: &str, link: &str| {
            let html = format!("<html><head><title>Chairs</title>{head}</head><body><p>Chairs.</p></body></html>");
            let http = HttpFacts::new().with_status(200).with_header("Link", link);
            let page = audit_core::Page::parse("https://shop.test/chairs?page=1", html.as_bytes(), http);
            CrawledPage::from_page("https://shop.test/chairs?page=1", Some(1), &page, &scope, Some(80))
        };
        let only_header = record("", r#"</chairs>; rel="canonical""#);
        assert_eq!(only_header.canonical.as_deref(), Some("https://shop.test/chairs"));
        assert!(!only_header.indexable(), "canonicalised elsewhere by its header");
        let both = record(r#"<link rel="canonical" href="/chairs?page=1">"#, r#"</chairs>; rel="canonical""#);
        assert_eq!(both.canonical.as_deref(), Some("https://shop.test/chairs?page=1"));
        assert!(both.indexable());
        let other_rel = record("", r#"</chairs.md>; rel="alternate"; type="text/markdown""#);
        assert_eq!(other_rel.canonical, None);
    }

    /// What a crawl keeps of an audited page until its record is written: no visible text
    /// and no document (nothing that grows with the page's text), and the same record as
    /// from the whole page.
    #[test]
    fn a_page_kept_for_its_record_holds_no_text_and_gives_the_same_record() {
        let words: String = (0..400).map(|i| format!("word{} ", i % 97)).collect();
        let html = format!(
            "<html><head><title>Oak chairs</title></head><body><nav>Home Shop</nav><h1>Oak</h1>\
             <p id=first>{words}</p><a href='/a'>A</a><a href='https://other.test/'>B</a></body></html>"
        );
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let parse =
            || audit_core::Page::parse("https://shop.test/", html.as_bytes(), HttpFacts::new().with_status(200));
        let whole = parse();
        let expected = CrawledPage::from_page("https://shop.test/", Some(0), &whole, &scope, Some(70));
        assert!(expected.text_hash.is_some() && expected.content_signature.is_some());
        let h1 = whole.headings.first().expect("a heading").spot;
        assert!(whole.locate(h1).is_some(), "a parsed page locates its elements");

        let mut kept = parse();
        let text = TextFacts::take(&mut kept);
        assert_eq!(kept.visible_text.capacity(), 0, "the visible text is freed");
        assert!(kept.boilerplate.is_empty());
        assert_eq!(kept.locate(h1), None, "the decoded document is freed");
        let record = CrawledPage::from_page_with("https://shop.test/", Some(0), &kept, text, &scope, Some(70));
        assert_eq!(record, expected);
    }

    fn record_of(body: &str) -> CrawledPage {
        let html = format!("<html><head>{body}</head><body>{body}</body></html>");
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let page = audit_core::Page::parse("https://shop.test/", html.as_bytes(), HttpFacts::new().with_status(200));
        CrawledPage::from_page("https://shop.test/", Some(0), &page, &scope, None)
    }

    /// A page at the cap keeps every link and says nothing more; one link more and the record
    /// keeps the first ones and the true total.
    #[test]
    fn a_record_keeps_links_up_to_the_cap_and_counts_the_rest() {
        let links = |n: usize| (0..n).map(|i| format!(r#"<a href="/p{i}">page {i}</a>"#)).collect::<String>();
        let at = record_of(&links(MAX_RECORDED_LINKS));
        assert_eq!(at.outlinks.len(), MAX_RECORDED_LINKS);
        assert_eq!(at.outlinks_total, None);
        let past = record_of(&links(MAX_RECORDED_LINKS + 7));
        assert_eq!(past.outlinks.len(), MAX_RECORDED_LINKS);
        assert_eq!(past.outlinks_total, Some(MAX_RECORDED_LINKS + 7));
        assert_eq!(past.outlinks[0].url, "https://shop.test/p0");
        assert_eq!(past.outlinks[MAX_RECORDED_LINKS - 1].url, format!("https://shop.test/p{}", MAX_RECORDED_LINKS - 1));
        // The total is written with the record and read back.
        let json = serde_json::to_string(&past).unwrap();
        assert!(json.contains(&format!(r#""outlinks_total":{}"#, MAX_RECORDED_LINKS + 7)));
        assert_eq!(serde_json::from_str::<CrawledPage>(&json).unwrap(), past);
        assert!(!serde_json::to_string(&at).unwrap().contains("outlinks_total"));
    }

    /// A URL no crawl could fetch is counted, not kept; an anchor is cut at its bound.
    #[test]
    fn a_record_keeps_no_url_past_the_fetchers_limit_and_cuts_long_anchors() {
        let long = "x".repeat(MAX_RECORDED_URL_BYTES);
        let anchor = "é".repeat(MAX_RECORDED_ANCHOR_BYTES);
        let record = record_of(&format!(r#"<a href="/{long}">long</a><a href="/ok">{anchor}</a>"#));
        assert_eq!(record.outlinks.len(), 1);
        assert_eq!(record.outlinks_total, Some(2));
        assert_eq!(record.outlinks[0].url, "https://shop.test/ok");
        assert_eq!(record.outlinks[0].anchor, "é".repeat(MAX_RECORDED_ANCHOR_BYTES / 2));
        let canonical = record_of(&format!(r#"<link rel="canonical" href="/{long}">"#));
        assert_eq!(canonical.canonical, None);
    }

    #[test]
    fn a_record_keeps_hreflang_up_to_the_cap_and_counts_the_rest() {
        let alternates = |n: usize| {
            (0..n).map(|i| format!(r#"<link rel="alternate" hreflang="l{i}" href="/l{i}/">"#)).collect::<String>()
        };
        let at = record_of(&alternates(MAX_RECORDED_HREFLANG));
        assert_eq!((at.hreflang.len(), at.hreflang_total), (MAX_RECORDED_HREFLANG, None));
        let past = record_of(&format!(
            r#"{}<link rel="alternate" hreflang="{}" href="/x/">"#,
            alternates(MAX_RECORDED_HREFLANG + 2),
            "a".repeat(MAX_RECORDED_LANG_BYTES + 1)
        ));
        assert_eq!(
            (past.hreflang.len(), past.hreflang_total),
            (MAX_RECORDED_HREFLANG, Some(MAX_RECORDED_HREFLANG + 3))
        );
        assert_eq!(past.hreflang[0], ("l0".to_string(), "https://shop.test/l0/".to_string()));
        let long_lang = record_of(&format!(r#"<link rel="alternate" hreflang="{}" href="/x/">"#, "a".repeat(65)));
        assert_eq!((long_lang.hreflang.len(), long_lang.hreflang_total), (0, Some(1)));
    }

    /// Links of long URLs and anchors reach the byte budget before the count: the first ones
    /// are kept, the rest counted.
    #[test]
    fn a_record_keeps_links_within_the_byte_budget() {
        let path = "p".repeat(1_900);
        let anchor = "a".repeat(MAX_RECORDED_ANCHOR_BYTES);
        let links: String = (0..400).map(|i| format!(r#"<a href="/{path}{i}">{anchor}</a>"#)).collect();
        let record = record_of(&links);
        let kept = record.outlinks.len();
        assert!(kept > 100 && kept < 400, "{kept}");
        assert_eq!(record.outlinks_total, Some(400));
        assert!(record.outlinks.iter().enumerate().all(|(i, l)| l.url.ends_with(&format!("{path}{i}"))));
        let json = serde_json::to_string(&record.outlinks).unwrap();
        assert!(
            json.len() <= MAX_RECORDED_LINK_BYTES && json.len() > MAX_RECORDED_LINK_BYTES - 5_000,
            "{}",
            json.len()
        );
    }

    /// A record's links are arrays, and a record written before with links as objects reads
    /// the same.
    #[test]
    fn links_are_written_as_arrays_and_read_in_both_forms() {
        let link = Outlink {
            url: "https://example.com/a".into(),
            anchor: "A \"quoted\" anchor".into(),
            internal: true,
            nofollow: false,
            follow: true,
        };
        let json = serde_json::to_string(&link).unwrap();
        assert_eq!(json, r#"["https://example.com/a","A \"quoted\" anchor",true,false,true]"#);
        let object = r#"{"url":"https://example.com/a","anchor":"A \"quoted\" anchor","internal":true,"nofollow":false,"follow":true}"#;
        assert_eq!(serde_json::from_str::<Outlink>(object).unwrap(), link);
        assert_eq!(serde_json::from_str::<Outlink>(&json).unwrap(), link);
        let record = CrawledPage {
            url: "https://example.com/".into(),
            outlinks: vec![link.clone(), link],
            ..CrawledPage::default()
        };
        let written = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<CrawledPage>(&written).unwrap(), record);
        assert!(serde_json::from_str::<Outlink>(r#"["https://example.com/a","a",true,false]"#).is_err());
    }

    /// A page built to pass every bound at once (texts of characters JSON escapes six times,
    /// URLs at the fetcher's limit, anchors of quotes, more links and alternates than kept)
    /// makes a record within [`MAX_RECORD_BYTES`].
    #[test]
    fn the_largest_record_is_within_its_bound() {
        let text = "\u{1}".repeat(MAX_RECORDED_TEXT_BYTES * 2);
        let path = |i: usize| format!("{}{i:05}", "%22".repeat(660));
        let quotes = "\"".repeat(MAX_RECORDED_ANCHOR_BYTES);
        let mut head = format!(
            r#"<title>{text}</title><meta name="description" content="{text}"><link rel="canonical" href="/{c}">
            <link rel="next" href="/{c}n"><link rel="prev" href="/{c}p">"#,
            c = path(0)
        );
        for i in 0..600 {
            head.push_str(&format!(r#"<link rel="alternate" hreflang="{}" href="/{}">"#, "\u{1}".repeat(60), path(i)));
        }
        let mut body = format!("<h1>{text}</h1>");
        for i in 0..6_000 {
            body.push_str(&format!(r#"<a href="/{}">{}</a>"#, path(i), if i < 3_000 { &quotes } else { "x" }));
        }
        let html = format!("<html><head>{head}</head><body>{body}</body></html>");
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let page = audit_core::Page::parse("https://shop.test/", html.as_bytes(), HttpFacts::new().with_status(200));
        let mut record = CrawledPage::from_page("https://shop.test/", Some(0), &page, &scope, Some(0));
        record.redirect_to = record.canonical.clone();
        // The most a crawl's extractors add: each value at its bound, of characters JSON
        // escapes six times, under a name at its bound.
        let value = crate::frontier::cut_marked(
            &"\u{1}".repeat(crate::MAX_EXTRACT_VALUE_BYTES * 2),
            crate::MAX_EXTRACT_VALUE_BYTES,
        );
        record.extracted = (0..crate::MAX_EXTRACTORS)
            .map(|i| {
                (
                    format!("{i}").repeat(crate::MAX_EXTRACTOR_NAME_BYTES)[..crate::MAX_EXTRACTOR_NAME_BYTES]
                        .to_string(),
                    Some(value.clone()),
                )
            })
            .collect();
        assert_eq!(record.outlinks_total, Some(6_000));
        assert_eq!(record.hreflang_total, Some(600));
        assert!(record.canonical.as_ref().is_some_and(|c| c.len() > 1_990));
        let bytes = serde_json::to_string(&record).unwrap().len();
        assert!(bytes <= MAX_RECORD_BYTES, "{bytes}");
        assert!(bytes > MAX_RECORDED_LINK_BYTES, "the page reaches the links' budget: {bytes}");
    }

    #[test]
    fn structured_data_names_in_a_record_are_bounded() {
        let long = "T".repeat(MAX_RECORDED_TYPE_BYTES + 1);
        let at_bound = "U".repeat(MAX_RECORDED_TYPE_BYTES);
        let property = "p".repeat(4_000);
        let html = format!(
            r#"<html><head><script type="application/ld+json">[{{"@context":"https://schema.org","@type":"{long}"}},
            {{"@context":"https://schema.org","@type":"{at_bound}"}},
            {{"@context":"https://schema.org","@type":"Product","name":"Chair","offers":{{"@type":"Offer","{property}":1}}}}]</script></head></html>"#
        );
        let record = record_of(&html);
        assert!(!record.structured_data_types.contains(&long), "a type past the bound is left out");
        assert!(record.structured_data_types.contains(&at_bound), "{:?}", record.structured_data_types);
        assert!(record.rich_result_errors.iter().all(|e| e.path.len() <= MAX_RECORDED_PATH_BYTES));
    }

    #[test]
    fn a_record_keeps_the_first_kilobyte_of_a_title() {
        let title = "t".repeat(MAX_RECORDED_TEXT_BYTES * 3);
        let record = record_of(&format!("<title>{title}</title>"));
        assert_eq!(record.title.as_deref(), Some(&title[..MAX_RECORDED_TEXT_BYTES]));
    }

    #[test]
    fn a_target_is_followed_when_any_of_its_links_is() {
        let html = br#"<html><body><a href="/a" rel="nofollow">A</a><a href="/a">again</a>
            <a href="/b">B</a><a href="/b" rel="ugc">again</a><a href="/c" rel="sponsored">C</a></body></html>"#;
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let page = audit_core::Page::parse("https://shop.test/", html, HttpFacts::new().with_status(200));
        let links: Vec<_> =
            outlinks(&page, &scope).into_iter().map(|l| (l.url, l.anchor, l.nofollow, l.follow)).collect();
        let link =
            |u: &str, a: &str, nofollow, follow| (format!("https://shop.test/{u}"), a.to_string(), nofollow, follow);
        assert_eq!(links, vec![link("a", "A", false, true), link("b", "B", false, true), link("c", "C", true, false)]);
    }

    #[test]
    fn a_nofollow_page_follows_none_of_its_links() {
        let html =
            br#"<html><head><meta name="robots" content="nofollow"></head><body><a href="/a">A</a></body></html>"#;
        let scope = Scope::new("https://shop.test/", ScopeConfig::default()).unwrap();
        let page = audit_core::Page::parse("https://shop.test/", html, HttpFacts::new().with_status(200));
        let links = outlinks(&page, &scope);
        assert_eq!(links.len(), 1);
        assert!(links[0].internal && !links[0].follow);
    }
}
