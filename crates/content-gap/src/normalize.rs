//! Heading normalisation: folding, stopwords (English and German) and a small stemmer.
//!
//! Headings and model synonyms go through the same [`tokens`] function, so whatever the
//! stemmer does to a word it does on both sides; it only has to be consistent, not correct.

/// Words that carry no section meaning, after folding (`für` is `fuer` here).
const STOPWORDS: &[&str] = &[
    // English
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "here", "how", "i", "in", "into", "is",
    "it", "its", "my", "of", "on", "or", "our", "the", "this", "to", "we", "what", "with", "you", "your",
    // German
    "am", "auf", "bei", "das", "dem", "den", "der", "des", "die", "ein", "eine", "einem", "einen", "einer", "es",
    "fuer", "ihr", "ihre", "im", "ist", "mit", "oder", "sie", "sind", "so", "uns", "unser", "unsere", "und", "vom",
    "von", "was", "wie", "wir", "zu", "zum", "zur",
];

/// Suffixes stripped by [`stem`], longest first; each with the minimum stem length it leaves.
const SUFFIXES: &[(&str, &str)] = &[
    ("ations", ""),
    ("ungen", ""),
    ("ation", ""),
    ("ieren", ""),
    ("ions", ""),
    ("ings", ""),
    ("ies", "y"),
    ("ion", ""),
    ("ing", ""),
    ("ung", ""),
    ("ern", ""),
    ("es", ""),
    ("ed", ""),
    ("en", ""),
    ("er", ""),
    ("ly", ""),
    ("s", ""),
    ("e", ""),
    ("n", ""),
];

/// Stems shorter than this are left alone: stripping `tips` to `tip` is fine, `as` to `a` is not.
const MIN_STEM: usize = 3;

/// Folds one character: lower-case, German umlauts to their two-letter spelling (`ä` → `ae`,
/// as ASCII-only German writes them), other Latin diacritics dropped. Returns `None` for
/// punctuation, which separates words.
fn fold_char(c: char, out: &mut String) {
    match c {
        'ä' | 'Ä' => out.push_str("ae"),
        'ö' | 'Ö' => out.push_str("oe"),
        'ü' | 'Ü' => out.push_str("ue"),
        'ß' | 'ẞ' => out.push_str("ss"),
        'à' | 'á' | 'â' | 'ã' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Å' => out.push('a'),
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => out.push('e'),
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => out.push('i'),
        'ò' | 'ó' | 'ô' | 'õ' | 'ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ø' => out.push('o'),
        'ù' | 'ú' | 'û' | 'Ù' | 'Ú' | 'Û' => out.push('u'),
        'ç' | 'Ç' => out.push('c'),
        'ñ' | 'Ñ' => out.push('n'),
        'æ' | 'Æ' => out.push_str("ae"),
        'œ' | 'Œ' => out.push_str("oe"),
        // An apostrophe joins (`what's`, `so geht's`): dropping it keeps the word whole.
        '\'' | '’' => {}
        c if c.is_alphanumeric() => out.extend(c.to_lowercase()),
        _ => out.push(' '),
    }
}

/// Lower-cases and folds text; punctuation becomes white space.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char(c, &mut out);
    }
    out
}

/// Strips one inflectional suffix (English or German) from a folded word, then undoubles a
/// final consonant (`shipp` → `ship`).
pub fn stem(word: &str) -> String {
    for (suffix, replacement) in SUFFIXES {
        if let Some(base) = word.strip_suffix(suffix) {
            if base.chars().count() >= MIN_STEM {
                let mut s = format!("{base}{replacement}");
                let b = s.as_bytes();
                if b.len() >= 4 && b[b.len() - 1] == b[b.len() - 2] && !b"aeiouls".contains(&b[b.len() - 1]) {
                    s.pop();
                }
                return s;
            }
        }
    }
    word.to_string()
}

/// The stemmed content words of a text, in order.
pub fn tokens(text: &str) -> Vec<String> {
    fold(text).split_whitespace().filter(|w| !STOPWORDS.contains(w)).map(stem).collect()
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
        check("Frequently Asked Questions", "frequent ask quest");
        check("Häufige Fragen", "haeufig frag");
        check("Haeufige Fragen", "haeufig frag");
        check("Zubereitung", "zubereit");
        check("Installing the CLI", "install cli");
        check("Installation", "install");
        check("Reviews", "review");
        check("What's in the box?", "what box");
        check("Kundenbewertungen", "kundenbewert");
        check("Öffnungszeiten", "oeffnungszeit");
        check("Categories", "category");
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
