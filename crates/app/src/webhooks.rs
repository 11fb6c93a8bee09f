//! Webhook delivery: events of a key owner are POSTed, signed, to their subscriptions.
//!
//! Deliveries live in the store's outbox (docs/API.md, "Webhooks"; docs/ARCHITECTURE.md,
//! "Background work"), not in memory. An event is written there, one row per subscription
//! that wants it, in the same transaction as the change that fires it:
//! `Store::insert_audits` (`audit.completed`, with the audit row),
//! `Store::insert_alert_with_event` (`monitor.alert`, with the alert row),
//! `Store::open_approval_with_event` (`workflow.awaiting_approval`, with the gate) and
//! `Store::set_run_state_with_event` (`workflow.completed`, with the run's state). So a crash
//! keeps both or neither, and no event waits anywhere a restart could lose it. The caller
//! then hands the store's answer to [`Dispatcher::enqueued`], which wakes the dispatcher.
//!
//! The dispatcher ([`queue`]) claims due rows for a lease ([`CLAIM_LEASE`]) within the
//! bounds of one subscription and of the server, and makes one attempt per claimed row in a
//! task of its own; the attempt's outcome and its delivery-log row are written in one
//! transaction (`Store::record_webhook_attempt`), which also schedules the retry
//! (exponential backoff with jitter) or ends the delivery. A failed attempt holds no place
//! while it waits. At start the dispatcher picks up whatever a previous process left: rows
//! due now, retries as they come due, and claims of a dead process once their lease expires.
//!
//! What is sent (docs/API.md, "Webhooks"):
//! - body: `{"id": EVENT_ID, "event": NAME, "createdAt": RFC3339, "data": {...}}`, the exact
//!   bytes stored in the outbox row when the event was written;
//! - headers: `content-type: application/json`, `x-webhook-event: NAME`,
//!   `x-webhook-id: EVENT_ID` (the same on every attempt, before and after a restart, so
//!   receivers can deduplicate), `x-webhook-timestamp: UNIX_SECONDS`, and
//!   `x-signature-256: sha256=HEX`, where HEX is the lowercase hex HMAC-SHA256, keyed with
//!   the subscription's secret, of the string `"{timestamp}.{body}"`.
//!
//! Targets go through the fetcher's address guard at every attempt, like audits.

pub mod queue;
pub mod request;
pub mod wire;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use tokio::sync::{watch, Notify};
use vocab::{UserId, WebhookId};

/// Attempts per delivery (the first try and four retries).
pub const MAX_ATTEMPTS: u32 = store::WEBHOOK_MAX_ATTEMPTS;
/// Default delay before the first retry; it doubles at each further attempt
/// (1 s, 2 s, 4 s, 8 s), each lengthened by a random jitter of up to a quarter.
pub const DEFAULT_RETRY_BASE_MS: u64 = 1_000;
/// Time a receiver gets to answer one attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a claim holds its row. Longer than an attempt can take ([`DELIVERY_TIMEOUT`],
/// then writing its outcome, which may wait for the store's busy timeout): a claim expires
/// only when its process died (or hung), and then another claim may try the row again.
pub const CLAIM_LEASE: Duration = Duration::from_secs(30);
/// Attempts of one subscription in flight at once.
pub const MAX_IN_FLIGHT_PER_SUBSCRIPTION: usize = 2;
/// Attempts in flight at once, server-wide. Subscriptions take turns for free places.
pub const MAX_CONCURRENT_DELIVERIES: usize = 64;
/// Deliveries one subscription holds (waiting, in flight or waiting for a retry); a newer
/// event is refused and the refusal written to the delivery log.
pub const MAX_PENDING_PER_SUBSCRIPTION: usize = store::WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION;
/// Deliveries all subscriptions together hold; past that the same refusal applies.
pub const MAX_PENDING_TOTAL: usize = store::WEBHOOK_MAX_PENDING_TOTAL;
/// Header carrying the signature.
pub const SIGNATURE_HEADER: &str = "x-signature-256";
/// Header carrying the signed timestamp.
pub const TIMESTAMP_HEADER: &str = "x-webhook-timestamp";
/// Prefix of the delivery log's `error` for an event refused by a full queue.
pub const DROPPED_PREFIX: &str = store::WEBHOOK_DROPPED_PREFIX;
/// Warnings about refused events: at most one per this interval, with a count.
const WARNING_INTERVAL: Duration = Duration::from_secs(10);

/// A warning that is written at most once per [`WARNING_INTERVAL`], with the number of
/// occurrences since the last one.
#[derive(Debug, Default)]
struct RareWarning {
    count: AtomicU64,
    last: Mutex<Option<Instant>>,
}

impl RareWarning {
    /// Counts `n` occurrences; the count when a warning is due now.
    fn due(&self, n: u64) -> Option<u64> {
        let count = self.count.fetch_add(n, Ordering::Relaxed) + n;
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_none_or(|at| at.elapsed() >= WARNING_INTERVAL) {
            *last = Some(Instant::now());
            self.count.store(0, Ordering::Relaxed);
            return Some(count);
        }
        None
    }
}

impl crate::Events for Dispatcher {
    fn enqueued(&self, enqueued: &store::Enqueued) {
        Dispatcher::enqueued(self, enqueued);
    }
}

/// Webhook delivery: the outbox dispatcher, shared by the server and every use case that
/// writes events (it is the [`crate::Events`] of the [`crate::App`]).
#[derive(Debug)]
pub struct Dispatcher {
    shared: Arc<Shared>,
    /// Whether the loop runs (it is started once).
    started: Mutex<bool>,
    /// Events refused by a pending bound.
    refused: RareWarning,
}

/// What the loop and the attempt tasks share.
#[derive(Debug)]
struct Shared {
    store: store::Store,
    fetcher: fetch::Fetcher,
    retry_base: Duration,
    /// This process's name on its claims, unique per dispatcher.
    worker: String,
    /// Wakes the loop: an event was written, or an attempt ended and freed a place.
    wake: Notify,
    /// Attempts this process has in flight.
    in_flight: AtomicUsize,
    /// Who counts the attempts ([`Dispatcher::observe`]).
    observer: std::sync::OnceLock<Arc<dyn crate::Observer>>,
}

impl Dispatcher {
    /// A dispatcher delivering with `fetcher` the outbox of `store`.
    pub fn new(store: store::Store, fetcher: fetch::Fetcher, retry_base: Duration) -> Dispatcher {
        let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4());
        Dispatcher {
            shared: Arc::new(Shared {
                store,
                fetcher,
                retry_base,
                worker,
                wake: Notify::new(),
                in_flight: AtomicUsize::new(0),
                observer: std::sync::OnceLock::new(),
            }),
            started: Mutex::new(false),
            refused: RareWarning::default(),
        }
    }

    /// Starts the delivery loop (once; later calls do nothing) on the current runtime. It
    /// stops claiming when `stop` turns true; rows it has not finished stay in the outbox for
    /// the next start.
    pub fn start(&self, stop: Option<watch::Receiver<bool>>) {
        let mut started = self.started.lock().unwrap_or_else(|p| p.into_inner());
        if *started {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        *started = true;
        runtime.spawn(queue::run(Arc::clone(&self.shared), stop));
    }

    /// Takes the store's answer to a write that carried an event: wakes the loop for the
    /// rows written pending, and warns (rarely) about those the bounds dropped, which the
    /// store already wrote to the delivery log.
    pub fn enqueued(&self, enqueued: &store::Enqueued) {
        if enqueued.pending > 0 {
            // Started here too for a state built without `serve` (the server starts it).
            self.start(None);
            self.shared.wake.notify_one();
        }
        if enqueued.dropped > 0 {
            if let Some(dropped) = self.refused.due(enqueued.dropped as u64) {
                tracing::warn!(dropped, "webhook events dropped: subscription or server pending bound reached");
            }
        }
    }

    /// Writes `event` (one of [`store::WEBHOOK_EVENTS`]) with `data` for the subscriptions
    /// of `user_id` into the outbox on its own, for an event that no stored change goes
    /// with (events that do go with one are written in the change's transaction). `None`,
    /// logged, when the store could not write it.
    pub async fn emit(&self, user_id: &UserId, event: &'static str, data: Value) -> Option<store::Enqueued> {
        let (store, user) = (self.shared.store.clone(), user_id.clone());
        match tokio::task::spawn_blocking(move || store.enqueue_webhook_event(&user, event, data)).await {
            Ok(Ok(enqueued)) => {
                self.enqueued(&enqueued);
                Some(enqueued)
            }
            Ok(Err(e)) => {
                tracing::error!(event, error = %e, "webhook event not written");
                None
            }
            Err(e) => {
                tracing::error!(event, error = %e, "webhook event task failed");
                None
            }
        }
    }

    /// Tells `observer` the outcome of every delivery attempt from now on (set once).
    pub fn observe(&self, observer: Arc<dyn crate::Observer>) {
        let _ = self.shared.observer.set(observer);
    }

    /// What the outbox holds right now (reads the store: blocking).
    pub fn stats(&self) -> queue::Stats {
        match self.shared.store.webhook_outbox_stats(time::OffsetDateTime::now_utc()) {
            Ok(s) => queue::Stats {
                held: s.pending,
                in_flight: s.in_flight,
                subscriptions: s.subscriptions,
                in_flight_here: self.shared.in_flight.load(Ordering::Relaxed),
            },
            Err(e) => {
                tracing::warn!(error = %e, "webhook outbox not read");
                queue::Stats::default()
            }
        }
    }

    /// The deliveries subscription `webhook_id` holds right now (reads the store: blocking).
    pub fn held_by(&self, webhook_id: &WebhookId) -> usize {
        self.shared.store.pending_webhook_deliveries(webhook_id).unwrap_or(0)
    }
}

/// A test delivery just written ([`crate::App::test_subscription`]).
#[derive(Debug, Clone)]
pub struct TestQueued {
    /// Its outbox row: the delivery id, the event id sent as `x-webhook-id`, its state
    /// (`pending`, or `dropped` when the subscription's queue was full).
    pub delivery: store::LoggedDelivery,
}

/// Deliveries the delivery log lists at most (`GET /api/v1/webhooks/{id}/deliveries`).
pub const DELIVERY_LOG_LIMIT: usize = 50;

/// The answer to a subscription id its caller does not hold: `not_found`, the same for an
/// unknown id and for another owner's.
pub fn no_subscription(id: &WebhookId) -> crate::AppError {
    crate::AppError::refused(crate::ErrorCode::NotFound, format!("No webhook subscription {id}."))
}

impl crate::App {
    /// The subscription `id` of `user_id`, or `None` (another owner's id is answered exactly
    /// as an unknown one).
    async fn owned_subscription(
        &self,
        user_id: &UserId,
        id: &WebhookId,
    ) -> Result<Option<store::Webhook>, crate::AppError> {
        let (user, id) = (user_id.clone(), id.clone());
        self.db(move |s| Ok(s.list_webhooks(&user)?.into_iter().find(|h| h.id == id))).await
    }

    /// Enables or disables subscription `id` of `user_id`: a disabled one gets no new
    /// deliveries (events are not written for it) and its pending ones wait until it is
    /// enabled again. The subscription as it now stands.
    ///
    /// # Errors
    /// `not_found` when `user_id` holds no such subscription ([`no_subscription`]); the
    /// store failed.
    pub async fn set_subscription_enabled(
        &self,
        user_id: UserId,
        id: WebhookId,
        enabled: bool,
    ) -> Result<store::Webhook, crate::AppError> {
        let (user, hook) = (user_id.clone(), id.clone());
        let set = match self.db(move |s| Ok(s.set_webhook_enabled(&user, &hook, enabled))).await? {
            Ok(()) => self.owned_subscription(&user_id, &id).await?,
            Err(e) if e.is_not_found() => None,
            Err(e) => return Err(e.into()),
        };
        set.ok_or_else(|| no_subscription(&id))
    }

    /// Sends a test event ([`store::WEBHOOK_TEST_EVENT`], `ping`) through the outbox to
    /// subscription `id` of `user_id` only, signed and retried like any event, for one unit
    /// of `payer`'s quota (charged first, whatever the subscription).
    ///
    /// # Errors
    /// `rate_limited`, `not_found` when `user_id` holds no such subscription
    /// ([`no_subscription`]), `conflict` when it is disabled (the test would wait for it to
    /// be enabled), or the store failed.
    pub async fn test_subscription(
        &self,
        payer: &crate::quota::Payer,
        user_id: UserId,
        id: WebhookId,
    ) -> Result<TestQueued, crate::AppError> {
        self.charge(payer, 1).await?;
        let Some(hook) = self.owned_subscription(&user_id, &id).await? else { return Err(no_subscription(&id)) };
        if !hook.enabled {
            return Err(crate::AppError::refused(
                crate::ErrorCode::Conflict,
                format!("The webhook subscription {id} is disabled; enable it (PATCH {{\"enabled\": true}}) first."),
            ));
        }
        let data = serde_json::json!({
            "webhookId": hook.id,
            "message": "A test event sent on request; it needs no action.",
        });
        let hook_id = id.clone();
        let written = self.db(move |s| Ok(s.enqueue_webhook_test(&user_id, &hook_id, data))).await?;
        match written {
            Ok((delivery, enqueued)) => {
                self.events.enqueued(&enqueued);
                Ok(TestQueued { delivery })
            }
            // Deleted in the meantime.
            Err(e) if e.is_not_found() => Err(no_subscription(&id)),
            Err(e) => Err(e.into()),
        }
    }

    /// The delivery log of subscription `id` of `user_id`: its newest
    /// [`DELIVERY_LOG_LIMIT`] deliveries, newest first.
    ///
    /// # Errors
    /// `not_found` when `user_id` holds no such subscription ([`no_subscription`]); the
    /// store failed.
    pub async fn delivery_log(
        &self,
        user_id: UserId,
        id: WebhookId,
    ) -> Result<Vec<store::LoggedDelivery>, crate::AppError> {
        if self.owned_subscription(&user_id, &id).await?.is_none() {
            return Err(no_subscription(&id));
        }
        self.db(move |s| s.webhook_delivery_log(&id, DELIVERY_LOG_LIMIT)).await
    }
}

impl Shared {
    /// Makes the attempt of a claimed row and records it (with its retry or its end).
    async fn attempt(self: Arc<Shared>, claim: store::ClaimedDelivery) {
        let outcome = self.send(&claim).await;
        let store = self.store.clone();
        let (id, worker, base) = (claim.id.clone(), self.worker.clone(), self.retry_base);
        let recorded = tokio::task::spawn_blocking(move || {
            store.record_webhook_attempt(&id, &worker, time::OffsetDateTime::now_utc(), &outcome, base)
        })
        .await;
        let counted = match &recorded {
            Ok(Ok(store::AttemptRecorded::Updated { state: store::OutboxState::Failed, .. })) => "failed",
            Ok(Ok(store::AttemptRecorded::Updated { state: store::OutboxState::Delivered, .. })) => "delivered",
            Ok(Ok(store::AttemptRecorded::Updated { .. })) => "retry",
            Ok(Ok(store::AttemptRecorded::Superseded)) => "superseded",
            Ok(Ok(store::AttemptRecorded::Gone)) => "gone",
            Ok(Err(_)) | Err(_) => "unrecorded",
        };
        if let Some(observer) = self.observer.get() {
            observer.webhook_attempt(counted);
        }
        match recorded {
            Ok(Ok(store::AttemptRecorded::Updated { state: store::OutboxState::Failed, .. })) => {
                tracing::warn!(webhook = %claim.webhook_id, event = %claim.event, "webhook delivery gave up");
            }
            Ok(Ok(_)) => {}
            // The row keeps its claim, which expires: the attempt is made again then.
            Ok(Err(e)) => {
                tracing::error!(webhook = %claim.webhook_id, error = %e, "webhook attempt not recorded");
            }
            Err(e) => tracing::error!(error = %e, "webhook record task failed"),
        }
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.wake.notify_one();
    }

    /// One signed POST of the stored body.
    async fn send(&self, claim: &store::ClaimedDelivery) -> store::AttemptOutcome {
        let refused = |error: String| store::AttemptOutcome { status_code: None, error: Some(error), retryable: false };
        let url = match url::Url::parse(&claim.url) {
            Ok(url) => url,
            Err(e) => return refused(fetch::Error::InvalidUrl(e.to_string()).to_string()),
        };
        // The stored body is our own compact serialisation, so re-serialising the parsed
        // value gives back the same bytes, which are the ones signed and sent.
        let body: Value = match serde_json::from_str(&claim.payload) {
            Ok(body) => body,
            Err(e) => return refused(format!("stored payload is not JSON: {e}")),
        };
        let timestamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let headers = vec![
            ("x-webhook-event".to_string(), claim.event.clone()),
            ("x-webhook-id".to_string(), claim.event_id.to_string()),
            (TIMESTAMP_HEADER.to_string(), timestamp.to_string()),
            (SIGNATURE_HEADER.to_string(), signature_header(&claim.secret, timestamp, &body.to_string())),
        ];
        match self.fetcher.post_json(&url, &headers, &body, DELIVERY_TIMEOUT).await {
            Ok((status, _, _)) => store::AttemptOutcome { status_code: Some(status), error: None, retryable: true },
            // A refused target will be refused again: no point retrying.
            Err(e) => store::AttemptOutcome {
                status_code: None,
                error: Some(e.to_string()),
                retryable: !(e.is_blocked() || e.is_invalid_url()),
            },
        }
    }
}

/// The wait after failed attempt `attempt` (1-based), before jitter: `base * 2^(attempt-1)`.
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    store::webhook_backoff(base, attempt)
}

/// `sha256=HEX` of HMAC-SHA256(secret, "{timestamp}.{body}").
pub fn signature_header(secret: &str, timestamp: i64, body: &str) -> String {
    format!("sha256={}", sign(secret, timestamp, body))
}

/// Lowercase hex HMAC-SHA256 of `"{timestamp}.{body}"` keyed with `secret`.
pub fn sign(secret: &str, timestamp: i64, body: &str) -> String {
    // HMAC accepts keys of any length; the error branch cannot happen.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else { return String::new() };
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_follow_the_documented_recipe() {
        // Computed independently: python3 -c "import hmac,hashlib; print(hmac.new(
        // b'whsec_test', b'1700000000.{\"a\":1}', hashlib.sha256).hexdigest())"
        let expected = "38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789";
        assert_eq!(sign("whsec_test", 1_700_000_000, r#"{"a":1}"#), expected);
        assert_eq!(signature_header("whsec_test", 1_700_000_000, r#"{"a":1}"#), format!("sha256={expected}"));
        assert_ne!(sign("whsec_test", 1_700_000_001, r#"{"a":1}"#), expected);
        assert_ne!(sign("whsec_other", 1_700_000_000, r#"{"a":1}"#), expected);
    }

    #[test]
    fn backoff_doubles() {
        let base = Duration::from_millis(50);
        let waits: Vec<u128> = (1..=4).map(|a| backoff(base, a).as_millis()).collect();
        assert_eq!(waits, [50, 100, 200, 400]);
        assert_eq!(backoff(base, 0), base);
        assert!(backoff(base, 1000) >= backoff(base, 16));
    }
}
