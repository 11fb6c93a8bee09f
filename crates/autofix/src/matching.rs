//! Matching issues given only as text to template ids.
//!
//! Matching is precise rather than eager: a wrong template is worse than the generic text fix
//! (a fix for an llms.txt file offered for a missing robots.txt misleads the reader). An issue
//! names a template in one of two ways:
//!
//! - **By id**: its title (else description, recommendation or category) contains a template
//!   id as a whole word, e.g. `meta-description-missing`.
//! - **By phrase**: its title (its description when it has no title) contains every word of
//!   one of the template's phrases (the rule's `RuleMeta::phrases`, a fix-only unit's
//!   `phrases`), in any order, and none of the template's
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

use audit_core::RULES;

use crate::context::Issue;
use crate::extra::{site_rules_with_fix, template_ids, EXTRA_TEMPLATES};

/// The score of a match by id; matches by phrase score the number of words of the phrase.
pub const ID_MATCH_SCORE: f64 = 100.0;

/// The score of a title that names an AI crawler (`GPTBot`): more specific than any phrase.
const BOT_MATCH_SCORE: f64 = 10.0;

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

/// The phrases of one rule (`RuleMeta::phrases`) or fix-only unit, words folded.
struct Entry {
    id: &'static str,
    phrases: Vec<BTreeSet<String>>,
    excluded: BTreeSet<String>,
}

fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let rules = RULES.iter().map(|r| r.meta()).map(|m| (m.id, m.phrases, m.excluded));
        let site = site_rules_with_fix().iter().map(|r| r.meta()).map(|m| (m.id, m.phrases, m.excluded));
        let extra = EXTRA_TEMPLATES.iter().map(|x| (x.id, x.phrases, x.excluded));
        rules
            .chain(site)
            .chain(extra)
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
        // The hand-checked crawlers only: the registry also holds tokens that are ordinary
        // words (`Code`, `Spider`, `Operator`), which would claim unrelated text.
        .any(|w| ai_visibility::AI_BOTS.iter().any(|b| b.curated && b.name.eq_ignore_ascii_case(w)))
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
    fn every_templates_phrases_are_sound() {
        let rules = RULES.iter().map(|r| r.meta()).map(|m| (m.id, m.phrases));
        let site = site_rules_with_fix().iter().map(|r| r.meta()).map(|m| (m.id, m.phrases));
        let units: Vec<(&str, &[&str])> =
            rules.chain(site).chain(EXTRA_TEMPLATES.iter().map(|x| (x.id, x.phrases))).collect();
        assert_eq!(units.iter().map(|(id, _)| *id).collect::<Vec<_>>(), template_ids());
        for (id, phrases) in units {
            assert!(!phrases.is_empty(), "{id} has no phrases");
            assert_eq!(template_ids().iter().filter(|t| **t == id).count(), 1, "{id} twice");
            for p in phrases {
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
