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
    /// Path prefixes: when any is given, only URLs whose path starts with one are visited
    /// (the start URL always is).
    pub include: Vec<String>,
    /// Path prefixes never visited (the start URL always is).
    pub exclude: Vec<String>,
}

impl Default for ScopeConfig {
    fn default() -> ScopeConfig {
        ScopeConfig { max_pages: 500, max_depth: None, include: Vec::new(), exclude: Vec::new() }
    }
}

/// Why a URL is outside the crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum OutOfScope {
    /// Another host (or port) than the start URL's site.
    OtherSite,
    /// Its path starts with an `exclude` prefix.
    Excluded {
        /// The prefix that matched.
        prefix: String,
    },
    /// `include` prefixes are given and its path starts with none of them.
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
            OutOfScope::NotIncluded => "not under an include prefix".to_string(),
            OutOfScope::TooDeep => "deeper than max_depth".to_string(),
        }
    }
}

/// The crawl's scope: the start URL's site and the caller's options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    start: Url,
    site: Site,
    config: ScopeConfig,
}

impl Scope {
    /// The scope of a crawl of `start` (normalised here).
    pub fn new(start: &str, mut config: ScopeConfig) -> Result<Scope, UrlError> {
        let start = normalize(start)?;
        config.include = config.include.into_iter().map(prefix).collect();
        config.exclude = config.exclude.into_iter().map(prefix).collect();
        Ok(Scope { site: Site::of(&start), start, config })
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
        let path = url.path();
        if let Some(prefix) = self.config.exclude.iter().find(|p| path.starts_with(p.as_str())) {
            return Err(OutOfScope::Excluded { prefix: prefix.clone() });
        }
        if !self.config.include.is_empty() && !self.config.include.iter().any(|p| path.starts_with(p.as_str())) {
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

/// A path prefix as compared: it starts with `/`.
fn prefix(p: String) -> String {
    let p = p.trim();
    if p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
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
}
