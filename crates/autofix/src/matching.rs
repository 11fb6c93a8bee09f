//! Matching issues given only as text to rule ids.
//!
//! Every template has a small document: its id words, aliases (how audits phrase the
//! problem, including audit-core's own finding titles), its name, threshold, why and
//! category. An issue's words are scored against each document, each word weighted by how
//! rare it is among documents (so "title" counts less than "viewport"); words of the issue
//! title count double. The best score above [`MIN_MATCH_SCORE`] wins; ties go to the earlier
//! entry of the table.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use audit_core::RULES;

use crate::fix::Issue;
use crate::templates::EXTRA_TEMPLATES;

/// The lowest score that counts as a match.
pub const MIN_MATCH_SCORE: f64 = 4.0;

/// The share of an issue title's words a rule must know to match it.
pub const MIN_TITLE_SHARE: f64 = 0.4;

/// How audits phrase each problem, besides the rule's own name.
const ALIASES: &[(&str, &[&str])] = &[
    (
        "http-status-error",
        &["page returns http error", "404 not found", "500 server error", "broken page status code", "4xx 5xx"],
    ),
    ("redirect-chain", &["redirect chain", "multiple redirects", "too many redirects hops"]),
    ("not-https", &["page is not served over https", "no https", "no ssl", "insecure http", "site not secure"]),
    ("mixed-content", &["mixed content", "insecure resources http on https"]),
    (
        "page-noindex",
        &["page is blocked from indexing", "noindex meta robots", "not indexable", "x-robots-tag noindex"],
    ),
    ("page-nofollow", &["links on the page are not followed", "nofollow meta robots"]),
    (
        "robots-txt-blocked",
        &["page is blocked by robots.txt", "robots.txt disallow", "blocked robots txt googlebot", "crawling blocked"],
    ),
    ("canonical-missing", &["canonical tag missing", "missing canonical", "no canonical url"]),
    ("canonical-relative", &["canonical url is relative", "relative canonical"]),
    ("canonical-multiple", &["several canonical tags", "multiple canonical", "duplicate canonical"]),
    (
        "canonical-points-elsewhere",
        &["canonical points to another url", "canonical mismatch", "non self referencing canonical"],
    ),
    ("canonical-with-noindex", &["canonical combined with noindex", "noindex and canonical conflict"]),
    ("charset-missing", &["character encoding not declared", "missing charset", "no meta charset utf-8"]),
    ("favicon-missing", &["favicon missing", "no favicon icon"]),
    ("url-too-long", &["url is too long", "long url"]),
    ("url-uppercase", &["url contains upper-case letters", "uppercase url capital letters"]),
    ("url-underscores", &["url contains underscores", "underscore in url"]),
    ("url-many-parameters", &["url has many parameters", "too many query parameters"]),
    ("title-missing", &["title tag missing", "missing title", "no title tag", "empty title"]),
    ("title-too-short", &["title is too short", "short title"]),
    ("title-too-long", &["title is too long", "long title truncated"]),
    ("title-multiple", &["several title tags", "multiple title tags", "duplicate title tag"]),
    ("meta-description-missing", &["meta description missing", "missing meta description", "no meta description"]),
    ("meta-description-too-short", &["meta description is too short", "short meta description"]),
    ("meta-description-too-long", &["meta description is too long", "long meta description truncated"]),
    (
        "meta-description-multiple",
        &["several meta descriptions", "multiple meta description", "duplicate meta description"],
    ),
    ("h1-missing", &["h1 heading missing", "missing h1", "no h1 tag"]),
    ("h1-multiple", &["several h1 headings", "multiple h1 tags"]),
    ("h1-empty", &["h1 heading is empty", "empty h1"]),
    (
        "heading-levels-skipped",
        &["heading levels skipped", "heading hierarchy broken", "skipped heading level structure"],
    ),
    ("thin-content", &["thin content", "low word count", "not enough content text"]),
    ("low-text-ratio", &["low text to html ratio", "text html ratio"]),
    ("image-alt-missing", &["images without alt text", "missing alt attributes", "image alt text missing", "no alt"]),
    (
        "image-dimensions-missing",
        &["images without dimensions", "missing width height image", "layout shift cls images"],
    ),
    ("link-text-not-descriptive", &["links without descriptive text", "click here read more generic anchor text"]),
    ("link-uncrawlable", &["uncrawlable links", "javascript links onclick href"]),
    ("link-empty-text", &["links without text", "empty anchor text accessible name"]),
    ("links-too-many", &["too many links", "excessive links"]),
    ("internal-link-nofollow", &["internal links marked nofollow", "nofollow internal links"]),
    ("og-title-missing", &["open graph title missing", "missing og:title", "og title"]),
    ("og-description-missing", &["open graph description missing", "missing og:description", "og description"]),
    ("og-image-missing", &["open graph image missing", "missing og:image", "social share image"]),
    ("og-image-relative", &["og:image is a relative url", "relative og image"]),
    ("twitter-card-missing", &["twitter card missing", "missing twitter card tags", "x card"]),
    (
        "structured-data-missing",
        &["no structured data", "missing schema markup", "no json-ld schema.org", "schema markup missing"],
    ),
    ("structured-data-invalid-json", &["invalid json-ld", "json-ld syntax error parse"]),
    ("structured-data-no-context", &["json-ld without @context", "missing context schema.org"]),
    (
        "structured-data-required-properties",
        &["structured data lacks required properties", "schema missing required fields"],
    ),
    ("html-too-large", &["html is too large", "page size too big"]),
    ("slow-response", &["slow server response", "high ttfb time to first byte", "slow load time"]),
    ("render-blocking-scripts", &["render-blocking scripts", "render blocking javascript defer async"]),
    ("dom-too-large", &["dom is too large", "excessive dom size elements"]),
    ("viewport-missing", &["viewport meta tag missing", "missing viewport", "not mobile friendly"]),
    ("viewport-not-device-width", &["viewport not set to device width"]),
    ("viewport-not-scalable", &["zoom is disabled", "user-scalable no maximum-scale"]),
    ("html-lang-missing", &["language not declared", "missing lang attribute", "html lang missing"]),
    ("html-lang-invalid", &["invalid language tag", "invalid lang attribute"]),
    ("hreflang-invalid-code", &["invalid hreflang codes", "wrong hreflang language code"]),
    ("hreflang-no-self-reference", &["hreflang without self-reference", "hreflang missing self"]),
    ("hreflang-no-x-default", &["hreflang without x-default", "missing x-default"]),
    ("hreflang-relative-url", &["relative hreflang url"]),
    (
        "ai-crawler-blocked",
        &["gptbot claudebot perplexitybot blocked", "ai bots blocked robots.txt", "ai crawler access disallowed"],
    ),
    ("llms-txt-missing", &["llms.txt missing", "no llms.txt file"]),
    ("hsts-missing", &["strict-transport-security hsts header missing"]),
    ("x-robots-tag-missing", &["x-robots-tag header missing pdf"]),
    ("semantic-html-missing", &["semantic html landmarks main article nav missing"]),
];

/// The result of matching an issue's text.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleMatch {
    pub rule_id: &'static str,
    pub score: f64,
}

/// Words that say nothing about which rule is meant.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "into", "is", "it", "its",
    "of", "on", "or", "page", "pages", "should", "site", "that", "the", "their", "this", "to", "was", "were", "with",
    "your", "you", "add", "make", "use", "ensure", "one", "each", "every", "than",
];

/// Words folded onto one, so different phrasings meet.
fn canonical(word: &str) -> &str {
    match word {
        "no" | "without" | "lack" | "lacks" | "lacking" | "absent" | "missing" | "empty" => "missing",
        "several" | "multiple" | "duplicate" | "duplicated" | "many" => "multiple",
        "img" | "images" | "image" | "picture" | "photo" => "image",
        "ssl" | "tls" | "secure" | "https" => "https",
        "headline" | "heading" | "headings" => "heading",
        "desc" => "description",
        "opengraph" | "og" => "og",
        "txt" => "txt",
        _ => word,
    }
}

fn stem(word: &str) -> String {
    let w = canonical(word);
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.len() >= 3 && !w.ends_with("ss") {
                return canonical(base).to_string();
            }
        }
    }
    w.to_string()
}

/// The stemmed, meaningful words of a text.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '@'))
        .filter(|w| !w.is_empty() && !STOPWORDS.contains(w))
        .map(stem)
        .collect()
}

struct Doc {
    id: &'static str,
    /// Word → best field weight.
    words: BTreeMap<String, f64>,
}

struct Index {
    docs: Vec<Doc>,
    idf: BTreeMap<String, f64>,
}

fn add(map: &mut BTreeMap<String, f64>, text: &str, weight: f64) {
    for w in words(text) {
        let e = map.entry(w).or_insert(0.0);
        if *e < weight {
            *e = weight;
        }
    }
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut docs = Vec::new();
        for r in RULES {
            let m = r.meta();
            let mut w = BTreeMap::new();
            add(&mut w, m.category.name(), 0.5);
            add(&mut w, m.why, 0.5);
            add(&mut w, m.threshold, 1.0);
            add(&mut w, m.name, 2.0);
            add(&mut w, &m.id.replace('-', " "), 3.0);
            docs.push(Doc { id: m.id, words: w });
        }
        for (id, description) in EXTRA_TEMPLATES {
            let mut w = BTreeMap::new();
            add(&mut w, description, 2.0);
            add(&mut w, &id.replace('-', " "), 3.0);
            docs.push(Doc { id, words: w });
        }
        for doc in &mut docs {
            if let Some((_, aliases)) = ALIASES.iter().find(|(id, _)| *id == doc.id) {
                for a in *aliases {
                    add(&mut doc.words, a, 3.0);
                }
            }
        }
        let n = docs.len() as f64;
        let mut df: BTreeMap<String, f64> = BTreeMap::new();
        for doc in &docs {
            for w in doc.words.keys() {
                *df.entry(w.clone()).or_insert(0.0) += 1.0;
            }
        }
        let idf = df.into_iter().map(|(w, d)| (w, (1.0 + n / d).ln())).collect();
        Index { docs, idf }
    })
}

/// The rule (or extra template) an issue's text speaks of, if any scores high enough.
pub fn match_rule(issue: &Issue) -> Option<RuleMatch> {
    let title: BTreeSet<String> = words(issue.title.as_deref().unwrap_or("")).into_iter().collect();
    let rest: BTreeSet<String> = [&issue.description, &issue.recommendation, &issue.category]
        .iter()
        .filter_map(|s| s.as_deref())
        .flat_map(words)
        .filter(|w| !title.contains(w))
        .collect();
    match_words(&title, &rest)
}

/// Matches free text (e.g. a tool argument) as if it were an issue title.
pub fn match_text(text: &str) -> Option<RuleMatch> {
    let title: BTreeSet<String> = words(text).into_iter().collect();
    match_words(&title, &BTreeSet::new())
}

fn match_words(title: &BTreeSet<String>, rest: &BTreeSet<String>) -> Option<RuleMatch> {
    let idx = index();
    let mut best: Option<RuleMatch> = None;
    for doc in &idx.docs {
        let score_of = |ws: &BTreeSet<String>, factor: f64| -> f64 {
            ws.iter().filter_map(|w| Some(doc.words.get(w)? * idx.idf.get(w).copied().unwrap_or(0.0) * factor)).sum()
        };
        let score = score_of(title, 2.0) + score_of(rest, 1.0);
        // Most of the title's words must belong to the rule: one shared word ("not") in a
        // title about something else is no match.
        let shared = title.iter().filter(|w| doc.words.contains_key(*w)).count();
        // And a title of several words must share at least two with it: one common word
        // ("off", "missing") is chance.
        let focused = title.is_empty()
            || (shared as f64 >= MIN_TITLE_SHARE * title.len() as f64 && (shared >= 2 || title.len() == 1));
        if focused && score >= MIN_MATCH_SCORE && best.as_ref().is_none_or(|b| score > b.score + 1e-9) {
            best = Some(RuleMatch { rule_id: doc.id, score });
        }
    }
    best
}
