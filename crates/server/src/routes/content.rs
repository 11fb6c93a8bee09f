//! `POST /api/content-gap` and `POST /api/auto-fix-batch` (docs/API.md).
//!
//! Choices this project made (also in docs/API.md):
//! - A content-gap request costs one quota unit however many competitors it names: the
//!   competitors are part of the one analysis the client asked for. It takes one audit slot
//!   for the whole request (503 when the server is full), and the page's audit is stored like
//!   every audit, so badges and reports see it.
//! - Competitors are fetched (at most [`COMPETITOR_CONCURRENCY`] at a time, duplicates once),
//!   parsed but not audited; one that cannot be fetched, or answers a non-2xx status, is left
//!   out and named in `skippedCompetitors`; only the page itself failing fails the request.
//! - Auto-fix never fetches: an issue's `context.url` only fills templates, so a batch of 50
//!   answers at once and cannot be used to make the service fetch 50 pages for one unit.

use std::collections::HashSet;

use futures_util::StreamExt;
use serde::Deserialize as _;
use serde_json::{json, Value};
use url::Url;

use crate::auth::{authenticate_metered, consume_quota, KeyRule};
use crate::error::ApiError;
use crate::response::ok_json;
use crate::router::{Ctx, HandlerFuture};
use crate::state::AppState;

/// Competitor pages fetched at once by one content-gap request.
pub const COMPETITOR_CONCURRENCY: usize = 3;

/// `POST /api/content-gap` with `{url, title?, wordCount?, headings?, competitors?}`.
pub fn content_gap(ctx: Ctx) -> HandlerFuture {
    Box::pin(gap(ctx))
}

/// `POST /api/auto-fix-batch` with `{issues: [1..=50 issues]}`.
pub fn auto_fix_batch(ctx: Ctx) -> HandlerFuture {
    Box::pin(fixes(ctx))
}

/// A validated content-gap body.
#[derive(Debug)]
struct GapRequest {
    url: Url,
    title: Option<String>,
    word_count: Option<usize>,
    headings: Option<Vec<String>>,
    /// Distinct competitor URLs, in the order given.
    competitors: Vec<Url>,
}

async fn gap(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some("audit")).await?;
    let body = ctx.json_body().await?;
    let req = parse_gap(&body)?;
    // Admission first, quota second, as for audits: a full server charges nothing. Every
    // page analysed (the page and each competitor) takes its own place in the audit queue.
    // The request costs one unit however many competitors it compares.
    let mut tickets =
        ctx.state.app.admit_charged(1 + req.competitors.len(), |_| consume_quota(&ctx, &identity, 1).map(drop))?;
    let competitor_tickets = tickets.split_off(1);
    let ticket = tickets.pop().ok_or_else(|| ApiError::internal("no audit ticket"))?;

    // The page goes through the one audit path (stored like every audit); competitors are
    // fetched and parsed, each in its own slot, not audited.
    let (page, competitors) = tokio::join!(
        ctx.state.app.run_audit(&req.url, identity.user_id(), ticket),
        fetch_competitors(&ctx.state, &req.competitors, competitor_tickets)
    );
    let page = page?.audit.page;
    let (pages, skipped) = competitors;

    let input = content_gap::GapInput {
        url: req.url.to_string(),
        title: req.title,
        word_count: req.word_count,
        headings: req.headings,
        page: Some(&page),
        competitors: &pages,
    };
    let report = content_gap::analyze(&input);
    let mut out = json!({ "ok": true, "api_version": audit_core::API_VERSION, "url": req.url.as_str() });
    if let (Some(out), Ok(Value::Object(fields))) = (out.as_object_mut(), serde_json::to_value(&report)) {
        out.extend(fields);
        out.insert("competitorsCompared".into(), json!(pages.len()));
        out.insert("skippedCompetitors".into(), Value::Array(skipped));
    }
    Ok(ok_json(&out))
}

/// Fetches and parses the competitors: the pages that could be compared, in the order given,
/// and `{url, code, message}` for each one left out.
async fn fetch_competitors(
    state: &AppState,
    urls: &[Url],
    tickets: Vec<app::Ticket>,
) -> (Vec<audit_core::Page>, Vec<Value>) {
    let outcomes: Vec<(Url, Result<audit_core::Page, ApiError>)> =
        futures_util::stream::iter(urls.iter().cloned().zip(tickets))
            .map(|(url, ticket)| async move {
                let page = match ticket.ready().await {
                    Ok(slot) => fetch_competitor(state, &url, slot).await,
                    Err(e) => Err(e.into()),
                };
                (url, page)
            })
            .buffered(COMPETITOR_CONCURRENCY)
            .collect()
            .await;
    let mut pages = Vec::new();
    let mut skipped = Vec::new();
    for (url, outcome) in outcomes {
        match outcome {
            Ok(page) => pages.push(page),
            Err(e) => {
                if let Some(cause) = &e.cause {
                    tracing::error!(url = %url, cause = %cause, "competitor failed");
                }
                let mut entry = json!({ "url": url.as_str(), "code": e.code, "message": e.message });
                if let Some(details) = e.details {
                    entry["details"] = *details;
                }
                skipped.push(entry);
            }
        }
    }
    (pages, skipped)
}

async fn fetch_competitor(
    state: &AppState,
    url: &Url,
    slot: tokio::sync::OwnedSemaphorePermit,
) -> Result<audit_core::Page, ApiError> {
    let fetched = state.fetcher.fetch_page(url).await?;
    // An error page's headings say nothing about what the competitor covers.
    if !(200..300).contains(&fetched.status) {
        return Err(ApiError::new(
            http::StatusCode::BAD_GATEWAY,
            "target_status",
            format!("The competitor answered HTTP {}.", fetched.status),
        )
        .with_details(json!({ "status": fetched.status })));
    }
    let requested = url.to_string();
    crate::pipeline::analyse_blocking(Some(slot), state.analysis_limits(), move |budget| {
        let http = crate::pipeline::http_facts(&requested, &fetched, None);
        audit_core::Page::parse_within(&requested, &fetched.body, http, budget)
    })
    .await
    .map_err(|e| ApiError::internal(format!("competitor parse failed: {e}")))
}

fn wrong_type(field: &str, expected: &str) -> ApiError {
    ApiError::invalid_request(format!("`{field}` must be {expected}.")).with_details(json!({ "parameter": field }))
}

/// Validates a content-gap body; `null` counts as absent for the optional fields.
fn parse_gap(body: &Value) -> Result<GapRequest, ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `url`."));
    };
    let field = |name: &str| obj.get(name).filter(|v| !v.is_null());
    let raw = match field("url") {
        None => return Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) if s.trim().is_empty() => return Err(ApiError::missing_parameter("url")),
        Some(Value::String(s)) => s,
        Some(_) => return Err(wrong_type("url", "a string")),
    };
    let url = fetch::validate_url(raw)?;
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
        return Err(ApiError::invalid_request(format!(
            "`competitors` may hold at most {} URLs, not {}.",
            content_gap::MAX_COMPETITORS,
            competitors.len()
        ))
        .with_details(json!({ "parameter": "competitors", "max": content_gap::MAX_COMPETITORS })));
    }
    let mut seen = HashSet::new();
    let mut distinct = Vec::new();
    for (index, raw) in competitors.iter().enumerate() {
        let competitor = fetch::validate_url(raw).map_err(|e| {
            let e = ApiError::from(e);
            ApiError { message: format!("Competitor {index} ({raw:?}): {}", e.message), ..e }
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

async fn fixes(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some("audit")).await?;
    let body = ctx.json_body().await?;
    let issues = parse_issues(&body)?;
    consume_quota(&ctx, &identity, 1)?;
    // Templates and text matching are CPU work (small, but up to 50 at once): off the reactor.
    let fixes = tokio::task::spawn_blocking(move || autofix::fix_batch(&issues))
        .await
        .map_err(|e| ApiError::internal(format!("auto-fix failed: {e}")))?;
    Ok(ok_json(&AutoFixResult { ok: true, api_version: audit_core::API_VERSION, count: fixes.len(), fixes }))
}

/// The answer of `POST /api/auto-fix-batch`: one fix per issue, in order.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct AutoFixResult {
    #[schemars(extend("const" = true))]
    ok: bool,
    #[schemars(extend("const" = "v1"))]
    api_version: &'static str,
    /// Number of fixes (one per issue).
    #[schemars(range(min = 1, max = autofix::MAX_BATCH))]
    count: usize,
    /// The fixes, in input order.
    fixes: Vec<autofix::Fix>,
}

/// `{issues: [1..=MAX_BATCH objects]}`; an item that is not an issue names its index.
fn parse_issues(body: &Value) -> Result<Vec<autofix::Issue<'static>>, ApiError> {
    let Some(obj) = body.as_object() else {
        return Err(ApiError::invalid_request("The request body must be a JSON object with `issues`."));
    };
    let items = match obj.get("issues") {
        None | Some(Value::Null) => return Err(ApiError::missing_parameter("issues")),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(wrong_type("issues", "an array of issue objects")),
    };
    if items.is_empty() || items.len() > autofix::MAX_BATCH {
        return Err(ApiError::invalid_request(format!(
            "`issues` must hold 1 to {} issues, not {}.",
            autofix::MAX_BATCH,
            items.len()
        ))
        .with_details(json!({ "parameter": "issues", "max": autofix::MAX_BATCH })));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let bad = |why: String| {
                ApiError::invalid_request(format!("Issue {index} is not valid: {why}."))
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

    fn check_gap(body: Value, expected: Result<(usize, bool), &str>) {
        let got = parse_gap(&body).map(|r| (r.competitors.len(), r.headings.is_some())).map_err(|e| e.code);
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
            let index = e.details.as_ref().and_then(|d| d["index"].as_u64());
            (e.code, index)
        });
        assert_eq!(got, expected, "{body}");
    }

    #[test]
    fn issue_bodies() {
        check_issues(json!({"issues": [{}]}), Ok(1));
        check_issues(json!({"issues": [{"id": "canonical-missing", "context": {"url": "https://a.com/"}}]}), Ok(1));
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
