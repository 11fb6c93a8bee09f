//! Webhook delivery: events of a key owner are POSTed, signed, to their subscriptions.
//!
//! [`Dispatcher::emit`] never waits: it puts the event on a bounded channel read by one
//! worker task (started on first use). The worker looks up the owner's enabled
//! subscriptions to the event and queues one delivery per subscription in [`queue`]'s
//! per-subscription queues, which bound what each subscription holds and has in flight
//! (docs/API.md, "Webhooks"): a receiver that never answers ties up its own subscription's
//! places, never another's. Attempts are made by short tasks, one per attempt; a failed
//! attempt waits for its retry (exponential backoff) without holding a place in flight.
//! Every attempt, and every event refused by a full queue, is logged with
//! `store.record_delivery`.
//!
//! What is sent (docs/API.md, "Webhooks"):
//! - body: `{"id": EVENT_ID, "event": NAME, "createdAt": RFC3339, "data": {...}}`, the exact
//!   bytes of `serde_json::to_string` of that object;
//! - headers: `content-type: application/json`, `x-webhook-event: NAME`,
//!   `x-webhook-id: EVENT_ID` (the same on every retry, so receivers can deduplicate),
//!   `x-webhook-timestamp: UNIX_SECONDS`, and
//!   `x-signature-256: sha256=HEX`, where HEX is the lowercase hex HMAC-SHA256, keyed with
//!   the subscription's secret, of the string `"{timestamp}.{body}"`.
//!
//! Targets go through the fetcher's address guard at every attempt, like audits.

pub mod queue;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use tokio::sync::mpsc;

use queue::{Delivery, Limits, Queues, Refused};

/// Attempts per delivery (the first try and four retries).
pub const MAX_ATTEMPTS: u32 = 5;
/// Default delay before the first retry; it doubles at each further attempt
/// (1 s, 2 s, 4 s, 8 s).
pub const DEFAULT_RETRY_BASE_MS: u64 = 1_000;
/// Time a receiver gets to answer one attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// Events waiting for the worker's subscription lookup; past that, new events are dropped
/// (and logged).
pub const QUEUE_CAPACITY: usize = 1_024;
/// Attempts of one subscription in flight at once.
pub const MAX_IN_FLIGHT_PER_SUBSCRIPTION: usize = 2;
/// Attempts in flight at once, server-wide. Subscriptions take turns for free places.
pub const MAX_CONCURRENT_DELIVERIES: usize = 64;
/// Deliveries one subscription holds (waiting, in flight or waiting for a retry); a newer
/// event is refused and the refusal written to the delivery log.
pub const MAX_PENDING_PER_SUBSCRIPTION: usize = 100;
/// Deliveries all subscriptions together hold; past that the same refusal applies.
pub const MAX_PENDING_TOTAL: usize = 10_000;
/// How long "this owner has no enabled subscription to this event" is trusted before the
/// store is asked again. Every keyed audit emits `audit.completed`; without this, an owner
/// with no subscriptions would cost a database read per audit and, under load, fill the
/// queue. Subscription changes through the API forget the answer at once.
pub const NO_SUBSCRIPTION_TTL: Duration = Duration::from_secs(5);
/// Most (owner, event) answers kept; past that the memory is cleared.
const MAX_REMEMBERED: usize = 10_000;
/// Header carrying the signature.
pub const SIGNATURE_HEADER: &str = "x-signature-256";
/// Header carrying the signed timestamp.
pub const TIMESTAMP_HEADER: &str = "x-webhook-timestamp";
/// Prefix of the delivery log's `error` for an event refused by a full queue.
pub const DROPPED_PREFIX: &str = "dropped:";
/// Warnings about full queues or a full channel: at most one per this interval, with a count.
const WARNING_INTERVAL: Duration = Duration::from_secs(10);

/// One event to deliver to the subscriptions of its owner.
#[derive(Debug, Clone)]
struct Event {
    user_id: String,
    name: &'static str,
    data: Value,
}

/// A warning that is written at most once per [`WARNING_INTERVAL`], with the number of
/// occurrences since the last one.
#[derive(Debug, Default)]
struct RareWarning {
    count: AtomicU64,
    last: Mutex<Option<Instant>>,
}

impl RareWarning {
    /// Counts one occurrence; the count when a warning is due now.
    fn due(&self) -> Option<u64> {
        let count = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_none_or(|at| at.elapsed() >= WARNING_INTERVAL) {
            *last = Some(Instant::now());
            self.count.store(0, Ordering::Relaxed);
            return Some(count);
        }
        None
    }
}

impl app::Events for Dispatcher {
    fn emit(&self, owner: &str, event: &'static str, data: Value) {
        Dispatcher::emit(self, owner, event, data);
    }
}

/// The sending side of webhook delivery, shared through [`crate::AppState`].
#[derive(Debug)]
pub struct Dispatcher {
    tx: mpsc::Sender<Event>,
    /// (owner, event) pairs known to have no enabled subscription, and since when.
    unsubscribed: Arc<Mutex<HashMap<(String, &'static str), Instant>>>,
    /// Events dropped on a full channel.
    channel_full: RareWarning,
    /// The receiving side until the worker is started (on the first event, inside the
    /// runtime that emits it).
    rx: Mutex<Option<mpsc::Receiver<Event>>>,
    shared: Arc<Shared>,
}

/// What the worker and the attempt tasks share.
#[derive(Debug)]
struct Shared {
    queues: Mutex<Queues>,
    store: store::Store,
    fetcher: fetch::Fetcher,
    retry_base: Duration,
    /// Events refused by a full subscription queue or the server-wide bound.
    refused: RareWarning,
}

impl Dispatcher {
    /// A dispatcher delivering with `fetcher`, logging into `store`.
    pub fn new(store: store::Store, fetcher: fetch::Fetcher, retry_base: Duration) -> Dispatcher {
        let (tx, rx) = mpsc::channel(QUEUE_CAPACITY);
        let limits = Limits {
            in_flight_per_subscription: MAX_IN_FLIGHT_PER_SUBSCRIPTION,
            in_flight_total: MAX_CONCURRENT_DELIVERIES,
            pending_per_subscription: MAX_PENDING_PER_SUBSCRIPTION,
            pending_total: MAX_PENDING_TOTAL,
        };
        Dispatcher {
            tx,
            unsubscribed: Arc::default(),
            channel_full: RareWarning::default(),
            rx: Mutex::new(Some(rx)),
            shared: Arc::new(Shared {
                queues: Mutex::new(Queues::new(limits)),
                store,
                fetcher,
                retry_base,
                refused: RareWarning::default(),
            }),
        }
    }

    /// Forgets what is known about `user_id`'s subscriptions: call after creating, deleting,
    /// enabling or disabling one.
    pub fn subscriptions_changed(&self, user_id: &str) {
        self.unsubscribed.lock().unwrap_or_else(|p| p.into_inner()).retain(|(user, _), _| user != user_id);
    }

    /// What the delivery queues hold right now.
    pub fn stats(&self) -> queue::Stats {
        self.shared.queues().stats()
    }

    /// The deliveries subscription `webhook_id` holds right now.
    pub fn held_by(&self, webhook_id: &str) -> usize {
        self.shared.queues().held_by(webhook_id)
    }

    /// Queues `event` (one of [`store::WEBHOOK_EVENTS`]) with `data` for the subscriptions
    /// of `user_id`. Never waits; a full channel drops the event with a warning.
    pub fn emit(&self, user_id: &str, event: &'static str, data: Value) {
        let key = (user_id.to_string(), event);
        if self
            .unsubscribed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .is_some_and(|since| since.elapsed() < NO_SUBSCRIPTION_TTL)
        {
            return;
        }
        self.start_worker();
        let event = Event { user_id: key.0, name: event, data };
        if self.tx.try_send(event).is_err() {
            if let Some(dropped) = self.channel_full.due() {
                tracing::warn!(dropped, "webhook events dropped: delivery queue full");
            }
        }
    }

    fn start_worker(&self) {
        let mut slot = self.rx.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        if let Some(rx) = slot.take() {
            let worker = Worker { unsubscribed: Arc::clone(&self.unsubscribed), shared: Arc::clone(&self.shared) };
            runtime.spawn(worker.run(rx));
        }
    }
}

struct Worker {
    unsubscribed: Arc<Mutex<HashMap<(String, &'static str), Instant>>>,
    shared: Arc<Shared>,
}

impl Worker {
    async fn run(self, mut rx: mpsc::Receiver<Event>) {
        while let Some(event) = rx.recv().await {
            let store = self.shared.store.clone();
            let (user, name) = (event.user_id.clone(), event.name);
            let hooks = match tokio::task::spawn_blocking(move || store.webhooks_for_event(&user, name)).await {
                Ok(Ok(hooks)) => hooks,
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "webhook subscriptions not read");
                    continue;
                }
                Err(e) => {
                    tracing::error!(error = %e, "webhook lookup task failed");
                    continue;
                }
            };
            if hooks.is_empty() {
                let mut unsubscribed = self.unsubscribed.lock().unwrap_or_else(|p| p.into_inner());
                if unsubscribed.len() >= MAX_REMEMBERED {
                    unsubscribed.clear();
                }
                unsubscribed.insert((event.user_id, event.name), Instant::now());
                continue;
            }
            let event_id: Arc<str> = uuid::Uuid::new_v4().to_string().into();
            let payload = Arc::new(json!({
                "id": &*event_id,
                "event": event.name,
                "createdAt": crate::now_rfc3339(),
                "data": event.data,
            }));
            for hook in hooks {
                let delivery = Delivery {
                    webhook_id: hook.id.clone(),
                    event: event.name,
                    event_id: Arc::clone(&event_id),
                    payload: Arc::clone(&payload),
                    attempt: 1,
                };
                let pushed = self.shared.queues().push(&hook, delivery);
                if let Err(refused) = pushed {
                    self.shared.refuse(&hook, event.name, &payload, refused).await;
                }
            }
            Shared::pump(&self.shared);
        }
    }
}

impl Shared {
    fn queues(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts an attempt task for every attempt the queues allow now.
    fn pump(shared: &Arc<Shared>) {
        loop {
            let claimed = shared.queues().claim();
            let Some((hook, delivery)) = claimed else { return };
            tokio::spawn(Arc::clone(shared).attempt(hook, delivery));
        }
    }

    /// Logs and records an event a full queue refused (docs/API.md, "Webhooks").
    async fn refuse(&self, hook: &store::Webhook, event: &'static str, payload: &Value, refused: Refused) {
        let why = match refused {
            Refused::SubscriptionFull => format!(
                "{DROPPED_PREFIX} {MAX_PENDING_PER_SUBSCRIPTION} deliveries to this subscription were already \
                 pending, so this newer event was not queued"
            ),
            Refused::TotalFull => format!(
                "{DROPPED_PREFIX} {MAX_PENDING_TOTAL} webhook deliveries were already pending on the server, so \
                 this event was not queued"
            ),
        };
        if let Some(dropped) = self.refused.due() {
            tracing::warn!(webhook = %hook.id, reason = ?refused, dropped, "webhook events dropped: queue full");
        }
        self.record(store::NewDelivery {
            webhook_id: hook.id.clone(),
            event: event.to_string(),
            payload: payload.to_string(),
            attempt: 1,
            status_code: None,
            error: Some(why),
        })
        .await;
    }

    async fn record(&self, record: store::NewDelivery) {
        let store = self.store.clone();
        let webhook_id = record.webhook_id.clone();
        if let Ok(Err(e)) = tokio::task::spawn_blocking(move || store.record_delivery(record)).await {
            // The subscription may have been deleted meanwhile.
            tracing::debug!(webhook = %webhook_id, error = %e, "delivery not logged");
        }
    }

    /// Makes one attempt of `delivery`, logs it, and reports to the queues whether it is
    /// done or will be retried (after its backoff, outside any place in flight).
    async fn attempt(self: Arc<Shared>, hook: Arc<store::Webhook>, delivery: Delivery) {
        let outcome = match url::Url::parse(&hook.url) {
            Ok(url) => {
                let timestamp = time::OffsetDateTime::now_utc().unix_timestamp();
                let body = delivery.payload.to_string();
                let headers = vec![
                    ("x-webhook-event".to_string(), delivery.event.to_string()),
                    ("x-webhook-id".to_string(), delivery.event_id.to_string()),
                    (TIMESTAMP_HEADER.to_string(), timestamp.to_string()),
                    (SIGNATURE_HEADER.to_string(), signature_header(&hook.secret, timestamp, &body)),
                ];
                self.fetcher.post_json(&url, &headers, &delivery.payload, DELIVERY_TIMEOUT).await
            }
            Err(e) => Err(fetch::Error::InvalidUrl(e.to_string())),
        };
        let (status, error) = match &outcome {
            Ok((status, _, _)) => (Some(*status), None),
            Err(e) => (None, Some(e.to_string())),
        };
        self.record(store::NewDelivery {
            webhook_id: hook.id.clone(),
            event: delivery.event.to_string(),
            payload: delivery.payload.to_string(),
            attempt: delivery.attempt,
            status_code: status,
            error,
        })
        .await;
        let done = status.is_some_and(|s| (200..300).contains(&s));
        // A refused target will be refused again: no point retrying.
        let hopeless = matches!(&outcome, Err(e) if e.is_blocked() || e.is_invalid_url());
        if done || hopeless || delivery.attempt >= MAX_ATTEMPTS {
            if !done {
                tracing::warn!(webhook = %hook.id, event = delivery.event, "webhook delivery gave up");
            }
            self.queues().finished(&hook.id);
            Shared::pump(&self);
            return;
        }
        self.queues().retry_later(&hook.id);
        Shared::pump(&self);
        tokio::time::sleep(backoff(self.retry_base, delivery.attempt)).await;
        let attempt = delivery.attempt + 1;
        self.queues().retry_now(Delivery { attempt, ..delivery });
        Shared::pump(&self);
    }
}

/// The wait after failed attempt `attempt` (1-based): `base * 2^(attempt-1)`.
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    base.saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
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

    #[tokio::test]
    async fn owners_without_subscriptions_are_remembered_until_they_change() {
        let dir = tempfile::tempdir().unwrap();
        let store = store::Store::open(dir.path().join("db.sqlite")).unwrap();
        let user = store.create_user(store::Tier::Free).unwrap().id;
        let fetcher = fetch::Fetcher::new(fetch::FetchConfig::default()).unwrap();
        let dispatcher = Dispatcher::new(store.clone(), fetcher, Duration::from_millis(10));
        let remembered =
            |d: &Dispatcher| d.unsubscribed.lock().unwrap().contains_key(&(user.clone(), "audit.completed"));
        dispatcher.emit(&user, "audit.completed", json!({}));
        for _ in 0..200 {
            if remembered(&dispatcher) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(remembered(&dispatcher), "the worker learns that nobody listens");
        // Now emitting costs no queue slot: a full burst is swallowed without a warning.
        for _ in 0..(2 * QUEUE_CAPACITY) {
            dispatcher.emit(&user, "audit.completed", json!({}));
        }
        assert_eq!(dispatcher.channel_full.count.load(Ordering::Relaxed), 0);
        dispatcher.subscriptions_changed(&user);
        assert!(!remembered(&dispatcher), "a subscription change forgets it");
    }

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
