//! Query strings and fragments removed from an audit result before the report shows it
//! (docs/API.md, "GET /report/{domain}").
//!
//! The scrub walks the result's JSON form on purpose: it must reach every string of the
//! result, including fields added later, without a list of fields to keep up to date.

use std::collections::HashSet;

use aho_corasick::{AhoCorasick, MatchKind};
use serde_json::Value;

/// Removes every query string and fragment from the URLs of an audit result, so that the
/// report page never shows one (docs/API.md, "GET /report/{domain}"): they often carry
/// tokens, session ids or other private values of whoever asked for the audit.
///
/// Every string of the result is treated: a string that is a URL (absolute, or a path
/// starting with `/`) loses its `?…` and `#…`; in any other text, every `http://` or
/// `https://` URL in it loses them too, and the query strings of the audited URL and of
/// every URL of the result are removed wherever else they appear (a page's canonical or
/// social tags often repeat the audited URL, query included).
pub(crate) fn strip_query_strings(result: &mut Value) {
    let mut queries: Vec<String> = Vec::new();
    collect_queries(result, &mut queries);
    let secrets = Secrets::new(queries);
    scrub(result, &secrets);
}

/// Every query string of the result and its bare form, removed from a text in one pass: one
/// automaton over all of them (Aho-Corasick) instead of searching each text for each query,
/// which cost strings x queries (20 s of CPU for one result whose 20,000 headings each held
/// a URL with a query of its own).
struct Secrets {
    /// The automaton; `None` when the result has no query string, or when the automaton
    /// could not be built (then `patterns` are removed one by one: slower, never less).
    matcher: Option<AhoCorasick>,
    patterns: Vec<String>,
}

impl Secrets {
    fn new(queries: Vec<String>) -> Secrets {
        let mut seen: HashSet<String> = HashSet::new();
        let mut patterns: Vec<String> = Vec::new();
        for query in queries {
            // The bare query (`token=…`), as a template or a message may repeat it; only a
            // query with a value, long enough not to be an ordinary word.
            let bare = query.strip_prefix('?').and_then(|q| q.split('#').next());
            if let Some(bare) = bare.filter(|b| b.len() >= 6 && b.contains('=')) {
                if seen.insert(bare.to_string()) {
                    patterns.push(bare.to_string());
                }
            }
            if seen.insert(query.clone()) {
                patterns.push(query);
            }
        }
        // Longest first, so that the one-by-one removal also takes a query containing
        // another whole; the automaton does so by matching leftmost-longest.
        patterns.sort_by_key(|q| std::cmp::Reverse(q.len()));
        let matcher = if patterns.is_empty() {
            None
        } else {
            AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(&patterns).ok()
        };
        Secrets { matcher, patterns }
    }

    /// `text` without any of the queries.
    fn remove(&self, mut text: String) -> String {
        if let Some(matcher) = &self.matcher {
            if !matcher.is_match(&text) {
                return text;
            }
            let mut out = String::with_capacity(text.len());
            matcher.replace_all_with(&text, &mut out, |_, _, _| true);
            return out;
        }
        for pattern in &self.patterns {
            if text.contains(pattern.as_str()) {
                text = text.replace(pattern.as_str(), "");
            }
        }
        text
    }
}

/// The non-empty `?query` and `#fragment` parts of every URL-like string.
fn collect_queries(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            for span in url_spans(text) {
                let url = &text[span];
                if let Some(at) = url.find(['?', '#']) {
                    let tail = &url[at..];
                    if tail.len() > 1 {
                        out.push(tail.to_string());
                    }
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_queries(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_queries(v, out)),
        _ => {}
    }
}

fn scrub(value: &mut Value, secrets: &Secrets) {
    match value {
        Value::String(text) => {
            if let Some(clean) = scrubbed(text, secrets) {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub(v, secrets)),
        Value::Object(map) => map.values_mut().for_each(|v| scrub(v, secrets)),
        _ => {}
    }
}

/// `text` without the queries and fragments of its URLs and without any of `secrets`;
/// `None` when nothing changes.
fn scrubbed(text: &str, secrets: &Secrets) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for span in url_spans(text) {
        let url = &text[span.clone()];
        if let Some(at) = url.find(['?', '#']) {
            out.push_str(&text[last..span.start + at]);
            last = span.end;
        }
    }
    out.push_str(&text[last..]);
    let out = secrets.remove(out);
    (out != text).then_some(out)
}

/// Byte ranges of the URLs in `text`: the whole text when it is a path (`/…`) or an
/// absolute URL, else every `http://` or `https://` URL in it, each up to whitespace or a
/// quote or angle bracket, without the punctuation that ends a sentence. One pass over the
/// text: each `http` is looked at once (searching the rest of the text for both schemes
/// at every URL was quadratic in a text of many `http://` and no `https://`).
fn url_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let trimmed = text.trim();
    if trimmed.starts_with('/') && !trimmed.contains(char::is_whitespace) {
        let start = text.len() - text.trim_start().len();
        return std::iter::once(start..start + trimmed.len()).collect();
    }
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(found) = find_ascii_case_insensitive(&bytes[from..], b"http") {
        let start = from + found;
        let rest = &bytes[start + 4..];
        let scheme = if starts_with_ignore_case(rest, b"://") {
            7
        } else if starts_with_ignore_case(rest, b"s://") {
            8
        } else {
            from = start + 4;
            continue;
        };
        let end = text[start..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
            .map_or(text.len(), |n| start + n);
        // Punctuation after a URL in a sentence is not part of it.
        let end = start + text[start..end].trim_end_matches(['.', ',', ';', ':', '!', ')', ']']).len();
        spans.push(start..end);
        from = end.max(start + scheme);
    }
    spans
}

/// Where `needle` (lower-case ASCII) first occurs in `haystack`, ignoring ASCII case.
fn find_ascii_case_insensitive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

fn starts_with_ignore_case(haystack: &[u8], prefix: &[u8]) -> bool {
    haystack.get(..prefix.len()).is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

#[cfg(test)]
mod query_tests {
    use serde_json::json;

    use super::strip_query_strings;

    #[test]
    fn no_url_keeps_its_query_or_fragment() {
        let mut result = json!({
            "page": {
                "url": "https://site.example/private?token=SECRET123",
                "final_url": "https://site.example/private?token=SECRET123#top",
                "canonical": "/private?token=SECRET123",
                "og_url": " https://site.example/private?token=SECRET123 ",
                "title": "Private page: what?",
                "links": ["https://a.example/x?y=1", "/p#frag", "mailto:a@b.example?subject=hi"],
            },
            "recommendations": [{
                "message": "The canonical https://site.example/private?token=SECRET123, differs from \"https://b.example/?q=2\".",
                "current_value": "token=SECRET123",
            }],
            "score": { "percentage": 80 },
        });
        strip_query_strings(&mut result);
        let text = result.to_string();
        assert!(!text.contains("SECRET123"), "{text}");
        assert!(!text.contains("y=1") && !text.contains("q=2") && !text.contains("#frag"), "{text}");
        assert_eq!(result["page"]["url"], "https://site.example/private");
        assert_eq!(result["page"]["final_url"], "https://site.example/private");
        assert_eq!(result["page"]["canonical"], "/private");
        assert_eq!(result["page"]["og_url"], " https://site.example/private ");
        assert_eq!(result["page"]["links"][1], "/p");
        // Ordinary text, question marks and other values are left alone.
        assert_eq!(result["page"]["title"], "Private page: what?");
        assert_eq!(result["score"]["percentage"], 80);
        assert_eq!(
            result["recommendations"][0]["message"],
            "The canonical https://site.example/private, differs from \"https://b.example/\"."
        );
    }

    #[test]
    fn many_urls_lose_every_query_in_one_pass() {
        // 5,000 headings, each a URL with a query of its own, repeated bare in a message; and
        // a text of many `http://` and no `https://` (each URL is found once).
        let headings: Vec<serde_json::Value> =
            (0..5_000).map(|i| json!({ "text": format!("See HTTP://h.example/p{i}?token=secret{i:05}.") })).collect();
        let bare: String = (0..5_000).map(|i| format!("token=secret{i:05} ")).collect();
        let many: String = (0..5_000).map(|i| format!("http://m.example/{i}?k=v{i} ")).collect();
        let mut result = json!({ "page": { "headings": headings }, "message": bare, "many": many });
        strip_query_strings(&mut result);
        let text = result.to_string();
        assert!(!text.contains("secret") && !text.contains("k=v"), "{}", &text[..200]);
        assert_eq!(result["page"]["headings"][7]["text"], "See HTTP://h.example/p7.");
        assert!(result["many"].as_str().unwrap().starts_with("http://m.example/0 http://m.example/1 "));
    }

    #[test]
    fn results_without_queries_are_unchanged() {
        let original = json!({ "page": { "url": "https://site.example/", "title": "Top stop? #1" }, "n": [1, 2] });
        let mut result = original.clone();
        strip_query_strings(&mut result);
        assert_eq!(result, original);
    }
}
