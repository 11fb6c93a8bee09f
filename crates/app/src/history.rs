//! Stored audits read back (docs/API.md, "Stored audits"): an owner's audits a page at a
//! time, one of them whole, the score history of a URL, and the public score history of the
//! page a report shows. Each result is read back typed ([`StoredResult`]).

use audit_core::AuditResult;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use time::OffsetDateTime;
use url::Url;
use vocab::{AuditId, UserId};

use crate::{App, AppError, StoredResult};

/// Reads an RFC 3339 date and time (the `since` filter).
pub use store::parse_rfc3339;

/// Audits per page of a listing when the caller does not say.
pub const DEFAULT_PAGE_SIZE: usize = 20;
/// The most audits per page of a listing.
pub const MAX_PAGE_SIZE: usize = 100;
/// Audits in a URL's history when the caller does not say.
pub const DEFAULT_HISTORY_SIZE: usize = 100;
/// The most audits in a URL's history.
pub const MAX_HISTORY_SIZE: usize = 500;
/// The most points of the score chart of the public report page.
pub const REPORT_HISTORY_POINTS: usize = 30;

/// Where a page of a listing ends: the last audit's `created_at` and `id`. Opaque to clients
/// as base64url of `a1:<created_at> <id>` (the prefix tells a later format apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditCursor {
    /// When the last audit listed was made.
    pub created_at: OffsetDateTime,
    /// Its id.
    pub id: AuditId,
}

impl AuditCursor {
    const PREFIX: &'static str = "a1:";

    /// The cursor as sent to clients.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}{} {}", Self::PREFIX, store::format_rfc3339(self.created_at), self.id))
    }

    /// A cursor [`AuditCursor::encode`] made; `None` for anything else.
    pub fn decode(text: &str) -> Option<AuditCursor> {
        if text.len() > 200 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        let text = std::str::from_utf8(&bytes).ok()?;
        let (at, id) = text.strip_prefix(Self::PREFIX)?.split_once(' ')?;
        let id_ok = !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        let created_at = store::parse_rfc3339(at)?;
        id_ok.then(|| AuditCursor { created_at, id: id.into() })
    }
}

/// Which of an owner's audits to list ([`App::list_audits`]).
#[derive(Debug, Clone, Default)]
pub struct AuditQuery {
    /// Only audits whose requested or final URL is this.
    pub url: Option<Url>,
    /// Only audits of this host.
    pub domain: Option<String>,
    /// Only audits made at or after this instant.
    pub since: Option<OffsetDateTime>,
    /// Continue after this cursor.
    pub after: Option<AuditCursor>,
    /// Audits per page (clamped to 1..=[`MAX_PAGE_SIZE`]).
    pub limit: usize,
}

/// How many recommendations of each severity an audit has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeverityCounts {
    /// `critical`.
    pub critical: usize,
    /// `warning`.
    pub warning: usize,
    /// `notice`.
    pub notice: usize,
}

/// A stored audit without its full result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditSummary {
    /// Its id.
    pub id: AuditId,
    /// The URL that was asked for.
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// Score percentage.
    pub score: i64,
    /// The ruleset that produced the score.
    pub ruleset_version: String,
    /// Recommendations by severity.
    pub issues: SeverityCounts,
    /// When it was made.
    pub created_at: OffsetDateTime,
}

impl AuditSummary {
    /// The summary as the REST routes list it (`GET /api/v1/audits`, `GET /api/v1/history`).
    pub fn wire(&self) -> api::StoredAuditItem {
        api::StoredAuditItem {
            id: self.id.clone(),
            url: self.url.clone(),
            final_url: self.final_url.clone(),
            score: self.score,
            ruleset_version: self.ruleset_version.clone(),
            issues: api::IssueCounts {
                critical: self.issues.critical,
                warning: self.issues.warning,
                notice: self.issues.notice,
            },
            created_at: self.created_at.into(),
        }
    }

    /// The summary of a stored audit and its result read back.
    fn of(audit: &store::StoredAudit, result: &StoredResult) -> AuditSummary {
        let (critical, warning, notice) = result.severity_counts();
        AuditSummary {
            id: audit.id.clone(),
            url: audit.url.clone(),
            final_url: audit.final_url.clone(),
            score: audit.score,
            ruleset_version: audit.ruleset_version.clone(),
            issues: SeverityCounts { critical, warning, notice },
            created_at: audit.created_at,
        }
    }

    fn read(audit: &store::StoredAudit) -> AuditSummary {
        AuditSummary::of(audit, &StoredResult::of(audit))
    }
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    /// The audits, newest first.
    pub audits: Vec<AuditSummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<AuditCursor>,
}

/// One stored audit whole.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRecord {
    /// What the listing says of it.
    pub summary: AuditSummary,
    /// Its result as stored, read back typed.
    pub result: AuditResult,
}

impl App {
    /// A page of `user_id`'s audits that pass `query`, newest first.
    ///
    /// # Errors
    /// The store failed.
    pub async fn list_audits(&self, user_id: UserId, query: AuditQuery) -> Result<AuditPage, AppError> {
        let limit = query.limit.clamp(1, MAX_PAGE_SIZE);
        let filter = store::AuditFilter {
            url: query.url.map(String::from),
            host: query.domain,
            since: query.since,
            before: query.after.map(|c| (c.created_at, c.id)),
        };
        // One more than asked tells whether a next page exists.
        let mut rows = self.db(move |s| s.list_user_audits(&user_id, &filter, limit + 1)).await?;
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next = rows.last().filter(|_| more).map(|a| AuditCursor { created_at: a.created_at, id: a.id.clone() });
        // Each summary reads its stored result: the application's work, off the async workers.
        let audits = self.compute(move |_| rows.iter().map(AuditSummary::read).collect()).await?;
        Ok(AuditPage { audits, next })
    }

    /// `user_id`'s audit `id` with its result.
    ///
    /// # Errors
    /// `not_found` for an unknown id and for another owner's (or an anonymous) audit alike;
    /// the store failed.
    pub async fn own_audit(&self, user_id: UserId, id: AuditId) -> Result<AuditRecord, AppError> {
        let unknown = || {
            let message = format!("No audit of yours has the id {}.", crate::clip(&id));
            AppError::refused(crate::ErrorCode::NotFound, message)
        };
        if id.len() > 64 {
            return Err(unknown());
        }
        let key = id.clone();
        let found = self
            .db(move |s| match s.get_audit(&key) {
                Ok(audit) => Ok(Some(audit)),
                Err(store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            })
            .await?;
        let Some(audit) = found.filter(|a| a.user_id.as_ref() == Some(&user_id)) else {
            return Err(unknown());
        };
        // Reading the stored result grows with it: the application's work, off the async workers.
        self.compute(move |_| {
            let result = StoredResult::of(&audit);
            AuditRecord { summary: AuditSummary::of(&audit, &result), result: result.result }
        })
        .await
    }

    /// The `limit` newest audits of `url` (clamped to 1..=[`MAX_HISTORY_SIZE`]), oldest
    /// first: `user_id`'s, or without an owner the public ones (made without a key).
    ///
    /// # Errors
    /// The store failed.
    pub async fn url_history(
        &self,
        user_id: Option<UserId>,
        url: Url,
        limit: usize,
    ) -> Result<Vec<AuditSummary>, AppError> {
        let limit = limit.clamp(1, MAX_HISTORY_SIZE);
        let rows = self.db(move |s| s.url_history(user_id.as_deref(), url.as_str(), limit)).await?;
        // Each summary reads its stored result: the application's work, off the async workers.
        self.compute(move |_| rows.iter().map(AuditSummary::read).collect()).await
    }

    /// The public score history of the page `audit` is of (its final URL's host and path),
    /// at most [`REPORT_HISTORY_POINTS`] audits, oldest first: what the report page charts.
    ///
    /// # Errors
    /// The store failed.
    pub async fn public_page_history(
        &self,
        audit: &store::StoredAudit,
    ) -> Result<Vec<pages::report::ScorePoint>, AppError> {
        let Some((host, path)) = store::host_and_path(&audit.final_url) else { return Ok(Vec::new()) };
        let rows = self.db(move |s| s.public_page_history(&host, &path, REPORT_HISTORY_POINTS)).await?;
        // Each point reads its stored result: the application's work, off the async workers.
        self.compute(move |_| {
            rows.iter()
                .map(AuditSummary::read)
                .map(|a| pages::report::ScorePoint {
                    at: crate::format_rfc3339(a.created_at),
                    score: u32::try_from(a.score).unwrap_or(0),
                })
                .collect()
        })
        .await
    }
}

impl AuditQuery {
    /// The query of `GET /api/v1/audits` (`url`, `domain`, `since`, `cursor`, `limit`), read
    /// through `get` and checked: a malformed value is refused as `invalid_request` naming
    /// the parameter (a malformed `url` as `invalid_url`, as the audit's own).
    ///
    /// # Errors
    /// A parameter is malformed.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> Result<AuditQuery, AppError> {
        Ok(AuditQuery {
            url: get("url").map(|u| url_param(&u)).transpose()?,
            domain: get("domain").map(|d| domain_param(&d)).transpose()?,
            since: get("since").map(|s| since_param(&s)).transpose()?,
            after: get("cursor").map(|c| cursor_param(&c)).transpose()?,
            limit: limit_param(get("limit"), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?,
        })
    }
}

/// The query of `GET /api/v1/history` read through `get`: the URL (required) and how many
/// audits.
///
/// # Errors
/// `url` is missing or a parameter is malformed.
pub fn parse_history_query(get: impl Fn(&str) -> Option<String>) -> Result<(Url, usize), AppError> {
    let raw = get("url").filter(|u| !u.trim().is_empty()).ok_or_else(|| AppError::missing_parameter("url"))?;
    let url = url_param(&raw)?;
    Ok((url, limit_param(get("limit"), DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE)?))
}

/// A URL filter, normalised as an audit target is (so `example.com` finds the audits of
/// `https://example.com/`).
fn url_param(raw: &str) -> Result<Url, AppError> {
    // The audit's own check and refusal: the same `url` is refused the same way everywhere.
    crate::validate_url(raw).map_err(AppError::Fetch)
}

/// A domain name as the badge takes it (lower-cased, a final dot dropped; not an IP address:
/// the documented pattern of every `domain` parameter).
fn domain_param(raw: &str) -> Result<String, AppError> {
    pages::badge::validate_domain(raw).ok_or_else(|| {
        AppError::invalid_parameter("domain", "a domain name such as example.com (no scheme, path, port or IP address)")
    })
}

fn since_param(raw: &str) -> Result<OffsetDateTime, AppError> {
    parse_rfc3339(raw.trim())
        .ok_or_else(|| AppError::invalid_parameter("since", "an RFC 3339 date and time, such as 2026-11-01T00:00:00Z"))
}

fn cursor_param(raw: &str) -> Result<AuditCursor, AppError> {
    AuditCursor::decode(raw).ok_or_else(|| AppError::invalid_parameter("cursor", crate::CURSOR_EXPECTED))
}

fn limit_param(raw: Option<String>, default: usize, max: usize) -> Result<usize, AppError> {
    let Some(raw) = raw else { return Ok(default) };
    match raw.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(AppError::invalid_parameter("limit", format!("a whole number from 1 to {max}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_nothing_else_decodes() {
        let cursor = AuditCursor {
            created_at: time::macros::datetime!(2026-03-01 12:00:00.123 UTC),
            id: "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b".into(),
        };
        let text = cursor.encode();
        assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{text}");
        assert_eq!(AuditCursor::decode(&text), Some(cursor));
        let enc = |s: &str| URL_SAFE_NO_PAD.encode(s);
        for bad in [
            String::new(),
            "not base64!".into(),
            enc("a1:"),
            enc("a2:2026-03-01T12:00:00.123Z x"),
            enc("a1:yesterday x"),
            enc("a1:2026-03-01T12:00:00.123Z "),
            enc("a1:2026-03-01T12:00:00.123Z x'--"),
            "A".repeat(300),
        ] {
            assert_eq!(AuditCursor::decode(&bad), None, "{bad}");
        }
    }

    #[test]
    fn parameters() {
        let code = |e: AppError| e.code();
        assert_eq!(limit_param(None, 20, 100).ok(), Some(20));
        assert_eq!(limit_param(Some("100".into()), 20, 100).ok(), Some(100));
        for bad in ["0", "101", "-1", "x", "", "1.5"] {
            assert_eq!(limit_param(Some(bad.into()), 20, 100).map_err(code), Err("invalid_request"), "{bad}");
        }
        assert_eq!(domain_param("Shop.Example.").ok(), Some("shop.example".into()));
        for bad in ["", " ", "ex ample.com", "a/b", "[::1]", "127.0.0.1", &"a".repeat(254)] {
            assert_eq!(domain_param(bad).map_err(code), Err("invalid_request"), "{bad}");
        }
        assert!(since_param("2026-11-01T00:00:00Z").is_ok());
        assert!(since_param("2026-11-01T00:00:00+02:00").is_ok());
        for bad in ["2026-11-01", "yesterday", "", "1700000000"] {
            assert_eq!(since_param(bad).map_err(code), Err("invalid_request"), "{bad}");
        }
        assert_eq!(cursor_param("garbage").map_err(code), Err("invalid_request"));
    }
}
