//! The key owner's alert list (docs/API.md, "Alerts"): the alerts of its monitors and of its
//! crawl schedules' runs, newest first, a page at a time. One use case, [`App::list_alerts`],
//! which `GET /api/v1/alerts` and the agent tool call with the one typed request
//! [`api::alerts::ListAlerts`].

use api::alerts::{AlertListing, ListAlerts, DEFAULT_ALERTS_PAGE, MAX_ALERTS_PAGE};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use vocab::{AlertId, Timestamp};

use crate::{App, AppError};

/// Where a page of the list ends: the last alert's `created_at` and id. Opaque to clients as
/// base64url of `a1:<created_at> <id>` (the prefix tells a later format apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlertCursor {
    /// When the last alert listed was raised.
    pub created_at: Timestamp,
    /// Its id.
    pub id: AlertId,
}

impl AlertCursor {
    const PREFIX: &'static str = "a1:";

    /// The cursor as sent to clients.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}{} {}", Self::PREFIX, self.created_at, self.id))
    }

    /// A cursor [`AlertCursor::encode`] made; `None` for anything else.
    pub fn decode(text: &str) -> Option<AlertCursor> {
        if text.len() > 200 {
            return None;
        }
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        let text = std::str::from_utf8(&bytes).ok()?;
        let (at, id) = text.strip_prefix(Self::PREFIX)?.split_once(' ')?;
        let created_at = Timestamp::parse(at).filter(|_| uuid::Uuid::parse_str(id).is_ok())?;
        Some(AlertCursor { created_at, id: AlertId::from(id) })
    }
}

fn limit_refusal() -> AppError {
    AppError::invalid_parameter("limit", format!("a whole number from 1 to {MAX_ALERTS_PAGE}"))
}

/// The request of `GET /api/v1/alerts` read from its query through `get`: `limit` must be a
/// whole number (the rest is checked by [`App::list_alerts`], as for the agent tool).
///
/// # Errors
/// `limit` is not a whole number.
pub fn list_query(get: impl Fn(&str) -> Option<String>) -> Result<ListAlerts, AppError> {
    let limit = match get("limit") {
        None => None,
        Some(raw) => Some(raw.trim().parse::<u32>().map_err(|_| limit_refusal())?),
    };
    Ok(ListAlerts { source: get("source"), cursor: get("cursor"), limit })
}

/// The filter and page size of a request, checked: each malformed value is refused as
/// `invalid_request` naming its parameter.
fn checked(request: &ListAlerts) -> Result<(store::AlertFilter, usize), AppError> {
    let source = match request.source.as_deref() {
        None => None,
        Some(raw) => Some(raw.trim().parse::<store::AlertSource>().map_err(|_| {
            AppError::invalid_parameter("source", format!("one of {}", api::alerts::ALERT_SOURCES.join(", ")))
        })?),
    };
    let before = match request.cursor.as_deref() {
        None => None,
        Some(raw) => {
            let c = AlertCursor::decode(raw)
                .ok_or_else(|| AppError::invalid_parameter("cursor", crate::CURSOR_EXPECTED))?;
            Some((c.created_at, c.id))
        }
    };
    let limit = request.limit.unwrap_or(DEFAULT_ALERTS_PAGE);
    if !(1..=MAX_ALERTS_PAGE).contains(&limit) {
        return Err(limit_refusal());
    }
    Ok((store::AlertFilter { source, before }, limit as usize))
}

/// A stored alert as listed.
pub fn wire(alert: &store::OwnedAlert) -> api::alerts::Alert {
    let source: &'static str = alert.source.into();
    api::alerts::Alert {
        id: alert.id.clone(),
        source: source.to_string(),
        monitor_id: alert.monitor_id.clone(),
        schedule_id: alert.schedule_id.clone(),
        crawl_id: alert.crawl_id.clone(),
        url: alert.url.clone(),
        rule: alert.rule.clone(),
        severity: alert.severity.clone(),
        message: alert.message.clone(),
        created_at: alert.created_at,
    }
}

impl App {
    /// A page of `owner`'s alerts (its monitors' and its crawl schedules'), newest first.
    ///
    /// # Errors
    /// The filter, the cursor or the page size is malformed (`invalid_request` naming it);
    /// the store failed.
    pub async fn list_alerts(&self, owner: vocab::UserId, request: ListAlerts) -> Result<AlertListing, AppError> {
        let (filter, limit) = checked(&request)?;
        // One more than asked tells whether a next page exists.
        let mut rows = self.db(move |s| s.list_alerts(&owner, &filter, limit + 1)).await?;
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next_cursor =
            rows.last().filter(|_| more).map(|a| AlertCursor { created_at: a.created_at, id: a.id.clone() }.encode());
        Ok(AlertListing { alerts: rows.iter().map(wire).collect(), next_cursor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_nothing_else_decodes() {
        let cursor = AlertCursor {
            created_at: Timestamp::parse("2026-11-28T18:00:00.000Z").expect("a time"),
            id: "5f0c6f0e-3b1a-4c55-9d55-0a2b3c4d5e6f".into(),
        };
        assert_eq!(AlertCursor::decode(&cursor.encode()), Some(cursor));
        for bad in ["", "nope", &URL_SAFE_NO_PAD.encode("a1:yesterday 5f0c6f0e-3b1a-4c55-9d55-0a2b3c4d5e6f")] {
            assert_eq!(AlertCursor::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn each_malformed_parameter_is_named() {
        let named = |request: ListAlerts| match checked(&request) {
            Err(AppError::Refused(r)) => r.details.and_then(|d| d["parameter"].as_str().map(str::to_string)),
            _ => None,
        };
        assert_eq!(named(ListAlerts { source: Some("crawl".into()), ..Default::default() }).as_deref(), Some("source"));
        assert_eq!(named(ListAlerts { cursor: Some("nope".into()), ..Default::default() }).as_deref(), Some("cursor"));
        assert_eq!(named(ListAlerts { limit: Some(0), ..Default::default() }).as_deref(), Some("limit"));
        assert_eq!(named(ListAlerts { limit: Some(101), ..Default::default() }).as_deref(), Some("limit"));
        let (filter, limit) = checked(&ListAlerts { source: Some("schedule".into()), ..Default::default() }).unwrap();
        assert_eq!((filter.source, limit), (Some(store::AlertSource::Schedule), 50));
    }
}
