//! Requests checked and typed before the server calls a use case: the pure part of turning
//! a request into a typed call (docs/API.md, "Conventions of every endpoint"). A malformed
//! request is a [`Refusal`], which the server answers as 400 with its code and details.

use serde_json::{json, Value};

use crate::{Format, MAX_BATCH_URLS};

pub use vocab::Refusal;

/// The `format` of an audit request.
///
/// # Errors
/// Not a known format.
pub fn parse_format(value: Option<&str>) -> Result<Format, Refusal> {
    match value {
        None | Some("json") => Ok(Format::Json),
        Some("compact") => Ok(Format::Compact),
        Some(other) => {
            Err(Refusal::invalid_request(format!("The parameter `format` must be `json` or `compact`, not {other:?}."))
                .with_details(json!({ "parameter": "format", "allowed": ["json", "compact"] })))
        }
    }
}

/// The refusal of a batch of `needed` distinct URLs from a caller whose whole limit is
/// `limit` a minute: waiting cannot help, so it says what to send instead.
pub fn larger_than_limit(needed: usize, limit: u32, keyed: bool) -> Refusal {
    larger_than_limit_each(needed, 1, limit, keyed)
}

/// [`larger_than_limit`] for a batch whose URLs cost `each` units (a rendered batch: 5).
pub fn larger_than_limit_each(urls: usize, each: u32, limit: u32, keyed: bool) -> Refusal {
    let whose = if keyed { "this key's whole" } else { "the whole anonymous" };
    let hint = if keyed { "" } else { " An API key raises the limit." };
    let needed = urls.saturating_mul(each as usize);
    let most = limit / each.max(1);
    Refusal::invalid_request(format!(
        "This batch is larger than the rate limit: its {urls} distinct URLs need {needed} requests of quota, \
         more than {whose} limit of {limit} per minute, so it can never pass as sent. Send at most {most} \
         distinct URLs per batch.{hint}"
    ))
    .with_details(json!({ "parameter": "urls", "limit": limit, "requested": needed }))
}

/// `{urls: [1..=10 strings], format?: "json" | "compact"}` (documented as [`crate::BatchRequest`]).
///
/// # Errors
/// The body is not such a request.
pub fn parse_batch(body: &Value) -> Result<(Vec<String>, Format), Refusal> {
    let Some(obj) = body.as_object() else {
        return Err(Refusal::invalid_request("The request body must be a JSON object with `urls`."));
    };
    let urls = match obj.get("urls") {
        None | Some(Value::Null) => return Err(Refusal::missing_parameter("urls")),
        Some(Value::Array(items)) => {
            items.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<Vec<_>>>().ok_or_else(|| {
                Refusal::invalid_request("The field `urls` must be an array of strings.")
                    .with_details(json!({ "parameter": "urls" }))
            })?
        }
        Some(_) => {
            return Err(Refusal::invalid_request("The field `urls` must be an array of strings.")
                .with_details(json!({ "parameter": "urls" })))
        }
    };
    if urls.is_empty() || urls.len() > MAX_BATCH_URLS {
        return Err(Refusal::invalid_request(format!(
            "The field `urls` must hold 1 to {MAX_BATCH_URLS} URLs, not {}.",
            urls.len()
        ))
        .with_details(json!({ "parameter": "urls", "max": MAX_BATCH_URLS })));
    }
    let format = match obj.get("format") {
        None | Some(Value::Null) => Format::Json,
        Some(Value::String(s)) => parse_format(Some(s))?,
        Some(_) => {
            return Err(Refusal::invalid_request("The field `format` must be `json` or `compact`.")
                .with_details(json!({ "parameter": "format", "allowed": ["json", "compact"] })))
        }
    };
    Ok((urls, format))
}

/// The `render` switch of an audit request (docs/API.md, "Rendered audits"): `true` or
/// `1` renders, `false`, `0` or absent does not.
///
/// # Errors
/// Any other value.
pub fn parse_render(value: Option<&str>) -> Result<bool, Refusal> {
    match value.map(str::trim) {
        None | Some("false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(other) => {
            Err(Refusal::invalid_request(format!("The parameter `render` must be `true` or `false`, not {other:?}."))
                .with_details(json!({ "parameter": "render", "allowed": ["true", "false"] })))
        }
    }
}

/// The `render` field of a JSON body (a batch, a crawl): a boolean, `null` or absent
/// (false).
///
/// # Errors
/// Any other value.
pub fn body_render(body: &Value) -> Result<bool, Refusal> {
    match body.get("render") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(Refusal::invalid_request("The field `render` must be true or false.")
            .with_details(json!({ "parameter": "render" }))),
    }
}

/// The `url` of a `{url}` body (documented as [`crate::UrlRequest`]).
///
/// # Errors
/// The body is not such a request.
pub fn url_body(body: &Value) -> Result<String, Refusal> {
    let Some(obj) = body.as_object() else {
        return Err(Refusal::invalid_request("The request body must be a JSON object with `url`."));
    };
    match obj.get("url") {
        None | Some(Value::Null) => Err(Refusal::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(Refusal::missing_parameter("url")),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => {
            Err(Refusal::invalid_request("The field `url` must be a string.")
                .with_details(json!({ "parameter": "url" })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: Value, expected: Result<(usize, Format), &str>) {
        let got = parse_batch(&body).map(|(u, f)| (u.len(), f)).map_err(|e| e.code.as_str());
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn batch_bodies() {
        check(json!({"urls": ["a"]}), Ok((1, Format::Json)));
        check(json!({"urls": ["a", "a"], "format": "compact"}), Ok((2, Format::Compact)));
        check(json!({"urls": ["a"], "format": null}), Ok((1, Format::Json)));
        check(json!({"urls": ["a"], "format": "xml"}), Err("invalid_request"));
        check(json!({"urls": ["a"], "format": 1}), Err("invalid_request"));
        check(json!({}), Err("missing_parameter"));
        check(json!({"urls": null}), Err("missing_parameter"));
        check(json!({"urls": "a"}), Err("invalid_request"));
        check(json!({"urls": [1]}), Err("invalid_request"));
        check(json!({"urls": []}), Err("invalid_request"));
        check(json!({"urls": vec!["a"; 11]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        check(json!("x"), Err("invalid_request"));
    }
}

#[cfg(test)]
mod url_tests {
    use super::*;

    fn check(body: Value, expected: Result<&str, &str>) {
        let got = url_body(&body);
        assert_eq!(got.as_deref().map_err(|e| e.code.as_str()), expected, "{body}");
    }

    #[test]
    fn url_bodies() {
        check(json!({"url": "https://a.example/"}), Ok("https://a.example/"));
        check(json!({"url": "a.example", "extra": 1}), Ok("a.example"));
        check(json!({}), Err("missing_parameter"));
        check(json!({"url": null}), Err("missing_parameter"));
        check(json!({"url": "  "}), Err("missing_parameter"));
        check(json!({"url": 5}), Err("invalid_request"));
        check(json!({"url": ["a"]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        check(json!("https://a.example/"), Err("invalid_request"));
    }
}
