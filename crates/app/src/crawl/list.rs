//! The key owner's crawls, newest first, a page at a time (docs/API.md, "Listing crawls"):
//! one use case, [`Crawls::list`], which `GET /api/v1/crawls` and the list_crawls agent tool
//! both call with the one typed request [`api::crawls::ListCrawls`].

use api::crawls::{CrawlListItem, CrawlListing, ListCrawls, DEFAULT_CRAWLS_PAGE, MAX_CRAWLS_PAGE, MAX_SITE_LEN};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

pub use super::change::site_of;
use super::views::crawl_path;
use super::Crawls;
use crate::AppError;

/// Where a page of the listing ends: the last crawl's `created_at` and id. Opaque to clients
/// as base64url of `c1:<created_at> <id>` (the prefix tells a later format apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlCursor {
    /// When the last crawl listed was created.
    pub created_at: vocab::Timestamp,
    /// Its id.
    pub id: vocab::CrawlId,
}

impl CrawlCursor {
    const PREFIX: &'static str = "c1:";

    /// The cursor as sent to clients.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}{} {}", Self::PREFIX, self.created_at, self.id))
    }

    /// A cursor [`CrawlCursor::encode`] made; `None` for anything else.
    pub fn decode(text: &str) -> Option<CrawlCursor> {
        if text.len() > 200 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        let text = std::str::from_utf8(&bytes).ok()?;
        let (at, id) = text.strip_prefix(Self::PREFIX)?.split_once(' ')?;
        let created_at = vocab::Timestamp::parse(at)?;
        vocab::CrawlId::parse(id).map(|id| CrawlCursor { created_at, id })
    }
}

/// The `site` filter, checked and normalised: a host name or IPv4 address (lower-cased, a
/// final dot dropped), optionally with `:port`. Only letters, digits, `.` and `-` reach the
/// store, which matches it as a literal prefix of the start URL.
fn site_param(raw: &str) -> Result<String, AppError> {
    let refuse = || {
        AppError::invalid_parameter(
            "site",
            "a host name such as example.com, optionally with a port such as example.com:8080",
        )
    };
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > MAX_SITE_LEN {
        return Err(refuse());
    }
    let (host, port) = match raw.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (raw, None),
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && !host.starts_with('.')
        && !host.contains("..");
    if !host_ok {
        return Err(refuse());
    }
    match port {
        None => Ok(host),
        Some(port) => match port.parse::<u16>() {
            Ok(p) if p > 0 && port.bytes().all(|b| b.is_ascii_digit()) => Ok(format!("{host}:{p}")),
            _ => Err(refuse()),
        },
    }
}

/// The request of `GET /api/v1/crawls` read from its query through `get`: `limit` must be a
/// whole number (the rest is checked by [`Crawls::list`], as for the agent tool).
///
/// # Errors
/// `limit` is not a whole number.
pub fn list_query(get: impl Fn(&str) -> Option<String>) -> Result<ListCrawls, AppError> {
    let limit = match get("limit") {
        None => None,
        Some(raw) => Some(raw.trim().parse::<u32>().map_err(|_| limit_refusal())?),
    };
    Ok(ListCrawls { state: get("state"), site: get("site"), cursor: get("cursor"), limit })
}

fn limit_refusal() -> AppError {
    AppError::invalid_parameter("limit", format!("a whole number from 1 to {MAX_CRAWLS_PAGE}"))
}

/// The filter and page size of a request, checked: each malformed value is refused as
/// `invalid_request` naming its parameter.
fn checked(request: &ListCrawls) -> Result<(store::CrawlFilter, usize), AppError> {
    let state = match request.state.as_deref() {
        None => None,
        Some(raw) => Some(raw.trim().parse::<store::CrawlState>().map_err(|_| {
            AppError::invalid_parameter("state", format!("one of {}", api::crawls::CRAWL_STATES.join(", ")))
        })?),
    };
    let site = request.site.as_deref().map(site_param).transpose()?;
    let before = match request.cursor.as_deref() {
        None => None,
        Some(raw) => {
            let c = CrawlCursor::decode(raw)
                .ok_or_else(|| AppError::invalid_parameter("cursor", crate::CURSOR_EXPECTED))?;
            Some((c.created_at, c.id))
        }
    };
    let limit = request.limit.unwrap_or(DEFAULT_CRAWLS_PAGE);
    if !(1..=MAX_CRAWLS_PAGE).contains(&limit) {
        return Err(limit_refusal());
    }
    Ok((store::CrawlFilter { state, site, before }, limit as usize))
}

/// A stored crawl as listed.
pub fn list_item(crawl: &store::Crawl) -> CrawlListItem {
    CrawlListItem {
        id: crawl.id.clone(),
        url: crawl.url.clone(),
        site: site_of(&crawl.url),
        state: crawl.state.as_str().to_string(),
        max_pages: crawl.max_pages,
        pages_done: crawl.progress.pages_done,
        pages_failed: crawl.progress.pages_failed,
        site_score: crawl.site_score,
        created_at: crawl.created_at,
        finished_at: crawl.finished_at,
        status_url: crawl_path(&crawl.id),
        report_url: format!("/crawls/{}", crawl.id),
    }
}

impl Crawls {
    /// A page of `owner`'s crawls that pass `request`'s filters, newest first.
    ///
    /// # Errors
    /// A filter, the cursor or the page size is malformed (`invalid_request` naming it);
    /// the store failed.
    pub async fn list(&self, owner: vocab::UserId, request: ListCrawls) -> Result<CrawlListing, AppError> {
        let (filter, limit) = checked(&request)?;
        // One more than asked tells whether a next page exists.
        let mut rows = self.app.db(move |s| s.list_user_crawls(&owner, &filter, limit + 1)).await?;
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next_cursor =
            rows.last().filter(|_| more).map(|c| CrawlCursor { created_at: c.created_at, id: c.id.clone() }.encode());
        Ok(CrawlListing { crawls: rows.iter().map(list_item).collect(), next_cursor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_nothing_else_decodes() {
        let created_at = vocab::Timestamp::parse("2026-11-28T08:00:00.123Z").unwrap();
        let cursor = CrawlCursor { created_at, id: format!("cr_{}", "a".repeat(22)).into() };
        assert_eq!(CrawlCursor::decode(&cursor.encode()), Some(cursor.clone()));
        // The cursor's text is what it was while its time was text: the one format.
        assert_eq!(
            URL_SAFE_NO_PAD.decode(cursor.encode()).unwrap(),
            format!("c1:2026-11-28T08:00:00.123Z cr_{}", "a".repeat(22)).into_bytes()
        );
        for bad in ["", "x", "YTE6", &URL_SAFE_NO_PAD.encode("c1:yesterday cr_aaaaaaaaaaaaaaaaaaaaaa")] {
            assert_eq!(CrawlCursor::decode(bad), None, "{bad}");
        }
        let wrong_id = URL_SAFE_NO_PAD.encode("c1:2026-11-28T08:00:00.123Z cr_a%");
        assert_eq!(CrawlCursor::decode(&wrong_id), None);
    }

    #[test]
    fn sites_are_hosts_with_their_port() {
        assert_eq!(site_param("Example.COM.").unwrap(), "example.com");
        assert_eq!(site_param("127.0.0.1:8080").unwrap(), "127.0.0.1:8080");
        for bad in ["", "a_b.com", "a%.com", "example.com:", "example.com:0", "example.com:70000", "x:+1", "..", "a/b"]
        {
            let e = site_param(bad).unwrap_err();
            assert!(e.to_string().contains("site"), "{bad}: {e}");
        }
        assert_eq!(site_of("https://example.com/a"), "example.com");
        assert_eq!(site_of("http://127.0.0.1:8080/"), "127.0.0.1:8080");
        assert_eq!(site_of("https://example.com:443/"), "example.com");
    }

    #[test]
    fn each_malformed_parameter_is_named() {
        let named = |request: ListCrawls| match checked(&request) {
            Err(AppError::Refused(r)) => r.details.and_then(|d| d["parameter"].as_str().map(str::to_string)),
            _ => None,
        };
        assert_eq!(named(ListCrawls { state: Some("done".into()), ..Default::default() }).as_deref(), Some("state"));
        assert_eq!(named(ListCrawls { site: Some("a b".into()), ..Default::default() }).as_deref(), Some("site"));
        assert_eq!(named(ListCrawls { cursor: Some("nope".into()), ..Default::default() }).as_deref(), Some("cursor"));
        assert_eq!(named(ListCrawls { limit: Some(0), ..Default::default() }).as_deref(), Some("limit"));
        assert_eq!(named(ListCrawls { limit: Some(101), ..Default::default() }).as_deref(), Some("limit"));
        let (filter, limit) = checked(&ListCrawls { state: Some("completed".into()), ..Default::default() }).unwrap();
        assert_eq!((filter.state, limit), (Some(store::CrawlState::Completed), 20));
        assert_eq!(
            list_query(|n| (n == "limit").then(|| "x".to_string())).err().map(|e| e.to_string().contains("limit")),
            Some(true)
        );
    }
}
