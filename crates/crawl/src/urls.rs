//! URL normalisation and the crawl's scope (docs/RULES.md, "Site rules").

use serde::{Deserialize, Serialize};
use url::Url;

/// Why a string is not a crawlable URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// It does not parse as an absolute URL (nor relative to the base given).
    #[error("not a URL: {0}")]
    Invalid(String),
    /// Its scheme is neither `http` nor `https`.
    #[error("not an http(s) URL: {0}")]
    NotHttp(String),
    /// A crawl's `include` or `exclude` pattern is refused ([`Scope::new`]).
    #[error(transparent)]
    Pattern(#[from] PatternError),
}

/// Normalises an absolute URL: the one spelling a crawl stores and compares.
///
/// The `url` crate's parser (the WHATWG URL standard) lower-cases the scheme and the host,
/// drops the default port, turns an empty path into `/`, resolves `.` and `..` segments and
/// percent-encodes what must be encoded (it leaves existing escapes as written). On top of
/// that the fragment is dropped, an empty query (`/a?`) is dropped, and only `http` and
/// `https` URLs are accepted. Normalising a normalised URL gives it back unchanged.
pub fn normalize(input: &str) -> Result<Url, UrlError> {
    let url = Url::parse(input.trim()).map_err(|_| UrlError::Invalid(input.to_string()))?;
    finish(url, input)
}

/// [`normalize`] for a reference (as found in an `href`) resolved against `base`.
pub fn normalize_relative(base: &Url, reference: &str) -> Result<Url, UrlError> {
    let url = base.join(reference.trim()).map_err(|_| UrlError::Invalid(reference.to_string()))?;
    finish(url, reference)
}

/// [`normalize`] without a parse, for a URL already in the `url` crate's serialization (the
/// links of a parsed page are: `audit_core::Link::url`), with its [`Site`]: the fragment and
/// an empty query are cut off. `None` when the fast way cannot be sure (credentials, an IPv6
/// host, not http(s)): then [`normalize`] must be used. A page's links are resolved once by
/// the parser, and parsing each again here cost more than a third of the crawl's own work
/// per page.
pub fn normalize_serialized(serialized: &str) -> Option<(&str, Site)> {
    let rest = serialized.strip_prefix("https://").or_else(|| serialized.strip_prefix("http://"))?;
    let url = serialized.split_once('#').map_or(serialized, |(before, _)| before);
    let url = url.strip_suffix('?').unwrap_or(url);
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    if authority.is_empty() || authority.contains(['@', '[', '%']) || authority.bytes().any(|b| b.is_ascii_uppercase())
    {
        return None;
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port.parse::<u16>().ok()?)),
        None => (authority, None),
    };
    if host.is_empty() {
        return None;
    }
    let host = host.strip_prefix("www.").unwrap_or(host);
    Some((url, Site { host: host.to_string(), port }))
}

fn finish(mut url: Url, input: &str) -> Result<Url, UrlError> {
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(UrlError::NotHttp(input.to_string()));
    }
    url.set_fragment(None);
    if url.query() == Some("") {
        url.set_query(None);
    }
    // Credentials never belong to a crawled URL's identity.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    Ok(url)
}

/// The site a URL belongs to: its host without a leading `www.`, and its port when it is
/// not the scheme's default. `http` and `https` of one host are one site, and so are
/// `example.com` and `www.example.com` (a `www.` twin).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Site {
    /// The host, lower case, without a leading `www.`.
    pub host: String,
    /// The port when it is not the scheme's default.
    pub port: Option<u16>,
}

impl Site {
    /// The site of `url`.
    pub fn of(url: &Url) -> Site {
        let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let host = host.strip_prefix("www.").map(str::to_string).unwrap_or(host);
        // The parser drops the scheme's default port already.
        Site { host, port: url.port() }
    }

    /// Whether `url` belongs to this site.
    pub fn contains(&self, url: &Url) -> bool {
        Site::of(url) == *self
    }
}

/// What a crawl may visit: the caller's options, all optional (docs/RULES.md, "Site rules").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopeConfig {
    /// The most pages fetched (the start URL counts; redirects and failures count too).
    pub max_pages: u32,
    /// The deepest click depth followed (the start URL is depth 0); `None`: no limit.
    pub max_depth: Option<u32>,
    /// URL patterns (regular expressions, see [`UrlPatterns`]): when any is given, only URLs
    /// one of them matches are visited (the start URL always is).
    pub include: Vec<String>,
    /// URL patterns never visited (the start URL always is).
    pub exclude: Vec<String>,
    /// Query parameters removed from every URL found (see [`StripParams`]).
    pub strip_params: Vec<String>,
}

/// Patterns a crawl takes at most in each of `include` and `exclude`.
pub const MAX_URL_PATTERNS: usize = 20;

/// The longest pattern, in bytes.
pub const MAX_URL_PATTERN_LEN: usize = 1000;

/// The most memory one compiled pattern may take (`regex::RegexBuilder::size_limit`, and the
/// same for its lazy DFA's cache): a short pattern can still compile to a large program
/// (`\w{1000}` with Unicode classes is megabytes), and a caller's pattern must not cost the
/// service more than a small, known amount.
pub const URL_PATTERN_SIZE_LIMIT: usize = 256 * 1024;

/// Why a pattern of `include` or `exclude` is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the `{list}` pattern {pattern:?} {reason}")]
pub struct PatternError {
    /// `include` or `exclude`.
    pub list: &'static str,
    /// The pattern as given (cut to [`MAX_URL_PATTERN_LEN`] bytes).
    pub pattern: String,
    /// What is wrong with it, as a sentence's end.
    pub reason: String,
}

/// The compiled `include` or `exclude` patterns of a crawl.
///
/// Each is a regular expression (the `regex` crate's syntax: matching takes time linear in
/// the URL whatever the pattern) matched against the URL's path and query, the part from
/// the `/` after the host (`/blog/post?page=2`), **anchored at its start**: a plain path
/// such as `/blog` is the prefix it always was, `.*\?` matches every URL with a query and
/// `.*\.pdf$` every PDF. A pattern that starts with a letter or digit is taken from the
/// root (`blog` is `/blog`), as a prefix without its slash always was.
#[derive(Debug, Clone, Default)]
pub struct UrlPatterns {
    sources: Vec<String>,
    compiled: Vec<regex::Regex>,
}

impl UrlPatterns {
    /// The patterns `list` (named `name` in errors: `include` or `exclude`), compiled: at most
    /// [`MAX_URL_PATTERNS`], each at most [`MAX_URL_PATTERN_LEN`] bytes and compiling within
    /// [`URL_PATTERN_SIZE_LIMIT`].
    ///
    /// # Errors
    /// Too many patterns, or one too long, malformed or too large when compiled.
    pub fn new(name: &'static str, list: &[String]) -> Result<UrlPatterns, PatternError> {
        let refuse = |pattern: &str, reason: String| {
            let mut cut = pattern.len().min(MAX_URL_PATTERN_LEN);
            while !pattern.is_char_boundary(cut) {
                cut -= 1;
            }
            PatternError { list: name, pattern: pattern[..cut].to_string(), reason }
        };
        if list.len() > MAX_URL_PATTERNS {
            return Err(refuse(
                &list[MAX_URL_PATTERNS],
                format!("is one too many: at most {MAX_URL_PATTERNS} patterns are taken"),
            ));
        }
        let mut patterns = UrlPatterns::default();
        for given in list {
            let source = rooted(given);
            if source.len() > MAX_URL_PATTERN_LEN {
                return Err(refuse(given, format!("is longer than {MAX_URL_PATTERN_LEN} bytes")));
            }
            let compiled = regex::RegexBuilder::new(&format!("^(?:{source})"))
                .size_limit(URL_PATTERN_SIZE_LIMIT)
                .dfa_size_limit(URL_PATTERN_SIZE_LIMIT)
                .build()
                .map_err(|e| match e {
                    regex::Error::CompiledTooBig(_) => refuse(
                        given,
                        format!("compiles larger than {} KiB: write a simpler one", URL_PATTERN_SIZE_LIMIT / 1024),
                    ),
                    other => refuse(given, format!("is not a regular expression ({})", one_line(&other.to_string()))),
                })?;
            patterns.sources.push(source);
            patterns.compiled.push(compiled);
        }
        Ok(patterns)
    }

    /// Whether there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.compiled.is_empty()
    }

    /// The patterns as matched (rooted).
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// The first pattern that matches `url`, if any.
    pub fn first_match(&self, url: &Url) -> Option<&str> {
        let tail = &url[url::Position::BeforePath..];
        self.compiled.iter().position(|re| re.is_match(tail)).map(|i| self.sources[i].as_str())
    }
}

/// Query parameter names a crawl strips at most (`strip_params`).
pub const MAX_STRIP_PARAMS: usize = 50;

/// The longest query parameter name a crawl strips, in bytes.
pub const MAX_STRIP_PARAM_LEN: usize = 200;

/// The query parameters a crawl removes from every URL it finds, before the URL is compared
/// with those known (so `/p?id=1&utm_source=a` and `/p?id=1` are one page): names as written
/// in the query (case matters, as it does to a server), a name ending in `*` for every name
/// it begins (`utm_*`), and `*` alone for every parameter (the query dropped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StripParams {
    all: bool,
    names: Vec<String>,
    prefixes: Vec<String>,
}

impl StripParams {
    /// The names of `list` (named `strip_params` in errors): at most [`MAX_STRIP_PARAMS`],
    /// each 1 to [`MAX_STRIP_PARAM_LEN`] bytes without `&`, `=`, `#` or white space.
    ///
    /// # Errors
    /// Too many names, or one empty, too long or with such a character.
    pub fn new(list: &[String]) -> Result<StripParams, PatternError> {
        let refuse = |name: &str, reason: String| {
            let mut cut = name.len().min(MAX_STRIP_PARAM_LEN);
            while !name.is_char_boundary(cut) {
                cut -= 1;
            }
            PatternError { list: "strip_params", pattern: name[..cut].to_string(), reason }
        };
        if list.len() > MAX_STRIP_PARAMS {
            return Err(refuse(
                &list[MAX_STRIP_PARAMS],
                format!("is one too many: at most {MAX_STRIP_PARAMS} names are taken"),
            ));
        }
        let mut strip = StripParams::default();
        for given in list {
            let name = given.trim();
            if name.is_empty() || name.len() > MAX_STRIP_PARAM_LEN {
                return Err(refuse(given, format!("must be 1 to {MAX_STRIP_PARAM_LEN} bytes long")));
            }
            if name.contains(|c: char| matches!(c, '&' | '=' | '#') || c.is_whitespace()) {
                return Err(refuse(given, "is not a query parameter name (it holds `&`, `=`, `#` or a space)".into()));
            }
            match name.strip_suffix('*') {
                Some("") => strip.all = true,
                Some(prefix) => strip.prefixes.push(prefix.to_string()),
                None => strip.names.push(name.to_string()),
            }
        }
        Ok(strip)
    }

    /// Whether nothing is stripped.
    pub fn is_empty(&self) -> bool {
        !self.all && self.names.is_empty() && self.prefixes.is_empty()
    }

    /// `url` (normalised) without the parameters stripped; the others are kept as written,
    /// in their order, and a query left empty is dropped with its `?`.
    pub fn apply<'a>(&self, url: &'a str) -> std::borrow::Cow<'a, str> {
        use std::borrow::Cow;
        let Some((before, query)) = url.split_once('?') else {
            return Cow::Borrowed(url);
        };
        if self.is_empty() {
            return Cow::Borrowed(url);
        }
        if self.all {
            return Cow::Owned(before.to_string());
        }
        let stripped = |pair: &str| {
            let name = pair.split_once('=').map_or(pair, |(name, _)| name);
            self.names.iter().any(|n| n == name) || self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
        };
        if !query.split('&').any(stripped) {
            return Cow::Borrowed(url);
        }
        let kept: Vec<&str> = query.split('&').filter(|pair| !pair.is_empty() && !stripped(pair)).collect();
        if kept.is_empty() {
            Cow::Owned(before.to_string())
        } else {
            Cow::Owned(format!("{before}?{}", kept.join("&")))
        }
    }
}

/// A pattern as matched: one that starts with a letter or digit is taken from the root.
fn rooted(pattern: &str) -> String {
    let pattern = pattern.trim();
    if pattern.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        format!("/{pattern}")
    } else {
        pattern.to_string()
    }
}

/// The `regex` crate's multi-line error message on one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Default for ScopeConfig {
    fn default() -> ScopeConfig {
        ScopeConfig {
            max_pages: 500,
            max_depth: None,
            include: Vec::new(),
            exclude: Vec::new(),
            strip_params: Vec::new(),
        }
    }
}

/// Why a URL is outside the crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum OutOfScope {
    /// Another host (or port) than the start URL's site.
    OtherSite,
    /// An `exclude` pattern matches it.
    Excluded {
        /// The pattern that matched (rooted, see [`UrlPatterns`]).
        prefix: String,
    },
    /// `include` patterns are given and none matches it.
    NotIncluded,
    /// Deeper than `max_depth`.
    TooDeep,
}

impl OutOfScope {
    /// A short reason, as recorded on a skipped URL.
    pub fn reason(&self) -> String {
        match self {
            OutOfScope::OtherSite => "other site".to_string(),
            OutOfScope::Excluded { prefix } => format!("excluded by {prefix}"),
            OutOfScope::NotIncluded => "matched by no include pattern".to_string(),
            OutOfScope::TooDeep => "deeper than max_depth".to_string(),
        }
    }
}

/// The crawl's scope: the start URL's site and the caller's options.
#[derive(Debug, Clone)]
pub struct Scope {
    start: Url,
    site: Site,
    config: ScopeConfig,
    include: UrlPatterns,
    exclude: UrlPatterns,
    strip: StripParams,
}

/// Two scopes are equal when their start and options are: the compiled patterns follow
/// from the options.
impl PartialEq for Scope {
    fn eq(&self, other: &Scope) -> bool {
        self.start == other.start && self.config == other.config
    }
}

impl Eq for Scope {}

impl Scope {
    /// The scope of a crawl of `start` (normalised here), its patterns compiled.
    ///
    /// # Errors
    /// `start` is not a crawlable URL, or a pattern is refused ([`UrlPatterns::new`]).
    pub fn new(start: &str, mut config: ScopeConfig) -> Result<Scope, UrlError> {
        let start = normalize(start)?;
        let include = UrlPatterns::new("include", &config.include)?;
        let exclude = UrlPatterns::new("exclude", &config.exclude)?;
        let strip = StripParams::new(&config.strip_params)?;
        config.include = include.sources().to_vec();
        config.exclude = exclude.sources().to_vec();
        Ok(Scope { site: Site::of(&start), start, config, include, exclude, strip })
    }

    /// `url` (normalised) without the query parameters the crawl strips: applied to every
    /// URL found before it is compared with those known, and to the links recorded, so that
    /// inlinks count the one URL.
    pub fn strip_params<'a>(&self, url: &'a str) -> std::borrow::Cow<'a, str> {
        self.strip.apply(url)
    }

    /// The normalised start URL.
    pub fn start(&self) -> &Url {
        &self.start
    }

    /// The start URL's site.
    pub fn site(&self) -> &Site {
        &self.site
    }

    /// The options.
    pub fn config(&self) -> &ScopeConfig {
        &self.config
    }

    /// Whether `url` belongs to the start URL's site (see [`Site`]).
    pub fn same_site(&self, url: &Url) -> bool {
        self.site.contains(url)
    }

    /// Whether `url` may be visited at click depth `depth` (`None`: found in a sitemap
    /// only, not by a link; `max_depth` does not apply).
    pub fn check(&self, url: &Url, depth: Option<u32>) -> Result<(), OutOfScope> {
        if !self.same_site(url) {
            return Err(OutOfScope::OtherSite);
        }
        if *url == self.start {
            return Ok(());
        }
        if let Some(pattern) = self.exclude.first_match(url) {
            return Err(OutOfScope::Excluded { prefix: pattern.to_string() });
        }
        if !self.include.is_empty() && self.include.first_match(url).is_none() {
            return Err(OutOfScope::NotIncluded);
        }
        if let (Some(max), Some(depth)) = (self.config.max_depth, depth) {
            if depth > max {
                return Err(OutOfScope::TooDeep);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_table() {
        let cases = [
            ("HTTP://Example.COM", "http://example.com/"),
            ("https://example.com:443/a#top", "https://example.com/a"),
            ("http://example.com:80/a?", "http://example.com/a"),
            ("http://example.com:8080/a/../b/./c", "http://example.com:8080/b/c"),
            ("https://user:pw@example.com/x", "https://example.com/x"),
            ("https://example.com/a b", "https://example.com/a%20b"),
            ("https://example.com/%7Euser", "https://example.com/%7Euser"),
            ("https://EXAMPLE.com/Path?Q=1#f", "https://example.com/Path?Q=1"),
            ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ];
        for (input, want) in cases {
            assert_eq!(normalize(input).unwrap().as_str(), want, "{input}");
        }
        assert!(matches!(normalize("mailto:a@b.c"), Err(UrlError::NotHttp(_))));
        assert!(matches!(normalize("ftp://example.com/"), Err(UrlError::NotHttp(_))));
        assert!(matches!(normalize("/relative"), Err(UrlError::Invalid(_))));
    }

    #[test]
    fn relative_references_resolve_against_the_base() {
        let base = normalize("https://example.com/blog/post").unwrap();
        assert_eq!(normalize_relative(&base, "../about#x").unwrap().as_str(), "https://example.com/about");
        assert_eq!(normalize_relative(&base, "?page=2").unwrap().as_str(), "https://example.com/blog/post?page=2");
        assert!(normalize_relative(&base, "javascript:void(0)").is_err());
    }

    #[test]
    fn www_twin_and_scheme_are_one_site_ports_are_not() {
        let scope = Scope::new("https://www.example.com/", ScopeConfig::default()).unwrap();
        for same in ["http://example.com/a", "https://WWW.example.com/b", "https://example.com:443/"] {
            assert!(scope.same_site(&normalize(same).unwrap()), "{same}");
        }
        for other in [
            "https://blog.example.com/",
            "https://example.com:8443/",
            "https://example.org/",
            "https://www.www.example.com/",
        ] {
            assert_eq!(scope.check(&normalize(other).unwrap(), Some(1)), Err(OutOfScope::OtherSite), "{other}");
        }
    }

    #[test]
    fn include_exclude_and_depth() {
        let config = ScopeConfig {
            max_pages: 10,
            max_depth: Some(2),
            include: vec!["/blog".into(), "docs".into()],
            exclude: vec!["/blog/drafts".into()],
            strip_params: Vec::new(),
        };
        let scope = Scope::new("https://example.com/start", config).unwrap();
        let check = |u: &str, d| scope.check(&normalize(u).unwrap(), d);
        assert_eq!(check("https://example.com/start", Some(0)), Ok(()));
        assert_eq!(check("https://example.com/blog/a", Some(2)), Ok(()));
        assert_eq!(check("https://example.com/docs/x", Some(1)), Ok(()));
        assert_eq!(check("https://example.com/blog/a", Some(3)), Err(OutOfScope::TooDeep));
        assert_eq!(check("https://example.com/blog/a", None), Ok(()));
        assert_eq!(check("https://example.com/about", Some(1)), Err(OutOfScope::NotIncluded));
        assert_eq!(
            check("https://example.com/blog/drafts/1", Some(1)),
            Err(OutOfScope::Excluded { prefix: "/blog/drafts".into() })
        );
    }

    #[test]
    fn patterns_are_regular_expressions_anchored_at_the_path() {
        let config = ScopeConfig {
            include: vec![r"/(en|fr)/".into(), "shop".into()],
            exclude: vec![r".*\?(.*&)?sort=".into(), r".*\.pdf$".into()],
            ..ScopeConfig::default()
        };
        let scope = Scope::new("https://example.com/", config).unwrap();
        let check = |u: &str| scope.check(&normalize(u).unwrap(), Some(1));
        assert_eq!(check("https://example.com/en/a"), Ok(()));
        assert_eq!(check("https://example.com/fr/b?page=2"), Ok(()));
        assert_eq!(check("https://example.com/shop/x"), Ok(()), "`shop` is taken from the root");
        assert_eq!(check("https://example.com/de/en/a"), Err(OutOfScope::NotIncluded), "anchored at the path");
        assert_eq!(
            check("https://example.com/en/list?page=2&sort=price"),
            Err(OutOfScope::Excluded { prefix: r".*\?(.*&)?sort=".into() })
        );
        assert_eq!(check("https://example.com/en/guide.pdf"), Err(OutOfScope::Excluded { prefix: r".*\.pdf$".into() }));
        assert_eq!(check("https://example.com/"), Ok(()), "the start URL is always crawled");
    }

    #[test]
    fn bad_too_large_or_too_many_patterns_are_refused_naming_their_list() {
        let refused = |include: Vec<String>, exclude: Vec<String>| match Scope::new(
            "https://example.com/",
            ScopeConfig { include, exclude, ..ScopeConfig::default() },
        ) {
            Err(UrlError::Pattern(e)) => e,
            other => panic!("not refused: {other:?}"),
        };
        let e = refused(vec![], vec!["/a(".into()]);
        assert_eq!((e.list, e.pattern.as_str()), ("exclude", "/a("));
        assert!(e.reason.starts_with("is not a regular expression"), "{}", e.reason);
        let e = refused(vec![r"\w{1000}".into()], vec![]);
        assert_eq!(e.list, "include");
        assert!(e.reason.contains("compiles larger than 256 KiB"), "{}", e.reason);
        let e = refused(vec!["/a".into(); MAX_URL_PATTERNS + 1], vec![]);
        assert!(e.reason.contains("at most 20 patterns"), "{}", e.reason);
        let e = refused(vec![], vec!["/".repeat(MAX_URL_PATTERN_LEN + 1)]);
        assert_eq!(e.pattern.len(), MAX_URL_PATTERN_LEN, "the pattern is cut in the error");
        assert!(UrlPatterns::new("include", &vec!["/a".into(); MAX_URL_PATTERNS]).is_ok());
    }

    #[test]
    fn query_parameters_are_stripped_by_name_prefix_or_all() {
        let strip = |names: &[&str], url: &str| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            StripParams::new(&names).unwrap().apply(url).into_owned()
        };
        let url = "https://a.test/p?utm_source=x&id=1&utm_medium=y&ref=z&sort";
        assert_eq!(strip(&["utm_*"], url), "https://a.test/p?id=1&ref=z&sort");
        assert_eq!(strip(&["ref", "sort"], url), "https://a.test/p?utm_source=x&id=1&utm_medium=y");
        assert_eq!(strip(&["*"], url), "https://a.test/p");
        assert_eq!(strip(&["utm_*", "id", "ref", "sort"], url), "https://a.test/p", "an empty query goes with its ?");
        assert_eq!(strip(&["ID"], url), url, "names are compared as written");
        assert_eq!(strip(&[], url), url);
        assert_eq!(strip(&["id"], "https://a.test/p"), "https://a.test/p");
        for bad in [vec!["".to_string()], vec!["a=b".to_string()], vec!["a b".to_string()], vec!["x".to_string(); 51]] {
            let e = StripParams::new(&bad).unwrap_err();
            assert_eq!(e.list, "strip_params", "{bad:?}");
        }
        let config = ScopeConfig { strip_params: vec!["utm_*".into()], ..ScopeConfig::default() };
        let scope = Scope::new("https://a.test/", config).unwrap();
        assert_eq!(scope.strip_params("https://a.test/?utm_campaign=1"), "https://a.test/");
    }
}
