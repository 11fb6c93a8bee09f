use rand::distributions::Alphanumeric;
use rand::rngs::OsRng;
use rand::Rng;
use rusqlite::{params, Connection, Row};
use serde::Serialize;
use time::OffsetDateTime;

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};
use crate::users::user_exists;

/// Every webhook event (docs/API.md, "Webhooks").
pub const WEBHOOK_EVENTS: &[&str] =
    &["audit.completed", "monitor.alert", "workflow.awaiting_approval", "workflow.completed"];
/// Tag of generated signing secrets.
pub const WEBHOOK_SECRET_TAG: &str = "whsec_";

/// A webhook subscription to create. The signing secret is generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWebhook {
    /// Owner.
    pub user_id: String,
    /// Target URL (the server checks it with the address guard before calling this).
    pub url: String,
    /// Subscribed events, each one of [`WEBHOOK_EVENTS`]; at least one.
    pub events: Vec<String>,
}

/// A stored webhook subscription. The secret is kept in clear because every delivery is
/// signed with it; it is never serialised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Webhook {
    /// UUID.
    pub id: String,
    /// Owner.
    #[serde(skip_serializing)]
    pub user_id: String,
    /// Target URL.
    pub url: String,
    /// Subscribed events.
    pub events: Vec<String>,
    /// HMAC-SHA256 signing secret.
    #[serde(skip_serializing)]
    pub secret: String,
    /// Disabled subscriptions receive nothing.
    pub enabled: bool,
    /// Creation time.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

impl Webhook {
    /// The subscription wants `event`.
    pub fn wants(&self, event: &str) -> bool {
        self.enabled && self.events.iter().any(|e| e == event)
    }
}

/// One attempt to deliver an event, for the delivery log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDelivery {
    /// Subscription delivered to.
    pub webhook_id: String,
    /// Event name.
    pub event: String,
    /// Body sent.
    pub payload: String,
    /// 1 for the first try.
    pub attempt: u32,
    /// HTTP status answered, if any.
    pub status_code: Option<u16>,
    /// Transport error, if any.
    pub error: Option<String>,
}

/// A logged delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delivery {
    /// UUID.
    pub id: String,
    /// Subscription delivered to.
    pub webhook_id: String,
    /// Event name.
    pub event: String,
    /// Body sent.
    pub payload: String,
    /// 1 for the first try.
    pub attempt: u32,
    /// HTTP status answered, if any.
    pub status_code: Option<u16>,
    /// Transport error, if any.
    pub error: Option<String>,
    /// When it was attempted.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

fn validate_events(events: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for event in events {
        if !WEBHOOK_EVENTS.contains(&event.as_str()) {
            return Err(Error::invalid(
                "events",
                format!("unknown event {event:?} (known: {})", WEBHOOK_EVENTS.join(", ")),
            ));
        }
        if !out.contains(event) {
            out.push(event.clone());
        }
    }
    if out.is_empty() {
        return Err(Error::invalid("events", "at least one event is needed"));
    }
    Ok(out)
}

const COLUMNS: &str = "id, user_id, url, events, secret, enabled, created_at";

type RawWebhook = (String, String, String, String, String, bool, String);

fn from_row(row: &Row<'_>) -> rusqlite::Result<RawWebhook> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

fn decode(raw: RawWebhook) -> Result<Webhook> {
    let (id, user_id, url, events, secret, enabled, created_at) = raw;
    Ok(Webhook {
        id,
        user_id,
        url,
        events: serde_json::from_str(&events).map_err(|e| Error::corrupt("webhooks", format!("events: {e}")))?,
        secret,
        enabled,
        created_at: clock::decode("webhooks", &created_at)?,
    })
}

fn query(conn: &Connection, tail: &str, params: impl rusqlite::Params) -> Result<Vec<Webhook>> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM webhooks {tail}"))?;
    let raw = stmt.query_map(params, from_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
    raw.into_iter().map(decode).collect()
}

impl Store {
    /// Creates an enabled subscription with a fresh signing secret.
    pub fn create_webhook(&self, new: NewWebhook) -> Result<Webhook> {
        let events = validate_events(&new.events)?;
        let secret: String =
            WEBHOOK_SECRET_TAG.chars().chain(OsRng.sample_iter(&Alphanumeric).take(32).map(char::from)).collect();
        let hook = Webhook {
            id: new_id(),
            user_id: new.user_id,
            url: new.url,
            events,
            secret,
            enabled: true,
            created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
        };
        self.write(|tx| {
            if !user_exists(tx, &hook.user_id)? {
                return Err(Error::not_found("user", hook.user_id.clone()));
            }
            tx.execute(
                "INSERT INTO webhooks (id, user_id, url, events, secret, enabled, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
                params![
                    hook.id,
                    hook.user_id,
                    hook.url,
                    serde_json::to_string(&hook.events).unwrap_or_else(|_| "[]".into()),
                    hook.secret,
                    format_rfc3339(hook.created_at),
                ],
            )?;
            Ok(())
        })?;
        Ok(hook)
    }

    /// The user's subscriptions, oldest first.
    pub fn list_webhooks(&self, user_id: &str) -> Result<Vec<Webhook>> {
        self.read(|conn| query(conn, "WHERE user_id = ?1 ORDER BY created_at, rowid", [user_id]))
    }

    /// The user's enabled subscriptions to `event`, for delivery.
    pub fn webhooks_for_event(&self, user_id: &str, event: &str) -> Result<Vec<Webhook>> {
        Ok(self.list_webhooks(user_id)?.into_iter().filter(|h| h.wants(event)).collect())
    }

    /// Deletes a subscription of this user (and its delivery log); [`Error::NotFound`] when
    /// the user has no subscription with that id.
    pub fn delete_webhook(&self, user_id: &str, id: &str) -> Result<()> {
        let n = self.read(|conn| {
            Ok(conn.execute("DELETE FROM webhooks WHERE id = ?1 AND user_id = ?2", params![id, user_id])?)
        })?;
        if n == 0 {
            return Err(Error::not_found("webhook", id));
        }
        Ok(())
    }

    /// Enables or disables a subscription of this user.
    pub fn set_webhook_enabled(&self, user_id: &str, id: &str, enabled: bool) -> Result<()> {
        let n = self.read(|conn| {
            Ok(conn.execute(
                "UPDATE webhooks SET enabled = ?3 WHERE id = ?1 AND user_id = ?2",
                params![id, user_id, enabled],
            )?)
        })?;
        if n == 0 {
            return Err(Error::not_found("webhook", id));
        }
        Ok(())
    }

    /// Number of enabled subscriptions of the user (`webhook_subscriptions` of the usage
    /// snapshot).
    pub fn count_enabled_webhooks(&self, user_id: &str) -> Result<u64> {
        let n: i64 = self.read(|conn| {
            Ok(conn.query_row(
                "SELECT COUNT(*) FROM webhooks WHERE user_id = ?1 AND enabled = 1",
                [user_id],
                |row| row.get(0),
            )?)
        })?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Logs one delivery attempt.
    pub fn record_delivery(&self, new: NewDelivery) -> Result<Delivery> {
        let delivery = Delivery {
            id: new_id(),
            webhook_id: new.webhook_id,
            event: new.event,
            payload: new.payload,
            attempt: new.attempt.max(1),
            status_code: new.status_code,
            error: new.error,
            created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
        };
        self.read(|conn| {
            conn.execute(
                "INSERT INTO webhook_deliveries (id, webhook_id, event, payload, attempt, \
                 status_code, error, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    delivery.id,
                    delivery.webhook_id,
                    delivery.event,
                    delivery.payload,
                    delivery.attempt,
                    delivery.status_code,
                    delivery.error,
                    format_rfc3339(delivery.created_at),
                ],
            )?;
            Ok(())
        })?;
        Ok(delivery)
    }

    /// The newest delivery attempts of a subscription, newest first.
    pub fn list_deliveries(&self, webhook_id: &str, limit: usize) -> Result<Vec<Delivery>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let raw = self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, webhook_id, event, payload, attempt, status_code, error, created_at \
                 FROM webhook_deliveries WHERE webhook_id = ?1 \
                 ORDER BY created_at DESC, rowid DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![webhook_id, limit], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, u32>(4)?,
                    row.get::<_, Option<u16>>(5)?,
                    row.get::<_, Option<String>>(6)?,
                    row.get::<_, String>(7)?,
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        raw.into_iter()
            .map(|(id, webhook_id, event, payload, attempt, status_code, error, at)| {
                Ok(Delivery {
                    id,
                    webhook_id,
                    event,
                    payload,
                    attempt,
                    status_code,
                    error,
                    created_at: clock::decode("webhook_deliveries", &at)?,
                })
            })
            .collect()
    }
}
