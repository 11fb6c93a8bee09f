//! `GET /api/v1/audits`, `GET /api/v1/audits/{id}`, `GET /api/v1/history`: stored audits
//! read back (docs/API.md, "Stored audits"). Reads of stored data consume no quota, like
//! the usage snapshot; the listing and one audit need a key with the `audit` scope, the
//! history also answers anonymous callers with public audits.

use api::{IssueCounts, ScoreHistory, StoredAuditAnswer, StoredAuditItem, StoredAuditList};
use app::history::{AuditCursor, AuditQuery, AuditSummary};

use crate::auth::{authenticate, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::ok_json;

/// `GET /api/v1/audits`.
pub fn list(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_audits(ctx))
}

/// `GET /api/v1/audits/{id}`.
pub fn get(ctx: Ctx) -> HandlerFuture {
    Box::pin(get_audit(ctx))
}

/// `GET /api/v1/history`.
pub fn history(ctx: Ctx) -> HandlerFuture {
    Box::pin(url_history(ctx))
}

async fn owner(ctx: &Ctx) -> Result<String, ApiError> {
    let identity = authenticate(ctx, KeyRule::Required, Some("audit")).await?;
    identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `audit` scope."))
}

/// A stored audit as listed.
pub(crate) fn item(a: &AuditSummary) -> StoredAuditItem {
    StoredAuditItem {
        id: a.id.clone(),
        url: a.url.clone(),
        final_url: a.final_url.clone(),
        score: a.score,
        ruleset_version: a.ruleset_version.clone(),
        issues: IssueCounts { critical: a.issues.critical, warning: a.issues.warning, notice: a.issues.notice },
        created_at: app::format_rfc3339(a.created_at),
    }
}

async fn list_audits(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let query = AuditQuery {
        url: ctx.query("url").map(|u| url_param(&u)).transpose()?,
        domain: ctx.query("domain").map(|d| domain_param(&d)).transpose()?,
        since: ctx.query("since").map(|s| since_param(&s)).transpose()?,
        after: ctx.query("cursor").map(|c| cursor_param(&c)).transpose()?,
        limit: limit_param(ctx.query("limit"), api::DEFAULT_AUDITS_PAGE, api::MAX_AUDITS_PAGE)?,
    };
    let page = ctx.state.app.list_audits(user_id, query).await?;
    Ok(ok_json(&StoredAuditList {
        ok: true,
        api_version: audit_core::API_VERSION,
        audits: page.audits.iter().map(item).collect(),
        next_cursor: page.next.map(|c| c.encode()),
    }))
}

async fn get_audit(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = ctx.param("id").unwrap_or_default().to_string();
    // Another owner's id answers exactly as an unknown one.
    let record = ctx.state.app.own_audit(user_id, id.clone()).await?;
    let Some(record) = record else {
        return Err(ApiError::not_found(format!("No audit of yours has the id {}.", app::clip(&id))));
    };
    Ok(ok_json(&StoredAuditAnswer {
        id: record.summary.id,
        created_at: app::format_rfc3339(record.summary.created_at),
        answer: api::FullAnswer::new(record.result),
    }))
}

async fn url_history(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate(&ctx, KeyRule::Optional, Some("audit")).await?;
    if identity.user_id().is_none() {
        // Anonymous reads of public data, as the report page: the same per-IP guard.
        crate::routes::web::flood_guard(&ctx)?;
    }
    let raw = ctx.query("url").filter(|u| !u.trim().is_empty()).ok_or_else(|| ApiError::missing_parameter("url"))?;
    let url = url_param(&raw)?;
    let limit = limit_param(ctx.query("limit"), api::DEFAULT_HISTORY, api::MAX_HISTORY)?;
    let audits = ctx.state.app.url_history(identity.user_id().map(str::to_string), url.clone(), limit).await?;
    Ok(ok_json(&ScoreHistory {
        ok: true,
        api_version: audit_core::API_VERSION,
        url: url.to_string(),
        audits: audits.iter().map(item).collect(),
    }))
}

/// A URL filter, normalised as an audit target is (so `example.com` finds the audits of
/// `https://example.com/`).
fn url_param(raw: &str) -> Result<url::Url, ApiError> {
    app::validate_url(raw).map_err(|_| {
        ApiError::invalid_parameter("url", "The parameter `url` must be an http or https URL of at most 2048 bytes.")
    })
}

/// A domain name as the badge takes it (lower-cased, a final dot dropped; not an IP address:
/// the documented pattern of every `domain` parameter).
fn domain_param(raw: &str) -> Result<String, ApiError> {
    pages::badge::validate_domain(raw).ok_or_else(|| {
        ApiError::invalid_parameter(
            "domain",
            "The parameter `domain` must be a domain name such as example.com (no scheme, path, port or IP address).",
        )
    })
}

fn since_param(raw: &str) -> Result<time::OffsetDateTime, ApiError> {
    app::history::parse_rfc3339(raw.trim()).ok_or_else(|| {
        ApiError::invalid_parameter(
            "since",
            "The parameter `since` must be an RFC 3339 date and time, such as 2026-11-01T00:00:00Z.",
        )
    })
}

fn cursor_param(raw: &str) -> Result<AuditCursor, ApiError> {
    AuditCursor::decode(raw).ok_or_else(|| {
        ApiError::invalid_parameter(
            "cursor",
            "The parameter `cursor` is not a cursor this service gave out; pass `next_cursor` as it was sent.",
        )
    })
}

fn limit_param(raw: Option<String>, default: usize, max: usize) -> Result<usize, ApiError> {
    let Some(raw) = raw else { return Ok(default) };
    match raw.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::invalid_parameter(
            "limit",
            format!("The parameter `limit` must be a whole number from 1 to {max}."),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters() {
        assert_eq!(limit_param(None, 20, 100), Ok(20));
        assert_eq!(limit_param(Some("100".into()), 20, 100), Ok(100));
        for bad in ["0", "101", "-1", "x", "", "1.5"] {
            assert_eq!(limit_param(Some(bad.into()), 20, 100).map_err(|e| e.code), Err("invalid_parameter"), "{bad}");
        }
        assert_eq!(domain_param("Shop.Example."), Ok("shop.example".into()));
        for bad in ["", " ", "ex ample.com", "a/b", "[::1]", "127.0.0.1", &"a".repeat(254)] {
            assert_eq!(domain_param(bad).map_err(|e| e.code), Err("invalid_parameter"), "{bad}");
        }
        assert!(since_param("2026-11-01T00:00:00Z").is_ok());
        assert!(since_param("2026-11-01T00:00:00+02:00").is_ok());
        for bad in ["2026-11-01", "yesterday", "", "1700000000"] {
            assert_eq!(since_param(bad).map_err(|e| e.code), Err("invalid_parameter"), "{bad}");
        }
        assert_eq!(cursor_param("garbage").map_err(|e| e.code), Err("invalid_parameter"));
    }

    #[test]
    fn page_sizes_agree_with_the_application() {
        assert_eq!(api::DEFAULT_AUDITS_PAGE, app::history::DEFAULT_PAGE_SIZE);
        assert_eq!(api::MAX_AUDITS_PAGE, app::history::MAX_PAGE_SIZE);
        assert_eq!(api::DEFAULT_HISTORY, app::history::DEFAULT_HISTORY_SIZE);
        assert_eq!(api::MAX_HISTORY, app::history::MAX_HISTORY_SIZE);
    }
}
