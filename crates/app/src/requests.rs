//! The JSON bodies of `POST /api/content-gap` and `POST /api/auto-fix-batch` (docs/API.md),
//! checked and typed before the use cases ([`crate::content`], [`crate::fixes`]) run.

use std::collections::HashSet;

use serde::Deserialize as _;
use serde_json::{json, Value};

use crate::content::GapRequest;
use crate::AppError;

fn wrong_type(field: &str, expected: &str) -> AppError {
    AppError::invalid_field(field, expected)
}

/// Validates a content-gap body (documented as `api::ContentGapRequest`); `null` counts as
/// absent for the optional fields.
///
/// # Errors
/// The body is not such a request.
pub fn parse_gap(body: &Value) -> Result<GapRequest, AppError> {
    let Some(obj) = body.as_object() else {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            "The request body must be a JSON object with `url`.",
        ));
    };
    let field = |name: &str| obj.get(name).filter(|v| !v.is_null());
    let raw = match field("url") {
        None => return Err(AppError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => return Err(AppError::missing_parameter("url")),
        Some(Value::String(s)) => s,
        Some(_) => return Err(wrong_type("url", "a string")),
    };
    let url = crate::validate_url(raw)?;
    let title = match field("title") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(wrong_type("title", "a string")),
    };
    let word_count = match field("wordCount") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| wrong_type("wordCount", "a non-negative integer"))?,
        ),
    };
    let headings = match field("headings") {
        None => None,
        Some(v) => Some(strings(v).ok_or_else(|| wrong_type("headings", "an array of strings"))?),
    };
    let competitors = match field("competitors") {
        None => Vec::new(),
        Some(v) => strings(v).ok_or_else(|| wrong_type("competitors", "an array of URL strings"))?,
    };
    if competitors.len() > content_gap::MAX_COMPETITORS {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            format!("`competitors` may hold at most {} URLs, not {}.", content_gap::MAX_COMPETITORS, competitors.len()),
        )
        .with_details(json!({ "parameter": "competitors", "max": content_gap::MAX_COMPETITORS })));
    }
    let mut seen = HashSet::new();
    let mut distinct = Vec::new();
    for (index, raw) in competitors.iter().enumerate() {
        let competitor = crate::validate_url(raw).map_err(|e| {
            let e = AppError::from(e);
            AppError::refused(e.error_code(), format!("Competitor {index} ({raw:?}): {}", e.message()))
                .with_details(json!({ "parameter": "competitors", "index": index, "url": raw }))
        })?;
        if seen.insert(competitor.to_string()) {
            distinct.push(competitor);
        }
    }
    Ok(GapRequest { url, title, word_count, headings, competitors: distinct })
}

fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?.iter().map(|s| s.as_str().map(str::to_string)).collect()
}

/// `{issues: [1..=MAX_BATCH objects]}` (documented as `api::AutoFixRequest`); an item
/// that is not an issue names its index.
///
/// # Errors
/// The body is not such a request.
pub fn parse_issues(body: &Value) -> Result<Vec<autofix::Issue<'static>>, AppError> {
    let Some(obj) = body.as_object() else {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            "The request body must be a JSON object with `issues`.",
        ));
    };
    let items = match obj.get("issues") {
        None | Some(Value::Null) => return Err(AppError::missing_parameter("issues")),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(wrong_type("issues", "an array of issue objects")),
    };
    if items.is_empty() || items.len() > autofix::MAX_BATCH {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            format!("The field `issues` must hold 1 to {} issues, not {}.", autofix::MAX_BATCH, items.len()),
        )
        .with_details(json!({ "parameter": "issues", "max": autofix::MAX_BATCH })));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let bad = |why: String| {
                AppError::refused(crate::ErrorCode::InvalidRequest, format!("Issue {index} is not valid: {why}."))
                    .with_details(json!({ "parameter": "issues", "index": index }))
            };
            if !item.is_object() {
                return Err(bad("it must be an object".to_string()));
            }
            let context_ok = item.get("context").is_none_or(|c| c.is_null() || c.is_object());
            if !context_ok {
                return Err(bad("`context` must be an object".to_string()));
            }
            autofix::Issue::deserialize(item).map_err(|e| bad(e.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::rules::technical::CanonicalMissing;
    use audit_core::Rule;

    fn check_gap(body: Value, expected: Result<(usize, bool), &str>) {
        let got = parse_gap(&body).map(|r| (r.competitors.len(), r.headings.is_some())).map_err(|e| e.code());
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn gap_bodies() {
        check_gap(json!({"url": "https://example.com/"}), Ok((0, false)));
        check_gap(json!({"url": "example.com", "headings": ["A"], "title": null}), Ok((0, true)));
        check_gap(
            json!({"url": "https://a.com/", "competitors": ["https://b.com/", "https://b.com/"]}),
            Ok((1, false)),
        );
        check_gap(json!({"url": "https://a.com/", "competitors": vec!["https://b.com/"; 6]}), Err("invalid_request"));
        check_gap(json!({"url": "https://a.com/", "competitors": ["ftp://b.com/"]}), Err("invalid_url"));
        check_gap(json!({"url": "https://a.com/", "competitors": "https://b.com/"}), Err("invalid_request"));
        check_gap(json!({"url": "https://a.com/", "headings": [1]}), Err("invalid_request"));
        check_gap(json!({"url": "https://a.com/", "wordCount": -1}), Err("invalid_request"));
        check_gap(json!({"url": "https://a.com/", "wordCount": 1.5}), Err("invalid_request"));
        check_gap(json!({"url": "https://a.com/", "title": 3}), Err("invalid_request"));
        check_gap(json!({"url": "ftp://a.com/"}), Err("invalid_url"));
        check_gap(json!({"url": 5}), Err("invalid_request"));
        check_gap(json!({"url": " "}), Err("missing_parameter"));
        check_gap(json!({"title": "x"}), Err("missing_parameter"));
        check_gap(json!([]), Err("invalid_request"));
    }

    fn check_issues(body: Value, expected: Result<usize, (&str, Option<u64>)>) {
        let got = parse_issues(&body).map(|i| i.len()).map_err(|e| {
            let index = e.details().and_then(|d| d["index"].as_u64());
            (e.code(), index)
        });
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn issue_bodies() {
        check_issues(json!({"issues": [{}]}), Ok(1));
        check_issues(
            json!({"issues": [{"id": CanonicalMissing.meta().id, "context": {"url": "https://a.com/"}}]}),
            Ok(1),
        );
        check_issues(json!({"issues": [{"title": "x", "context": null}]}), Ok(1));
        check_issues(json!({"issues": vec![json!({}); 50]}), Ok(50));
        check_issues(json!({"issues": vec![json!({}); 51]}), Err(("invalid_request", None)));
        check_issues(json!({"issues": []}), Err(("invalid_request", None)));
        check_issues(json!({"issues": [{}, "x"]}), Err(("invalid_request", Some(1))));
        check_issues(json!({"issues": [{"title": 5}]}), Err(("invalid_request", Some(0))));
        check_issues(json!({"issues": [{"context": "https://a.com/"}]}), Err(("invalid_request", Some(0))));
        check_issues(json!({"issues": {}}), Err(("invalid_request", None)));
        check_issues(json!({}), Err(("missing_parameter", None)));
        check_issues(json!("x"), Err(("invalid_request", None)));
    }
}
