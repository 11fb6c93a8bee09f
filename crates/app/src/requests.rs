//! The typed bodies of `POST /api/content-gap` and `POST /api/auto-fix-batch` (docs/API.md,
//! [`api::ContentGapRequest`], [`api::AutoFixRequest`]) checked into the inputs of the use
//! cases ([`crate::content`], [`crate::fixes`]): each field in the documented order, `null`
//! counting as absent for the optional ones.

use std::collections::HashSet;

use serde_json::json;

use crate::content::GapRequest;
use crate::AppError;

/// Checks a content-gap request.
///
/// # Errors
/// A field is missing, of the wrong type or out of range, or a URL is not one this service
/// audits.
pub fn gap(body: api::ContentGapRequest) -> Result<GapRequest, AppError> {
    let raw = body.url.required_text("url")?;
    let url = crate::validate_url(&raw)?;
    let title = body.title.nullable("title", "a string")?;
    let word_count = body
        .word_count
        .nullable("wordCount", "a non-negative integer")?
        .map(|n| usize::try_from(n).map_err(|_| api::body::wrong_type("wordCount", "a non-negative integer")))
        .transpose()?;
    let headings = body.headings.nullable("headings", "an array of strings")?;
    let competitors = body.competitors.nullable("competitors", "an array of URL strings")?.unwrap_or_default();
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

/// Checks the arguments of the `analyze_content_gap` agent tool: the URL, at most
/// [`content_gap::MAX_COMPETITORS`] competitors, each a URL (duplicates dropped), the title
/// trimmed (blank: none). Each refusal is the sentence the tool answers, naming the argument.
///
/// # Errors
/// Those refusals.
pub fn gap_args(args: api::ContentGapArgs) -> Result<GapRequest, AppError> {
    let argument = |raw: &str, name: &str| {
        crate::validate_url(raw).map_err(|e| crate::crawl::argument_refusal(AppError::Fetch(e), name))
    };
    let url = argument(&args.url, "url")?;
    let given = args.competitors.unwrap_or_default();
    if given.len() > content_gap::MAX_COMPETITORS {
        let max = content_gap::MAX_COMPETITORS;
        let message = format!("`competitors` may hold at most {max} URLs, not {}.", given.len());
        return Err(AppError::refused(crate::ErrorCode::InvalidRequest, message));
    }
    let mut competitors: Vec<url::Url> = Vec::new();
    for (index, raw) in given.iter().enumerate() {
        let competitor = argument(raw, &format!("competitors[{index}]"))?;
        if !competitors.contains(&competitor) {
            competitors.push(competitor);
        }
    }
    Ok(GapRequest {
        url,
        title: args.title.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string),
        word_count: args.word_count.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        headings: args.headings,
        competitors,
    })
}

/// Checks an auto-fix request: 1 to [`autofix::MAX_BATCH`] issues; an item that is not an
/// issue names its index.
///
/// # Errors
/// The request is not such a list.
pub fn issues(body: api::AutoFixRequest) -> Result<Vec<autofix::Issue<'static>>, AppError> {
    let items = body.issues.required("issues", "an array of issue objects")?;
    if items.is_empty() || items.len() > autofix::MAX_BATCH {
        return Err(AppError::refused(
            crate::ErrorCode::InvalidRequest,
            format!("The field `issues` must hold 1 to {} issues, not {}.", autofix::MAX_BATCH, items.len()),
        )
        .with_details(json!({ "parameter": "issues", "max": autofix::MAX_BATCH })));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(index, api::AutoFixItem(item))| {
            item.map_err(|why| {
                AppError::refused(crate::ErrorCode::InvalidRequest, format!("Issue {index} is not valid: {why}."))
                    .with_details(json!({ "parameter": "issues", "index": index }))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use audit_core::rules::technical::CanonicalMissing;
    use audit_core::Rule;
    use serde_json::Value;

    fn parse_gap(body: &Value) -> Result<GapRequest, AppError> {
        gap(api::body::parse(body.to_string().as_bytes())?)
    }

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
        check_gap(json!({"title": 3}), Err("missing_parameter"));
        check_gap(json!([]), Err("invalid_request"));
    }

    #[test]
    fn gap_refusals_name_the_first_faulty_field_in_the_documented_order() {
        let refused = |body: Value| parse_gap(&body).unwrap_err();
        let e = refused(json!({"headings": "x", "title": 3, "url": "https://a.com/"}));
        assert_eq!(e.message(), "The field `title` must be a string.");
        assert_eq!(e.details(), Some(json!({"parameter": "title"})));
        let e = refused(json!({"url": "https://a.com/", "wordCount": -1}));
        assert_eq!(e.message(), "The field `wordCount` must be a non-negative integer.");
        let e = refused(json!({"url": "https://a.com/", "competitors": [1]}));
        assert_eq!(e.message(), "The field `competitors` must be an array of URL strings.");
        let e = refused(json!({"url": "https://a.com/", "competitors": ["https://b.com/", "ftp://c.com/"]}));
        assert_eq!(e.details(), Some(json!({"parameter": "competitors", "index": 1, "url": "ftp://c.com/"})));
        let e = refused(json!(1));
        assert_eq!(e.message(), "The request body must be a JSON object with `url`.");
    }

    fn parse_issues(body: &Value) -> Result<Vec<autofix::Issue<'static>>, AppError> {
        issues(api::body::parse(body.to_string().as_bytes())?)
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

    #[test]
    fn issue_refusals_keep_serdes_sentence() {
        let e = parse_issues(&json!({"issues": [{}, {"title": 5}]})).unwrap_err();
        assert_eq!(e.message(), "Issue 1 is not valid: invalid type: integer `5`, expected a string.");
        let e = parse_issues(&json!({"issues": [[]]})).unwrap_err();
        assert_eq!(e.message(), "Issue 0 is not valid: it must be an object.");
        let e = parse_issues(&json!({"issues": [{"context": []}]})).unwrap_err();
        assert_eq!(e.message(), "Issue 0 is not valid: `context` must be an object.");
        let e = parse_issues(&json!({"issues": 1})).unwrap_err();
        assert_eq!(e.message(), "The field `issues` must be an array of issue objects.");
    }
}
