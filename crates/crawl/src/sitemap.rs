//! XML sitemaps (sitemaps.org): parsing, bounded, and the discovery of a site's sitemaps
//! (docs/RULES.md, "Site rules").

use std::collections::{HashSet, VecDeque};
use std::io::Read;

use quick_xml::events::Event;
use quick_xml::Reader;
use serde::Serialize;
use url::Url;

use crate::urls::{normalize, normalize_relative, Site};

/// The bounds of sitemap reading. The defaults follow the protocol's own limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapLimits {
    /// Bytes of one sitemap at most, after gunzip (the protocol's 50 MiB). A larger file is
    /// an error; its body is never decompressed further.
    pub max_bytes: usize,
    /// `<loc>` entries read from one file at most (the protocol's 50,000); the rest are
    /// ignored and the file is marked truncated.
    pub max_urls: usize,
    /// Sitemap files fetched per crawl at most, indexes included.
    pub max_sitemaps: usize,
    /// How deep indexes nest: 1 reads the sitemaps an index names, 2 also an index inside an
    /// index (the protocol allows 1; some sites do 2).
    pub max_index_depth: u32,
    /// Page URLs taken from all sitemaps together at most.
    pub max_total_urls: usize,
}

impl Default for SitemapLimits {
    fn default() -> SitemapLimits {
        SitemapLimits {
            max_bytes: 50 * 1024 * 1024,
            max_urls: 50_000,
            max_sitemaps: 50,
            max_index_depth: 2,
            max_total_urls: 100_000,
        }
    }
}

/// What a sitemap file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SitemapKind {
    /// `<urlset>`: page URLs.
    UrlSet,
    /// `<sitemapindex>`: sitemap URLs.
    Index,
}

/// A parsed sitemap file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParsedSitemap {
    /// What it is.
    pub kind: SitemapKind,
    /// The `<loc>` values, trimmed, in order (not normalised, not checked).
    pub locs: Vec<String>,
    /// The line of each of `locs` (1 is the first), in the same order.
    pub lines: Vec<u64>,
    /// Whether `<loc>` entries past [`SitemapLimits::max_urls`] were ignored.
    pub truncated: bool,
    /// The root element's namespace, when it names one ([`SITEMAP_NAMESPACE`] for a
    /// sitemap as the protocol writes it).
    pub namespace: Option<String>,
}

/// The namespace of the sitemap protocol's elements.
pub const SITEMAP_NAMESPACE: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// A problem of one sitemap file, for the `sitemap-error` rule: the sitemap, the line when
/// there is one, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SitemapProblem {
    /// The sitemap's URL.
    pub sitemap: String,
    /// The line of the problem (1 is the first), when it has one.
    pub line: Option<u64>,
    /// What is wrong, in a few words.
    pub problem: String,
}

impl SitemapProblem {
    fn new(sitemap: &str, line: Option<u64>, problem: impl Into<String>) -> SitemapProblem {
        SitemapProblem { sitemap: sitemap.to_string(), line, problem: problem.into() }
    }
}

/// Counts lines as a reader moves forward through a document.
struct Lines<'a> {
    text: &'a [u8],
    at: usize,
    line: u64,
}

impl Lines<'_> {
    /// The line of byte `pos` (not before the last one asked).
    fn of(&mut self, pos: usize) -> u64 {
        let pos = pos.min(self.text.len());
        if pos > self.at {
            self.line += self.text[self.at..pos].iter().filter(|b| **b == b'\n').count() as u64;
            self.at = pos;
        }
        self.line
    }
}

/// Why a sitemap could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[non_exhaustive]
pub enum SitemapError {
    /// The body starts like gzip and does not decompress.
    #[error("bad gzip: {0}")]
    Gzip(String),
    /// Larger than [`SitemapLimits::max_bytes`] (after gunzip).
    #[error("sitemap larger than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// Not well-formed XML (the message names the line).
    #[error("bad XML: {0}")]
    Xml(String),
    /// Well-formed XML whose root is neither `urlset` nor `sitemapindex`.
    #[error("not a sitemap: root element <{0}>")]
    NotASitemap(String),
    /// The fetch answered a status other than 200, or no answer at all (`None`).
    #[error("sitemap answered {}", status.map_or_else(|| "nothing".to_string(), |s| format!("HTTP {s}")))]
    Status {
        /// The status.
        status: Option<u16>,
    },
}

/// Parses a sitemap (gzip-compressed or not, recognised by its first bytes). Never panics:
/// any input gives a value or a [`SitemapError`].
pub fn parse_sitemap(body: &[u8], limits: &SitemapLimits) -> Result<ParsedSitemap, SitemapError> {
    let unzipped;
    let xml: &[u8] = if body.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(body)
            .take(limits.max_bytes as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| SitemapError::Gzip(e.to_string()))?;
        unzipped = out;
        &unzipped
    } else {
        body
    };
    if xml.len() > limits.max_bytes {
        return Err(SitemapError::TooLarge { limit: limits.max_bytes });
    }
    parse_xml(xml, limits)
}

fn parse_xml(xml: &[u8], limits: &SitemapLimits) -> Result<ParsedSitemap, SitemapError> {
    let mut reader = Reader::from_reader(xml);
    reader.config_mut().trim_text(true);
    let mut lines = Lines { text: xml, at: 0, line: 1 };
    let mut buf = Vec::new();
    let mut kind = None;
    let mut namespace = None;
    let mut depth = 0usize;
    let mut in_loc = false;
    let mut loc = String::new();
    let mut loc_line = 0;
    let mut locs = Vec::new();
    let mut loc_lines = Vec::new();
    let mut truncated = false;
    loop {
        let before = reader.buffer_position() as usize;
        let event = match reader.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(e) => {
                let line = lines.of(reader.error_position() as usize);
                return Err(SitemapError::Xml(format!("line {line}: {e}")));
            }
        };
        let bad = |e: &dyn std::fmt::Display| SitemapError::Xml(format!("line {}: {e}", loc_line.max(1)));
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                let name = name.as_ref();
                if depth == 0 {
                    kind = Some(root_kind(name)?);
                    namespace = root_namespace(&e);
                } else if depth == 2 && name == b"loc" {
                    in_loc = true;
                    loc.clear();
                    loc_line = lines.of(before);
                }
                depth += 1;
            }
            Event::Empty(e) if depth == 0 => {
                kind = Some(root_kind(e.local_name().as_ref())?);
                namespace = root_namespace(&e);
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if in_loc && depth == 2 {
                    in_loc = false;
                    let value = quick_xml::escape::unescape(&loc).map_err(|e| bad(&e))?;
                    let value = value.trim();
                    if !value.is_empty() {
                        if locs.len() < limits.max_urls {
                            locs.push(value.to_string());
                            loc_lines.push(loc_line);
                        } else {
                            truncated = true;
                        }
                    }
                }
            }
            Event::Text(t) if in_loc => loc.push_str(&t.decode().map_err(|e| bad(&e))?),
            Event::GeneralRef(r) if in_loc => {
                loc.push('&');
                loc.push_str(&r.decode().map_err(|e| bad(&e))?);
                loc.push(';');
            }
            Event::CData(c) if in_loc => {
                let text = c.decode().map_err(|e| bad(&e))?;
                loc.push_str(&quick_xml::escape::escape(text.as_ref()));
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    let Some(kind) = kind else {
        return Err(SitemapError::Xml("no root element".to_string()));
    };
    if depth != 0 {
        return Err(SitemapError::Xml("unclosed element at the end of the file".to_string()));
    }
    Ok(ParsedSitemap { kind, locs, lines: loc_lines, truncated, namespace })
}

fn root_kind(name: &[u8]) -> Result<SitemapKind, SitemapError> {
    match name {
        b"urlset" => Ok(SitemapKind::UrlSet),
        b"sitemapindex" => Ok(SitemapKind::Index),
        other => Err(SitemapError::NotASitemap(String::from_utf8_lossy(other).into_owned())),
    }
}

/// The namespace the root element `e` is in: its prefix's `xmlns:` attribute, or `xmlns`.
fn root_namespace(e: &quick_xml::events::BytesStart<'_>) -> Option<String> {
    let name = e.name();
    let key = match name.prefix() {
        Some(prefix) => [b"xmlns:", prefix.as_ref()].concat(),
        None => b"xmlns".to_vec(),
    };
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key.as_slice())
        .map(|a| String::from_utf8_lossy(&a.value).trim().to_string())
}

/// What reading one sitemap file gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SitemapRead {
    /// Page URLs it lists, normalised, on the crawled site, within
    /// [`SitemapLimits::max_total_urls`]: queue them
    /// ([`Frontier::add_sitemap_url`](crate::Frontier::add_sitemap_url)) and keep them as
    /// the site's sitemap URL set.
    pub urls: Vec<String>,
    /// Why it could not be read; `None` for a file read (and for a missing `/sitemap.xml`
    /// that no robots.txt named, which is no error).
    pub error: Option<SitemapError>,
    /// Whether entries were ignored (a bound of [`SitemapLimits`]).
    pub truncated: bool,
    /// Its problems, for the `sitemap-error` rule: `error`, when there is one, and what
    /// was read despite them (a relative `<loc>`, resolved against the sitemap's URL; a
    /// wrong namespace; URLs past the protocol's bound; an index naming an index read
    /// already).
    pub problems: Vec<SitemapProblem>,
}

/// The discovery of a site's sitemaps: `Sitemap:` lines of robots.txt, `/sitemap.xml`,
/// and the sitemaps indexes name. Holds the sitemap files seen, not the URLs they list.
#[derive(Debug, Clone)]
pub struct Sitemaps {
    site: Site,
    /// The site's robots.txt, what a relative `Sitemap:` line is read against.
    robots_txt: Option<Url>,
    limits: SitemapLimits,
    queue: VecDeque<(String, u32, bool)>,
    seen: HashSet<String>,
    urls_taken: usize,
    read_ok: usize,
    indexes: HashSet<String>,
}

impl Sitemaps {
    /// The discovery for the site of `start`; `/sitemap.xml` of the start URL's origin is
    /// its first source.
    pub fn new(start: &Url, limits: SitemapLimits) -> Sitemaps {
        let mut sitemaps = Sitemaps::none(start, limits);
        if let Ok(default) = start.join("/sitemap.xml") {
            sitemaps.push(default.as_str(), 0, false);
        }
        sitemaps
    }

    /// The reading of the one sitemap at `url` (and of the sitemaps it indexes, on its
    /// site), without the site's `/sitemap.xml`: the URLs of a list-mode crawl given as a
    /// sitemap (the command line's `--list URL`, docs/RULES.md "List mode").
    pub fn only(url: &Url, limits: SitemapLimits) -> Sitemaps {
        let mut sitemaps = Sitemaps::none(url, limits);
        sitemaps.push(url.as_str(), 0, true);
        sitemaps
    }

    fn none(site: &Url, limits: SitemapLimits) -> Sitemaps {
        Sitemaps {
            site: Site::of(site),
            robots_txt: site.join("/robots.txt").ok(),
            limits,
            queue: VecDeque::new(),
            seen: HashSet::new(),
            urls_taken: 0,
            read_ok: 0,
            indexes: HashSet::new(),
        }
    }

    /// Adds a sitemap named by robots.txt (`Sitemap:` lines; only those on the crawled
    /// site are read). A relative URL, which search engines ignore (RFC 9309 and Google ask
    /// for a full one), is read against robots.txt's URL, as a relative `<loc>` is, and given
    /// back as a problem for `sitemap-error`.
    pub fn add_source(&mut self, url: &str) -> Option<SitemapProblem> {
        if normalize(url).is_ok() || url.trim().is_empty() {
            self.push(url, 0, true);
            return None;
        }
        let resolved = self.robots_txt.as_ref().and_then(|base| normalize_relative(base, url).ok())?;
        self.push(resolved.as_str(), 0, true);
        Some(SitemapProblem::new(
            resolved.as_str(),
            None,
            format!("robots.txt names it by the relative URL {url:?}, which search engines ignore; write the full URL"),
        ))
    }

    fn push(&mut self, url: &str, depth: u32, named: bool) {
        let Ok(url) = normalize(url) else {
            return;
        };
        if !self.site.contains(&url) || self.seen.len() >= self.limits.max_sitemaps {
            return;
        }
        if self.seen.insert(url.to_string()) {
            self.queue.push_back((url.into(), depth, named));
        } else if named {
            // Named again while it waits (robots.txt naming the /sitemap.xml queued by
            // default): its failure is now an error.
            if let Some(queued) = self.queue.iter_mut().find(|(u, _, _)| u.as_str() == url.as_str()) {
                queued.2 = true;
            }
        }
    }

    /// The next sitemap to fetch (following redirects, through the address guard), then
    /// pass what it answered to [`Sitemaps::record`].
    pub fn next_url(&self) -> Option<&str> {
        self.queue.front().map(|(u, _, _)| u.as_str())
    }

    /// Whether any sitemap file was read: `not-in-sitemap` applies only then.
    pub fn any_read(&self) -> bool {
        self.read_ok > 0
    }

    /// Records the answer to the sitemap `url` ([`Sitemaps::next_url`]): `status` `None`
    /// when there was none. Queues the sitemaps an index names.
    pub fn record(&mut self, url: &str, status: Option<u16>, body: &[u8]) -> SitemapRead {
        let position = self.queue.iter().position(|(u, _, _)| u == url);
        let (depth, named) = match position.and_then(|i| self.queue.remove(i)) {
            Some((_, depth, named)) => (depth, named),
            None => (0, true),
        };
        let failed = |error: SitemapError| SitemapRead {
            problems: vec![SitemapProblem::new(url, None, error.to_string())],
            error: Some(error),
            ..SitemapRead::default()
        };
        if status != Some(200) {
            // A missing /sitemap.xml that nothing named is no error: many sites have none.
            if named || depth > 0 {
                return failed(SitemapError::Status { status });
            }
            return SitemapRead::default();
        }
        let parsed = match parse_sitemap(body, &self.limits) {
            Ok(parsed) => parsed,
            Err(error) => return failed(error),
        };
        self.read_ok += 1;
        let mut read = SitemapRead { truncated: parsed.truncated, ..SitemapRead::default() };
        if parsed.namespace.as_deref() != Some(SITEMAP_NAMESPACE) {
            let found = parsed.namespace.as_deref().map_or_else(|| "none".to_string(), |n| format!("{n:?}"));
            read.problems.push(SitemapProblem::new(
                url,
                Some(1),
                format!("namespace {found}, not {SITEMAP_NAMESPACE:?}; read anyway"),
            ));
        }
        if parsed.truncated {
            read.problems.push(SitemapProblem::new(
                url,
                None,
                format!("more than {} URLs; the rest are ignored", self.limits.max_urls),
            ));
        }
        let base = normalize(url).ok();
        if parsed.kind == SitemapKind::Index {
            self.indexes.insert(url.to_string());
        }
        for (loc, line) in parsed.locs.iter().zip(&parsed.lines) {
            // A relative <loc> is against the protocol (it asks for full URLs); resolved
            // against the sitemap's URL, as a browser would, so that what it names is read.
            let resolved = match normalize(loc) {
                Ok(u) => Some(u),
                Err(_) => {
                    let resolved = base.as_ref().and_then(|b| normalize_relative(b, loc).ok());
                    let what = match &resolved {
                        Some(r) => format!("relative <loc> {loc:?}, read as {r}"),
                        None => format!("<loc> {loc:?} is not a URL"),
                    };
                    read.problems.push(SitemapProblem::new(url, Some(*line), what));
                    resolved
                }
            };
            let Some(u) = resolved else { continue };
            match parsed.kind {
                SitemapKind::Index => {
                    if self.indexes.contains(u.as_str()) {
                        read.problems.push(SitemapProblem::new(
                            url,
                            Some(*line),
                            format!("names the index {u}, read already (a loop)"),
                        ));
                    } else if depth < self.limits.max_index_depth {
                        self.push(u.as_str(), depth + 1, true);
                    } else {
                        read.truncated = true;
                        read.problems.push(SitemapProblem::new(
                            url,
                            Some(*line),
                            format!("names {u} below {} index levels; not read", self.limits.max_index_depth),
                        ));
                    }
                }
                SitemapKind::UrlSet => {
                    if !self.site.contains(&u) {
                        continue;
                    }
                    if self.urls_taken >= self.limits.max_total_urls {
                        read.truncated = true;
                        read.problems.push(SitemapProblem::new(
                            url,
                            Some(*line),
                            format!(
                                "the crawl's {} sitemap URLs are taken; the rest are ignored",
                                self.limits.max_total_urls
                            ),
                        ));
                        break;
                    }
                    self.urls_taken += 1;
                    read.urls.push(u.into());
                }
            }
        }
        read
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const URLSET: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
  <url><loc><![CDATA[https://example.com/b]]></loc></url>
  <url><loc>https://example.com/&#99;</loc></url>
</urlset>"#;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn urlset_plain_and_gzip() {
        let limits = SitemapLimits::default();
        let parsed = parse_sitemap(URLSET.as_bytes(), &limits).unwrap();
        assert_eq!(parsed.kind, SitemapKind::UrlSet);
        assert_eq!(parsed.locs, ["https://example.com/a?x=1&y=2", "https://example.com/b", "https://example.com/c"]);
        assert_eq!(parse_sitemap(&gzip(URLSET.as_bytes()), &limits).unwrap(), parsed);
    }

    #[test]
    fn index_and_prefixed_names() {
        let xml = r#"<s:sitemapindex xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:sitemap><s:loc>https://example.com/s1.xml</s:loc></s:sitemap></s:sitemapindex>"#;
        let parsed = parse_sitemap(xml.as_bytes(), &SitemapLimits::default()).unwrap();
        assert_eq!(parsed.kind, SitemapKind::Index);
        assert_eq!(parsed.locs, ["https://example.com/s1.xml"]);
    }

    #[test]
    fn bad_input_is_an_error_value() {
        let limits = SitemapLimits::default();
        for bad in [
            &b"<urlset><url><loc>x</url>"[..],
            b"<html><body></body></html>",
            b"",
            b"\x1f\x8bnot gzip",
            b"<urlset><url>",
        ] {
            assert!(parse_sitemap(bad, &limits).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
        assert!(matches!(parse_sitemap(b"<html/>", &limits), Err(SitemapError::NotASitemap(n)) if n == "html"));
    }

    #[test]
    fn bounds_hold() {
        let small = SitemapLimits { max_bytes: 64, max_urls: 2, ..SitemapLimits::default() };
        assert_eq!(parse_sitemap(URLSET.as_bytes(), &small), Err(SitemapError::TooLarge { limit: 64 }));
        // A gzip bomb stops at the limit instead of inflating.
        let bomb = gzip(&vec![b' '; 10_000_000]);
        assert_eq!(parse_sitemap(&bomb, &small), Err(SitemapError::TooLarge { limit: 64 }));
        let few = SitemapLimits { max_urls: 2, ..SitemapLimits::default() };
        let parsed = parse_sitemap(URLSET.as_bytes(), &few).unwrap();
        assert_eq!(parsed.locs.len(), 2);
        assert!(parsed.truncated);
    }

    #[test]
    fn discovery_follows_robots_and_indexes_on_the_site_only() {
        let start = normalize("https://www.example.com/").unwrap();
        let mut maps = Sitemaps::new(&start, SitemapLimits { max_index_depth: 1, ..SitemapLimits::default() });
        maps.add_source("https://example.com/index.xml");
        maps.add_source("https://cdn.other.test/map.xml");
        assert_eq!(maps.next_url(), Some("https://www.example.com/sitemap.xml"));
        let read = maps.record("https://www.example.com/sitemap.xml", Some(404), b"");
        assert_eq!(read.error, None, "a missing /sitemap.xml is no error");
        assert!(!maps.any_read());
        let index = br#"<sitemapindex><sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap><sitemap><loc>https://example.com/index.xml</loc></sitemap></sitemapindex>"#;
        assert_eq!(maps.next_url(), Some("https://example.com/index.xml"));
        assert!(maps.record("https://example.com/index.xml", Some(200), index).urls.is_empty());
        assert_eq!(maps.next_url(), Some("https://example.com/s1.xml.gz"));
        let set = gzip(br#"<urlset><url><loc>https://example.com/p#x</loc></url><url><loc>https://elsewhere.test/</loc></url></urlset>"#);
        let read = maps.record("https://example.com/s1.xml.gz", Some(200), &set);
        assert_eq!(read.urls, ["https://example.com/p"]);
        assert!(maps.any_read());
        assert_eq!(maps.next_url(), None);
    }

    #[test]
    fn a_relative_sitemap_line_of_robots_txt_is_read_and_reported() {
        let start = normalize("https://example.com/docs/intro").unwrap();
        let mut maps = Sitemaps::new(&start, SitemapLimits::default());
        assert_eq!(maps.add_source("https://example.com/full.xml"), None);
        let problem = maps.add_source("maps/pages.xml").expect("a relative line is a problem");
        assert_eq!(problem.sitemap, "https://example.com/maps/pages.xml", "read against /robots.txt, not the start");
        assert!(problem.problem.contains("relative URL \"maps/pages.xml\""), "{}", problem.problem);
        assert_eq!(
            maps.add_source("/sitemap.xml").map(|p| p.sitemap).as_deref(),
            Some("https://example.com/sitemap.xml")
        );
        assert_eq!(maps.add_source(""), None, "an empty line names nothing");
        let queued: Vec<_> = std::iter::from_fn(|| {
            let next = maps.next_url()?.to_string();
            maps.record(&next, Some(404), b"");
            Some(next)
        })
        .collect();
        assert_eq!(
            queued,
            ["https://example.com/sitemap.xml", "https://example.com/full.xml", "https://example.com/maps/pages.xml"]
        );
    }

    #[test]
    fn a_missing_sitemap_xml_that_robots_txt_names_is_an_error() {
        // robots.txt is read before any sitemap, and most name /sitemap.xml itself: the
        // default already queued becomes a named one.
        let start = normalize("https://example.com/").unwrap();
        let mut maps = Sitemaps::new(&start, SitemapLimits::default());
        maps.add_source("https://example.com/sitemap.xml");
        assert_eq!(maps.next_url(), Some("https://example.com/sitemap.xml"));
        let read = maps.record("https://example.com/sitemap.xml", Some(404), b"");
        assert_eq!(read.error, Some(SitemapError::Status { status: Some(404) }));
        assert_eq!(read.problems.len(), 1);
        assert_eq!(maps.next_url(), None, "read once");
        // Named after it was read: the answer is known, the file is not read again.
        let mut maps = Sitemaps::new(&start, SitemapLimits::default());
        assert_eq!(maps.record("https://example.com/sitemap.xml", Some(404), b"").error, None);
        maps.add_source("https://example.com/sitemap.xml");
        assert_eq!(maps.next_url(), None);
    }

    #[test]
    fn one_sitemap_alone_is_read_without_the_sites_default() {
        let url = normalize("https://example.com/maps/products.xml").unwrap();
        let mut maps = Sitemaps::only(&url, SitemapLimits::default());
        assert_eq!(maps.next_url(), Some("https://example.com/maps/products.xml"));
        let set = br#"<urlset><url><loc>https://example.com/p1</loc></url><url><loc>https://example.com/p2</loc></url></urlset>"#;
        let read = maps.record("https://example.com/maps/products.xml", Some(200), set);
        assert_eq!(read.urls, ["https://example.com/p1", "https://example.com/p2"]);
        assert_eq!(maps.next_url(), None, "no /sitemap.xml");
        // A sitemap that fails is an error of its own (it was named).
        let mut maps = Sitemaps::only(&url, SitemapLimits::default());
        assert!(maps.record("https://example.com/maps/products.xml", Some(404), b"").error.is_some());
    }

    #[test]
    fn faults_read_anyway_are_problems_with_their_line() {
        let start = normalize("https://example.com/").unwrap();
        let mut maps = Sitemaps::new(&start, SitemapLimits::default());
        let index = b"<sitemapindex xmlns=\"http://example.com/wrong\">\n<sitemap><loc>/maps/index.xml</loc></sitemap>\n<sitemap><loc>a.xml</loc></sitemap>\n</sitemapindex>";
        maps.add_source("https://example.com/maps/index.xml");
        let read = maps.record("https://example.com/maps/index.xml", Some(200), index);
        let problems: Vec<String> = read.problems.iter().map(|p| format!("{:?} {}", p.line, p.problem)).collect();
        assert_eq!(
            problems,
            [
                "Some(1) namespace \"http://example.com/wrong\", not \"http://www.sitemaps.org/schemas/sitemap/0.9\"; read anyway",
                "Some(2) relative <loc> \"/maps/index.xml\", read as https://example.com/maps/index.xml",
                "Some(2) names the index https://example.com/maps/index.xml, read already (a loop)",
                "Some(3) relative <loc> \"a.xml\", read as https://example.com/maps/a.xml",
            ]
        );
        assert_eq!(maps.next_url(), Some("https://example.com/sitemap.xml"));
        maps.record("https://example.com/sitemap.xml", Some(404), b"");
        assert_eq!(maps.next_url(), Some("https://example.com/maps/a.xml"), "the relative <loc> is read");
    }

    #[test]
    fn a_named_sitemap_that_fails_is_an_error() {
        let start = normalize("https://example.com/").unwrap();
        let mut maps = Sitemaps::new(&start, SitemapLimits::default());
        maps.add_source("https://example.com/map.xml");
        let read = maps.record("https://example.com/map.xml", Some(500), b"");
        assert_eq!(read.error, Some(SitemapError::Status { status: Some(500) }));
    }
}
