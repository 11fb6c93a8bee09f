//! Custom extraction (docs/API.md, "Custom extraction"): up to [`MAX_EXTRACTORS`] named
//! values pulled out of every HTML page of a crawl, each by a CSS selector (the text of the
//! first element it matches, or an attribute of it, or of every element it matches) or by a
//! regular expression over the page's HTML (its first capture group). Each value is bounded
//! ([`MAX_EXTRACT_VALUE_BYTES`], cut visibly); bad selectors and patterns are refused when
//! the extractors are made ([`Extractors::new`]), naming the extractor.
//!
//! The selectors are the `scraper` crate's (the `selectors` engine over an html5ever tree).
//! The page rules read audit-core's own tree, which offers no selector engine, so a crawl
//! with extractors parses each HTML page a second time, for them alone; a crawl without
//! extractors costs nothing more (docs/PERFORMANCE.md, "Site crawl").

use regex::{Regex, RegexBuilder};
use scraper::{Html, Selector};
use serde::{Deserialize, Serialize};

use crate::frontier::cut_marked;

/// Extractors a crawl takes at most.
pub const MAX_EXTRACTORS: usize = 10;

/// Bytes of one extracted value kept: a longer value is cut at a character boundary and ends
/// with `…`, so that the cut shows.
pub const MAX_EXTRACT_VALUE_BYTES: usize = 1024;

/// Bytes of an extractor's name at most (it names a column: `extract:<name>`).
pub const MAX_EXTRACTOR_NAME_BYTES: usize = 64;

/// Bytes of a selector, attribute name or pattern at most.
pub const MAX_EXTRACTOR_PATTERN_BYTES: usize = 1000;

/// The compiled size of an extractor's regular expression at most (`regex`'s size limit): a
/// pattern such as `\w{1000}` compiles to megabytes and is refused.
pub const EXTRACT_REGEX_SIZE_LIMIT: usize = 256 * 1024;

/// What joins the values of every element a selector matches (`all`).
pub const EXTRACT_ALL_SEPARATOR: &str = " | ";

/// An extractor as asked for: a name, and either `css` (with `attribute` and `all`) or
/// `regex`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractorSpec {
    /// Letters, digits, `_`, `-` and `.`; unique within the crawl.
    pub name: String,
    /// A CSS selector: the text of the first element it matches (white space collapsed), or
    /// its `attribute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub css: Option<String>,
    /// The attribute read instead of the text (with `css` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// Every element the selector matches, their values joined by
    /// [`EXTRACT_ALL_SEPARATOR`], instead of the first (with `css` only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
    /// A regular expression over the page's HTML: its first capture group, or the whole
    /// match when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
}

impl ExtractorSpec {
    /// The command line's spelling (`--extract`): `NAME=css:SELECTOR`, `NAME=css:SELECTOR@ATTRIBUTE`,
    /// `NAME=css-all:SELECTOR[@ATTRIBUTE]` or `NAME=regex:PATTERN`. The attribute follows the
    /// last `@` of a `css` spelling (a selector has none outside quotes).
    ///
    /// # Errors
    /// What is wrong with the spelling, as a sentence's end.
    pub fn parse_flag(flag: &str) -> Result<ExtractorSpec, String> {
        let Some((name, how)) = flag.split_once('=') else {
            return Err(format!("`{flag}` is not NAME=css:SELECTOR or NAME=regex:PATTERN"));
        };
        let name = name.trim().to_string();
        if let Some(pattern) = how.strip_prefix("regex:") {
            return Ok(ExtractorSpec { name, regex: Some(pattern.to_string()), ..ExtractorSpec::default() });
        }
        let (all, css) = match (how.strip_prefix("css:"), how.strip_prefix("css-all:")) {
            (Some(css), _) => (false, css),
            (None, Some(css)) => (true, css),
            (None, None) => return Err(format!("`{flag}`: the value must start with css:, css-all: or regex:")),
        };
        // `@name` at the end names an attribute; an `@` inside the selector (in a quoted
        // attribute value) is followed by no plain name and stays the selector's.
        let is_name = |a: &str| {
            a.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && a.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        };
        let (css, attribute) = match css.rsplit_once('@') {
            Some((css, attribute)) if !css.is_empty() && is_name(attribute.trim()) => {
                (css, Some(attribute.trim().to_string()))
            }
            _ => (css, None),
        };
        Ok(ExtractorSpec { name, css: Some(css.trim().to_string()), attribute, all, regex: None })
    }
}

/// Why extractors were refused: the extractor at fault (its name, or its place when the name
/// is what is wrong) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("extractor `{name}`: {problem}")]
pub struct ExtractorError {
    /// The extractor's name as given (or `#N`, its place from 0, when it has none).
    pub name: String,
    /// What is wrong with it.
    pub problem: String,
}

enum How {
    Css { selector: Box<Selector>, attribute: Option<String>, all: bool },
    Regex(Regex),
}

struct Extractor {
    name: String,
    how: How,
}

/// A crawl's extractors, checked and compiled ([`Extractors::new`]).
pub struct Extractors(Vec<Extractor>);

impl std::fmt::Debug for Extractors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter().map(|e| &e.name)).finish()
    }
}

impl Extractors {
    /// Checks and compiles `specs`: at most [`MAX_EXTRACTORS`]; each with a unique name of
    /// at most [`MAX_EXTRACTOR_NAME_BYTES`] letters, digits, `_`, `-` or `.`; either a CSS
    /// selector that parses or a regular expression that compiles within
    /// [`EXTRACT_REGEX_SIZE_LIMIT`], each at most [`MAX_EXTRACTOR_PATTERN_BYTES`].
    ///
    /// # Errors
    /// The first extractor at fault.
    pub fn new(specs: &[ExtractorSpec]) -> Result<Extractors, ExtractorError> {
        if specs.len() > MAX_EXTRACTORS {
            return Err(ExtractorError {
                name: specs[MAX_EXTRACTORS].name.clone(),
                problem: format!("a crawl takes at most {MAX_EXTRACTORS} extractors"),
            });
        }
        let mut compiled: Vec<Extractor> = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let refuse = |problem: String| {
                let name = if spec.name.is_empty() { format!("#{i}") } else { spec.name.clone() };
                ExtractorError { name, problem }
            };
            let name_ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
            if spec.name.is_empty() || spec.name.len() > MAX_EXTRACTOR_NAME_BYTES || !spec.name.chars().all(name_ok) {
                return Err(refuse(format!(
                    "a name is 1 to {MAX_EXTRACTOR_NAME_BYTES} letters, digits, `_`, `-` or `.`"
                )));
            }
            if compiled.iter().any(|c| c.name == spec.name) {
                return Err(refuse("the name is taken by another extractor".to_string()));
            }
            let long = |s: &str| s.len() > MAX_EXTRACTOR_PATTERN_BYTES;
            let how = match (&spec.css, &spec.regex) {
                (Some(css), None) => {
                    if long(css) || css.trim().is_empty() {
                        return Err(refuse(format!("a selector is 1 to {MAX_EXTRACTOR_PATTERN_BYTES} bytes")));
                    }
                    let selector = Selector::parse(css)
                        .map_err(|e| refuse(format!("the CSS selector `{css}` does not parse ({e})")))?;
                    let attribute = match &spec.attribute {
                        Some(a) if a.is_empty() || long(a) || a.chars().any(|c| c.is_whitespace()) => {
                            return Err(refuse(format!("the attribute name `{a}` is not one")));
                        }
                        a => a.clone(),
                    };
                    How::Css { selector: Box::new(selector), attribute, all: spec.all }
                }
                (None, Some(pattern)) => {
                    if spec.attribute.is_some() || spec.all {
                        return Err(refuse("`attribute` and `all` go with `css`, not `regex`".to_string()));
                    }
                    if long(pattern) || pattern.is_empty() {
                        return Err(refuse(format!("a pattern is 1 to {MAX_EXTRACTOR_PATTERN_BYTES} bytes")));
                    }
                    let regex = RegexBuilder::new(pattern)
                        .size_limit(EXTRACT_REGEX_SIZE_LIMIT)
                        .build()
                        .map_err(|e| refuse(format!("the regular expression does not compile within bounds ({e})")))?;
                    How::Regex(regex)
                }
                _ => return Err(refuse("an extractor has either `css` or `regex`".to_string())),
            };
            compiled.push(Extractor { name: spec.name.clone(), how });
        }
        Ok(Extractors(compiled))
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names, in order.
    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|e| e.name.clone()).collect()
    }

    /// Each extractor's value on the page whose HTML is `html`, in order: `None` where it
    /// matched nothing; each within [`MAX_EXTRACT_VALUE_BYTES`]. The HTML is parsed only
    /// when a CSS extractor needs it.
    pub fn extract(&self, html: &str) -> Vec<(String, Option<String>)> {
        let mut document: Option<Html> = None;
        self.0
            .iter()
            .map(|e| {
                let value = match &e.how {
                    How::Regex(regex) => regex
                        .captures(html)
                        .and_then(|c| c.get(1).or_else(|| c.get(0)))
                        .map(|m| bounded(m.as_str().trim())),
                    How::Css { selector, attribute, all } => {
                        let document = document.get_or_insert_with(|| Html::parse_document(html));
                        let mut values = document.select(selector).filter_map(|el| match attribute {
                            Some(a) => el.value().attr(a).map(|v| v.trim().to_string()),
                            None => Some(el.text().flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")),
                        });
                        if *all {
                            joined(values)
                        } else {
                            values.next().map(|v| bounded(&v))
                        }
                    }
                };
                (e.name.clone(), value)
            })
            .collect()
    }
}

fn bounded(value: &str) -> String {
    cut_marked(value, MAX_EXTRACT_VALUE_BYTES)
}

/// The values joined by [`EXTRACT_ALL_SEPARATOR`] within [`MAX_EXTRACT_VALUE_BYTES`]: once
/// over it, the rest is not read and the cut shows. `None` for no value.
fn joined(values: impl Iterator<Item = String>) -> Option<String> {
    let mut out: Option<String> = None;
    for value in values {
        let text = out.get_or_insert_with(String::new);
        if text.len() > MAX_EXTRACT_VALUE_BYTES {
            break;
        }
        if !text.is_empty() {
            text.push_str(EXTRACT_ALL_SEPARATOR);
        }
        text.push_str(&value);
    }
    out.map(|s| bounded(&s))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<html><head><title>Kettle</title><meta itemprop="price" content=" 42.50 "></head>
        <body><h1>  The copper
        kettle </h1><p class="sku">SKU-12345</p><a href="/a">A</a><a href="/b">B</a></body></html>"#;

    fn spec(flag: &str) -> ExtractorSpec {
        ExtractorSpec::parse_flag(flag).unwrap()
    }

    #[test]
    fn css_text_attribute_all_and_regex() {
        let specs = [
            spec("title=css:h1"),
            spec("price=css:meta[itemprop=price]@content"),
            spec("links=css-all:a@href"),
            spec("sku=regex:SKU-(\\d+)"),
            spec("whole=regex:Kett\\w+"),
            spec("none=css:h2"),
        ];
        let extractors = Extractors::new(&specs).unwrap();
        let got = extractors.extract(PAGE);
        let got: Vec<(&str, Option<&str>)> = got.iter().map(|(n, v)| (n.as_str(), v.as_deref())).collect();
        assert_eq!(
            got,
            [
                ("title", Some("The copper kettle")),
                ("price", Some("42.50")),
                ("links", Some("/a | /b")),
                ("sku", Some("12345")),
                ("whole", Some("Kettle")),
                ("none", None),
            ]
        );
        assert_eq!(extractors.names(), ["title", "price", "links", "sku", "whole", "none"]);
    }

    #[test]
    fn values_are_bounded_and_the_cut_shows() {
        let long = format!("<h1>{}</h1>{}", "é".repeat(2000), "<b>x</b>".repeat(2000));
        let e = Extractors::new(&[spec("h=css:h1"), spec("b=css-all:b"), spec("r=regex:<h1>(.*)</h1>")]).unwrap();
        for (name, value) in e.extract(&long) {
            let value = value.unwrap();
            assert!(value.len() <= MAX_EXTRACT_VALUE_BYTES && value.ends_with('…'), "{name}: {}", value.len());
        }
    }

    #[test]
    fn bad_extractors_are_refused_naming_them() {
        for (specs, name) in [
            (vec![spec("a=css:h1["), spec("b=css:h1")], "a"),
            (vec![spec("a=css:h1"), spec("b=regex:(")], "b"),
            (vec![spec("w=regex:\\w{1000}")], "w"),
            (vec![spec("a=css:h1"), spec("a=css:h2")], "a"),
            (vec![spec("bad name=css:h1")], "bad name"),
            (vec![ExtractorSpec { name: "x".into(), ..ExtractorSpec::default() }], "x"),
            (vec![ExtractorSpec { name: String::new(), css: Some("h1".into()), ..ExtractorSpec::default() }], "#0"),
            ((0..11).map(|i| spec(&format!("e{i}=css:h1"))).collect(), "e10"),
        ] {
            assert_eq!(Extractors::new(&specs).unwrap_err().name, name, "{specs:?}");
        }
        for bad in ["nothing", "a=xpath://h1", "a=h1"] {
            assert!(ExtractorSpec::parse_flag(bad).is_err(), "{bad}");
        }
        let quoted = spec("p=css:a[href='x@y']");
        assert_eq!((quoted.css.as_deref(), quoted.attribute), (Some("a[href='x@y']"), None), "an @ in a value");
        assert_eq!(spec("p=css:a[href='x@y']@href").attribute.as_deref(), Some("href"));
    }
}
