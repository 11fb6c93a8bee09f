//! The body of `POST /api/v1/crawls` and of the `crawl_site` tool (docs/API.md, "Site
//! crawl"), read and checked.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::AppError;

/// Include and exclude prefixes a crawl takes at most (each list).
pub const MAX_PREFIXES: usize = 20;

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
    /// Whether each HTML page is rendered before it is audited (docs/API.md, "Rendered
    /// audits"; default false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub render: bool,
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
        !matches!(k.as_str(), "url" | "max_pages" | "max_depth" | "include" | "exclude" | "sitemaps" | "render")
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
    let sitemaps = match obj.get("sitemaps") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AppError::invalid_field("sitemaps", "true or false")),
    };
    let render = match obj.get("render") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AppError::invalid_field("render", "true or false")),
    };
    Ok(CrawlRequest {
        url,
        render,
        max_pages: count("max_pages", 1)?,
        max_depth: count("max_depth", 0)?,
        include: prefixes("include")?,
        exclude: prefixes("exclude")?,
        sitemaps,
    })
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
    }
}
