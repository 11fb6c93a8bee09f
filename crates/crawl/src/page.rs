//! What the crawl keeps of a fetched page: small plain records, no HTML (docs/RULES.md,
//! "Site rules"). The site rules read these; the runner stores them row by row.

use audit_core::{LinkKind, Page};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::urls::{normalize, normalize_relative, normalize_serialized, Scope};

/// A link found on a crawled page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// The links of a parsed page: `<a href>` elements with an http(s) target, one per target
/// (the first anchor kept; followed when any of its links is), normalised, in document order.
pub fn outlinks(page: &Page, scope: &Scope) -> Vec<Outlink> {
    let page_nofollow = page.is_nofollow();
    // Each target's place in `out`.
    let mut seen = std::collections::HashMap::new();
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
    out
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
    /// The head's hreflang alternates: language, normalised URL.
    pub hreflang: Vec<(String, String)>,
    /// The head's `<link rel=next>`, resolved and normalised. Kept in the record only, as
    /// [`CrawledPage::prev`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The head's `<link rel=prev>` (or `previous`), resolved and normalised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
    /// Whether a robots directive (meta or `X-Robots-Tag`) forbids indexing.
    pub noindex: bool,
    /// The page's links.
    pub outlinks: Vec<Outlink>,
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

/// The distinct types of the page's top-level items (see
/// [`CrawledPage::structured_data_types`]).
fn structured_data_types(page: &Page) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in &page.structured_data.items {
        if out.len() == MAX_STRUCTURED_DATA_TYPES {
            break;
        }
        if !item.type_.is_empty() && !out.contains(&item.type_) {
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
            out.push(RichResultError { rich_result: rich_result.clone(), path });
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
    pub fn answered(url: impl Into<String>, depth: Option<u32>, status: u16, to: Option<String>) -> CrawledPage {
        CrawledPage { url: url.into(), depth, status: Some(status), redirect_to: to, ..CrawledPage::default() }
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
        let base = page.base_url.as_deref().or(Some(page.final_url.as_str())).and_then(|b| normalize(b).ok());
        let resolve = |r: &str| base.as_ref().and_then(|b| normalize_relative(b, r).ok()).map(String::from);
        let collapse = |s: &str| Some(audit_core::text::collapse(s)).filter(|s| !s.is_empty());
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
            text_hash: text_hash(&page.visible_text),
            content_signature: content_signature(&page.visible_text, &page.boilerplate),
            canonical: page.head_canonicals.first().and_then(|c| resolve(c)),
            hreflang: page
                .head_hreflang()
                .filter_map(|h| Some((h.lang.trim().to_ascii_lowercase(), resolve(&h.href)?)))
                .collect(),
            next: page.head_pagination.0.as_deref().and_then(resolve),
            prev: page.head_pagination.1.as_deref().and_then(resolve),
            noindex: page.is_noindex(),
            outlinks: outlinks(page, scope),
            score,
            rich_result_errors: rich_result_errors(page),
            structured_data_types: structured_data_types(page),
        }
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

/// The hash `duplicate-content` compares: SHA-256 (hex, first 16 bytes) of the visible
/// text with every run of white space collapsed to one space and the ends trimmed. `None`
/// for a page without visible text.
pub fn text_hash(visible_text: &str) -> Option<String> {
    // Collapsed into one buffer and hashed at once: a hasher fed word by word spends more
    // on the calls than on the hashing.
    let collapsed = text::collapse_white_space(visible_text, usize::MAX);
    if collapsed.is_empty() {
        return None;
    }
    Some(hex::encode(&Sha256::digest(collapsed.as_bytes())[..16]))
}

/// Pages whose own text has fewer words than this get no [`content_signature`]: a few
/// words share too much by chance to say two pages are near duplicates.
pub const MIN_SIGNATURE_WORDS: usize = 50;

/// The SimHash (64 bits) of a page's own text: `visible_text` without the `boilerplate`
/// ranges (its `<nav>`, `<header>` and `<footer>`, [`audit_core::Page::boilerplate`]), in
/// lower case, as overlapping runs of three words. Each run is hashed (SipHash-1-3 with
/// zero keys: stable across versions, so stored signatures stay comparable); bit `i` of the
/// signature is set when more runs have bit `i` set than not. Texts sharing most of their
/// runs differ in few bits: [`signature_similarity`] compares them. `None` below
/// [`MIN_SIGNATURE_WORDS`] words.
pub fn content_signature(visible_text: &str, boilerplate: &[(usize, usize)]) -> Option<u64> {
    // Streamed word by word with three reused buffers: a page of 5 MB of text would
    // otherwise hold its own copy, a lower-cased copy and a vector of every word (about 23 MB
    // at once, docs/SCALING.md). The words and runs are those of lower-casing the whole text
    // and splitting it on every character that is not alphanumeric.
    let mut votes = [0i32; 64];
    let mut ring: [String; 3] = Default::default();
    let mut words = 0usize;
    let mut lower = String::new();
    let mut at = 0;
    let mut pieces = Vec::with_capacity(boilerplate.len() + 1);
    for &(start, end) in boilerplate {
        if let Some(piece) = visible_text.get(at..start) {
            pieces.push(piece);
        }
        at = at.max(end);
    }
    pieces.push(visible_text.get(at..).unwrap_or_default());
    for piece in pieces {
        for word in piece.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            lower.clear();
            if word.is_ascii() {
                lower.push_str(word);
                lower.make_ascii_lowercase();
            } else {
                lower.push_str(&word.to_lowercase());
            }
            // Lower-casing can yield a character that is not alphanumeric (`İ` gives `i` and a
            // combining dot), which splits the word as it split the lower-cased text.
            for sub in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                let slot = &mut ring[words % 3];
                slot.clear();
                slot.push_str(sub);
                words += 1;
                if words >= 3 {
                    let mut hasher = siphasher::sip::SipHasher13::new_with_keys(0, 0);
                    for back in (1..=3).rev() {
                        std::hash::Hash::hash(ring[(words - back) % 3].as_str(), &mut hasher);
                    }
                    let h = std::hash::Hasher::finish(&hasher);
                    for (bit, vote) in votes.iter_mut().enumerate() {
                        *vote += if h >> bit & 1 == 1 { 1 } else { -1 };
                    }
                }
            }
        }
    }
    if words < MIN_SIGNATURE_WORDS {
        return None;
    }
    Some(votes.iter().enumerate().filter(|(_, v)| **v > 0).fold(0u64, |sig, (bit, _)| sig | 1 << bit))
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

    /// The streamed signature is the one of the whole-text definition: lower-case the
    /// page's own text, split it on what is not alphanumeric, hash each run of three words.
    #[test]
    fn the_streamed_signature_is_the_whole_text_one() {
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
                let mut hasher = siphasher::sip::SipHasher13::new_with_keys(0, 0);
                for word in run {
                    std::hash::Hash::hash(word, &mut hasher);
                }
                let h = std::hash::Hasher::finish(&hasher);
                for (bit, vote) in votes.iter_mut().enumerate() {
                    *vote += if h >> bit & 1 == 1 { 1 } else { -1 };
                }
            }
            Some(votes.iter().enumerate().filter(|(_, v)| **v > 0).fold(0u64, |sig, (bit, _)| sig | 1 << bit))
        }
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
