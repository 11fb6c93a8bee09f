//! The one text normaliser of the workspace: keyword tracking, the glossary lookup, auto-fix
//! matching and the content-gap heading comparison all read words through it, so a word is
//! the same word everywhere (docs/API.md, "Text normalisation").
//!
//! - **Words**: runs of letters and digits; an apostrophe between two letters joins
//!   (`what's`, `so geht's`), everything else separates.
//! - **Folding**: lower case (Unicode), German umlauts to their two-letter spelling (`ä` →
//!   `ae`, `ß` → `ss`, as ASCII-only German writes them), other Latin diacritics dropped
//!   (`é` → `e`), apostrophes dropped.
//! - **Stop words** per [`Language`], compared after folding.
//! - **Stemming**: the Snowball stemmer of the language (`rust-stemmers`), applied to the
//!   folded word, so `kettles` and `kettle` share the stem `kettl`, and `Häufige` and
//!   `Haeufige` the stem `haeufig`.
//!
//! Pure: no I/O, results depend on the input alone.

use rust_stemmers::{Algorithm, Stemmer};

mod collapse;
pub use collapse::collapse_white_space;

/// A language the normaliser stems and knows stop words of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Language {
    /// English (the default when a text's language is unknown).
    #[default]
    English,
    /// German.
    German,
    /// French.
    French,
    /// Spanish.
    Spanish,
    /// Italian.
    Italian,
    /// Dutch.
    Dutch,
    /// Portuguese.
    Portuguese,
}

impl Language {
    /// The language of a BCP 47 tag (`en`, `de-AT`, `fr_CA`), by its primary subtag; `None`
    /// for a language the normaliser does not stem.
    pub fn from_tag(tag: &str) -> Option<Self> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        Some(match primary.as_str() {
            "en" => Self::English,
            "de" => Self::German,
            "fr" => Self::French,
            "es" => Self::Spanish,
            "it" => Self::Italian,
            "nl" => Self::Dutch,
            "pt" => Self::Portuguese,
            _ => return None,
        })
    }

    fn algorithm(self) -> Algorithm {
        match self {
            Self::English => Algorithm::English,
            Self::German => Algorithm::German,
            Self::French => Algorithm::French,
            Self::Spanish => Algorithm::Spanish,
            Self::Italian => Algorithm::Italian,
            Self::Dutch => Algorithm::Dutch,
            Self::Portuguese => Algorithm::Portuguese,
        }
    }

    /// The stop words of the language, folded.
    pub fn stop_words(self) -> &'static [&'static str] {
        match self {
            Self::English => ENGLISH_STOP_WORDS,
            Self::German => GERMAN_STOP_WORDS,
            Self::French => FRENCH_STOP_WORDS,
            Self::Spanish => SPANISH_STOP_WORDS,
            Self::Italian => ITALIAN_STOP_WORDS,
            Self::Dutch => DUTCH_STOP_WORDS,
            Self::Portuguese => PORTUGUESE_STOP_WORDS,
        }
    }
}

/// Words that carry no meaning in a heading, a lookup or an issue title, folded. `about` and
/// `why` are not among them: "About us" and "Why choose us" are sections of their own.
const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "here", "how", "i", "in",
    "into", "is", "it", "its", "my", "of", "on", "or", "our", "should", "the", "this", "to", "we", "what", "with",
    "you", "your",
];
const GERMAN_STOP_WORDS: &[&str] = &[
    "am", "auf", "bei", "das", "dem", "den", "der", "des", "die", "ein", "eine", "einem", "einen", "einer", "es",
    "fuer", "ihr", "ihre", "im", "ist", "mit", "oder", "sie", "sind", "so", "uns", "unser", "unsere", "und", "vom",
    "von", "was", "wie", "wir", "zu", "zum", "zur",
];
const FRENCH_STOP_WORDS: &[&str] = &[
    "a", "au", "aux", "avec", "ce", "ces", "dans", "de", "des", "du", "elle", "en", "est", "et", "il", "je", "la",
    "le", "les", "leur", "mais", "nous", "notre", "ou", "par", "pour", "qu", "que", "qui", "sa", "se", "son", "sur",
    "un", "une", "vos", "votre", "vous",
];
const SPANISH_STOP_WORDS: &[&str] = &[
    "a", "al", "con", "de", "del", "el", "en", "es", "la", "las", "lo", "los", "para", "por", "que", "se", "su", "sus",
    "un", "una", "y",
];
const ITALIAN_STOP_WORDS: &[&str] = &[
    "a", "al", "che", "con", "da", "del", "della", "di", "e", "il", "in", "la", "le", "per", "su", "un", "una", "gli",
];
const DUTCH_STOP_WORDS: &[&str] =
    &["de", "een", "en", "het", "in", "is", "met", "op", "te", "van", "voor", "zijn", "wat", "hoe", "wij", "uw"];
const PORTUGUESE_STOP_WORDS: &[&str] =
    &["a", "as", "com", "da", "das", "de", "do", "dos", "e", "em", "o", "os", "para", "por", "que", "um", "uma"];

/// Folds one lower-cased character into `out` (see the crate docs).
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
        '\'' | '’' => {}
        c if is_combining_mark(c) => {}
        c => out.extend(c.to_lowercase()),
    }
}

/// One word folded: lower case, diacritics folded, apostrophes dropped.
pub fn fold_word(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        fold_char(c, &mut out);
    }
    out
}

/// A text folded word by word, the words joined by single spaces.
pub fn fold(text: &str) -> String {
    words(text).map(|(_, w)| fold_word(w)).collect::<Vec<_>>().join(" ")
}

/// A combining diacritical mark (`e` + U+0301 is a decomposed `é`): part of its word, dropped
/// by folding.
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}')
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '’'
}

/// The words of a text with their byte offsets, in order (see the crate docs).
pub fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = chars.find(|(_, c)| c.is_alphanumeric())?;
        let mut end = text.len();
        while let Some(&(i, c)) = chars.peek() {
            let joins = is_apostrophe(c) && text[i + c.len_utf8()..].chars().next().is_some_and(char::is_alphanumeric);
            if !(is_word_char(c) || joins) {
                end = i;
                break;
            }
            chars.next();
        }
        Some((start, &text[start..end]))
    })
}

/// One word of a text as the normaliser reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// The word as written.
    pub form: &'a str,
    /// Its byte offset in the text.
    pub start: usize,
    /// Folded (lower case, diacritics folded).
    pub folded: String,
    /// Its stem, folded.
    pub stem: String,
    /// Whether it is a stop word of the language.
    pub stop: bool,
}

impl Token<'_> {
    /// The byte offset just past the word.
    pub fn end(&self) -> usize {
        self.start + self.form.len()
    }
}

/// Where a phrase occurs in a text, and in which form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhraseMatch<'a> {
    /// Byte offset of its first word.
    pub start: usize,
    /// Byte offset just past its last word.
    pub end: usize,
    /// The text from its first to its last word, as written (`copper kettles`).
    pub form: &'a str,
}

/// The normaliser of one language.
pub struct Normaliser {
    language: Language,
    stemmer: Stemmer,
}

impl std::fmt::Debug for Normaliser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Normaliser").field("language", &self.language).finish()
    }
}

impl Default for Normaliser {
    fn default() -> Self {
        Self::new(Language::default())
    }
}

impl Normaliser {
    /// The normaliser of `language`.
    pub fn new(language: Language) -> Self {
        Self { language, stemmer: Stemmer::create(language.algorithm()) }
    }

    /// The normaliser of a BCP 47 tag's language; English when the tag is missing or names
    /// a language without a stemmer.
    pub fn for_tag(tag: Option<&str>) -> Self {
        Self::new(tag.and_then(Language::from_tag).unwrap_or_default())
    }

    /// Its language.
    pub fn language(&self) -> Language {
        self.language
    }

    /// Whether a folded word is a stop word of the language.
    pub fn is_stop_word(&self, folded: &str) -> bool {
        self.language.stop_words().contains(&folded)
    }

    /// The folded stem of one word.
    pub fn stem(&self, word: &str) -> String {
        self.stemmer.stem(&fold_word(word)).into_owned()
    }

    /// Every word of a text, in order.
    pub fn tokens<'a>(&self, text: &'a str) -> Vec<Token<'a>> {
        words(text)
            .map(|(start, form)| {
                let folded = fold_word(form);
                Token { form, start, stop: self.is_stop_word(&folded), stem: self.stem(form), folded }
            })
            .collect()
    }

    /// The stems of the content words of a text (stop words left out), in order.
    pub fn terms(&self, text: &str) -> Vec<String> {
        self.tokens(text).into_iter().filter(|t| !t.stop).map(|t| t.stem).collect()
    }

    /// Every occurrence of `phrase` in `text`, word for word by stem (so inflected forms
    /// count: `copper kettle` is found in `Copper Kettles`), not overlapping, in order. Stop
    /// words of the phrase are kept: `bread to bake` is not `bread bake`.
    pub fn find_phrase<'a>(&self, text: &'a str, phrase: &str) -> Vec<PhraseMatch<'a>> {
        let pattern: Vec<String> = self.tokens(phrase).into_iter().map(|t| t.stem).collect();
        let hay = self.tokens(text);
        let mut found = Vec::new();
        if pattern.is_empty() {
            return found;
        }
        let mut i = 0;
        while i + pattern.len() <= hay.len() {
            let window = &hay[i..i + pattern.len()];
            if window.iter().zip(&pattern).all(|(t, p)| t.stem == *p) {
                let (start, end) = (window[0].start, window[window.len() - 1].end());
                found.push(PhraseMatch { start, end, form: &text[start..end] });
                i += pattern.len();
            } else {
                i += 1;
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(lang: Language, text: &str) -> Vec<String> {
        Normaliser::new(lang).tokens(text).into_iter().map(|t| t.stem).collect()
    }

    #[test]
    fn english_plurals_and_inflections_share_a_stem() {
        let en = Normaliser::new(Language::English);
        for (a, b) in [
            ("kettle", "kettles"),
            ("category", "categories"),
            ("review", "reviews"),
            ("install", "installing"),
            ("ship", "shipping"),
            ("image", "images"),
        ] {
            assert_eq!(en.stem(a), en.stem(b), "{a} / {b}");
        }
        assert_ne!(en.stem("tips"), en.stem("steps"));
        assert_eq!(en.stem("Kettles"), "kettl");
    }

    #[test]
    fn german_and_french_stem_by_their_own_rules() {
        let de = Normaliser::new(Language::German);
        assert_eq!(de.stem("Häufige"), de.stem("haeufig"));
        assert_eq!(de.stem("Fragen"), de.stem("Frage"));
        assert_eq!(de.stem("Bewertungen"), de.stem("Bewertung"));
        let fr = Normaliser::new(Language::French);
        assert_eq!(fr.stem("bouilloires"), fr.stem("bouilloire"));
        assert_eq!(fr.stem("Économiques"), fr.stem("économique"));
        assert_eq!(stems(Language::French, "Les théières"), ["le", "theier"]);
        assert_eq!(stems(Language::French, "THÉIÈRE"), ["theier"]);
    }

    #[test]
    fn stop_words_are_per_language_and_left_out_of_terms() {
        let en = Normaliser::new(Language::English);
        assert_eq!(en.terms("What is the canonical tag?"), ["canon", "tag"]);
        assert_eq!(Normaliser::new(Language::German).terms("Die Versandkosten für Österreich").len(), 2);
        assert!(Normaliser::new(Language::German).is_stop_word("fuer"));
        assert!(!en.is_stop_word("fuer"));
        assert_eq!(Normaliser::new(Language::French).terms("Le prix des bouilloires").len(), 2);
    }

    #[test]
    fn case_and_diacritics_fold_beyond_ascii() {
        assert_eq!(fold("ÄRGER ärger Straße"), "aerger aerger strasse");
        assert_eq!(fold("Crème BRÛLÉE, œuvre"), "creme brulee oeuvre");
        assert_eq!(fold("What's in the box?"), "whats in the box");
        assert_eq!(fold("ΣΟΦΙΑ"), "σοφια");
        // Decomposed: `e` and a combining acute accent.
        assert_eq!(fold("Cafe\u{301} CRE\u{300}ME"), "cafe creme");
        let de = Normaliser::new(Language::German);
        assert_eq!(de.tokens("ÖFFNUNGSZEITEN")[0].stem, de.tokens("Öffnungszeiten")[0].stem);
    }

    #[test]
    fn words_keep_offsets_and_inner_apostrophes() {
        let w: Vec<_> = words("so geht's — 'quoted' x").collect();
        assert_eq!(w, [(0, "so"), (3, "geht's"), (15, "quoted"), (23, "x")]);
        assert_eq!(words("").count(), 0);
        assert_eq!(words(" ,. ").count(), 0);
    }

    #[test]
    fn phrases_match_inflected_forms_and_report_them() {
        let en = Normaliser::default();
        let text = "Copper kettles! A copper kettle, copper-kettles and copper  kettle.";
        let forms: Vec<_> = en.find_phrase(text, "copper kettle").into_iter().map(|m| m.form).collect();
        assert_eq!(forms, ["Copper kettles", "copper kettle", "copper-kettles", "copper  kettle"]);
        assert!(en.find_phrase("copperkettles", "copper kettle").is_empty());
        assert!(en.find_phrase("oak", "").is_empty());
        assert!(en.find_phrase("cloak", "oak").is_empty());
        assert_eq!(en.find_phrase("aa aa aa", "aa aa").len(), 1);
    }

    #[test]
    fn tags_choose_the_language() {
        assert_eq!(Language::from_tag("de-AT"), Some(Language::German));
        assert_eq!(Language::from_tag("FR_ca"), Some(Language::French));
        assert_eq!(Language::from_tag("xx"), None);
        assert_eq!(Normaliser::for_tag(Some("ja")).language(), Language::English);
    }
}
