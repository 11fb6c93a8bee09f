use std::collections::HashMap;
use std::time::Duration;

use crate::sql::{args, Db, Row};
use rand::distributions::Alphanumeric;
use rand::rngs::OsRng;
use rand::Rng;
use serde::Serialize;
use serde_json::Value;
use time::OffsetDateTime;
use vocab::{DeliveryId, EventId, UserId, WebhookId};

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};
use crate::users::user_exists;

/// Every webhook event a subscription may name (docs/API.md, "Webhooks").
pub const WEBHOOK_EVENTS: &[&str] = vocab::WebhookEvent::SUBSCRIBABLE;
/// The event of a test delivery (`POST /api/v1/webhooks/{id}/test`): sent to that one
/// subscription whatever events it subscribed to; nobody subscribes to it.
pub const WEBHOOK_TEST_EVENT: &str = vocab::WebhookEvent::Ping.name();
/// Every event a delivery may carry: [`WEBHOOK_EVENTS`] and [`WEBHOOK_TEST_EVENT`].
pub const WEBHOOK_DELIVERED_EVENTS: &[&str] = vocab::WebhookEvent::NAMES;
/// Tag of generated signing secrets.
pub const WEBHOOK_SECRET_TAG: &str = "whsec_";

/// A webhook subscription to create. The signing secret is generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWebhook {
    /// Owner.
    pub user_id: UserId,
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
    pub id: WebhookId,
    /// Owner.
    #[serde(skip_serializing)]
    pub user_id: UserId,
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
    pub webhook_id: WebhookId,
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
    /// UUID of this attempt's log row. Text, not an id type: no caller names an attempt
    /// (the delivery a caller names is the outbox row, [`LoggedDelivery::id`]).
    pub id: String,
    /// Subscription delivered to.
    pub webhook_id: WebhookId,
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

fn insert_delivery(conn: &Db<'_>, delivery: &Delivery) -> Result<()> {
    conn.execute(
        "INSERT INTO webhook_deliveries (id, webhook_id, event, payload, attempt, \
         status_code, error, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
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
}

const COLUMNS: &str = "id, user_id, url, events, secret, enabled, created_at";

type RawWebhook = (String, String, String, String, String, bool, String);

fn from_row(row: &Row<'_>) -> Result<RawWebhook> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

fn decode(raw: RawWebhook) -> Result<Webhook> {
    let (id, user_id, url, events, secret, enabled, created_at) = raw;
    Ok(Webhook {
        id: id.into(),
        user_id: user_id.into(),
        url,
        events: serde_json::from_str(&events).map_err(|e| Error::corrupt("webhooks", format!("events: {e}")))?,
        secret,
        enabled,
        created_at: clock::decode("webhooks", &created_at),
    })
}

fn query(conn: &Db<'_>, tail: &str, params: &[crate::sql::Value<'_>]) -> Result<Vec<Webhook>> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM webhooks {tail}"))?;
    let raw = stmt.query_map(params, from_row)?.collect::<Result<Vec<_>>>()?;
    raw.into_iter().map(decode).collect()
}

impl Store {
    /// Creates an enabled subscription with a fresh signing secret.
    pub fn create_webhook(&self, new: NewWebhook) -> Result<Webhook> {
        let events = validate_events(&new.events)?;
        let secret: String =
            WEBHOOK_SECRET_TAG.chars().chain(OsRng.sample_iter(&Alphanumeric).take(32).map(char::from)).collect();
        let hook = Webhook {
            id: new_id().into(),
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
                args![
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
        self.read(|conn| query(conn, "WHERE user_id = ?1 ORDER BY created_at, rowid", args![user_id]))
    }

    /// The user's enabled subscriptions to `event`, for delivery.
    pub fn webhooks_for_event(&self, user_id: &str, event: &str) -> Result<Vec<Webhook>> {
        Ok(self.list_webhooks(user_id)?.into_iter().filter(|h| h.wants(event)).collect())
    }

    /// Deletes a subscription of this user (and its delivery log); [`Error::NotFound`] when
    /// the user has no subscription with that id.
    pub fn delete_webhook(&self, user_id: &str, id: &str) -> Result<()> {
        let n = self.write_each(|conn| {
            conn.execute("DELETE FROM webhooks WHERE id = ?1 AND user_id = ?2", args![id, user_id])
        })?;
        if n == 0 {
            return Err(Error::not_found("webhook", id));
        }
        Ok(())
    }

    /// Enables or disables a subscription of this user.
    pub fn set_webhook_enabled(&self, user_id: &str, id: &str, enabled: bool) -> Result<()> {
        let n = self.write_each(|conn| {
            conn.execute("UPDATE webhooks SET enabled = ?3 WHERE id = ?1 AND user_id = ?2", args![id, user_id, enabled])
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
            conn.query_one("SELECT COUNT(*) FROM webhooks WHERE user_id = ?1 AND enabled = 1", args![user_id], |row| {
                row.get(0)
            })
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
        self.write_each(|conn| insert_delivery(conn, &delivery))?;
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
            let rows = stmt.query_map(args![webhook_id, limit], |row| {
                Ok((
                    row.get::<String>(0)?,
                    row.get::<String>(1)?,
                    row.get::<String>(2)?,
                    row.get::<String>(3)?,
                    row.get::<u32>(4)?,
                    row.get::<Option<u16>>(5)?,
                    row.get::<Option<String>>(6)?,
                    row.get::<String>(7)?,
                ))
            })?;
            rows.collect::<Result<Vec<_>>>()
        })?;
        raw.into_iter()
            .map(|(id, webhook_id, event, payload, attempt, status_code, error, at)| {
                Ok(Delivery {
                    id,
                    webhook_id: webhook_id.into(),
                    event,
                    payload,
                    attempt,
                    status_code,
                    error,
                    created_at: clock::decode("webhook_deliveries", &at),
                })
            })
            .collect()
    }
}

// The outbox (migration 0005): the deliveries still to make, and what became of them.

/// Attempts per delivery (the first try and four retries).
pub const WEBHOOK_MAX_ATTEMPTS: u32 = 5;
/// Deliveries one subscription holds (waiting, in flight, or waiting for a retry); a newer
/// event for it is dropped (docs/API.md, "Webhooks").
pub const WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION: usize = 100;
/// Deliveries all subscriptions together hold; past that every newer event is dropped.
pub const WEBHOOK_MAX_PENDING_TOTAL: usize = 10_000;
/// Start of the delivery log's `error` for an event dropped by the bounds above.
pub const WEBHOOK_DROPPED_PREFIX: &str = "dropped:";
/// A retry waits its backoff and up to this fraction of it more, at random, so that the
/// deliveries that failed together (a receiver that was down) do not all come back at the
/// same instant.
pub const WEBHOOK_RETRY_JITTER: f64 = 0.25;

/// The state of one outbox row.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum OutboxState {
    /// Waiting for its first attempt, in flight, or waiting for a retry.
    Pending,
    /// A receiver answered 2xx.
    Delivered,
    /// Every attempt failed, or the target will never be allowed.
    Failed,
    /// Refused when the event was written, by a pending bound.
    Dropped,
}

impl OutboxState {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    fn parse(text: &str) -> Result<OutboxState> {
        text.parse().map_err(|_| Error::corrupt("webhook_outbox", format!("bad state {text:?}")))
    }
}

/// What writing an event did: one row per subscription of the owner that wants it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Enqueued {
    /// The event id (`x-webhook-id`), when some subscription wants the event.
    pub event_id: Option<EventId>,
    /// Rows written pending, to deliver.
    pub pending: usize,
    /// Rows written dropped (a bound was reached), each with a `dropped:` delivery-log row.
    pub dropped: usize,
}

/// The bounds of [`Store::claim_webhook_deliveries`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimLimits {
    /// Claims of one subscription running at once (unexpired leases, any worker's).
    pub in_flight_per_subscription: usize,
    /// Claims running at once, server-wide.
    pub in_flight_total: usize,
    /// How long a claim holds its row: past that, another worker may claim it again.
    pub lease: Duration,
}

/// A row claimed for one attempt, with what the attempt needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedDelivery {
    /// The outbox row.
    pub id: DeliveryId,
    /// The event id (`x-webhook-id`).
    pub event_id: EventId,
    /// The subscription.
    pub webhook_id: WebhookId,
    /// Its URL, as stored now.
    pub url: String,
    /// Its signing secret.
    pub secret: String,
    /// The event name.
    pub event: String,
    /// The exact JSON body.
    pub payload: String,
    /// The attempt this is, 1 for the first.
    pub attempt: u32,
    /// When the claim expires.
    pub claimed_until: OffsetDateTime,
}

/// How one attempt went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptOutcome {
    /// The HTTP status answered, if any.
    pub status_code: Option<u16>,
    /// The transport error, if any.
    pub error: Option<String>,
    /// Whether a failure may succeed later (false for a target the address guard refuses
    /// or an invalid URL).
    pub retryable: bool,
}

impl AttemptOutcome {
    /// A 2xx answer.
    pub fn delivered(&self) -> bool {
        self.status_code.is_some_and(|s| (200..300).contains(&s))
    }
}

/// What [`Store::record_webhook_attempt`] did with the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptRecorded {
    /// The row moved to `state`; a retry is due at `next_attempt_at`.
    Updated {
        /// The row's new state.
        state: OutboxState,
        /// When the retry is due (for [`OutboxState::Pending`]).
        next_attempt_at: Option<OffsetDateTime>,
    },
    /// The claim had expired and another worker claimed the row (or finished it): the
    /// attempt is logged, the row is left to that worker.
    Superseded,
    /// The row is gone (its subscription was deleted): nothing is logged.
    Gone,
}

/// One outbox row, for inspection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    /// Row id.
    pub id: DeliveryId,
    /// Event id (`x-webhook-id`).
    pub event_id: EventId,
    /// Subscription.
    pub webhook_id: WebhookId,
    /// Owner.
    pub user_id: UserId,
    /// Event name.
    pub event: String,
    /// Exact JSON body.
    pub payload: String,
    /// Attempts made.
    pub attempts: u32,
    /// When the next attempt is due.
    pub next_attempt_at: OffsetDateTime,
    /// State.
    pub state: OutboxState,
    /// Worker holding the claim, if any.
    pub claimed_by: Option<String>,
    /// When the claim expires.
    pub claimed_until: Option<OffsetDateTime>,
}

/// One delivery of the delivery log of a subscription
/// ([`Store::webhook_delivery_log`]): an outbox row and the outcome of its latest attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedDelivery {
    /// Outbox row id (the delivery id).
    pub id: DeliveryId,
    /// Event id (`x-webhook-id`).
    pub event_id: EventId,
    /// Event name.
    pub event: String,
    /// Attempts made.
    pub attempts: u32,
    /// State.
    pub state: OutboxState,
    /// When the next attempt is due (pending rows only).
    pub next_attempt_at: Option<OffsetDateTime>,
    /// HTTP status of the latest attempt, when it got an answer.
    pub last_status_code: Option<u16>,
    /// Why the latest attempt failed, or why the event was dropped.
    pub last_error: Option<String>,
    /// When the event was written.
    pub created_at: OffsetDateTime,
    /// When the row last changed.
    pub updated_at: OffsetDateTime,
}

/// What the outbox holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxStats {
    /// Pending rows (waiting, in flight, waiting for a retry).
    pub pending: usize,
    /// Pending rows under an unexpired claim.
    pub in_flight: usize,
    /// Subscriptions with a pending row.
    pub subscriptions: usize,
}

/// The wait after failed attempt `attempt` (1-based), before jitter: `base * 2^(attempt-1)`.
pub fn webhook_backoff(base: Duration, attempt: u32) -> Duration {
    base.saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
}

/// The wait after failed attempt `attempt` with jitter: the backoff plus
/// [`WEBHOOK_RETRY_JITTER`] times `unit` (in `[0, 1)`, drawn at random) of it.
pub fn webhook_retry_delay(base: Duration, attempt: u32, unit: f64) -> Duration {
    let backoff = webhook_backoff(base, attempt);
    backoff.saturating_add(backoff.mul_f64(WEBHOOK_RETRY_JITTER * unit.clamp(0.0, 1.0)))
}

fn plus(at: OffsetDateTime, wait: Duration) -> OffsetDateTime {
    at.checked_add(time::Duration::try_from(wait).unwrap_or(time::Duration::MAX)).unwrap_or(at)
}

fn count(conn: &Db<'_>, sql: &str, params: &[crate::sql::Value<'_>]) -> Result<usize> {
    let n: i64 = conn.query_one(sql, params, |row| row.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Body of every delivery (docs/API.md, "Webhooks"): what receivers get, not an answer of
/// the API. Its schema is the `WebhookPayload` component of the OpenAPI document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "WebhookPayload")]
pub struct WebhookPayload<'a> {
    /// Event id; the same on retries (also in `x-webhook-id`).
    pub id: &'a str,
    /// The event (`ping` for a test delivery).
    #[schemars(extend("enum" = WEBHOOK_DELIVERED_EVENTS))]
    pub event: &'a str,
    /// When the event happened (UTC).
    #[schemars(extend("format" = "date-time"))]
    pub created_at: &'a str,
    /// What happened; its shape depends on the event.
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub data: &'a Value,
}

/// Writes `event` with `data` for every enabled subscription of `user_id` that wants it, on
/// `conn` (inside the caller's transaction, with the change that fires the event). One
/// event id and one body for all of them. A subscription already holding
/// [`WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION`] deliveries, or an outbox holding
/// [`WEBHOOK_MAX_PENDING_TOTAL`], gets a `dropped` row and a `dropped:` delivery-log row
/// instead (docs/API.md, "Webhooks": the newest is dropped, the queued ones keep their turn).
pub(crate) fn enqueue_event(
    conn: &Db<'_>,
    user_id: &str,
    event: &str,
    data: &Value,
    now: OffsetDateTime,
) -> Result<Enqueued> {
    let hooks: Vec<Webhook> =
        query(conn, "WHERE user_id = ?1 AND enabled = 1 ORDER BY created_at, rowid", args![user_id])?
            .into_iter()
            .filter(|h| h.wants(event))
            .collect();
    enqueue_to(conn, &hooks, user_id, event, data, now)
}

/// Writes `event` with `data` for each of `hooks` (subscriptions of `user_id`), with the
/// bounds of [`enqueue_event`].
fn enqueue_to(
    conn: &Db<'_>,
    hooks: &[Webhook],
    user_id: &str,
    event: &str,
    data: &Value,
    now: OffsetDateTime,
) -> Result<Enqueued> {
    if hooks.is_empty() {
        return Ok(Enqueued::default());
    }
    let event_id = new_id();
    let now = clock::truncate_ms(now);
    let at = format_rfc3339(now);
    let payload = WebhookPayload { id: &event_id, event, created_at: &at, data };
    let payload = serde_json::to_string(&payload).map_err(|e| Error::invalid("data", e.to_string()))?;
    let mut total = count(conn, "SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'", args![])?;
    let mut out = Enqueued { event_id: Some(EventId::from(event_id.as_str())), pending: 0, dropped: 0 };
    for hook in hooks {
        let held = count(
            conn,
            "SELECT COUNT(*) FROM webhook_outbox WHERE webhook_id = ?1 AND state = 'pending'",
            args![&hook.id],
        )?;
        let refusal = if held >= WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION {
            Some(format!(
                "{WEBHOOK_DROPPED_PREFIX} {WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION} deliveries to this subscription were \
                 already pending, so this newer event was not queued"
            ))
        } else if total >= WEBHOOK_MAX_PENDING_TOTAL {
            Some(format!(
                "{WEBHOOK_DROPPED_PREFIX} {WEBHOOK_MAX_PENDING_TOTAL} webhook deliveries were already pending on the \
                 server, so this event was not queued"
            ))
        } else {
            None
        };
        let state = if refusal.is_some() { OutboxState::Dropped } else { OutboxState::Pending };
        conn.execute(
            "INSERT INTO webhook_outbox (id, event_id, webhook_id, user_id, event, payload, attempts, \
             next_attempt_at, state, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?7, ?7)",
            args![new_id(), event_id, hook.id, user_id, event, payload, at, state.as_str()],
        )?;
        match refusal {
            Some(why) => {
                insert_delivery(
                    conn,
                    &Delivery {
                        id: new_id(),
                        webhook_id: hook.id.clone(),
                        event: event.to_owned(),
                        payload: payload.clone(),
                        attempt: 1,
                        status_code: None,
                        error: Some(why),
                        created_at: now,
                    },
                )?;
                out.dropped += 1;
            }
            None => {
                total += 1;
                out.pending += 1;
            }
        }
    }
    Ok(out)
}

/// The owner of a workflow run or monitor row (`table` is ours, never user input).
pub(crate) fn owner_of(conn: &Db<'_>, table: &'static str, id: &str) -> Result<Option<String>> {
    Ok(conn
        .query_opt(&format!("SELECT user_id FROM {table} WHERE id = ?1"), args![id], |row| {
            row.get::<Option<String>>(0)
        })?
        .flatten())
}

type RawEntry = (String, String, String, String, String, String, u32, String, String, Option<String>, Option<String>);

fn decode_entry(raw: RawEntry) -> Result<OutboxEntry> {
    let (id, event_id, webhook_id, user_id, event, payload, attempts, next, state, claimed_by, claimed_until) = raw;
    Ok(OutboxEntry {
        id: id.into(),
        event_id: event_id.into(),
        webhook_id: webhook_id.into(),
        user_id: user_id.into(),
        event,
        payload,
        attempts,
        next_attempt_at: clock::decode("webhook_outbox", &next),
        state: OutboxState::parse(&state)?,
        claimed_by,
        claimed_until: clock::decode_opt("webhook_outbox", claimed_until),
    })
}

impl Store {
    /// Writes `event` (one of [`WEBHOOK_EVENTS`]) with `data` into the outbox for the
    /// enabled subscriptions of `user_id` that want it, in a transaction of its own: for an
    /// event no stored change goes with. Events that come with a change are written in the
    /// change's transaction ([`Store::insert_audit_with_event`],
    /// [`Store::insert_alert_with_event`], [`Store::set_run_state_with_event`],
    /// [`Store::open_approval_with_event`]).
    pub fn enqueue_webhook_event(&self, user_id: &str, event: &str, data: Value) -> Result<Enqueued> {
        if !WEBHOOK_EVENTS.contains(&event) {
            return Err(Error::invalid("event", format!("unknown event {event:?}")));
        }
        self.write(|tx| enqueue_event(tx, user_id, event, &data, OffsetDateTime::now_utc()))
    }

    /// Claims, for `worker`, the pending rows due at `now` that the bounds allow, each for
    /// `limits.lease`. A row is due when its next attempt time has come and it has no
    /// unexpired claim (a claim whose worker died expires with its lease). Rows of disabled
    /// subscriptions wait. Subscriptions take turns: each one's oldest due row first, in the
    /// order they have waited, then each one's second; a subscription with
    /// `in_flight_per_subscription` unexpired claims gets nothing, so one that never answers
    /// holds up no other.
    pub fn claim_webhook_deliveries(
        &self,
        worker: &str,
        now: OffsetDateTime,
        limits: ClaimLimits,
    ) -> Result<Vec<ClaimedDelivery>> {
        let per_subscription = limits.in_flight_per_subscription.max(1);
        let total_cap = limits.in_flight_total.max(1);
        let now_text = format_rfc3339(now);
        let until = clock::truncate_ms(plus(now, limits.lease));
        let until_text = format_rfc3339(until);
        self.write(|tx| {
            let mut in_flight: HashMap<String, usize> = HashMap::new();
            {
                let mut stmt = tx.prepare(
                    "SELECT webhook_id, COUNT(*) FROM webhook_outbox \
                     WHERE state = 'pending' AND claimed_until > ?1 GROUP BY webhook_id",
                )?;
                let rows = stmt.query_map(args![&now_text], |row| Ok((row.get::<String>(0)?, row.get::<i64>(1)?)))?;
                for row in rows {
                    let (hook, n) = row?;
                    in_flight.insert(hook, usize::try_from(n).unwrap_or(0));
                }
            }
            let mut total: usize = in_flight.values().sum();
            if total >= total_cap {
                return Ok(Vec::new());
            }
            // Each enabled subscription's first due, unclaimed rows, found by a short walk of
            // its index range (webhook_outbox_held), so the cost follows the number of
            // subscriptions holding rows, not the number of rows waiting; turns are then dealt
            // here.
            let holders = tx
                .prepare("SELECT DISTINCT webhook_id FROM webhook_outbox WHERE state = 'pending'")?
                .query_map(args![], |row| row.get::<String>(0))?
                .collect::<Result<Vec<_>>>()?;
            // On PostgreSQL the rows are locked as they are found, and rows another
            // claimer has locked are skipped rather than waited for: replicas claiming at
            // once take disjoint rows (docs/ARCHITECTURE.md, "Replicas"). SQLite's write
            // transaction is exclusive already.
            let lock = if tx.is_postgres() { " FOR UPDATE SKIP LOCKED" } else { "" };
            let mut first_due = tx.prepare(&format!(
                "SELECT id, next_attempt_at, rowid FROM webhook_outbox \
                 WHERE webhook_id = ?1 AND state = 'pending' AND next_attempt_at <= ?2 \
                   AND (claimed_until IS NULL OR claimed_until <= ?2) \
                   AND EXISTS (SELECT 1 FROM webhooks WHERE id = ?1 AND enabled = 1) \
                 ORDER BY next_attempt_at, rowid LIMIT ?3{lock}"
            ))?;
            let limit = i64::try_from(per_subscription).unwrap_or(i64::MAX);
            let mut found: Vec<(String, String, String, i64)> = Vec::new();
            for hook in holders {
                let rows = first_due.query_map(args![hook, now_text, limit], |row| {
                    Ok((row.get::<String>(0)?, row.get::<String>(1)?, row.get::<i64>(2)?))
                })?;
                for row in rows {
                    let (id, due, seq) = row?;
                    found.push((id, hook.clone(), due, seq));
                }
            }
            // Turn n of a subscription is its n-th due row: every subscription's first turn
            // comes before anyone's second, and within a turn the longest waiting goes first.
            found.sort_by(|a, b| (&a.1, &a.2, a.3).cmp(&(&b.1, &b.2, b.3)));
            let mut turns: Vec<(usize, String, i64, String, String)> = Vec::with_capacity(found.len());
            let mut previous: Option<String> = None;
            let mut turn = 0;
            for (id, webhook_id, due, seq) in found {
                turn = if previous.as_deref() == Some(webhook_id.as_str()) { turn + 1 } else { 0 };
                previous = Some(webhook_id.clone());
                turns.push((turn, due, seq, id, webhook_id));
            }
            turns.sort();
            let candidates = turns.into_iter().map(|(_, _, _, id, webhook_id)| (id, webhook_id));
            let mut read = tx.prepare(
                "SELECT o.event_id, w.url, w.secret, o.event, o.payload, o.attempts \
                 FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE o.id = ?1",
            )?;
            let mut out = Vec::new();
            for (id, webhook_id) in candidates {
                if total >= total_cap {
                    break;
                }
                let running = in_flight.entry(webhook_id.clone()).or_default();
                if *running >= per_subscription {
                    continue;
                }
                *running += 1;
                total += 1;
                tx.execute(
                    "UPDATE webhook_outbox SET claimed_by = ?2, claimed_until = ?3, updated_at = ?4 WHERE id = ?1",
                    args![id, worker, until_text, now_text],
                )?;
                let (event_id, url, secret, event, payload, attempts) = read.query_one(args![&id], |row| {
                    Ok((
                        row.get::<String>(0)?,
                        row.get::<String>(1)?,
                        row.get::<String>(2)?,
                        row.get::<String>(3)?,
                        row.get::<String>(4)?,
                        row.get::<u32>(5)?,
                    ))
                })?;
                out.push(ClaimedDelivery {
                    id: id.into(),
                    event_id: event_id.into(),
                    webhook_id: webhook_id.into(),
                    url,
                    secret,
                    event,
                    payload,
                    attempt: attempts + 1,
                    claimed_until: until,
                });
            }
            Ok(out)
        })
    }

    /// Records the attempt `worker` made of claimed row `id` at `now`, in one transaction:
    /// its delivery-log row, and the row's next state. A 2xx answer makes it `delivered`; a
    /// failure that may not be retried, or the [`WEBHOOK_MAX_ATTEMPTS`]th, `failed`; any
    /// other failure leaves it `pending`, unclaimed, due after [`webhook_retry_delay`]
    /// (`retry_base`, this attempt, a random jitter).
    pub fn record_webhook_attempt(
        &self,
        id: &str,
        worker: &str,
        now: OffsetDateTime,
        outcome: &AttemptOutcome,
        retry_base: Duration,
    ) -> Result<AttemptRecorded> {
        let unit: f64 = rand::thread_rng().gen();
        let now = clock::truncate_ms(now);
        self.write(|tx| {
            let row = tx.query_opt(
                "SELECT webhook_id, event, payload, attempts, state, claimed_by FROM webhook_outbox WHERE id = ?1",
                args![id],
                |row| {
                    Ok((
                        row.get::<String>(0)?,
                        row.get::<String>(1)?,
                        row.get::<String>(2)?,
                        row.get::<u32>(3)?,
                        row.get::<String>(4)?,
                        row.get::<Option<String>>(5)?,
                    ))
                },
            )?;
            let Some((webhook_id, event, payload, attempts, state, claimed_by)) = row else {
                return Ok(AttemptRecorded::Gone);
            };
            let attempt = attempts + 1;
            insert_delivery(
                tx,
                &Delivery {
                    id: new_id(),
                    webhook_id: webhook_id.into(),
                    event,
                    payload,
                    attempt,
                    status_code: outcome.status_code,
                    error: outcome.error.clone(),
                    created_at: now,
                },
            )?;
            if state != OutboxState::Pending.as_str() || claimed_by.as_deref() != Some(worker) {
                return Ok(AttemptRecorded::Superseded);
            }
            let (state, next) = if outcome.delivered() {
                (OutboxState::Delivered, None)
            } else if !outcome.retryable || attempt >= WEBHOOK_MAX_ATTEMPTS {
                (OutboxState::Failed, None)
            } else {
                (
                    OutboxState::Pending,
                    Some(clock::truncate_ms(plus(now, webhook_retry_delay(retry_base, attempt, unit)))),
                )
            };
            tx.execute(
                "UPDATE webhook_outbox SET attempts = ?2, state = ?3, next_attempt_at = COALESCE(?4, next_attempt_at), \
                 claimed_by = NULL, claimed_until = NULL, updated_at = ?5 WHERE id = ?1",
                args![id, attempt, state.as_str(), next.map(format_rfc3339), format_rfc3339(now)],
            )?;
            Ok(AttemptRecorded::Updated { state, next_attempt_at: next })
        })
    }

    /// The earliest instant after `now` at which a pending row becomes claimable: a retry
    /// coming due or a claim expiring. `None` when nothing is waiting for a time.
    pub fn next_webhook_wakeup(&self, now: OffsetDateTime) -> Result<Option<OffsetDateTime>> {
        let now = format_rfc3339(now);
        let next: Option<String> = self.read(|conn| {
            conn.query_one(
                "SELECT MIN(t) FROM ( \
                   SELECT MIN(next_attempt_at) AS t FROM webhook_outbox \
                   WHERE state = 'pending' AND next_attempt_at > ?1 \
                   UNION ALL \
                   SELECT MIN(claimed_until) FROM webhook_outbox WHERE state = 'pending' AND claimed_until > ?1) AS due",
                args![&now],
                |row| row.get(0),
            )
        })?;
        Ok(clock::decode_opt("webhook_outbox", next))
    }

    /// The pending rows of subscription `webhook_id` (what counts toward its bound).
    pub fn pending_webhook_deliveries(&self, webhook_id: &str) -> Result<usize> {
        self.read(|conn| {
            count(
                conn,
                "SELECT COUNT(*) FROM webhook_outbox WHERE webhook_id = ?1 AND state = 'pending'",
                args![webhook_id],
            )
        })
    }

    /// What the outbox holds at `now`.
    pub fn webhook_outbox_stats(&self, now: OffsetDateTime) -> Result<OutboxStats> {
        let now = format_rfc3339(now);
        self.read(|conn| {
            let (pending, subscriptions, in_flight): (i64, i64, i64) = conn.query_one(
                "SELECT COUNT(*), COUNT(DISTINCT webhook_id), CAST(COALESCE(SUM(CASE WHEN claimed_until > ?1 THEN 1 ELSE 0 END), 0) AS BIGINT) \
                 FROM webhook_outbox WHERE state = 'pending'",
                args![&now],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )?;
            let n = |v: i64| usize::try_from(v).unwrap_or(0);
            Ok(OutboxStats { pending: n(pending), in_flight: n(in_flight), subscriptions: n(subscriptions) })
        })
    }

    /// The outbox rows of subscription `webhook_id`, oldest first.
    pub fn webhook_outbox(&self, webhook_id: &str) -> Result<Vec<OutboxEntry>> {
        let raw = self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, event_id, webhook_id, user_id, event, payload, attempts, next_attempt_at, state, \
                 claimed_by, claimed_until FROM webhook_outbox WHERE webhook_id = ?1 ORDER BY rowid",
            )?;
            let rows = stmt.query_map(args![webhook_id], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                    row.get(7)?,
                    row.get(8)?,
                    row.get(9)?,
                    row.get(10)?,
                ))
            })?;
            rows.collect::<Result<Vec<RawEntry>>>()
        })?;
        raw.into_iter().map(decode_entry).collect()
    }

    /// Writes a [`WEBHOOK_TEST_EVENT`] with `data` into the outbox for subscription `id` of
    /// `user_id` only (whatever events it subscribed to; the pending bounds apply), in a
    /// transaction of its own. The outbox row written; [`Error::NotFound`] when the user has
    /// no subscription with that id.
    pub fn enqueue_webhook_test(&self, user_id: &str, id: &str, data: Value) -> Result<(LoggedDelivery, Enqueued)> {
        self.write(|tx| {
            let hooks = query(tx, "WHERE id = ?1 AND user_id = ?2", args![id, user_id])?;
            if hooks.is_empty() {
                return Err(Error::not_found("webhook", id));
            }
            let enqueued = enqueue_to(tx, &hooks, user_id, WEBHOOK_TEST_EVENT, &data, OffsetDateTime::now_utc())?;
            let event_id = enqueued.event_id.clone().unwrap_or_default();
            let row = delivery_log(tx, "o.webhook_id = ?1 AND o.event_id = ?2", args![id, event_id], 1)?;
            let row = row.into_iter().next().ok_or_else(|| Error::not_found("delivery", event_id))?;
            Ok((row, enqueued))
        })
    }

    /// The delivery log of subscription `webhook_id`: its deliveries still in the outbox
    /// (finished ones are pruned after a while), newest first, at most `limit`, each with the
    /// outcome of its latest attempt.
    pub fn webhook_delivery_log(&self, webhook_id: &str, limit: usize) -> Result<Vec<LoggedDelivery>> {
        self.read(|conn| delivery_log(conn, "o.webhook_id = ?1", args![webhook_id], limit))
    }

    /// Deletes finished rows (delivered, failed, dropped) last changed before `before`; the
    /// number deleted. Pending rows are never pruned. The delivery log keeps every attempt.
    pub fn prune_webhook_outbox(&self, before: OffsetDateTime) -> Result<usize> {
        self.write_each(|conn| {
            conn.execute(
                "DELETE FROM webhook_outbox WHERE state <> 'pending' AND updated_at < ?1",
                args![format_rfc3339(before)],
            )
        })
    }
}

type RawLogged = (String, String, String, u32, String, String, Option<u16>, Option<String>, String, String);

/// Outbox rows matching `filter` (on alias `o`), newest first, with their latest attempt's
/// outcome: the newest delivery-log row of the same subscription and body (the body holds
/// the event id), written no earlier than the event.
fn delivery_log(
    conn: &Db<'_>,
    filter: &str,
    params: &[crate::sql::Value<'_>],
    limit: usize,
) -> Result<Vec<LoggedDelivery>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let latest = |column: &str| {
        format!(
            "(SELECT d.{column} FROM webhook_deliveries d WHERE d.webhook_id = o.webhook_id \
             AND d.created_at >= o.created_at AND d.payload = o.payload ORDER BY d.created_at DESC, d.rowid DESC LIMIT 1)"
        )
    };
    let sql = format!(
        "SELECT o.id, o.event_id, o.event, o.attempts, o.state, o.next_attempt_at, {}, {}, o.created_at, \
         o.updated_at FROM webhook_outbox o WHERE {filter} ORDER BY o.created_at DESC, o.rowid DESC LIMIT {limit}",
        latest("status_code"),
        latest("error"),
    );
    let mut stmt = conn.prepare(&sql)?;
    let raw = stmt
        .query_map(params, |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
                row.get(7)?,
                row.get(8)?,
                row.get(9)?,
            ))
        })?
        .collect::<Result<Vec<RawLogged>>>()?;
    raw.into_iter()
        .map(|(id, event_id, event, attempts, state, next, status, error, created, updated)| {
            let state = OutboxState::parse(&state)?;
            let next = clock::decode("webhook_outbox", &next);
            Ok(LoggedDelivery {
                id: id.into(),
                event_id: event_id.into(),
                event,
                attempts,
                state,
                next_attempt_at: (state == OutboxState::Pending).then_some(next),
                last_status_code: status,
                last_error: error,
                created_at: clock::decode("webhook_outbox", &created),
                updated_at: clock::decode("webhook_outbox", &updated),
            })
        })
        .collect()
}

#[cfg(test)]
mod name_tests {
    use super::OutboxState;
    use strum::VariantArray as _;

    #[test]
    fn outbox_states_round_trip_by_their_stored_names() {
        let names: Vec<&str> = OutboxState::VARIANTS.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["pending", "delivered", "failed", "dropped"]);
        for &s in OutboxState::VARIANTS {
            assert_eq!(OutboxState::parse(s.as_str()).ok(), Some(s));
            assert_eq!(serde_json::to_value(s).ok(), Some(serde_json::Value::from(s.as_str())));
        }
        assert!(OutboxState::parse("Pending").is_err());
    }
}
