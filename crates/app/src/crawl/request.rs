//! The body of `POST /api/v1/crawls` and of the `crawl_site` tool (docs/API.md, "Site
//! crawl"), read and checked.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::AppError;

/// Include and exclude prefixes a crawl takes at most (each list).
pub const MAX_PREFIXES: usize = 20;

/// Sitemaps a crawl request names at most (`sitemaps: [urls]`, docs/API.md, "Site crawl"):
/// each is read beside `/sitemap.xml` and robots.txt's, within the same bounds of sitemap
/// reading, so a handful is what a site needs and a longer list only costs fetches.
pub const MAX_NAMED_SITEMAPS: usize = 10;

/// A crawl as asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlRequest {
    /// The start URL.
    pub url: String,
    /// Pages fetched at most (cut to the caller's tier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pages: Option<u32>,
    /// Click depth at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// Path prefixes a URL must start with (one of them), when given.
    #[serde(default)]
    pub include: Vec<String>,
    /// Path prefixes a URL must not start with.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Whether sitemaps are read (default true).
    #[serde(default = "yes")]
    pub sitemaps: bool,
    /// Sitemaps named by the caller (`sitemaps: [urls]` on the wire), read beside
    /// `/sitemap.xml` and robots.txt's: absolute http(s) URLs, at most
    /// [`MAX_NAMED_SITEMAPS`]. Whether they are on the crawled site is checked when the
    /// crawl starts ([`check_named_sitemaps`]), once the start URL is known after redirects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named_sitemaps: Vec<String>,
    /// The similarity in percent from which `near-duplicate-content` reports two pages
    /// (`crawl::NEAR_DUPLICATE_THRESHOLDS`; default `crawl::NEAR_DUPLICATE_SIMILARITY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_duplicate_threshold: Option<u32>,
    /// Whether each HTML page is rendered before it is audited (docs/API.md, "Rendered
    /// audits"; default false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub render: bool,
    /// Whether the links to other sites are checked for `broken-external-link` (default
    /// true; docs/RULES.md).
    #[serde(default = "yes")]
    pub external_links: bool,
}

fn yes() -> bool {
    true
}

/// Reads a crawl request from a JSON body: `url` required (`missing_parameter`), the other
/// members optional and typed, unknown members refused (all `invalid_request` naming the
/// member in `details.parameter`).
///
/// # Errors
/// Those refusals.
pub fn parse_start(body: &Value) -> Result<CrawlRequest, AppError> {
    let Some(obj) = body.as_object() else {
        return Err(AppError::body_not_object("`url`"));
    };
    if let Some(unknown) = obj.keys().find(|k| {
        !matches!(
            k.as_str(),
            "url"
                | "max_pages"
                | "max_depth"
                | "include"
                | "exclude"
                | "sitemaps"
                | "render"
                | "near_duplicate_threshold"
                | "external_links"
        )
    }) {
        return Err(AppError::unknown_field(unknown));
    }
    let url = match obj.get("url") {
        None | Some(Value::Null) => return Err(AppError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => return Err(AppError::missing_parameter("url")),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(_) => return Err(AppError::invalid_field("url", "a string")),
    };
    let count = |name: &str, min: u64| -> Result<Option<u32>, AppError> {
        match obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|n| *n >= min)
                .map(|n| Some(u32::try_from(n).unwrap_or(u32::MAX)))
                .ok_or_else(|| AppError::invalid_field(name, format!("a whole number of at least {min}"))),
        }
    };
    let prefixes = |name: &str| -> Result<Vec<String>, AppError> {
        let bad = || {
            AppError::invalid_field(name, format!("an array of at most {MAX_PREFIXES} path prefixes starting with `/`"))
        };
        match obj.get(name) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) if items.len() <= MAX_PREFIXES => items
                .iter()
                .map(|i| i.as_str().filter(|s| s.starts_with('/')).map(str::to_string).ok_or_else(bad))
                .collect(),
            Some(_) => Err(bad()),
        }
    };
    // `sitemaps` is either whether sitemaps are read at all, or the list of sitemaps to read
    // beside the usual ones (which reads them all).
    let sitemaps_bad = || {
        AppError::invalid_field(
            "sitemaps",
            format!("true, false, or an array of 1 to {MAX_NAMED_SITEMAPS} absolute http(s) sitemap URLs"),
        )
    };
    let (sitemaps, named_sitemaps) = match obj.get("sitemaps") {
        None | Some(Value::Null) => (true, Vec::new()),
        Some(Value::Bool(b)) => (*b, Vec::new()),
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_NAMED_SITEMAPS => {
            let named = items
                .iter()
                .map(|i| {
                    let s = i.as_str().map(str::trim).ok_or_else(sitemaps_bad)?;
                    match url::Url::parse(s) {
                        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(s.to_string()),
                        _ => Err(sitemaps_bad()),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            (true, named)
        }
        Some(_) => return Err(sitemaps_bad()),
    };
    let render = match obj.get("render") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AppError::invalid_field("render", "true or false")),
    };
    let external_links = match obj.get("external_links") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AppError::invalid_field("external_links", "true or false")),
    };
    let thresholds = crawl::NEAR_DUPLICATE_THRESHOLDS;
    let near_duplicate_threshold = match obj.get("near_duplicate_threshold") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|n| thresholds.contains(n)).ok_or_else(
            || {
                AppError::invalid_field(
                    "near_duplicate_threshold",
                    format!("a whole number from {} to {}", thresholds.start(), thresholds.end()),
                )
            },
        )?),
    };
    Ok(CrawlRequest {
        url,
        near_duplicate_threshold,
        render,
        max_pages: count("max_pages", 1)?,
        max_depth: count("max_depth", 0)?,
        include: prefixes("include")?,
        exclude: prefixes("exclude")?,
        sitemaps,
        named_sitemaps,
        external_links,
    })
}

/// The sitemaps `request` names, normalised, each checked to be on the site of `scope` (the
/// crawl's, its start URL known after redirects): a sitemap off the site would be ignored as
/// robots.txt's are, so it is refused instead (`invalid_request` naming `sitemaps`).
///
/// # Errors
/// That refusal.
pub fn check_named_sitemaps(request: &CrawlRequest, scope: &crawl::Scope) -> Result<Vec<String>, AppError> {
    request
        .named_sitemaps
        .iter()
        .map(|named| match crawl::normalize(named) {
            Ok(url) if scope.same_site(&url) => Ok(url.to_string()),
            Ok(_) => {
                Err(AppError::invalid_field("sitemaps", format!("sitemap URLs of the crawled site ({named} is not)")))
            }
            Err(e) => Err(AppError::invalid_field("sitemaps", format!("sitemap URLs that parse ({named}: {e})"))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(e: AppError) -> &'static str {
        match e {
            AppError::Refused(refusal) => refusal.code.as_str(),
            other => panic!("not a refusal: {other:?}"),
        }
    }

    #[test]
    fn a_request_is_read_and_checked() {
        let r = parse_start(&json!({"url": " https://a.test/ ", "max_pages": 5, "exclude": ["/tag"]})).unwrap();
        assert_eq!((r.url.as_str(), r.max_pages, r.max_depth, r.sitemaps), ("https://a.test/", Some(5), None, true));
        assert_eq!(r.exclude, ["/tag"]);
        assert_eq!(code(parse_start(&json!({})).unwrap_err()), "missing_parameter");
        assert_eq!(code(parse_start(&json!([])).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "x", "nope": 1})).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "x", "max_pages": 0})).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "x", "include": ["tag"]})).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "x", "sitemaps": "no"})).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "x", "render": "yes"})).unwrap_err()), "invalid_request");
        assert!(parse_start(&json!({"url": "x", "render": true})).unwrap().render);
        assert!(!parse_start(&json!({"url": "x"})).unwrap().render);
        let named = parse_start(&json!({"url": "x", "sitemaps": ["https://a.test/en/sitemap.xml"]})).unwrap();
        assert_eq!(
            (named.sitemaps, named.named_sitemaps.as_slice()),
            (true, &["https://a.test/en/sitemap.xml".to_string()][..])
        );
        for bad in [
            json!(["/sitemap.xml"]),
            json!(["ftp://a.test/s.xml"]),
            json!([1]),
            json!(vec!["https://a.test/s.xml"; 11]),
        ] {
            assert_eq!(
                code(parse_start(&json!({"url": "x", "sitemaps": bad})).unwrap_err()),
                "invalid_request",
                "{bad}"
            );
        }
    }

    #[test]
    fn the_near_duplicate_threshold_is_a_percentage_from_50() {
        assert_eq!(parse_start(&json!({"url": "x"})).unwrap().near_duplicate_threshold, None);
        for ok in [50, 75, 100] {
            let r = parse_start(&json!({"url": "x", "near_duplicate_threshold": ok})).unwrap();
            assert_eq!(r.near_duplicate_threshold, Some(ok));
        }
        for bad in [json!(49), json!(101), json!(90.5), json!("90"), json!(-1)] {
            let e = parse_start(&json!({"url": "x", "near_duplicate_threshold": bad})).unwrap_err();
            assert_eq!(code(e), "invalid_request", "{bad}");
        }
    }

    #[test]
    fn named_sitemaps_must_be_on_the_crawled_site() {
        let scope = crawl::Scope::new("https://a.test/", crawl::ScopeConfig::default()).unwrap();
        let ok =
            parse_start(&json!({"url": "https://a.test/", "sitemaps": ["https://a.test/en/sitemap.xml"]})).unwrap();
        assert_eq!(check_named_sitemaps(&ok, &scope).unwrap(), ["https://a.test/en/sitemap.xml"]);
        let off = parse_start(&json!({"url": "https://a.test/", "sitemaps": ["https://b.test/sitemap.xml"]})).unwrap();
        assert_eq!(code(check_named_sitemaps(&off, &scope).unwrap_err()), "invalid_request");
    }
}
