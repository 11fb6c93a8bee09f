//! Heading normalisation through the one text normaliser (crate `text`): folding, the
//! English and German stop words and Snowball stems of both languages (a heading's language
//! is not known, and the section models list English and German synonyms side by side).
//!
//! Headings and model synonyms go through the same [`tokens`] function, so whatever the
//! stemmer does to a word it does on both sides; it only has to be consistent, not correct.

use std::collections::HashSet;
use std::sync::OnceLock;

use text::{Language, Normaliser};

/// Lower-cases and folds text (`ä` → `ae`, `é` → `e`); words joined by single spaces.
pub fn fold(text: &str) -> String {
    text::fold(text)
}

/// The English and the German normaliser, in the order a word goes through them, made once.
fn normalisers() -> &'static [Normaliser; 2] {
    static NORMALISERS: OnceLock<[Normaliser; 2]> = OnceLock::new();
    NORMALISERS.get_or_init(|| [Normaliser::new(Language::English), Normaliser::new(Language::German)])
}

/// Whether a folded word is an English or German stop word: one set of both lists, looked
/// up once per word (searching both lists for every word of 20,000 headings was most of
/// the comparison's time).
fn is_stop_word(folded: &str) -> bool {
    static STOP_WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    STOP_WORDS
        .get_or_init(|| {
            [Language::English, Language::German].iter().flat_map(|l| l.stop_words().iter().copied()).collect()
        })
        .contains(folded)
}

fn stem_with(n: &[Normaliser; 2], word: &str) -> String {
    n[1].stem(&n[0].stem(word))
}

/// The stem of one word: English Snowball, then German Snowball (`Questions` → `question`,
/// `Bewertungen` → `bewert`).
pub fn stem(word: &str) -> String {
    stem_with(normalisers(), word)
}

/// The stemmed content words of a text, in order.
pub fn tokens(text: &str) -> Vec<String> {
    let n = normalisers();
    text::words(text).map(|(_, w)| text::fold_word(w)).filter(|w| !is_stop_word(w)).map(|w| stem_with(n, &w)).collect()
}

/// The canonical form of a heading used to compare headings between pages.
pub fn key(text: &str) -> String {
    tokens(text).join(" ")
}

/// Whether a heading token contains a phrase token: equal, or for longer words a part of a
/// compound (German `Versandkosten` holds `versand`, `Kundenbewertungen` holds `bewert`).
fn token_matches(heading: &str, phrase: &str) -> bool {
    heading == phrase || (phrase.len() >= 5 && heading.len() > phrase.len() && heading.contains(phrase))
}

/// Whether every token of a phrase occurs among the heading tokens.
pub fn contains_phrase(heading: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && phrase.iter().all(|p| heading.iter().any(|h| token_matches(h, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &str) {
        assert_eq!(key(text), expected, "{text:?}");
    }

    #[test]
    fn normalises() {
        check("Shipping & Returns", "ship return");
        check("Frequently Asked Questions", "frequent ask question");
        check("Häufige Fragen", "haeufig frag");
        check("Haeufige Fragen", "haeufig frag");
        check("Zubereitung", "zubereit");
        check("Installing the CLI", "instal cli");
        check("Installation", "instal");
        check("Reviews", "review");
        check("What's in the box?", "what box");
        check("Kundenbewertungen", "kundenbewert");
        check("Öffnungszeiten", "oeffnungszeit");
        check("Categories", "categori");
        check("Category", "categori");
        check("Question", "question");
        check("  ", "");
    }

    #[test]
    fn compound_containment() {
        let h = tokens("Versandkosten und Lieferzeit");
        assert!(contains_phrase(&h, &tokens("Versand")));
        assert!(contains_phrase(&tokens("Kundenbewertungen"), &tokens("Bewertungen")));
        assert!(!contains_phrase(&tokens("Tips"), &tokens("Steps")));
        assert!(!contains_phrase(&h, &[]));
    }
}
