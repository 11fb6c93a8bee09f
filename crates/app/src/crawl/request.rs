//! The body of `POST /api/v1/crawls` and of the `crawl_site` tool (docs/API.md, "Site
//! crawl"), read and checked.

use serde::{Deserialize, Serialize};

use crate::AppError;

/// Include and exclude patterns a crawl takes at most (each list).
pub const MAX_PREFIXES: usize = crawl::MAX_URL_PATTERNS;

/// Sitemaps a crawl request names at most (`sitemaps: [urls]`, docs/API.md, "Site crawl"):
/// each is read beside `/sitemap.xml` and robots.txt's, within the same bounds of sitemap
/// reading, so a handful is what a site needs and a longer list only costs fetches.
pub const MAX_NAMED_SITEMAPS: usize = 10;

/// A crawl as asked for, checked: what the REST route, the agent tool and the tests hand to
/// [`super::Crawls::start_for`]. Kept as the crawl's options (`options_json`) in this shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlRequest {
    /// The start URL as [`crate::validate_url`] checked it: it travels typed from the caller
    /// to the crawl and is never parsed again (stored as its text).
    #[serde(with = "url_text")]
    pub url: url::Url,
    /// Pages fetched at most (cut to the caller's tier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pages: Option<u32>,
    /// Click depth at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// URL patterns one of which a URL must match, when given (`crawl::UrlPatterns`; a
    /// crawl stored when these were path prefixes reads the same: a plain path is a prefix).
    #[serde(default)]
    pub include: Vec<String>,
    /// URL patterns a URL must match none of.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Query parameters removed from every URL found (`crawl::StripParams`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strip_params: Vec<String>,
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
    /// List mode (docs/RULES.md, "List mode"): the URLs crawled beside the start URL, and
    /// no other; empty: a crawl that follows the site's links. Absolute http(s) URLs; that
    /// they are on the crawled site, and no more than its `max_pages`, is checked when the
    /// crawl starts ([`check_list`]), which keeps them normalised.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub urls: Vec<String>,
    /// Custom extraction (docs/API.md, "Custom extraction"): the extractors, checked
    /// ([`check_extractors`]); empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extract: Vec<crawl::ExtractorSpec>,
    /// The staging site's request headers, cookies and basic auth (docs/API.md, "Staging
    /// sites"), checked. Never serialised, so never part of a stored crawl's options: the
    /// crawl service holds them in memory for the crawl's life only.
    #[serde(skip)]
    pub site_headers: Option<fetch::SiteHeaders>,
    /// Who the crawl says it is: a name of `crawl::CrawlerProfile::NAMES`; absent is
    /// `default` (docs/API.md, "User agent").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
}

impl CrawlRequest {
    /// Who the crawl says it is (a name this code does not know reads as the default).
    pub fn profile(&self) -> crawl::CrawlerProfile {
        self.user_agent.as_deref().and_then(crawl::CrawlerProfile::from_name).unwrap_or_default()
    }
}

impl CrawlRequest {
    /// A request for a crawl of `url` with every other member at its default.
    pub fn of(url: url::Url) -> CrawlRequest {
        CrawlRequest {
            url,
            max_pages: None,
            max_depth: None,
            include: Vec::new(),
            exclude: Vec::new(),
            strip_params: Vec::new(),
            sitemaps: true,
            named_sitemaps: Vec::new(),
            near_duplicate_threshold: None,
            render: false,
            external_links: true,
            urls: Vec::new(),
            extract: Vec::new(),
            site_headers: None,
            user_agent: None,
        }
    }
}

fn yes() -> bool {
    true
}

/// The start URL kept as its text in a crawl's stored options (the `url` crate is built
/// without its serde support in this workspace).
mod url_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(url: &url::Url, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(url.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<url::Url, D::Error> {
        let text = String::deserialize(deserializer)?;
        url::Url::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Checks a crawl request read from a JSON body as the wire type
/// [`api::crawls::CrawlRequest`] (by `Ctx::body` on the REST route): `url` first (absent or
/// blank: `missing_parameter`; not a string: `invalid_request`), then each member's type in
/// the documented order, then a member the route does not take (`invalid_request` naming
/// it), then ranges, patterns and sitemap URLs ([`checked`]), and last the start URL as an
/// audit checks its URL ([`crate::validate_url`]); each refusal names its member in
/// `details.parameter`.
///
/// # Errors
/// Those refusals.
pub fn parse_start(wire: api::crawls::CrawlRequest) -> Result<CrawlRequest, AppError> {
    let url = wire.url.required_text("url")?;
    let typed = |member: &str| expected(member).unwrap_or_default();
    // Each member read in the documented order, named once: its refusal names it and says
    // the type it expects.
    macro_rules! member {
        ($name:ident) => {
            wire.$name.nullable(stringify!($name), &typed(stringify!($name)))?
        };
    }
    let max_pages = member!(max_pages);
    let max_depth = member!(max_depth);
    let include = member!(include);
    let exclude = member!(exclude);
    let strip_params = member!(strip_params);
    let sitemaps = member!(sitemaps);
    let render = member!(render);
    let near_duplicate_threshold = member!(near_duplicate_threshold);
    let external_links = member!(external_links);
    let urls = member!(urls);
    let extract = member!(extract);
    let headers = member!(headers);
    let cookies = member!(cookies);
    let basic_auth = member!(basic_auth);
    let user_agent = member!(user_agent);
    if let Some(member) = wire.unknown.first() {
        return Err(AppError::unknown_field(member));
    }
    checked(Members {
        url,
        max_pages,
        max_depth,
        include,
        exclude,
        strip_params,
        sitemaps,
        render,
        near_duplicate_threshold,
        external_links,
        urls,
        extract,
        headers,
        cookies,
        basic_auth,
        user_agent,
    })
}

/// Checks the arguments of the `crawl_site` agent tool, its start URL `url` checked already
/// (as the tool's `url` argument): the count of sitemaps, each sitemap URL, the patterns,
/// the parameters to strip, the extractors, the staging site's headers, then `render`
/// beside them. Each refusal is the sentence the tool answers (its text starts with the
/// error code; a URL's refusal names the argument).
///
/// # Errors
/// Those refusals.
pub fn from_tool(url: url::Url, args: api::crawls::CrawlSiteArgs) -> Result<CrawlRequest, AppError> {
    let invalid = |message: String| AppError::refused(crate::ErrorCode::InvalidRequest, message);
    if args.sitemaps.len() > MAX_NAMED_SITEMAPS {
        return Err(invalid(format!("argument sitemaps: at most {MAX_NAMED_SITEMAPS} sitemap URLs")));
    }
    for sitemap in &args.sitemaps {
        crate::validate_url(sitemap).map_err(|e| argument_refusal(AppError::Fetch(e), "sitemaps"))?;
    }
    check_patterns("include", &args.include)?;
    check_patterns("exclude", &args.exclude)?;
    check_strip_params(&args.strip_params)?;
    let extract = extractor_specs(args.extract);
    check_extractors(&extract)?;
    let site_headers = site_headers(
        args.headers.iter().map(|(name, value)| (name.as_str(), value.0.as_str())),
        args.cookies.iter().map(|c| c.0.as_str()),
        args.basic_auth.as_ref().map(|b| (b.user.as_str(), b.password.0.as_str())),
    )?;
    if args.render && site_headers.is_some() {
        return Err(invalid(
            "argument render: false when headers, cookies or basic_auth are given (the browser would fetch the \
             pages without them)"
                .to_string(),
        ));
    }
    Ok(CrawlRequest {
        max_pages: args.max_pages,
        include: args.include,
        exclude: args.exclude,
        strip_params: args.strip_params,
        named_sitemaps: args.sitemaps,
        render: args.render,
        external_links: args.external_links,
        urls: args.urls,
        extract,
        site_headers,
        user_agent: match args.user_agent {
            Some(api::crawls::UserAgent::Smartphone) => Some(crawl::CrawlerProfile::Smartphone.name().to_string()),
            _ => None,
        },
        ..CrawlRequest::of(url)
    })
}

/// The refusal of an agent tool's URL argument `name`: the error's code and sentence, the
/// argument named after it.
pub fn argument_refusal(e: AppError, name: &str) -> AppError {
    let message = format!("{} (argument {name}).", e.message().trim_end_matches('.'));
    AppError::refused(e.error_code(), message)
}

/// What each member of a crawl request must be, as its refusal says it.
fn expected(member: &str) -> Option<String> {
    Some(match member {
        "url" => "a string".to_string(),
        "max_pages" => "a whole number of at least 1".to_string(),
        "max_depth" => "a whole number of at least 0".to_string(),
        "include" | "exclude" => {
            format!(
                "an array of at most {MAX_PREFIXES} URL patterns (regular expressions, docs/API.md, \"Site crawl\")"
            )
        }
        "strip_params" => {
            format!("an array of at most {} query parameter names (`sessionid`, `utm_*`, `*`)", crawl::MAX_STRIP_PARAMS)
        }
        "sitemaps" => format!("true, false, or an array of 1 to {MAX_NAMED_SITEMAPS} absolute http(s) sitemap URLs"),
        "render" | "external_links" => "true or false".to_string(),
        "extract" => format!(
            "an array of at most {} extractors, each {{name, css, attribute?, all?}} or {{name, regex}} \
             (docs/API.md, \"Custom extraction\")",
            crawl::MAX_EXTRACTORS
        ),
        "urls" => "an array of absolute http(s) URLs of the crawled site, at most the caller's pages per crawl \
                   (list mode, docs/RULES.md)"
            .to_string(),
        "headers" => format!(
            "an object of at most {} header names and their string values (docs/API.md, \"Staging sites\")",
            fetch::MAX_SITE_HEADERS
        ),
        "cookies" => "an array of name=value strings".to_string(),
        "basic_auth" => "an object with the strings user and password".to_string(),
        "user_agent" => "\"default\" or \"smartphone\"".to_string(),
        "near_duplicate_threshold" => {
            let t = crawl::NEAR_DUPLICATE_THRESHOLDS;
            format!("a whole number from {} to {}", t.start(), t.end())
        }
        _ => return None,
    })
}

/// The members of a crawl request, each of its documented type.
struct Members {
    url: String,
    max_pages: Option<u64>,
    max_depth: Option<u64>,
    include: Option<Vec<String>>,
    exclude: Option<Vec<String>>,
    strip_params: Option<Vec<String>>,
    sitemaps: Option<api::crawls::Sitemaps>,
    render: Option<bool>,
    near_duplicate_threshold: Option<u64>,
    external_links: Option<bool>,
    urls: Option<Vec<String>>,
    extract: Option<Vec<api::crawls::Extractor>>,
    headers: Option<std::collections::BTreeMap<String, api::crawls::Secret>>,
    cookies: Option<Vec<api::crawls::Secret>>,
    basic_auth: Option<api::crawls::BasicAuth>,
    user_agent: Option<api::crawls::UserAgent>,
}

/// The members checked: ranges, the count and compiling of the patterns, the sitemap URLs'
/// shape (whether they are on the site is known at the start: [`check_named_sitemaps`]),
/// then the start URL.
///
/// # Errors
/// `invalid_request` naming the member at fault, or the start URL's refusal.
fn checked(wire: Members) -> Result<CrawlRequest, AppError> {
    let refuse = |member: &str| AppError::invalid_field(member, expected(member).unwrap_or_default());
    let count = |member: &str, value: Option<u64>, min: u64| match value {
        None => Ok(None),
        // Past u32, a count means "as many as allowed", as the tier cap cuts it anyway.
        Some(n) if n >= min => Ok(Some(u32::try_from(n).unwrap_or(u32::MAX))),
        Some(_) => Err(refuse(member)),
    };
    let include = wire.include.unwrap_or_default();
    let exclude = wire.exclude.unwrap_or_default();
    check_patterns("include", &include)?;
    check_patterns("exclude", &exclude)?;
    let strip_params = wire.strip_params.unwrap_or_default();
    check_strip_params(&strip_params)?;
    let (sitemaps, named_sitemaps) = match wire.sitemaps {
        None => (true, Vec::new()),
        Some(api::crawls::Sitemaps::Read(read)) => (read, Vec::new()),
        Some(api::crawls::Sitemaps::Named(named)) if !named.is_empty() && named.len() <= MAX_NAMED_SITEMAPS => {
            let named = named
                .iter()
                .map(|s| {
                    let s = s.trim();
                    match url::Url::parse(s) {
                        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(s.to_string()),
                        _ => Err(refuse("sitemaps")),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            (true, named)
        }
        Some(api::crawls::Sitemaps::Named(_)) => return Err(refuse("sitemaps")),
    };
    let external_links = wire.external_links.unwrap_or(true);
    let extract = extractor_specs(wire.extract.unwrap_or_default());
    check_extractors(&extract)?;
    let urls = wire.urls.unwrap_or_default();
    for (index, listed) in urls.iter().enumerate() {
        if let Err(e) = crawl::normalize(listed) {
            return Err(list_refusal(index, listed, &format!("not an absolute http(s) URL ({e})")));
        }
    }
    let headers = wire.headers.unwrap_or_default();
    let cookies = wire.cookies.unwrap_or_default();
    let site_headers = site_headers(
        headers.iter().map(|(name, value)| (name.as_str(), value.0.as_str())),
        cookies.iter().map(|c| c.0.as_str()),
        wire.basic_auth.as_ref().map(|b| (b.user.as_str(), b.password.0.as_str())),
    )?;
    let render = wire.render.unwrap_or(false);
    if render && site_headers.is_some() {
        return Err(AppError::invalid_field(
            "render",
            "false when headers, cookies or basic_auth are given (the browser of a rendered crawl would fetch \
             the pages without them)",
        ));
    }
    let thresholds = crawl::NEAR_DUPLICATE_THRESHOLDS;
    let near_duplicate_threshold = match wire.near_duplicate_threshold {
        None => None,
        Some(n) => Some(
            u32::try_from(n)
                .ok()
                .filter(|n| thresholds.contains(n))
                .ok_or_else(|| refuse("near_duplicate_threshold"))?,
        ),
    };
    let max_pages = count("max_pages", wire.max_pages, 1)?;
    let max_depth = count("max_depth", wire.max_depth, 0)?;
    let url = crate::validate_url(wire.url.trim())?;
    Ok(CrawlRequest {
        url,
        max_pages,
        max_depth,
        include,
        exclude,
        strip_params,
        sitemaps,
        named_sitemaps,
        near_duplicate_threshold,
        render,
        external_links,
        urls: urls.iter().map(|u| u.trim().to_string()).collect(),
        extract,
        site_headers,
        user_agent: match wire.user_agent {
            None | Some(api::crawls::UserAgent::Default) => None,
            Some(api::crawls::UserAgent::Smartphone) => Some(crawl::CrawlerProfile::Smartphone.name().to_string()),
        },
    })
}

/// The headers, cookies and basic auth of a crawl of a staging site, checked
/// ([`fetch::SiteHeaders`]: names, values, the names refused, the bounds); `None` when none
/// is given.
///
/// # Errors
/// `invalid_request` naming the field (`headers`, `cookies` or `basic_auth`) and the header
/// in `details`, never the value.
pub fn site_headers<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    cookies: impl IntoIterator<Item = &'a str>,
    basic_auth: Option<(&str, &str)>,
) -> Result<Option<fetch::SiteHeaders>, AppError> {
    let mut site = fetch::SiteHeaders::new();
    for (name, value) in headers {
        site.header(name, value).map_err(|e| site_header_refusal(&e))?;
    }
    for cookie in cookies {
        site.cookie(cookie).map_err(|e| site_header_refusal(&e))?;
    }
    if let Some((user, password)) = basic_auth {
        site.basic_auth(user, password).map_err(|e| site_header_refusal(&e))?;
    }
    Ok((!site.is_empty()).then_some(site))
}

/// The refusal of a staging site's header: `invalid_request` naming its field in
/// `details.parameter` and the header's name in `details.header` (its value is a secret and
/// is never echoed).
pub fn site_header_refusal(e: &fetch::SiteHeaderError) -> AppError {
    let message = format!("The field `{}` is refused: {e}.", e.field);
    AppError::refused(crate::ErrorCode::InvalidRequest, message)
        .with_details(serde_json::json!({ "parameter": e.field, "header": e.header }))
}

/// The extractors of a request on the wire (the REST body's and the `crawl_site` tool's
/// `extract`) as the crawl engine takes them.
pub fn extractor_specs(wire: Vec<api::crawls::Extractor>) -> Vec<crawl::ExtractorSpec> {
    wire.into_iter()
        .map(|e| crawl::ExtractorSpec {
            name: e.name,
            css: e.css,
            attribute: e.attribute,
            all: e.all.unwrap_or(false),
            regex: e.regex,
        })
        .collect()
}

/// The extractors `specs` checked and compiled (`crawl::Extractors::new`).
///
/// # Errors
/// `invalid_request` naming `extract` in `details.parameter` and the extractor at fault in
/// `details.extractor`.
pub fn check_extractors(specs: &[crawl::ExtractorSpec]) -> Result<crawl::Extractors, AppError> {
    crawl::Extractors::new(specs).map_err(|e| {
        AppError::refused(crate::ErrorCode::InvalidRequest, format!("The field `extract` is refused: {e}."))
            .with_details(serde_json::json!({ "parameter": "extract", "extractor": e.name }))
    })
}

/// The refusal of `listed`, the URL at `index` of a crawl's `urls`: `invalid_request` naming
/// the member and the index in `details`.
fn list_refusal(index: usize, listed: &str, why: &str) -> AppError {
    let shown = crawl::cut_marked(listed, 200);
    AppError::refused(
        crate::ErrorCode::InvalidRequest,
        format!("The field `urls` is refused: urls[{index}] ({shown}) is {why}."),
    )
    .with_details(serde_json::json!({ "parameter": "urls", "index": index }))
}

/// The list of a list-mode crawl (`request.urls`, docs/RULES.md "List mode") checked against
/// its `scope` (the start URL known after redirects) and `max_pages`: each URL normalised and
/// on the crawled site, each once, and no more URLs, the start URL counted, than `max_pages`
/// (a longer list is refused, never cut). Empty for a crawl that follows links.
///
/// # Errors
/// `invalid_request` naming `urls`: with the index of a URL that does not parse or is off the
/// site, or with the limit when the list is too long.
pub fn check_list(request: &CrawlRequest, scope: &crawl::Scope, max_pages: u32) -> Result<Vec<String>, AppError> {
    let mut seen = std::collections::HashSet::from([scope.start().to_string()]);
    let mut list = Vec::with_capacity(request.urls.len());
    for (index, listed) in request.urls.iter().enumerate() {
        let url = match crawl::normalize(listed) {
            Ok(url) if scope.same_site(&url) => url,
            Ok(_) => return Err(list_refusal(index, listed, &format!("not on the crawled site ({})", scope.start()))),
            Err(e) => return Err(list_refusal(index, listed, &format!("not an absolute http(s) URL ({e})"))),
        };
        if seen.insert(url.to_string()) {
            list.push(url.to_string());
        }
    }
    if !list.is_empty() && seen.len() > max_pages as usize {
        let message = format!(
            "The field `urls` is refused: the list and the start URL are {} URLs, over this crawl's limit of {max_pages} \
             pages (a list is crawled whole or not at all).",
            seen.len()
        );
        return Err(AppError::refused(crate::ErrorCode::InvalidRequest, message)
            .with_details(serde_json::json!({ "parameter": "urls", "limit": max_pages })));
    }
    Ok(list)
}

/// The `include` or `exclude` patterns (`member`) compiled once to check them
/// (`crawl::UrlPatterns::new`: count, length, syntax and compiled size).
///
/// # Errors
/// `invalid_request` naming `member`, with the pattern and what is wrong with it.
pub fn check_patterns(member: &'static str, patterns: &[String]) -> Result<(), AppError> {
    crawl::UrlPatterns::new(member, patterns).map(|_| ()).map_err(|e| pattern_refusal(&e))
}

/// The `strip_params` names checked (`crawl::StripParams::new`: count, length, characters).
///
/// # Errors
/// `invalid_request` naming `strip_params`, with the name and what is wrong with it.
pub fn check_strip_params(names: &[String]) -> Result<(), AppError> {
    crawl::StripParams::new(names).map(|_| ()).map_err(|e| pattern_refusal(&e))
}

/// The refusal of a pattern: `invalid_request` naming its member in `details.parameter`.
pub fn pattern_refusal(e: &crawl::PatternError) -> AppError {
    let message = format!("The field `{}` is refused: {e}.", e.list);
    AppError::refused(crate::ErrorCode::InvalidRequest, message)
        .with_details(serde_json::json!({ "parameter": e.list, "pattern": e.pattern }))
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

    /// The `crawl_site` tool's arguments checked as the tool answers them.
    fn from_tool_json(args: serde_json::Value) -> Result<CrawlRequest, (String, String)> {
        let url = url::Url::parse("http://a.example/").unwrap();
        let args = serde_json::from_value::<api::crawls::CrawlSiteArgs>(args).unwrap();
        from_tool(url, args).map_err(|e| match e {
            AppError::Refused(r) => (r.code.as_str().to_string(), r.message),
            other => panic!("not a refusal: {other:?}"),
        })
    }

    #[test]
    fn the_tools_arguments_are_checked_in_its_order_with_its_sentences() {
        let many = vec!["http://a.example/s.xml"; MAX_NAMED_SITEMAPS + 1];
        let (code, message) = from_tool_json(json!({ "url": "x", "sitemaps": many, "include": ["("] })).unwrap_err();
        assert_eq!(
            (code.as_str(), message.as_str()),
            ("invalid_request", "argument sitemaps: at most 10 sitemap URLs")
        );
        let (code, message) = from_tool_json(json!({ "url": "x", "sitemaps": ["ftp://a.example/s.xml"] })).unwrap_err();
        assert_eq!(code, "invalid_url");
        assert!(message.ends_with(" (argument sitemaps)."), "{message}");
        let (_, message) = from_tool_json(json!({ "url": "x", "include": ["("], "exclude": ["("] })).unwrap_err();
        assert!(message.starts_with("The field `include` is refused"), "{message}");
        let (_, message) = from_tool_json(json!({ "url": "x", "render": true, "cookies": ["a=b"] })).unwrap_err();
        assert_eq!(
            message,
            "argument render: false when headers, cookies or basic_auth are given (the browser would fetch the pages \
             without them)"
        );
    }

    #[test]
    fn the_tools_arguments_become_the_crawl_request() {
        let args = json!({
            "url": "x", "max_pages": 7, "sitemaps": ["http://a.example/s.xml"], "external_links": false,
            "user_agent": "smartphone", "extract": [{ "name": "h1", "css": "h1" }], "headers": { "X-Stage": "1" },
        });
        let request = from_tool_json(args).unwrap();
        assert_eq!(request.url.as_str(), "http://a.example/");
        assert_eq!((request.max_pages, request.render, request.external_links), (Some(7), false, false));
        assert_eq!(request.named_sitemaps, ["http://a.example/s.xml"]);
        assert_eq!(request.user_agent.as_deref(), Some("smartphone"));
        assert_eq!(request.extract.len(), 1);
        assert!(request.site_headers.is_some());
        let plain = from_tool_json(json!({ "url": "x", "user_agent": "default" })).unwrap();
        assert_eq!(plain, CrawlRequest::of(url::Url::parse("http://a.example/").unwrap()));
    }

    /// A body read as the REST route reads it, then checked.
    fn parse_start(body: &serde_json::Value) -> Result<CrawlRequest, AppError> {
        let wire = api::body::parse::<api::crawls::CrawlRequest>(body.to_string().as_bytes())?;
        super::parse_start(wire)
    }

    fn code(e: AppError) -> &'static str {
        e.error_code().as_str()
    }

    #[test]
    fn a_request_is_read_and_checked() {
        let r = parse_start(&json!({"url": " https://a.test/ ", "max_pages": 5, "exclude": ["/tag"]})).unwrap();
        assert_eq!((r.url.as_str(), r.max_pages, r.max_depth, r.sitemaps), ("https://a.test/", Some(5), None, true));
        assert_eq!(code(parse_start(&json!({"url": "ftp://a.test/"})).unwrap_err()), "invalid_url");
        assert_eq!(r.exclude, ["/tag"]);
        assert_eq!(code(parse_start(&json!({})).unwrap_err()), "missing_parameter");
        assert_eq!(code(parse_start(&json!([])).unwrap_err()), "invalid_request");
        assert_eq!(code(parse_start(&json!({"url": "https://a.test/", "nope": 1})).unwrap_err()), "invalid_request");
        assert_eq!(
            code(parse_start(&json!({"url": "https://a.test/", "max_pages": 0})).unwrap_err()),
            "invalid_request"
        );
        assert_eq!(
            code(parse_start(&json!({"url": "https://a.test/", "include": ["/tag("]})).unwrap_err()),
            "invalid_request"
        );
        assert_eq!(
            code(parse_start(&json!({"url": "https://a.test/", "include": [1]})).unwrap_err()),
            "invalid_request"
        );
        assert_eq!(
            code(parse_start(&json!({"url": "https://a.test/", "sitemaps": "no"})).unwrap_err()),
            "invalid_request"
        );
        assert_eq!(
            code(parse_start(&json!({"url": "https://a.test/", "render": "yes"})).unwrap_err()),
            "invalid_request"
        );
        assert!(parse_start(&json!({"url": "https://a.test/", "render": true})).unwrap().render);
        assert!(!parse_start(&json!({"url": "https://a.test/"})).unwrap().render);
        let named =
            parse_start(&json!({"url": "https://a.test/", "sitemaps": ["https://a.test/en/sitemap.xml"]})).unwrap();
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
                code(parse_start(&json!({"url": "https://a.test/", "sitemaps": bad})).unwrap_err()),
                "invalid_request",
                "{bad}"
            );
        }
    }

    fn parameter(e: AppError) -> String {
        match e {
            AppError::Refused(refusal) => {
                assert_eq!(refusal.code.as_str(), "invalid_request", "{refusal:?}");
                refusal.details.as_ref().and_then(|d| d["parameter"].as_str()).unwrap_or_default().to_string()
            }
            other => panic!("not a refusal: {other:?}"),
        }
    }

    #[test]
    fn each_refusal_names_the_member_at_fault() {
        for (body, member) in [
            (json!({"url": 5}), "url"),
            (json!({"url": 5, "include": ["/a"], "render": true}), "url"),
            (json!({"url": "https://a.test/", "max_pages": "5"}), "max_pages"),
            (json!({"url": "https://a.test/", "max_pages": 0}), "max_pages"),
            (json!({"url": "https://a.test/", "max_depth": -1}), "max_depth"),
            (json!({"url": "https://a.test/", "include": "/a"}), "include"),
            (json!({"url": "https://a.test/", "exclude": ["/a", 2]}), "exclude"),
            (json!({"url": "https://a.test/", "exclude": ["/a[", "/b"]}), "exclude"),
            (json!({"url": "https://a.test/", "include": vec!["/a"; MAX_PREFIXES + 1]}), "include"),
            (json!({"url": "https://a.test/", "include": [r"\w{2000}"]}), "include"),
            (json!({"url": "https://a.test/", "sitemaps": []}), "sitemaps"),
            (json!({"url": "https://a.test/", "render": 1}), "render"),
            (json!({"url": "https://a.test/", "strip_params": ["a=b"]}), "strip_params"),
            (json!({"url": "https://a.test/", "strip_params": "utm_*"}), "strip_params"),
            (json!({"url": "https://a.test/", "near_duplicate_threshold": 20}), "near_duplicate_threshold"),
            (json!({"url": "https://a.test/", "render": true, "nope": 1}), "nope"),
            // Several faults: the first in the documented order, then an unknown member.
            (json!({"url": "https://a.test/", "render": 1, "max_pages": "5"}), "max_pages"),
            (json!({"url": "https://a.test/", "nope": 1, "render": 1}), "render"),
            (json!({"url": "https://a.test/", "zed": 1, "nope": 1}), "zed"),
        ] {
            assert_eq!(parameter(parse_start(&body).unwrap_err()), member, "{body}");
        }
        // A count past u32 is as many as allowed (the tier cap cuts it), as before.
        let huge = parse_start(&json!({"url": "https://a.test/", "max_pages": 1_u64 << 40})).unwrap();
        assert_eq!(huge.max_pages, Some(u32::MAX));
        let null =
            parse_start(&json!({"url": "https://a.test/", "include": null, "sitemaps": null, "render": null})).unwrap();
        assert_eq!((null.include.len(), null.sitemaps, null.render), (0, true, false));
        let patterns =
            parse_start(&json!({"url": "https://a.test/", "include": ["/(en|fr)/"], "exclude": [".*\\?"]})).unwrap();
        assert_eq!((patterns.include, patterns.exclude), (vec!["/(en|fr)/".to_string()], vec![".*\\?".to_string()]));
    }

    #[test]
    fn staging_headers_are_checked_and_never_serialised() {
        let body = json!({
            "url": "https://staging.a.test/",
            "headers": {"X-Preview": "tok-123"},
            "cookies": ["session=cookie-456"],
            "basic_auth": {"user": "team", "password": "pass-789"},
        });
        let r = parse_start(&body).unwrap();
        let site = r.site_headers.as_ref().unwrap();
        assert_eq!(site.names(), ["x-preview", "cookie", "authorization"]);
        // What a crawl stores of its request, and what its Debug shows, carry none of them.
        for shown in [serde_json::to_string(&r).unwrap(), format!("{r:?}")] {
            assert!(["tok-123", "cookie-456", "pass-789"].iter().all(|s| !shown.contains(s)), "{shown}");
        }
        for (body, member) in [
            (json!({"url": "x", "headers": {"Host": "evil.test"}}), "headers"),
            (json!({"url": "x", "headers": {"Content-Length": "5"}}), "headers"),
            (json!({"url": "x", "headers": {"Connection": "close"}}), "headers"),
            (json!({"url": "x", "headers": {"X-A": 1}}), "headers"),
            (json!({"url": "x", "headers": ["X-A: b"]}), "headers"),
            (json!({"url": "x", "cookies": ["no-value"]}), "cookies"),
            (json!({"url": "x", "cookies": "a=b"}), "cookies"),
            (json!({"url": "x", "basic_auth": {"user": "a"}}), "basic_auth"),
            (json!({"url": "x", "basic_auth": {"user": "a:b", "password": "c"}}), "basic_auth"),
            (json!({"url": "x", "render": true, "cookies": ["a=b"]}), "render"),
            (json!({"url": "x", "user_agent": "desktop"}), "user_agent"),
            (json!({"url": "x", "user_agent": 1}), "user_agent"),
        ] {
            assert_eq!(parameter(parse_start(&body).unwrap_err()), member, "{body}");
        }
        let many: serde_json::Map<String, serde_json::Value> =
            (0..=fetch::MAX_SITE_HEADERS).map(|i| (format!("x-h{i}"), json!("v"))).collect();
        assert_eq!(parameter(parse_start(&json!({"url": "x", "headers": many})).unwrap_err()), "headers");
        // A refusal names the header, never its value.
        let e = parse_start(&json!({"url": "x", "headers": {"Host": "hidden-value"}})).unwrap_err();
        assert!(!format!("{e:?}").contains("hidden-value"), "{e:?}");
    }

    #[test]
    fn the_user_agent_is_a_profile_kept_with_the_crawl() {
        let phone = parse_start(&json!({"url": "x", "user_agent": "smartphone"})).unwrap();
        assert_eq!(phone.profile(), crawl::CrawlerProfile::Smartphone);
        assert!(serde_json::to_string(&phone).unwrap().contains(r#""user_agent":"smartphone""#));
        let default = parse_start(&json!({"url": "x", "user_agent": "default"})).unwrap();
        assert_eq!((default.profile(), default.user_agent), (crawl::CrawlerProfile::SeoAuditBot, None));
    }

    #[test]
    fn the_near_duplicate_threshold_is_a_percentage_from_50() {
        assert_eq!(parse_start(&json!({"url": "https://a.test/"})).unwrap().near_duplicate_threshold, None);
        for ok in [50, 75, 100] {
            let r = parse_start(&json!({"url": "https://a.test/", "near_duplicate_threshold": ok})).unwrap();
            assert_eq!(r.near_duplicate_threshold, Some(ok));
        }
        for bad in [json!(49), json!(101), json!(90.5), json!("90"), json!(-1)] {
            let e = parse_start(&json!({"url": "https://a.test/", "near_duplicate_threshold": bad})).unwrap_err();
            assert_eq!(code(e), "invalid_request", "{bad}");
        }
    }

    #[test]
    fn a_list_is_on_the_site_and_within_max_pages() {
        let scope = crawl::Scope::new("https://a.test/", crawl::ScopeConfig::default()).unwrap();
        let r = parse_start(&json!({"url": "https://a.test/", "urls": ["https://a.test/x#top", " https://www.a.test/y", "https://a.test/x", "https://a.test/"]}))
            .unwrap();
        assert_eq!(
            check_list(&r, &scope, 3).unwrap(),
            ["https://a.test/x", "https://www.a.test/y"],
            "normalised, each once"
        );
        let e = check_list(&r, &scope, 2).unwrap_err();
        let AppError::Refused(refusal) = e else { panic!("not a refusal") };
        assert_eq!(refusal.details.as_ref().unwrap()["limit"], 2);
        let off =
            parse_start(&json!({"url": "https://a.test/", "urls": ["https://a.test/1", "https://b.test/2"]})).unwrap();
        let AppError::Refused(refusal) = check_list(&off, &scope, 10).unwrap_err() else { panic!("not a refusal") };
        assert_eq!(refusal.code.as_str(), "invalid_request");
        assert_eq!(refusal.details.as_ref().unwrap()["index"], 1);
        assert!(refusal.message.contains("urls[1]"), "{}", refusal.message);
        for bad in [json!(["/relative"]), json!(["ftp://a.test/x"]), json!([1]), json!("https://a.test/")] {
            let e = parse_start(&json!({"url": "https://a.test/", "urls": bad})).unwrap_err();
            assert_eq!(parameter(e), "urls", "{bad}");
        }
        assert!(check_list(&parse_start(&json!({"url": "https://a.test/"})).unwrap(), &scope, 1).unwrap().is_empty());
    }

    #[test]
    fn extractors_are_checked_naming_the_one_at_fault() {
        let r = parse_start(
            &json!({"url": "x", "extract": [{"name": "h1", "css": "h1"}, {"name": "sku", "regex": "SKU-(\\d+)"}]}),
        )
        .unwrap();
        assert_eq!(r.extract.len(), 2);
        for (extract, name) in [
            (json!([{"name": "a", "css": "h1["}]), "a"),
            (json!([{"name": "a", "css": "h1"}, {"name": "b", "regex": "("}]), "b"),
            (json!([{"name": "a", "regex": "\\w{1000}"}]), "a"),
            (json!([{"name": "a"}]), "a"),
        ] {
            let AppError::Refused(refusal) = parse_start(&json!({"url": "x", "extract": extract})).unwrap_err() else {
                panic!("not a refusal")
            };
            assert_eq!(refusal.code.as_str(), "invalid_request");
            let details = refusal.details.as_ref().unwrap();
            assert_eq!((details["parameter"].as_str(), details["extractor"].as_str()), (Some("extract"), Some(name)));
        }
        for bad in [json!([{"name": "a", "css": "h1", "xpath": "//h1"}]), json!({"name": "a"}), json!([1])] {
            assert_eq!(parameter(parse_start(&json!({"url": "x", "extract": bad})).unwrap_err()), "extract");
        }
        let eleven: Vec<_> = (0..11).map(|i| json!({"name": format!("e{i}"), "css": "h1"})).collect();
        assert_eq!(parameter(parse_start(&json!({"url": "x", "extract": eleven})).unwrap_err()), "extract");
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
