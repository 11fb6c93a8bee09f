//! Where a finding's elements are in the HTML as served: line, column, a CSS selector and a
//! snippet of the start tag (docs/API.md, "The audit result").
//!
//! The work is split so that pages nobody asks about cost little: the parser keeps the span
//! of each start tag findings may point at (an offset pair), the page walk keeps a [`Spot`]
//! per fact and a table of the elements on the way to them; lines, columns, selectors and
//! snippets are only computed for the (at most [`MAX_LOCATIONS`]) elements a finding lists.

use std::fmt::Write as _;
use std::sync::Arc;

use html5ever::LocalName;
use serde::{Deserialize, Serialize};

/// Elements a finding lists at most; [`Finding::locations_total`](crate::Finding) counts
/// them all.
pub const MAX_LOCATIONS: usize = 50;
/// Characters of a snippet at most.
pub const SNIPPET_MAX_CHARS: usize = 200;
/// Characters of one attribute value kept in a snippet; a longer value is cut and ends
/// with `…`.
pub const SNIPPET_VALUE_MAX_CHARS: usize = 60;

/// One element a finding is about, in the HTML as served.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Location {
    /// The line of the element's start tag, 1 for the first (a line ends at LF, CR LF or a
    /// lone CR, as the HTML parser counts them).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub line: u32,
    /// The column of the start tag's `<` on that line, 1 for the first character (counted
    /// in Unicode characters).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub column: u32,
    /// A CSS selector that matches exactly this element in the document: `#id` when its id
    /// is unique, else a child path from the nearest ancestor with a unique id (or from
    /// `html`) with `:nth-of-type` where siblings share the element's name.
    pub selector: String,
    /// The start tag as written, white space runs collapsed, attribute values longer than 60
    /// characters cut with `…`, at most 200 characters. Never the element's content.
    pub snippet: String,
}

/// Where an element of the page is: what a finding needs to list it as a [`Location`] (see
/// [`Page::locate`](crate::Page::locate)). The default spot points at nothing. Spots order as
/// their elements' start tags do in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot {
    /// Offset of the start tag's `<` in the decoded text.
    start: u32,
    /// Offset just past its `>`.
    end: u32,
    /// The line of its `>`, as the parser's tokenizer counted lines.
    end_line: u32,
    /// The element in the [`Locator`]'s table.
    node: u32,
}

impl Default for Spot {
    fn default() -> Spot {
        Spot::NONE
    }
}

impl Spot {
    /// A spot that points at nothing: an element the markup does not write (an implied
    /// `<head>`), or a fact without an element.
    pub const NONE: Spot = Spot { start: u32::MAX, end: u32::MAX, end_line: 0, node: u32::MAX };

    pub(crate) fn new(start: u32, end: u32, end_line: u32, node: u32) -> Spot {
        Spot { start, end, end_line, node }
    }

    /// Whether the spot points at an element.
    pub fn is_some(self) -> bool {
        self.node != u32::MAX && self.start != u32::MAX
    }
}

/// One element of the locator's table: the located elements and their ancestors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathNode {
    /// The parent's index, `u32::MAX` for the root.
    pub parent: u32,
    /// The element's local name.
    pub name: LocalName,
    /// Its position among the siblings of the same name (1-based), 0 when it has none.
    pub nth: u32,
    /// Its id, kept only when no other element of the document has it.
    pub id: Option<Box<str>>,
}

/// What the page keeps to turn [`Spot`]s into [`Location`]s: the decoded text and the table
/// of elements. Shared, so that cloning a page does not copy the text.
#[derive(Clone, Default)]
pub struct Locator(Arc<Inner>);

#[derive(Default)]
struct Inner {
    text: String,
    nodes: Vec<PathNode>,
    /// The line located last: what lets the next element on the same line skip the search
    /// for its start and count its column on from there.
    last: std::sync::Mutex<LastLine>,
}

/// The line of the element located last (see [`Inner::last`]).
#[derive(Debug, Default, Clone, Copy)]
struct LastLine {
    /// Its number, 0 before anything was located.
    line: u32,
    /// The offset where it starts.
    start: usize,
    /// The offset whose column was counted last on it, and the characters before it there.
    counted_to: usize,
    chars: usize,
}

impl std::fmt::Debug for Locator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Locator").field("text_bytes", &self.0.text.len()).field("nodes", &self.0.nodes.len()).finish()
    }
}

impl PartialEq for Locator {
    fn eq(&self, other: &Locator) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || (self.0.text == other.0.text && self.0.nodes == other.0.nodes)
    }
}

impl Locator {
    pub(crate) fn new(text: String, nodes: Vec<PathNode>) -> Locator {
        Locator(Arc::new(Inner { text, nodes, last: Default::default() }))
    }

    /// The location of the element at `spot`; `None` for [`Spot::NONE`].
    pub fn locate(&self, spot: Spot) -> Option<Location> {
        if !spot.is_some() {
            return None;
        }
        let text = &self.0.text;
        let (start, end) = (spot.start as usize, (spot.end as usize).min(text.len()));
        if start >= end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        let line = spot.end_line.saturating_sub(line_breaks(&text.as_bytes()[start..end])).max(1);
        let column = self.column_of(line, start);
        Some(Location {
            line,
            column: u32::try_from(column).unwrap_or(u32::MAX),
            selector: self.selector(spot.node),
            snippet: snippet(&text[start..end]),
        })
    }

    /// The 1-based column (in characters) of `offset`, which is on line `line`.
    ///
    /// The parser counted the lines; the line's start is the last line break before
    /// `offset`. Minified pages put most of their markup on one line, and a rule asks for its
    /// elements in document order: on the line located last, the search for the start is
    /// skipped and the count goes on from the last offset counted, which keeps locating
    /// linear in the line instead of in the line times the elements.
    fn column_of(&self, line: u32, offset: usize) -> usize {
        let bytes = self.0.text.as_bytes();
        let mut last = self.0.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.line != line || last.start > offset {
            let start = memchr::memrchr2(b'\n', b'\r', &bytes[..offset]).map_or(0, |at| at + 1);
            *last = LastLine { line, start, counted_to: start, chars: 0 };
        }
        let (from, counted) = if last.counted_to <= offset { (last.counted_to, last.chars) } else { (last.start, 0) };
        let count = counted + self.0.text[from..offset].chars().count();
        last.counted_to = offset;
        last.chars = count;
        count + 1
    }

    /// A selector for the element at `node` (see [`Location::selector`]).
    fn selector(&self, node: u32) -> String {
        let nodes = &self.0.nodes;
        // The path is found from the element up and written from the top down, into one
        // string (a string per step was most of what a selector cost).
        let mut path: Vec<&PathNode> = Vec::new();
        let mut at = node;
        while let Some(n) = nodes.get(at as usize) {
            path.push(n);
            if n.id.is_some() {
                break;
            }
            at = n.parent;
        }
        let mut out = String::with_capacity(16 * path.len());
        for (k, n) in path.iter().rev().enumerate() {
            if k > 0 {
                out.push_str(" > ");
            }
            if let Some(id) = &n.id {
                out.push('#');
                push_css_identifier(&mut out, id);
                continue;
            }
            push_css_identifier(&mut out, &n.name);
            if n.nth > 0 {
                out.push_str(":nth-of-type(");
                push_number(&mut out, n.nth);
                out.push(')');
            }
        }
        out
    }
}

/// Appends `n` in decimal (what `write!` does, without the formatting machinery, which was
/// a tenth of what a selector cost).
fn push_number(out: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// The line breaks in `bytes`: each LF, CR LF or lone CR (as the parser counts them).
fn line_breaks(bytes: &[u8]) -> u32 {
    // Start tags rarely span lines: most have no break to count.
    if memchr::memchr2(b'\n', b'\r', bytes).is_none() {
        return 0;
    }
    let mut breaks = 0u32;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && (i == 0 || bytes[i - 1] != b'\r') || b == b'\r' {
            breaks = breaks.saturating_add(1);
        }
    }
    breaks
}

/// A CSS identifier for `s`, escaped as CSSOM's "serialize an identifier" does.
#[cfg(test)]
fn css_identifier(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_css_identifier(&mut out, s);
    out
}

/// Appends `s` to `out` as a CSS identifier, escaped as CSSOM's "serialize an identifier"
/// does.
fn push_css_identifier(out: &mut String, s: &str) {
    // Most names and ids need no escape: letters, digits, `-` and `_`, not starting with a
    // digit or a dash and a digit, and not a lone dash.
    let bytes = s.as_bytes();
    let plain = bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && bytes.first().is_some_and(|b| !b.is_ascii_digit())
        && !(bytes[0] == b'-' && bytes.get(1).is_none_or(u8::is_ascii_digit));
    if plain {
        out.push_str(s);
        return;
    }
    let first_is_dash = s.starts_with('-');
    for (i, c) in s.chars().enumerate() {
        match c {
            '\0' => out.push('\u{FFFD}'),
            '\u{1}'..='\u{1f}' | '\u{7f}' => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            '0'..='9' if i == 0 || (i == 1 && first_is_dash) => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            '-' if i == 0 && s.len() == 1 => out.push_str("\\-"),
            c if c >= '\u{80}' || c == '-' || c == '_' || c.is_ascii_alphanumeric() => out.push(c),
            c => {
                out.push('\\');
                out.push(c);
            }
        }
    }
}

/// The snippet of a start tag (see [`Location::snippet`]).
fn snippet(tag: &str) -> String {
    if tag.is_ascii() {
        return ascii_snippet(tag.as_bytes());
    }
    char_snippet(tag)
}

/// [`snippet`] character by character, for a start tag with characters outside ASCII.
fn char_snippet(tag: &str) -> String {
    let mut out = String::with_capacity(tag.len().min(SNIPPET_MAX_CHARS * 2));
    let mut chars = tag.chars().peekable();
    // Outside a quoted value, white space runs are one space; inside one, the value is cut.
    let mut quote: Option<char> = None;
    let mut value_chars = 0usize;
    let mut cut = false;
    let mut after_equals = false;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => {
                if cut {
                    out.push('…');
                }
                out.push(c);
                quote = None;
            }
            Some(_) => {
                value_chars += 1;
                if value_chars <= SNIPPET_VALUE_MAX_CHARS {
                    out.push(if c.is_whitespace() { ' ' } else { c });
                } else {
                    cut = true;
                }
            }
            None if after_equals && (c == '"' || c == '\'') => {
                quote = Some(c);
                value_chars = 0;
                cut = false;
                after_equals = false;
                out.push(c);
            }
            None if c.is_whitespace() => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                if !after_equals && chars.peek() != Some(&'=') && !out.ends_with('=') {
                    out.push(' ');
                }
            }
            None => {
                after_equals = c == '=';
                out.push(c);
            }
        }
    }
    if out.chars().count() > SNIPPET_MAX_CHARS {
        let mut cut: String = out.chars().take(SNIPPET_MAX_CHARS - 2).collect();
        cut.push_str("…>");
        return cut;
    }
    out
}

/// [`snippet`] of a start tag written in ASCII (almost every one), byte by byte: the same
/// steps without decoding characters, which made most of what a snippet cost.
fn ascii_snippet(tag: &[u8]) -> String {
    // The white space of `char::is_whitespace` in ASCII (`u8::is_ascii_whitespace` leaves
    // out the vertical tab).
    let white = |b: u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
    let mut out: Vec<u8> = Vec::with_capacity(tag.len().min(SNIPPET_MAX_CHARS * 2));
    let mut after_equals = false;
    let mut i = 0;
    while i < tag.len() {
        let c = tag[i];
        i += 1;
        if after_equals && (c == b'"' || c == b'\'') {
            after_equals = false;
            out.push(c);
            // The value runs to its closing quote (unclosed, to the end of the tag). Its first
            // characters are kept and the rest is skipped at once, not walked byte by byte:
            // a `srcset`, a `style` or a `data:` URL may be kilobytes long.
            let rest = &tag[i..];
            let close = memchr::memchr(c, rest);
            let value = &rest[..close.unwrap_or(rest.len())];
            let kept = &value[..value.len().min(SNIPPET_VALUE_MAX_CHARS)];
            out.extend(kept.iter().map(|&b| if white(b) { b' ' } else { b }));
            match close {
                Some(close) => {
                    if value.len() > SNIPPET_VALUE_MAX_CHARS {
                        out.extend_from_slice("…".as_bytes());
                    }
                    out.push(c);
                    i += close + 1;
                }
                None => i = tag.len(),
            }
        } else if white(c) {
            while tag.get(i).is_some_and(|&b| white(b)) {
                i += 1;
            }
            if !after_equals && tag.get(i) != Some(&b'=') && out.last() != Some(&b'=') {
                out.push(b' ');
            }
        } else {
            after_equals = c == b'=';
            out.push(c);
        }
    }
    // Only the cut mark `…` is not ASCII.
    let out = String::from_utf8(out).unwrap_or_default();
    if out.len() > SNIPPET_MAX_CHARS && out.chars().count() > SNIPPET_MAX_CHARS {
        let mut cut: String = out.chars().take(SNIPPET_MAX_CHARS - 2).collect();
        cut.push_str("…>");
        return cut;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns count characters from the line's start, whatever order they are asked in
    /// (counting on from the last one is only a shortcut).
    #[test]
    fn columns_count_characters_in_any_order() {
        let locator = Locator::new("ab\néé<a><b>\r\nx<c>".to_string(), Vec::new());
        let col = |offset: usize| {
            let line = line_breaks(&locator.0.text.as_bytes()[..offset]) + 1;
            locator.column_of(line, offset)
        };
        let a = "ab\néé".len();
        assert_eq!(col(a), 3);
        assert_eq!(col(a + 3), 6);
        assert_eq!(col(a), 3);
        assert_eq!(col(3), 1);
        assert_eq!(col(a + 3), 6);
        let c = "ab\néé<a><b>\r\nx".len();
        assert_eq!(col(c), 2);
        assert_eq!(col(1), 2);
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        assert_eq!(line_breaks(b"a\nb\r\nc\rd"), 3);
        assert_eq!(line_breaks(b""), 0);
        assert_eq!(line_breaks(b"<a>"), 0);
        assert_eq!(line_breaks(b"\r\n\r\n\n\r"), 4);
    }

    #[test]
    fn snippets_collapse_space_and_cut_long_values() {
        assert_eq!(snippet("<img\n   src=\"a.png\"\n   alt=x>"), "<img src=\"a.png\" alt=x>");
        let long = "x".repeat(100);
        let s = snippet(&format!("<img src='{long}' alt=\"\">"));
        assert_eq!(s, format!("<img src='{}…' alt=\"\">", "x".repeat(SNIPPET_VALUE_MAX_CHARS)));
        let many: String = (0..40).map(|i| format!(" data-a{i}=\"v\"")).collect();
        let s = snippet(&format!("<div{many}>"));
        assert_eq!(s.chars().count(), SNIPPET_MAX_CHARS);
        assert!(s.ends_with("…>"));
        assert_eq!(snippet("<a href = \"x\" >"), "<a href=\"x\" >");
    }

    /// The byte-wise snippet of an ASCII tag is the character-wise one, whatever its quotes.
    #[test]
    fn ascii_snippets_are_the_character_snippets() {
        let long = "x y".repeat(40);
        let tags = [
            "<img src=\"a.png\" alt=x>".to_string(),
            format!("<img src='{long}' alt=\"\">"),
            format!("<img srcset=\"{long}\"   data-x = '{long}' >"),
            format!("<a title=\"{long}>"),
            format!("<a title='{}'>", "z".repeat(60)),
            format!("<a title='{}'>", "z".repeat(61)),
            "<a b=\"'\" c='\"' d=\"\">".to_string(),
            "<a x\t=\n\"v\r\nw\" \x0b y>".to_string(),
            format!("<div{}>", (0..40).map(|i| format!(" data-a{i}=\"v\"")).collect::<String>()),
        ];
        for tag in &tags {
            assert_eq!(ascii_snippet(tag.as_bytes()), char_snippet(tag), "{tag}");
        }
    }

    #[test]
    fn identifiers_are_escaped() {
        assert_eq!(css_identifier("main"), "main");
        assert_eq!(css_identifier("1a"), "\\31 a");
        assert_eq!(css_identifier("-2"), "-\\32 ");
        assert_eq!(css_identifier("a b.c"), "a\\ b\\.c");
        assert_eq!(css_identifier("-"), "\\-");
        assert_eq!(css_identifier("é_x-y"), "é_x-y");
    }
}
