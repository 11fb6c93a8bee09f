//! Requests checked and typed before the server calls a use case: the pure part of turning
//! a request into a typed call (docs/API.md, "Conventions of every endpoint"). A malformed
//! request is a [`Refusal`], which the server answers as 400 with its code and details.

use serde_json::json;

use crate::body::Field;
use crate::{BatchRequest, Format, MAX_BATCH_URLS};

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

/// The URLs, format and render switch of a batch body, checked in that order (documented
/// as [`crate::BatchRequest`]).
///
/// # Errors
/// The body is not such a request.
pub fn batch(body: BatchRequest) -> Result<(Vec<String>, Format, bool), Refusal> {
    let urls = body.urls.required("urls", "an array of strings")?;
    if urls.is_empty() || urls.len() > MAX_BATCH_URLS {
        return Err(Refusal::invalid_request(format!(
            "The field `urls` must hold 1 to {MAX_BATCH_URLS} URLs, not {}.",
            urls.len()
        ))
        .with_details(json!({ "parameter": "urls", "max": MAX_BATCH_URLS })));
    }
    let format = match body.format {
        Field::Absent | Field::Given(None) => Format::Json,
        Field::Given(Some(name)) => parse_format(Some(&name))?,
        Field::Wrong => {
            return Err(Refusal::invalid_request("The field `format` must be `json` or `compact`.")
                .with_details(json!({ "parameter": "format", "allowed": ["json", "compact"] })))
        }
    };
    let render = body.render.nullable("render", "true or false")?.unwrap_or(false);
    Ok((urls, format, render))
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

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::body::parse;
    use crate::UrlRequest;

    fn check(body: Value, expected: Result<(usize, Format, bool), &str>) {
        let got = parse::<BatchRequest>(body.to_string().as_bytes()).and_then(batch);
        let got = got.map(|(u, f, r)| (u.len(), f, r)).map_err(|e| e.code.as_str());
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn batch_bodies() {
        check(json!({"urls": ["a"]}), Ok((1, Format::Json, false)));
        check(json!({"urls": ["a", "a"], "format": "compact", "render": true}), Ok((2, Format::Compact, true)));
        check(json!({"urls": ["a"], "format": null, "render": null}), Ok((1, Format::Json, false)));
        check(json!({"urls": ["a"], "format": "xml"}), Err("invalid_request"));
        check(json!({"urls": ["a"], "format": 1}), Err("invalid_request"));
        check(json!({"urls": ["a"], "render": "yes"}), Err("invalid_request"));
        check(json!({}), Err("missing_parameter"));
        check(json!({"urls": null}), Err("missing_parameter"));
        check(json!({"urls": "a"}), Err("invalid_request"));
        check(json!({"urls": [1]}), Err("invalid_request"));
        check(json!({"urls": []}), Err("invalid_request"));
        check(json!({"urls": vec!["a"; 11]}), Err("invalid_request"));
        check(json!([]), Err("invalid_request"));
        check(json!("x"), Err("invalid_request"));
    }

    #[test]
    fn batch_refusals_are_worded_as_before() {
        let refuse = |body: Value| parse::<BatchRequest>(body.to_string().as_bytes()).and_then(batch).unwrap_err();
        let r = refuse(json!({"urls": ["a"], "format": "xml", "render": 1}));
        assert_eq!(r.message, "The parameter `format` must be `json` or `compact`, not \"xml\".");
        let r = refuse(json!({"urls": ["a"], "format": 2}));
        assert_eq!(r.message, "The field `format` must be `json` or `compact`.");
        assert_eq!(r.details.as_deref(), Some(&json!({"parameter": "format", "allowed": ["json", "compact"]})));
        let r = refuse(json!({"urls": ["a"], "render": "1"}));
        assert_eq!(r.message, "The field `render` must be true or false.");
        assert_eq!(r.details.as_deref(), Some(&json!({"parameter": "render"})));
        let r = refuse(json!({"urls": [true]}));
        assert_eq!(r.message, "The field `urls` must be an array of strings.");
        assert_eq!(r.details.as_deref(), Some(&json!({"parameter": "urls"})));
        let r = refuse(json!(null));
        assert_eq!(r.message, "The request body must be a JSON object with `urls`.");
    }

    fn url(body: &str) -> Result<String, Refusal> {
        parse::<UrlRequest>(body.as_bytes()).and_then(|b| b.url.required_text("url"))
    }

    #[test]
    fn url_bodies() {
        for (body, expected) in [
            (r#"{"url": "https://a.example/"}"#, Ok("https://a.example/")),
            (r#"{"url": "a.example", "extra": 1}"#, Ok("a.example")),
            (r#"{"url": 5, "url": "b.example", "extra": 1, "extra": 2}"#, Ok("b.example")),
            (r#"{"url": "a.example", "url": null}"#, Err("missing_parameter")),
            (r#"{}"#, Err("missing_parameter")),
            (r#"{"url": null}"#, Err("missing_parameter")),
            (r#"{"url": "  "}"#, Err("missing_parameter")),
            (r#"{"url": 5}"#, Err("invalid_request")),
            (r#"{"url": ["a"]}"#, Err("invalid_request")),
            (r#"[]"#, Err("invalid_request")),
            (r#""https://a.example/""#, Err("invalid_request")),
        ] {
            assert_eq!(url(body).as_deref().map_err(|e| e.code.as_str()), expected, "{body}");
        }
        assert_eq!(url(r#"{"url": 5}"#).unwrap_err().message, "The field `url` must be a string.");
        assert_eq!(url("[1]").unwrap_err().message, "The request body must be a JSON object with `url`.");
    }

    #[test]
    fn not_json_is_named_as_such_wherever_the_fault_is() {
        for body in
            ["", "{", "[1,", "{\"url\": \"a\",}", "{\"other\": \"\\ud800\", \"url\": \"a\"}", "[\"\\x\"]", "{} x"]
        {
            let e = url(body).unwrap_err();
            assert!(e.message.starts_with("The request body is not valid JSON: "), "{body}: {}", e.message);
            let old = serde_json::from_str::<Value>(body).unwrap_err();
            assert_eq!(e.message, format!("The request body is not valid JSON: {old}."), "{body}");
        }
    }
}
