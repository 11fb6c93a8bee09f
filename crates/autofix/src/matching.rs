//! Matching issues given only as text to template ids.
//!
//! Matching is precise rather than eager: a wrong template is worse than the generic text fix
//! (a fix for an llms.txt file offered for a missing robots.txt misleads the reader). An issue
//! names a template in one of two ways:
//!
//! - **By id**: its title (else description, recommendation or category) contains a template
//!   id as a whole word, e.g. `meta-description-missing`.
//! - **By phrase**: its title (its description when it has no title) contains every word of
//!   one of the template's phrases ([`PHRASES`]), in any order, and none of the template's
//!   excluding words; or it names an AI crawler (`GPTBot`). Words are compared after the one
//!   text normaliser (crate `text`: case, English stop words, Snowball stems) and folding
//!   synonyms ("no", "without", "lacks" all mean missing). A phrase of one word is
//!   a distinctive one (`noindex`, `favicon`); generic words ("missing", "links", "content",
//!   "file") and short tokens ("x", "og") only count together with others.
//!
//! When several templates match, the one whose phrase has the most words wins (so "Missing
//! og:title" is the Open Graph template, not the title one); ties go to the earlier entry of
//! the table. Nothing else is guessed: an issue that names no template gets the generic fix.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::fix::{template_ids, Issue};

/// The score of a match by id; matches by phrase score the number of words of the phrase.
pub const ID_MATCH_SCORE: f64 = 100.0;

/// The score of a title that names an AI crawler (`GPTBot`): more specific than any phrase.
const BOT_MATCH_SCORE: f64 = 10.0;

/// Per template: the phrases that name its problem, and words that mean the issue is about
/// something else. Every word of a phrase must occur in the issue title.
pub(crate) const PHRASES: &[(&str, &[&str], &[&str])] = &[
    (
        "http-status-error",
        &[
            "page errcode",
            "http errcode",
            "status errcode",
            "http status error",
            "page status code",
            "page http error",
            "page return http",
            "page not found",
            "errcode not found",
            "server error page",
        ],
        &["link", "image", "resource", "redirect", "script"],
    ),
    ("redirect-chain", &["redirect chain", "multiple redirect", "redirect hop", "redirect loop"], &[]),
    (
        "not-https",
        &["missing https", "not https", "insecure http", "plain http", "http https redirect"],
        &["mixed", "resource", "subresource", "content", "hsts", "strict"],
    ),
    (
        "mixed-content",
        &["mixed content", "insecure resource", "insecure content", "subresource http", "http resource https"],
        &[],
    ),
    ("page-noindex", &["noindex", "block index", "not indexable", "prevent index"], &["canonical", "robot txt"]),
    ("page-nofollow", &["nofollow", "link not follow", "not follow link"], &["internal"]),
    (
        "robots-txt-blocked",
        &["robot txt block", "robot txt disallow", "block robot txt", "crawl block", "robot disallow"],
        &["ai", "llms"],
    ),
    ("canonical-missing", &["canonical missing", "canonical not declar"], &[]),
    ("canonical-relative", &["canonical relative"], &[]),
    ("canonical-multiple", &["multiple canonical", "duplicate canonical tag"], &[]),
    (
        "canonical-points-elsewhere",
        &[
            "canonical point another",
            "canonical point elsewhere",
            "canonical point other",
            "canonical mismatch",
            "canonical not self",
            "non self referenc canonical",
        ],
        &[],
    ),
    ("canonical-with-noindex", &["canonical noindex"], &[]),
    ("charset-missing", &["charset", "character encoding", "encoding not declar"], &[]),
    ("favicon-missing", &["favicon"], &[]),
    ("url-too-long", &["url long"], &[]),
    ("url-uppercase", &["url uppercase", "url upper case", "url capital"], &[]),
    ("url-underscores", &["url underscore"], &[]),
    ("url-many-parameters", &["url multiple parameter", "multiple query parameter", "url parameter"], &[]),
    ("title-missing", &["title missing", "title empty"], &["og", "graph", "twitter", "multiple"]),
    ("title-too-short", &["title short"], &["og", "graph", "twitter"]),
    ("title-too-long", &["title long"], &["og", "graph", "twitter"]),
    ("title-multiple", &["multiple title", "duplicate title tag"], &["og", "graph", "twitter"]),
    (
        "meta-description-missing",
        &["description missing", "description empty"],
        &["og", "graph", "twitter", "multiple"],
    ),
    ("meta-description-too-short", &["description short"], &["og", "graph", "twitter"]),
    ("meta-description-too-long", &["description long"], &["og", "graph", "twitter"]),
    ("meta-description-multiple", &["multiple description", "duplicate description tag"], &["og", "graph", "twitter"]),
    ("h1-missing", &["h1 missing"], &["multiple"]),
    ("h1-multiple", &["multiple h1", "more h1", "duplicate h1 tag"], &[]),
    ("h1-empty", &["h1 empty"], &[]),
    (
        "heading-levels-skipped",
        &["heading skip", "heading level", "heading hierarchy", "heading structure", "heading order"],
        &[],
    ),
    (
        "thin-content",
        &["thin content", "low word count", "word count", "little text", "not enough content", "thin page"],
        &[],
    ),
    ("low-text-ratio", &["text ratio", "text code ratio"], &[]),
    ("image-alt-missing", &["image alt", "alt missing", "alt text", "alt attribute"], &["og", "graph"]),
    (
        "image-dimensions-missing",
        &["image dimension", "image width height", "width height missing", "layout shift image"],
        &[],
    ),
    (
        "link-text-not-descriptive",
        &["link descriptive", "generic link text", "generic anchor text", "click here", "read more link"],
        &[],
    ),
    ("link-uncrawlable", &["uncrawlable", "javascript link", "link missing href", "anchor missing href"], &[]),
    (
        "link-empty-text",
        &["link missing text", "link empty text", "empty anchor", "link accessible name", "link empty"],
        &["descriptive", "generic"],
    ),
    ("links-too-many", &["too multiple link", "excessive link"], &[]),
    ("internal-link-nofollow", &["internal link nofollow", "internal nofollow"], &[]),
    ("og-title-missing", &["og title", "open graph title"], &[]),
    ("og-description-missing", &["og description", "open graph description"], &[]),
    ("og-image-missing", &["og image", "open graph image", "social share image"], &["relative"]),
    ("og-image-relative", &["og image relative", "open graph image relative"], &[]),
    ("twitter-card-missing", &["twitter card", "twitter missing", "twitter tag", "x card"], &[]),
    (
        "structured-data-missing",
        &[
            "structured data missing",
            "schema missing",
            "schema markup missing",
            "json ld missing",
            "rich snippet missing",
        ],
        &["required", "property", "field", "context", "@context", "invalid"],
    ),
    ("structured-data-invalid-json", &["invalid json", "json ld error", "json syntax", "json parse"], &[]),
    ("structured-data-no-context", &["@context", "json ld context", "schema context"], &[]),
    (
        "structured-data-required-properties",
        &["required property", "structured data property", "schema required", "required field"],
        &["recommended", "retired"],
    ),
    (
        "structured-data-recommended-properties",
        &["recommended property", "schema recommended", "recommended field", "missing field warning"],
        &[],
    ),
    (
        "structured-data-retired-rich-result",
        &["faq rich result", "howto rich result", "retired rich result", "deprecated schema"],
        &[],
    ),
    ("html-too-large", &["html large", "html size", "html big", "page size", "document size"], &["dom"]),
    (
        "slow-response",
        &["slow response", "slow server", "ttfb", "time first byte", "server response time", "slow load"],
        &[],
    ),
    ("render-blocking-scripts", &["render block"], &[]),
    (
        "html-too-complex",
        &["nested deeper", "nesting limit", "deeply nested", "analysis stopped", "too complex", "unclosed element"],
        &[],
    ),
    ("dom-too-large", &["dom large", "dom size", "dom element", "dom node", "excessive dom"], &[]),
    ("viewport-missing", &["viewport missing", "viewport meta tag", "viewport tag", "mobile friendly"], &[]),
    ("viewport-not-device-width", &["viewport device width", "device width"], &[]),
    (
        "viewport-not-scalable",
        &["zoom disable", "disable zoom", "zoom prevent", "zoom block", "user scalable", "maximum scale"],
        &[],
    ),
    (
        "html-lang-missing",
        &["lang missing", "language missing", "language not declar", "lang not declar"],
        &["hreflang", "invalid"],
    ),
    ("html-lang-invalid", &["invalid lang", "invalid language", "wrong lang", "wrong language"], &["hreflang"]),
    ("hreflang-invalid-code", &["invalid hreflang", "hreflang code", "wrong hreflang"], &[]),
    ("hreflang-no-self-reference", &["hreflang self"], &[]),
    ("hreflang-no-x-default", &["x default"], &[]),
    ("hreflang-relative-url", &["hreflang relative"], &[]),
    ("ai-crawler-blocked", &["ai crawler", "ai bot", "ai agent block"], &[]),
    ("llms-txt-missing", &["llms"], &[]),
    ("hsts-missing", &["hsts", "strict transport security"], &[]),
    ("x-robots-tag-missing", &["x robot tag missing", "x robot tag header missing", "x robot tag pdf"], &[]),
    ("semantic-html-missing", &["semantic html", "semantic element", "landmark"], &[]),
];

/// The result of matching an issue's text.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleMatch {
    pub rule_id: &'static str,
    /// [`ID_MATCH_SCORE`] for a match by id, else the number of words of the matching phrase.
    pub score: f64,
}

/// Folds synonyms onto one word, so different phrasings meet.
fn synonym(word: &str) -> Option<&'static str> {
    Some(match word {
        "no" | "without" | "lack" | "lacks" | "lacking" | "absent" | "missing" | "none" | "miss" | "misses" => {
            "missing"
        }
        "several" | "multiple" | "many" => "multiple",
        "duplicate" | "duplicated" | "duplicates" => "duplicate",
        "img" | "images" | "image" | "picture" | "pictures" | "photo" | "photos" => "image",
        "ssl" | "tls" | "secure" | "https" => "https",
        "headline" | "headlines" | "heading" | "headings" => "heading",
        "desc" | "description" | "descriptions" => "description",
        "opengraph" | "og" => "og",
        "js" | "javascript" => "javascript",
        "blocked" | "blocks" | "blocking" | "block" => "block",
        "disallow" | "disallowed" | "disallows" => "disallow",
        "uppercase" | "capitals" | "capital" | "capitalised" | "capitalized" => "uppercase",
        "properties" | "property" | "props" => "property",
        "4xx" | "5xx" => "errcode",
        "llms" => "llms",
        "hsts" => "hsts",
        _ => return None,
    })
}

/// One folded word stemmed by the one text normaliser (crate `text`, English Snowball:
/// `links` → `link`, `skipped` → `skip`), synonyms folded before and after.
fn fold(words: &text::Normaliser, word: &str) -> String {
    if let Some(s) = synonym(word) {
        return s.to_string();
    }
    // An HTTP error status (404, 503) is one concept, whatever the number.
    if word.len() == 3 && word.starts_with(['4', '5']) && word.bytes().all(|b| b.is_ascii_digit()) {
        return "errcode".to_string();
    }
    let stem = words.stem(word);
    synonym(&stem).map_or(stem, str::to_string)
}

/// The folded words of a text, English stop words left out. `@` stays part of a word
/// (`@context`).
pub(crate) fn words(text: &str) -> BTreeSet<String> {
    let words = text::Normaliser::new(text::Language::English);
    text.split(|c: char| !(c.is_alphanumeric() || c == '@'))
        .filter(|w| !w.is_empty())
        .map(text::fold_word)
        .filter(|w| !words.is_stop_word(w))
        .map(|w| fold(&words, &w))
        .collect()
}

/// One entry of [`PHRASES`] with its words folded.
struct Entry {
    id: &'static str,
    phrases: Vec<BTreeSet<String>>,
    excluded: BTreeSet<String>,
}

fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        PHRASES
            .iter()
            .map(|(id, phrases, excluded)| Entry {
                id,
                phrases: phrases.iter().map(|p| words(p)).collect(),
                excluded: excluded.iter().flat_map(|e| words(e)).collect(),
            })
            .collect()
    })
}

/// The rule (or extra template) an issue names, if it names one (see the module docs).
pub fn match_rule(issue: &Issue) -> Option<RuleMatch> {
    let fields = [&issue.title, &issue.description, &issue.recommendation, &issue.category];
    if let Some(id) = fields.iter().filter_map(|f| f.as_deref()).find_map(named_id) {
        return Some(RuleMatch { rule_id: id, score: ID_MATCH_SCORE });
    }
    // The title says what the problem is; the description (when there is no title) too. The
    // recommendation and category are too loose to decide which template fits.
    let text = [&issue.title, &issue.description]
        .into_iter()
        .filter_map(|f| f.as_deref())
        .find(|t| t.chars().any(char::is_alphanumeric))?;
    match_phrase(text)
}

/// Matches free text (e.g. a tool argument) as if it were an issue title.
pub fn match_text(text: &str) -> Option<RuleMatch> {
    named_id(text).map(|id| RuleMatch { rule_id: id, score: ID_MATCH_SCORE }).or_else(|| match_phrase(text))
}

/// A template id written in the text as a whole word.
fn named_id(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let ids = template_ids();
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .find_map(|w| ids.iter().find(|id| **id == w).copied())
}

/// A crawler of the AI bot table named in the text (`GPTBot`, `Google-Extended`).
fn names_ai_bot(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .any(|w| ai_visibility::AI_BOTS.iter().any(|b| b.name.eq_ignore_ascii_case(w)))
}

fn match_phrase(text: &str) -> Option<RuleMatch> {
    if names_ai_bot(text) {
        return Some(RuleMatch { rule_id: "ai-crawler-blocked", score: BOT_MATCH_SCORE });
    }
    let title = words(text);
    let mut best: Option<RuleMatch> = None;
    for e in entries() {
        if e.excluded.iter().any(|w| title.contains(w)) {
            continue;
        }
        let longest = e.phrases.iter().filter(|p| p.is_subset(&title)).map(BTreeSet::len).max();
        if let Some(n) = longest {
            let score = n as f64;
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(RuleMatch { rule_id: e.id, score });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words that never name a problem on their own (a one-word phrase may not be one of them).
    const GENERIC_WORDS: &str =
        "missing no not add more link links content file page text tag image meta data url html error \
        code http https title description heading site seo fix issue found header x og h1 ai lang";

    #[test]
    fn words_fold_plurals_and_synonyms() {
        for (text, expected) in [
            ("Images without alt attributes", vec!["alt", "attribut", "image", "missing"]),
            ("Heading levels skipped", vec!["heading", "level", "skip"]),
            ("Several title tags", vec!["multiple", "tag", "titl"]),
            ("Page returns HTTP 404", vec!["errcode", "http", "page", "return"]),
            ("JSON-LD without @context", vec!["@context", "json", "ld", "missing"]),
            ("Structured data lacks required properties", vec!["data", "missing", "property", "requir", "structur"]),
        ] {
            let got: Vec<String> = words(text).into_iter().collect();
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn the_phrase_table_is_sound() {
        let ids = template_ids();
        for id in &ids {
            assert!(PHRASES.iter().any(|(p, _, _)| p == id), "{id} has no phrases");
        }
        for (id, phrases, _) in PHRASES {
            assert!(ids.contains(id), "{id} is no template");
            assert_eq!(PHRASES.iter().filter(|(p, _, _)| p == id).count(), 1, "{id} twice");
            for p in *phrases {
                let w = words(p);
                // A one-word phrase decides alone: it must be a distinctive word.
                if w.len() == 1 {
                    let only = w.iter().next().map(String::as_str).unwrap_or("");
                    assert!(only.chars().count() >= 4, "{id}: {p:?} is too short to decide alone");
                    assert!(
                        !GENERIC_WORDS.split_whitespace().any(|g| words(g).contains(only)),
                        "{id}: {p:?} is too generic to decide alone"
                    );
                }
            }
        }
    }
}
