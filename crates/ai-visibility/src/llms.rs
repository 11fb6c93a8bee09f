//! llms.txt parsing and validation against the llmstxt.org format:
//!
//! ```text
//! # Title                      <- H1, the only required part
//! > Summary                    <- optional blockquote
//! Free Markdown, no headings   <- optional details
//! ## Section                   <- zero or more H2 sections,
//! - [name](url): notes         <-   each a list of links
//! ## Optional                  <- a section that may be skipped for a shorter context
//! ```

use serde::Serialize;

/// How much an issue matters. Only errors make a file invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "LlmsTxtSeverity"))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; the file is fine.
    Info,
    /// Departs from the format, but readers can still use the file.
    Warning,
    /// The file is not an llms.txt a reader can use.
    Error,
}

impl Severity {
    /// The name on the wire (`info`, `warning`, `error`).
    pub fn key(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A problem found in an llms.txt. Codes are stable identifiers (snake_case on the
/// wire); never reuse one for another meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum IssueCode {
    /// The file is empty or only whitespace. Error.
    EmptyFile,
    /// The server sent an HTML page (`<!doctype` / `<html`), not Markdown. Error.
    HtmlNotMarkdown,
    /// There is no H1 title. Error.
    MissingH1,
    /// More than one H1. Error.
    MultipleH1,
    /// Content comes before the H1. Warning.
    H1NotFirst,
    /// No blockquote summary after the title. Info.
    MissingSummary,
    /// A heading skips a level or an H3+ comes before any H2. Warning.
    HeadingOutOfOrder,
    /// An H3-H6 inside a section; the format has H1 and H2 only. Warning.
    Subheading,
    /// A list item in a section that does not start with a `[name](url)` link. Warning.
    ListItemWithoutLink,
    /// An H2 section with no link in it. Error.
    SectionWithoutLinks,
    /// A link with unbalanced brackets or parentheses, or an empty URL. Error.
    BrokenLink,
    /// A link URL that is not absolute (`/docs`, `page.md`, `#anchor`). Warning.
    RelativeLink,
    /// Links listed before the first H2 section. Warning.
    LinksOutsideSections,
    /// No H2 section at all, but links in the details. Warning.
    NoSections,
    /// No link anywhere: the file points readers at nothing. Error.
    NoLinks,
    /// Links only in prose or code, none as a `[name](url)` list item. Warning: readers
    /// (and Lighthouse) find the links, but not the list the format describes.
    NoLinkList,
}

impl IssueCode {
    /// The severity this code always has.
    pub fn severity(self) -> Severity {
        use IssueCode::*;
        match self {
            EmptyFile | HtmlNotMarkdown | MissingH1 | MultipleH1 | SectionWithoutLinks | BrokenLink | NoLinks => {
                Severity::Error
            }
            H1NotFirst | HeadingOutOfOrder | Subheading | ListItemWithoutLink | RelativeLink | LinksOutsideSections
            | NoSections | NoLinkList => Severity::Warning,
            MissingSummary => Severity::Info,
        }
    }
}

/// One problem, with the 1-based line it is on (`None` for the whole file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "LlmsTxtIssue", deny_unknown_fields))]
pub struct Issue {
    /// What the problem is.
    pub code: IssueCode,
    /// How much it matters (always `code.severity()`).
    pub severity: Severity,
    /// One human sentence.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub message: String,
    /// 1-based line number.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub line: Option<usize>,
}

/// A `[name](url): notes` list item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The link text.
    pub name: String,
    /// The URL as written.
    pub url: String,
    /// The text after the link (after `:`), if any.
    pub notes: Option<String>,
}

/// An H2 section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The H2 text.
    pub name: String,
    /// Whether this is the `Optional` section, which readers may skip.
    pub optional: bool,
    /// Its links, in order (nested list items included).
    pub links: Vec<Link>,
}

/// A parsed llms.txt. Parsing never fails; problems are in [`LlmsTxt::issues`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LlmsTxt {
    /// The H1 text.
    pub title: Option<String>,
    /// The blockquote right after the title, lines joined with spaces.
    pub summary: Option<String>,
    /// The free Markdown between the title (or summary) and the first H2, trimmed.
    pub details: String,
    /// Links listed in the details, before any H2 (not the format's intent).
    pub unsectioned_links: Vec<Link>,
    /// The H2 sections in order.
    pub sections: Vec<Section>,
    /// Problems found, in line order (file-wide ones last).
    pub issues: Vec<Issue>,
}

/// The `llms_txt` object of the `/api/ai-readiness` response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(deny_unknown_fields))]
pub struct LlmsTxtReport {
    /// Whether the site serves an llms.txt.
    pub present: bool,
    /// Present and without error-level issues.
    pub valid: bool,
    /// Where it was looked for.
    pub url: String,
    /// The H1 text.
    pub title: Option<String>,
    /// Number of H2 sections.
    pub sections: usize,
    /// Number of links, in sections or not.
    pub links: usize,
    /// Problems found.
    pub issues: Vec<Issue>,
}

impl LlmsTxtReport {
    /// The report for a site without an llms.txt at `url`.
    pub fn absent(url: &str) -> LlmsTxtReport {
        LlmsTxtReport {
            present: false,
            valid: false,
            url: url.to_owned(),
            title: None,
            sections: 0,
            links: 0,
            issues: Vec::new(),
        }
    }
}

impl LlmsTxt {
    /// Parses and validates an llms.txt body.
    pub fn parse(text: &str) -> LlmsTxt {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let mut doc = LlmsTxt::default();
        if text.trim().is_empty() {
            doc.push(IssueCode::EmptyFile, "the file is empty", None);
            return doc;
        }
        if looks_like_html(text) {
            doc.push(IssueCode::HtmlNotMarkdown, "the server sent an HTML page instead of a Markdown file", Some(1));
            return doc;
        }
        Parser::default().run(text, &mut doc);
        doc
    }

    /// Whether the file has no error-level issue.
    pub fn valid(&self) -> bool {
        self.issues.iter().all(|i| i.severity < Severity::Error)
    }

    /// Every link, unsectioned ones first.
    pub fn links(&self) -> impl Iterator<Item = &Link> {
        self.unsectioned_links.iter().chain(self.sections.iter().flat_map(|s| &s.links))
    }

    /// Whether an issue with `code` was found.
    pub fn has_issue(&self, code: IssueCode) -> bool {
        self.issues.iter().any(|i| i.code == code)
    }

    /// The `llms_txt` object of the AI-readiness response for this file found at `url`.
    pub fn report(&self, url: &str) -> LlmsTxtReport {
        LlmsTxtReport {
            present: true,
            valid: self.valid(),
            url: url.to_owned(),
            title: self.title.clone(),
            sections: self.sections.len(),
            links: self.links().count(),
            issues: self.issues.clone(),
        }
    }

    fn push(&mut self, code: IssueCode, message: impl Into<String>, line: Option<usize>) {
        self.issues.push(Issue { code, severity: code.severity(), message: message.into(), line });
    }
}

fn looks_like_html(text: &str) -> bool {
    let head: String = text.trim_start().chars().take(1024).collect::<String>().to_ascii_lowercase();
    head.starts_with("<!doctype")
        || head.starts_with("<html")
        || (head.contains("<html") && (head.contains("<head") || head.contains("<body")))
}

#[derive(Default, PartialEq, Eq)]
enum Area {
    #[default]
    BeforeTitle,
    /// After the H1, before the first H2.
    Header,
    Section,
}

#[derive(Default)]
struct Parser {
    area: Area,
    fence: Option<(char, usize)>,
    in_comment: bool,
    content_before_title: Option<usize>,
    /// Whether the header has had content other than the summary yet.
    header_started: bool,
    summary_open: bool,
    last_heading_level: usize,
    details: Vec<String>,
    /// First line of each section, for the section-without-links error.
    section_lines: Vec<usize>,
    first_unsectioned_link: Option<usize>,
    /// The first line with a `[text](target)` anywhere (prose and code included), as
    /// Lighthouse's `llms-txt` audit looks for links.
    first_any_link: Option<usize>,
}

impl Parser {
    fn run(mut self, text: &str, doc: &mut LlmsTxt) {
        for (index, raw) in text.lines().enumerate() {
            self.line(index + 1, raw, doc);
        }
        self.finish(doc);
    }

    fn line(&mut self, n: usize, raw: &str, doc: &mut LlmsTxt) {
        let trimmed = raw.trim();
        if self.first_any_link.is_none() && has_inline_link(raw) {
            self.first_any_link = Some(n);
        }

        // Fenced code is content, never headings or links.
        if let Some((marker, len)) = self.fence {
            if fence_marker(trimmed)
                .is_some_and(|(m, l)| m == marker && l >= len && trimmed.trim_start_matches(marker).trim().is_empty())
            {
                self.fence = None;
            }
            self.content(n, raw, doc);
            return;
        }
        if let Some(marker) = fence_marker(trimmed) {
            self.fence = Some(marker);
            self.content(n, raw, doc);
            return;
        }
        // HTML comments (generator notes) are ignored.
        if self.in_comment {
            self.in_comment = !trimmed.contains("-->");
            return;
        }
        if trimmed.starts_with("<!--") {
            self.in_comment = !trimmed.contains("-->");
            return;
        }
        if trimmed.is_empty() {
            self.summary_open = false;
            if self.area == Area::Header && self.header_started {
                self.details.push(String::new());
            }
            return;
        }
        if let Some((level, heading)) = heading(raw) {
            self.heading(n, level, heading, doc);
            return;
        }
        self.content(n, raw, doc);
    }

    fn heading(&mut self, n: usize, level: usize, text: &str, doc: &mut LlmsTxt) {
        self.summary_open = false;
        match level {
            1 if doc.title.is_none() => {
                if let Some(first) = self.content_before_title {
                    doc.push(
                        IssueCode::H1NotFirst,
                        format!("the title is not the first thing in the file (content on line {first})"),
                        Some(n),
                    );
                }
                doc.title = Some(text.to_owned());
                self.area = Area::Header;
            }
            1 => doc.push(
                IssueCode::MultipleH1,
                format!("a second H1 \"{text}\"; the file must have one title"),
                Some(n),
            ),
            2 => {
                self.area = Area::Section;
                doc.sections.push(Section {
                    name: text.to_owned(),
                    optional: text.eq_ignore_ascii_case("optional"),
                    links: Vec::new(),
                });
                self.section_lines.push(n);
            }
            _ if self.area != Area::Section => {
                if self.area == Area::BeforeTitle {
                    self.content_before_title.get_or_insert(n);
                }
                doc.push(IssueCode::HeadingOutOfOrder, format!("an H{level} comes before any H2 section"), Some(n));
            }
            _ if level > self.last_heading_level + 1 => {
                doc.push(
                    IssueCode::HeadingOutOfOrder,
                    format!("an H{level} follows an H{} and skips a level", self.last_heading_level),
                    Some(n),
                );
            }
            _ => doc.push(
                IssueCode::Subheading,
                format!("an H{level} inside a section; llms.txt sections hold link lists under H2 only"),
                Some(n),
            ),
        }
        self.last_heading_level = level;
    }

    fn content(&mut self, n: usize, raw: &str, doc: &mut LlmsTxt) {
        let trimmed = raw.trim();
        let in_code = self.fence.is_some() || fence_marker(trimmed).is_some();
        match self.area {
            Area::BeforeTitle => {
                self.content_before_title.get_or_insert(n);
            }
            Area::Header => {
                if let Some(quote) = trimmed.strip_prefix('>').filter(|_| !in_code) {
                    if !self.header_started || self.summary_open {
                        let quote = quote.trim();
                        match &mut doc.summary {
                            Some(summary) if !quote.is_empty() => {
                                summary.push(' ');
                                summary.push_str(quote);
                            }
                            Some(_) => {}
                            None => doc.summary = Some(quote.to_owned()),
                        }
                        self.header_started = true;
                        self.summary_open = true;
                        return;
                    }
                }
                self.header_started = true;
                self.summary_open = false;
                self.details.push(raw.trim_end().to_owned());
                if in_code {
                    return;
                }
                if let Some(item) = list_item(trimmed) {
                    if let Some(link) = self.link(n, item, doc) {
                        self.first_unsectioned_link.get_or_insert(n);
                        doc.unsectioned_links.push(link);
                    }
                }
            }
            Area::Section => {
                if in_code {
                    return;
                }
                let Some(item) = list_item(trimmed) else { return };
                let issues_before = doc.issues.len();
                if let Some(link) = self.link(n, item, doc) {
                    if let Some(section) = doc.sections.last_mut() {
                        section.links.push(link);
                    }
                } else if doc.issues.len() == issues_before {
                    doc.push(
                        IssueCode::ListItemWithoutLink,
                        "a list item in a section does not start with a [name](url) link",
                        Some(n),
                    );
                }
            }
        }
    }

    /// Parses a list item that starts with a link; reports broken and relative links.
    fn link(&mut self, n: usize, item: &str, doc: &mut LlmsTxt) -> Option<Link> {
        let item = item.trim_start();
        if !item.starts_with('[') {
            return None;
        }
        let Some(name_end) = closing(item, 0, '[', ']') else {
            doc.push(IssueCode::BrokenLink, "a link's [name] is not closed", Some(n));
            return None;
        };
        let name = &item[1..name_end];
        let after = &item[name_end + 1..];
        if !after.starts_with('(') {
            // `[text]` without `(url)`: bracketed text or a reference link.
            return None;
        }
        let url_start = name_end + 1;
        let Some(url_end) = closing(item, url_start, '(', ')') else {
            doc.push(IssueCode::BrokenLink, format!("the link \"{name}\" has no closing parenthesis"), Some(n));
            return None;
        };
        let target = item[url_start + 1..url_end].trim();
        // `(<url> "title")`: the URL is the first part, angle brackets removed.
        let url = match target.strip_prefix('<') {
            Some(rest) => rest.split('>').next().unwrap_or_default(),
            None => target.split_whitespace().next().unwrap_or_default(),
        };
        if url.is_empty() {
            doc.push(IssueCode::BrokenLink, format!("the link \"{name}\" has an empty URL"), Some(n));
            return None;
        }
        if !is_absolute(url) {
            doc.push(
                IssueCode::RelativeLink,
                format!("the link \"{name}\" has a relative URL ({url}); use an absolute URL"),
                Some(n),
            );
        }
        let rest = item[url_end + 1..].trim();
        let notes = rest.strip_prefix(':').unwrap_or(rest).trim();
        Some(Link {
            name: name.trim().to_owned(),
            url: url.to_owned(),
            notes: (!notes.is_empty()).then(|| notes.to_owned()),
        })
    }

    fn finish(self, doc: &mut LlmsTxt) {
        doc.details = self.details.join("\n").trim().to_owned();
        if doc.title.is_none() {
            doc.push(IssueCode::MissingH1, "the file has no H1 title (\"# Name\" on the first line)", Some(1));
        } else if doc.summary.is_none() {
            doc.push(IssueCode::MissingSummary, "no blockquote summary (\"> ...\") follows the title", None);
        }
        for (section, &line) in doc.sections.clone().iter().zip(&self.section_lines) {
            if section.links.is_empty() {
                doc.push(
                    IssueCode::SectionWithoutLinks,
                    format!("the section \"{}\" has no [name](url) links", section.name),
                    Some(line),
                );
            }
        }
        if let Some(line) = self.first_unsectioned_link {
            if doc.sections.is_empty() {
                doc.push(IssueCode::NoSections, "links are listed without any H2 section", Some(line));
            } else {
                doc.push(IssueCode::LinksOutsideSections, "links are listed before the first H2 section", Some(line));
            }
        }
        if doc.title.is_some() && doc.links().next().is_none() {
            // A link in prose still points readers somewhere: Lighthouse's `llms-txt` audit
            // passes such a file, and its basic shape must not fail here (docs/AI-VISIBILITY.md,
            // "llms.txt").
            match self.first_any_link {
                Some(line) => doc.push(
                    IssueCode::NoLinkList,
                    "links appear only in prose or code; list pages as [name](url) items under H2 sections",
                    Some(line),
                ),
                None => doc.push(
                    IssueCode::NoLinks,
                    "the file links to nothing; list pages as [name](url) under H2 sections",
                    None,
                ),
            }
        }
        doc.issues.sort_by_key(|i| i.line.unwrap_or(usize::MAX));
    }
}

/// Whether a line holds `[text](target)` with non-empty text and target: the link test of
/// Lighthouse's `llms-txt` audit, applied line by line.
fn has_inline_link(line: &str) -> bool {
    let Some(open) = line.find('[') else { return false };
    let rest = &line[open + 1..];
    // `](` after at least one character of text, then `)` after at least one of target.
    rest.match_indices("](").any(|(at, _)| at > 0 && rest[at + 2..].char_indices().skip(1).any(|(_, c)| c == ')'))
}

/// An ATX heading: up to three spaces, 1-6 `#`, then a space or the end.
fn heading(raw: &str) -> Option<(usize, &str)> {
    let indent = raw.len() - raw.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &raw[indent..];
    let level = rest.len() - rest.trim_start_matches('#').len();
    if !(1..=6).contains(&level) {
        return None;
    }
    let text = &rest[level..];
    if !(text.is_empty() || text.starts_with([' ', '\t'])) {
        return None;
    }
    // An optional closing sequence of `#` preceded by a space.
    let text = text.trim();
    let closed = text.trim_end_matches('#');
    let text = if closed.is_empty() || closed.ends_with([' ', '\t']) { closed.trim_end() } else { text };
    Some((level, text))
}

/// The fence character and length when `trimmed` opens or closes a code fence.
fn fence_marker(trimmed: &str) -> Option<(char, usize)> {
    ['`', '~'].into_iter().find_map(|c| {
        let len = trimmed.len() - trimmed.trim_start_matches(c).len();
        (len >= 3).then_some((c, len))
    })
}

/// The content of a `-`, `*`, `+` or `1.` list item.
fn list_item(trimmed: &str) -> Option<&str> {
    if let Some(rest) = trimmed.strip_prefix(['-', '*', '+']) {
        return rest.starts_with([' ', '\t']).then(|| rest.trim_start());
    }
    let digits = trimmed.len() - trimmed.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = trimmed[digits..].strip_prefix(['.', ')'])?;
    (digits > 0 && rest.starts_with([' ', '\t'])).then(|| rest.trim_start())
}

/// Index of the bracket closing the one at `open_at`, honouring nesting and escapes.
fn closing(s: &str, open_at: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in s.char_indices().skip_while(|(i, _)| *i < open_at) {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether `url` has a scheme (`https:`, `mailto:`, ...).
fn is_absolute(url: &str) -> bool {
    let Some((scheme, _)) = url.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether Lighthouse's `llms-txt` audit (13.5) passes a file served with a 2xx: a line that
/// starts with `#`, white space and a character; a `[text](target)` on one line; at least 50
/// characters. Kept to check that its passes never fail here on the basic shape
/// ([`IssueCode::is_basic_shape`]); docs/AI-VISIBILITY.md, "llms.txt", says where the two
/// still differ.
pub fn lighthouse_llms_txt_passes(text: &str) -> bool {
    let h1 = text.lines().any(|l| {
        l.strip_prefix('#').is_some_and(|rest| {
            let body = rest.trim_start();
            rest.starts_with(char::is_whitespace) && !body.is_empty()
        })
    });
    h1 && text.lines().any(has_inline_link) && text.encode_utf16().count() >= 50
}

impl IssueCode {
    /// The codes of a file's basic shape: something served, Markdown, a title, a link. A
    /// file Lighthouse's `llms-txt` audit passes has none of them, but for the departures
    /// docs/AI-VISIBILITY.md lists.
    pub fn is_basic_shape(self) -> bool {
        matches!(self, IssueCode::EmptyFile | IssueCode::HtmlNotMarkdown | IssueCode::MissingH1 | IssueCode::NoLinks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_lighthouse_passes_never_fails_on_the_basic_shape() {
        let passes = [
            "# Title\n\nSee [the docs](https://a.example/docs) for all of it.\n",
            "Intro line before the title.\n# Title\n- [a](https://a.example/a)\n",
            "# Title\n## Docs\nRead [a](/a) first, then the rest of this section.\n",
            "#\tTabbed title\n\n> s\n\n## Docs\n\n- [a](https://a.example/a): notes\n",
            "# One\n# Two\n## S\n- [a](https://a.example/a)\nsome padding text here\n",
        ];
        for text in passes {
            assert!(lighthouse_llms_txt_passes(text), "Lighthouse passes {text:?}");
            let doc = LlmsTxt::parse(text);
            let basic: Vec<_> = doc.issues.iter().filter(|i| i.code.is_basic_shape()).collect();
            assert!(basic.is_empty(), "{text:?}: {basic:#?}");
        }
        assert!(LlmsTxt::parse(passes[0]).has_issue(IssueCode::NoLinkList));
        // Lighthouse fails these; so does the basic shape here.
        for text in [
            "no title, just [a](https://a.example/a) and some more words to be long",
            "# Title only, no link at all, padded to fifty characters",
        ] {
            assert!(!lighthouse_llms_txt_passes(text));
            assert!(LlmsTxt::parse(text).issues.iter().any(|i| i.code.is_basic_shape()), "{text:?}");
        }
    }

    /// Parses `text` and compares validity and the set of issue codes.
    fn check(text: &str, valid: bool, codes: &[IssueCode]) -> LlmsTxt {
        let doc = LlmsTxt::parse(text);
        let got: Vec<IssueCode> = doc.issues.iter().map(|i| i.code).collect();
        assert_eq!(got, codes, "issues of {text:?}: {:#?}", doc.issues);
        assert_eq!(doc.valid(), valid, "validity of {text:?}");
        doc
    }

    use IssueCode::*;

    #[test]
    fn minimal_and_complete_files() {
        let doc = check("# Title\n", false, &[MissingSummary, NoLinks]);
        assert_eq!(doc.title.as_deref(), Some("Title"));
        let doc = check(
            "# Proj #\n\n> One\n> two.\n\nSome details.\n\n- a plain bullet\n\n## Docs\n\n- [A](https://x.org/a.md): first\n  - [B](https://x.org/b.md)\n\n## Optional\n\n- [C](https://x.org/c.md) - extra\n",
            true,
            &[],
        );
        assert_eq!(doc.title.as_deref(), Some("Proj"));
        assert_eq!(doc.summary.as_deref(), Some("One two."));
        assert_eq!(doc.details, "Some details.\n\n- a plain bullet");
        assert_eq!(doc.sections.len(), 2);
        assert_eq!(
            doc.sections[0].links[0],
            Link { name: "A".into(), url: "https://x.org/a.md".into(), notes: Some("first".into()) }
        );
        assert_eq!(doc.sections[0].links[1].notes, None);
        assert!(doc.sections[1].optional && !doc.sections[0].optional);
        assert_eq!(doc.sections[1].links[0].notes.as_deref(), Some("- extra"));
    }

    #[test]
    fn structural_errors() {
        check("", false, &[EmptyFile]);
        check(" \n\t\n", false, &[EmptyFile]);
        check("<!DOCTYPE html>\n<html><head><title>x</title></head></html>", false, &[HtmlNotMarkdown]);
        check("\n  <html lang=\"en\">\n<body>", false, &[HtmlNotMarkdown]);
        check("## Docs\n- [A](https://x.org/a)\n", false, &[MissingH1]);
        check("Intro\n# T\n> s\n## D\n- [A](https://x.org/)\n", true, &[H1NotFirst]);
        check("# T\n> s\n## D\n- [A](https://x.org/)\n# Again\n", false, &[MultipleH1]);
        check("# T\n> s\n## D\n- [A](https://x.org/)\n## Empty\nSome prose.\n", false, &[SectionWithoutLinks]);
    }

    #[test]
    fn heading_order() {
        check("# T\n> s\n### Early\n## D\n- [A](https://x.org/)\n", true, &[HeadingOutOfOrder]);
        check("# T\n> s\n## D\n#### Deep\n- [A](https://x.org/)\n", true, &[HeadingOutOfOrder]);
        check("# T\n> s\n## D\n### Sub\n- [A](https://x.org/)\n", true, &[Subheading]);
        // `#` lines in fenced code are not headings.
        check("# T\n> s\n\n```sh\n# comment\n## not a section\n```\n## D\n- [A](https://x.org/)\n", true, &[]);
        check("# T\n> s\n#hashtag\n## D\n- [A](https://x.org/)\n", true, &[]);
    }

    #[test]
    fn link_problems() {
        check("# T\n> s\n## D\n- [A](https://x.org/)\n- just text\n", true, &[ListItemWithoutLink]);
        check("# T\n> s\n## D\n- [A](https://x.org/)\n- [B(https://x.org/b)\n", false, &[BrokenLink]);
        check("# T\n> s\n## D\n- [A](https://x.org/)\n- [B](https://x.org/b\n", false, &[BrokenLink]);
        check("# T\n> s\n## D\n- [A](https://x.org/)\n- [B]()\n", false, &[BrokenLink]);
        let doc = check(
            "# T\n> s\n## D\n- [A](/docs/a.md)\n- [B](#anchor)\n- [C](mailto:a@x.org)\n",
            true,
            &[RelativeLink, RelativeLink],
        );
        assert_eq!(doc.issues[0].line, Some(4));
        // Brackets and parentheses nest inside names and URLs.
        let doc = check("# T\n> s\n## D\n- [Config (deno.json) [x]](https://x.org/a_(b)): n\n- [T](<https://x.org/a b> \"title\")\n", true, &[]);
        assert_eq!(doc.sections[0].links[0].name, "Config (deno.json) [x]");
        assert_eq!(doc.sections[0].links[0].url, "https://x.org/a_(b)");
        assert_eq!(doc.sections[0].links[1].url, "https://x.org/a b");
    }

    #[test]
    fn links_before_sections() {
        check("# T\n> s\n- [A](https://x.org/)\n## D\n- [B](https://x.org/b)\n", true, &[LinksOutsideSections]);
        let doc = check("# T\n\n- [A](https://x.org/)\n", true, &[NoSections, MissingSummary]);
        assert_eq!(doc.links().count(), 1);
    }

    #[test]
    fn never_panics_on_odd_input() {
        for text in [
            "#",
            "# ",
            "[",
            "- [",
            "- [](",
            "- [a](",
            ">",
            "# T\n>",
            "```",
            "# T\n```\n",
            "<!--",
            "- [\u{e9}](\u{e9}",
            "\u{FEFF}# T\n",
            "1.",
            "# T\n## \n- [a]\n",
        ] {
            let doc = LlmsTxt::parse(text);
            let _ = doc.report("https://x.org/llms.txt");
        }
    }

    #[test]
    fn report_shape() {
        let doc = LlmsTxt::parse("# T\n> s\n## D\n- [A](https://x.org/)\n- [B](/b)\n");
        let json = serde_json::to_value(doc.report("https://x.org/llms.txt")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"present": true, "valid": true, "url": "https://x.org/llms.txt", "title": "T", "sections": 1, "links": 2,
                "issues": [{"code": "relative_link", "severity": "warning", "message": "the link \"B\" has a relative URL (/b); use an absolute URL", "line": 5}]})
        );
        let absent = serde_json::to_value(LlmsTxtReport::absent("https://x.org/llms.txt")).unwrap();
        assert_eq!(absent["present"], false);
        assert_eq!(absent["valid"], false);
    }
}
