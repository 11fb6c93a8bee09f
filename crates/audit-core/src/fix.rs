//! Fixes: what a rule offers to repair what it found, filled in from the page.
//!
//! A rule's [`Rule::fix`](crate::Rule::fix) reads a [`FixCtx`] (the parsed page when there is
//! one, and what the caller knows: the address, the title, the issue's current value) and
//! returns a [`FixTemplate`]: the code and a sentence on where it goes. A value the page does
//! not give is never invented: the code holds a `TODO:` text in its place. The `autofix` crate
//! renders these for the API (placeholders listed, issues matched by their text).

use serde::Serialize;
use url::Url;

use crate::page::Page;
use crate::rules::util::{suggest_description, trim_at_word, DESCRIPTION_MAX_CHARS, TITLE_MAX_CHARS};

/// What kind of change a fix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FixKind {
    /// Markup for the page (`html`).
    Html,
    /// A JSON-LD block (`json-ld`).
    JsonLd,
    /// Lines for robots.txt (`robots`).
    Robots,
    /// A response header (`http-header`).
    HttpHeader,
    /// Web server configuration (`server-config`).
    ServerConfig,
    /// Advice in words (`text`).
    Text,
}

impl FixKind {
    /// The wire name (`json-ld`).
    pub fn name(self) -> &'static str {
        match self {
            FixKind::Html => "html",
            FixKind::JsonLd => "json-ld",
            FixKind::Robots => "robots",
            FixKind::HttpHeader => "http-header",
            FixKind::ServerConfig => "server-config",
            FixKind::Text => "text",
        }
    }
}

/// How much work a fix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// A line or two to paste (`easy`).
    Easy,
    /// Some editing or a server change (`medium`).
    Medium,
    /// Rewriting or restructuring (`hard`).
    Hard,
}

/// A filled fix: what a rule's [`Rule::fix`](crate::Rule::fix) returns.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FixTemplate {
    /// What kind of change it is.
    pub kind: FixKind,
    /// How much work it is.
    pub difficulty: Difficulty,
    /// The code (or text) to apply, `TODO:` texts standing where the page gave no value.
    pub code: String,
    /// Where to put it and why, in a sentence or two.
    pub explanation: String,
}

impl FixTemplate {
    /// A fix, wrapped in `Some` for the rule that returns it.
    pub fn some(
        kind: FixKind,
        difficulty: Difficulty,
        code: impl Into<String>,
        explanation: impl Into<String>,
    ) -> Option<FixTemplate> {
        Some(FixTemplate { kind, difficulty, code: code.into(), explanation: explanation.into() })
    }
}

/// What the caller knows about the page beside its parsed facts; every value is optional
/// (see [`FixCtx::new`]).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Given<'v> {
    /// The page's address.
    pub url: Option<&'v str>,
    /// Its title.
    pub title: Option<&'v str>,
    /// Its meta description.
    pub description: Option<&'v str>,
    /// Its text (or first paragraph): the source of written descriptions.
    pub text: Option<&'v str>,
    /// What the audit found for the issue (a finding's `current_value`).
    pub current_value: Option<&'v str>,
}

impl<'v> Given<'v> {
    /// Nothing given.
    pub fn new() -> Given<'v> {
        Given::default()
    }
}

/// Placeholder origin when no URL is known at all. Templates never show it as if it were the
/// page's: where the address belongs they write [`TODO_URL`] or name it in a `TODO:`.
pub const EXAMPLE_URL: &str = "https://example.com/";

/// Where the page's address belongs and none is known.
pub const TODO_URL: &str = "TODO: full URL of this page";
/// Where the site's address belongs and none is known.
pub const TODO_ORIGIN: &str = "TODO: address of the site, e.g. https://www.your-site.com";
/// Where the site's name belongs and none is known.
pub const TODO_SITE_NAME: &str = "TODO: name of the site or organisation";

/// What a rule's fix reads: the page (when it was parsed) and the values the caller gave,
/// resolved. Built with [`FixCtx::new`].
#[derive(Debug, Clone)]
pub struct FixCtx<'a> {
    /// The parsed page, when there is one.
    pub page: Option<&'a Page>,
    /// The page URL, fragment removed.
    pub url: Url,
    /// Whether `url` is real (given or from the page) rather than [`EXAMPLE_URL`].
    pub known_url: bool,
    /// The title, white space collapsed; empty when none is known.
    pub title: String,
    /// The meta description, when one is known.
    pub description: Option<String>,
    /// Text of the page (or its first paragraph), when known.
    pub text: Option<String>,
    /// The issue's `current_value`, trimmed; `None` when empty.
    pub current: Option<String>,
}

impl<'a> FixCtx<'a> {
    /// Resolves what the caller knows: each value given wins over the page's own (the URL
    /// over its final URL, the title, the description and the text over what it says).
    pub fn new(page: Option<&'a Page>, given: Given<'_>) -> FixCtx<'a> {
        let given_url = given.url.filter(|u| !u.trim().is_empty());
        let raw = given_url.or(page.map(|p| p.final_url.as_str()));
        let parsed = raw
            .and_then(|u| Url::parse(u.trim()).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
        let known_url = parsed.is_some();
        let mut url = parsed.unwrap_or_else(|| Url::parse(EXAMPLE_URL).expect("constant URL parses"));
        url.set_fragment(None);
        let title = given
            .title
            .map(str::to_string)
            .or_else(|| page.map(|p| p.title.clone()))
            .map(|t| crate::text::collapse(&t))
            .unwrap_or_default();
        let description = given
            .description
            .map(str::to_string)
            .or_else(|| page.and_then(|p| p.meta_description().map(str::to_string)))
            .map(|d| crate::text::collapse(&d))
            .filter(|d| !d.is_empty());
        let text = given
            .text
            .map(str::to_string)
            .or_else(|| page.and_then(|p| p.first_paragraph.clone()))
            .map(|t| crate::text::collapse(&t))
            .filter(|t| !t.is_empty());
        let current = clean_current(given.current_value);
        FixCtx { page, url, known_url, title, description, text, current }
    }

    /// Sets the issue's current value (it wins over the context's).
    pub fn with_current(mut self, value: Option<&str>) -> FixCtx<'a> {
        if let Some(v) = clean_current(value) {
            self.current = Some(v);
        }
        self
    }

    /// The first whole number in the current value (`"120"`, `"1,250 words"`).
    pub fn current_number(&self) -> Option<u64> {
        let v = self.current.as_deref()?;
        let start = v.find(|c: char| c.is_ascii_digit())?;
        let digits: String =
            v[start..].chars().take_while(|c| c.is_ascii_digit() || *c == ',').filter(char::is_ascii_digit).collect();
        digits.parse().ok()
    }

    /// An HTTP status (100 to 599) written as a word of the current value (`"404"`,
    /// `"HTTP 503"`).
    pub fn current_status(&self) -> Option<u16> {
        self.current
            .as_deref()?
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| w.len() == 3)
            .find_map(|w| w.parse().ok().filter(|s| (100..=599).contains(s)))
    }

    /// The current value when it is one token (an http(s) URL, a path, a file name), not prose
    /// and not another scheme (`javascript:`).
    pub fn current_token(&self) -> Option<&str> {
        self.current.as_deref().filter(|v| {
            let lower = v.to_ascii_lowercase();
            !v.contains(char::is_whitespace)
                && !v.contains(['<', '>', '"'])
                && (!v.contains(':') || lower.starts_with("http://") || lower.starts_with("https://"))
        })
    }

    /// The page's URL (or [`EXAMPLE_URL`]).
    pub fn url(&self) -> String {
        self.url.to_string()
    }

    /// `https://host` without a path.
    pub fn origin(&self) -> String {
        self.url.origin().ascii_serialization()
    }

    /// The host of [`FixCtx::url`].
    pub fn host(&self) -> String {
        self.url.host_str().unwrap_or("example.com").to_string()
    }

    /// The site's name: `og:site_name`, else the title's suffix after `|` or ` - `, else the host.
    pub fn site_name(&self) -> String {
        if let Some(n) = self.page.and_then(|p| p.og.get("og:site_name")).filter(|n| !n.trim().is_empty()) {
            return n.trim().to_string();
        }
        for sep in [" | ", " – ", " — ", " - "] {
            if let Some((_, tail)) = self.title.rsplit_once(sep) {
                if !tail.trim().is_empty() && tail.chars().count() <= 40 {
                    return tail.trim().to_string();
                }
            }
        }
        self.host().trim_start_matches("www.").to_string()
    }

    /// The page's own name for its topic: its h1, else its title without the site suffix;
    /// `None` when the page gives neither (a slug or a host is no name).
    pub fn known_topic(&self) -> Option<String> {
        if let Some(h1) = self.page.map(|p| p.h1().trim()).filter(|h| !h.is_empty()) {
            return Some(h1.to_string());
        }
        let t = self.title.split(['|', '–', '—']).next().unwrap_or("").trim();
        let t = t.rsplit_once(" - ").map_or(t, |(head, _)| head).trim();
        (!t.is_empty()).then(|| t.to_string())
    }

    /// [`FixCtx::known_topic`], else a `TODO:` placeholder asking for it (with the address's
    /// words as an example when there are some).
    pub fn topic_or_todo(&self, what: &str) -> String {
        self.known_topic().unwrap_or_else(|| match self.slug_words().filter(|_| self.known_url) {
            Some(words) => format!("TODO: {what}, e.g. {words}"),
            None => format!("TODO: {what}"),
        })
    }

    /// The site's name as the page gives it ([`FixCtx::site_name`]), `None` when only the
    /// placeholder address stands in.
    pub fn known_site_name(&self) -> Option<String> {
        let name = self.site_name();
        (self.known_url || name != self.host().trim_start_matches("www.")).then_some(name)
    }

    /// [`FixCtx::known_site_name`], else a `TODO:` placeholder.
    pub fn site_name_or_todo(&self) -> String {
        self.known_site_name().unwrap_or_else(|| TODO_SITE_NAME.to_string())
    }

    /// The page's URL, else a `TODO:` placeholder.
    pub fn url_or_todo(&self) -> String {
        if self.known_url {
            self.url()
        } else {
            TODO_URL.to_string()
        }
    }

    /// The site's origin, else a `TODO:` placeholder.
    pub fn origin_or_todo(&self) -> String {
        if self.known_url {
            self.origin()
        } else {
            TODO_ORIGIN.to_string()
        }
    }

    /// The page's h1, else its title without the site suffix.
    pub fn topic(&self) -> String {
        if let Some(h1) = self.page.map(|p| p.h1().trim()).filter(|h| !h.is_empty()) {
            return h1.to_string();
        }
        let t = self.title.split(['|', '–', '—']).next().unwrap_or("").trim();
        let t = t.rsplit_once(" - ").map_or(t, |(head, _)| head).trim();
        if t.is_empty() {
            self.slug_words().unwrap_or_else(|| self.site_name())
        } else {
            t.to_string()
        }
    }

    /// The last path segment as words (`/red-oak_chairs` → "Red oak chairs").
    pub fn slug_words(&self) -> Option<String> {
        let seg = self.url.path_segments()?.rev().find(|s| !s.is_empty())?;
        words_from_slug(seg)
    }

    /// A title of at most 60 characters, written from what the page says.
    pub fn suggested_title(&self) -> String {
        let base = if self.title.is_empty() { self.topic() } else { self.title.clone() };
        trim_at_word(&base, TITLE_MAX_CHARS)
    }

    /// A meta description of at most 160 characters from the page's own words.
    pub fn suggested_description(&self) -> Option<String> {
        if let Some(d) = self.page.and_then(suggest_description).filter(|_| self.text.is_none()) {
            return Some(d);
        }
        let source = self.text.as_deref().or(self.description.as_deref())?;
        Some(cut(source, DESCRIPTION_MAX_CHARS))
    }

    /// The description to reuse in social tags: the existing one, else a written one.
    pub fn description_or_written(&self) -> Option<String> {
        self.description.clone().map(|d| cut(&d, DESCRIPTION_MAX_CHARS)).or_else(|| self.suggested_description())
    }

    /// The language of the page, from what is known, else guessed from the URL.
    pub fn lang(&self) -> String {
        if let Some(l) = self.page.and_then(|p| p.lang.as_deref()).map(fix_lang_tag).filter(|l| !l.is_empty()) {
            if crate::text::is_valid_bcp47(&l) {
                return l;
            }
        }
        if let Some(first) = self.url.path_segments().and_then(|mut s| s.next()) {
            let f = fix_lang_tag(first);
            if (f.len() == 2 || f.len() == 5) && crate::text::is_valid_hreflang(&f) {
                return f;
            }
        }
        let host = self.host();
        let tld = host.rsplit('.').next().unwrap_or("");
        match tld {
            "de" | "at" => "de",
            "ch" => "de-CH",
            "fr" => "fr",
            "es" => "es",
            "it" => "it",
            "nl" => "nl",
            "pl" => "pl",
            "se" => "sv",
            "pt" => "pt",
            "br" => "pt-BR",
            "uk" => "en-GB",
            _ => "en",
        }
        .to_string()
    }

    /// The first image of the page, resolved to an absolute URL.
    pub fn first_image(&self) -> Option<String> {
        let page = self.page?;
        page.images
            .iter()
            .filter(|i| !i.src.trim().is_empty() && !i.src.starts_with("data:"))
            .find_map(|i| page.resolve(&i.src))
    }
}

fn clean_current(value: Option<&str>) -> Option<String> {
    value.map(crate::text::collapse).filter(|v| !v.is_empty())
}

/// Cuts text to `max` characters at a word boundary, marking the cut with "...".
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.trim().to_string();
    }
    trim_at_word(text, max - 3) + "..."
}

/// Words from a URL slug or file name: separators to spaces, extension and digits-only parts
/// dropped, first letter capitalised.
pub fn words_from_slug(seg: &str) -> Option<String> {
    let seg = percent_decode(seg);
    let stem = seg.rsplit_once('.').map_or(seg.as_str(), |(s, ext)| if ext.len() <= 4 { s } else { seg.as_str() });
    let words: Vec<&str> = stem
        .split(['-', '_', '+', ' ', '.'])
        .filter(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()) && w.len() < 30)
        .collect();
    if words.is_empty() {
        return None;
    }
    let joined = words.join(" ").to_lowercase();
    let mut chars = joined.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

/// Decodes `%XX` escapes leniently: a slug is only mined for words, so a malformed escape
/// stays as written and bytes that are not UTF-8 become U+FFFD instead of failing.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Repairs common mistakes in a language tag: `en_US` → `en-US`, `EN` → `en`, `english` → `en`.
pub fn fix_lang_tag(tag: &str) -> String {
    let t = tag.trim().replace('_', "-");
    let names = [
        ("english", "en"),
        ("german", "de"),
        ("deutsch", "de"),
        ("french", "fr"),
        ("francais", "fr"),
        ("spanish", "es"),
        ("espanol", "es"),
        ("italian", "it"),
        ("dutch", "nl"),
        ("portuguese", "pt"),
        ("polish", "pl"),
        ("swedish", "sv"),
        ("en-uk", "en-GB"),
    ];
    if let Some((_, code)) = names.iter().find(|(n, _)| n.eq_ignore_ascii_case(&t)) {
        return code.to_string();
    }
    let mut parts = t.split('-');
    let Some(lang) = parts.next() else { return String::new() };
    let mut out = lang.to_ascii_lowercase();
    for p in parts {
        out.push('-');
        match p.len() {
            2 => out.push_str(&p.to_ascii_uppercase()),
            4 => {
                let mut c = p.chars();
                if let Some(f) = c.next() {
                    out.extend(f.to_uppercase());
                    out.push_str(&c.as_str().to_ascii_lowercase());
                }
            }
            _ => out.push_str(p),
        }
    }
    out
}

/// Escapes text for an HTML attribute value in double quotes (and for element text).
pub fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A JSON-LD value as a `<script>` block. `</` is escaped so text in the data cannot close
/// the script element early.
pub fn json_ld_script(value: &serde_json::Value) -> String {
    let json = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into()).replace("</", "<\\/");
    format!("<script type=\"application/ld+json\">\n{json}\n</script>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_escapes_are_decoded_leniently() {
        for (input, expected) in
            [("caf%C3%A9", "café"), ("100%", "100%"), ("%zz%4", "%zz%4"), ("%FF-x", "\u{fffd}-x"), ("a%2Db", "a-b")]
        {
            assert_eq!(percent_decode(input), expected, "{input}");
        }
    }

    #[test]
    fn language_tags_are_repaired() {
        for (input, expected) in
            [("en_us", "en-US"), ("EN", "en"), ("english", "en"), ("zh-hant-tw", "zh-Hant-TW"), ("de-at", "de-AT")]
        {
            assert_eq!(fix_lang_tag(input), expected, "{input}");
        }
    }

    #[test]
    fn slugs_become_words() {
        for (input, expected) in [
            ("red-oak_chair-2.jpg", Some("Red oak chair")),
            ("IMG_1234.JPG", Some("Img")),
            ("1234.png", None),
            ("caf%C3%A9-menu", Some("Café menu")),
        ] {
            assert_eq!(words_from_slug(input).as_deref(), expected, "{input}");
        }
    }

    #[test]
    fn attributes_are_escaped() {
        assert_eq!(attr(r#"Tom & "Jerry" <3 it's"#), "Tom &amp; &quot;Jerry&quot; &lt;3 it&#39;s");
    }
}
