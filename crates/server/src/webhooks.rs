//! Webhook delivery: events of a key owner are POSTed, signed, to their subscriptions.
//!
//! [`Dispatcher::emit`] never waits: it puts the event on a bounded channel read by one
//! worker task (started on first use). The worker looks up the owner's enabled
//! subscriptions to the event and delivers to each in its own task, retrying failures
//! with exponential backoff. Every attempt is logged with `store.record_delivery`.
//!
//! What is sent (DECISIONS §9):
//! - body: `{"id": EVENT_ID, "event": NAME, "createdAt": RFC3339, "data": {...}}`, the exact
//!   bytes of `serde_json::to_string` of that object;
//! - headers: `content-type: application/json`, `x-webhook-event: NAME`,
//!   `x-webhook-id: EVENT_ID` (the same on every retry, so receivers can deduplicate),
//!   `x-webhook-timestamp: UNIX_SECONDS`, and
//!   `x-signature-256: sha256=HEX`, where HEX is the lowercase hex HMAC-SHA256, keyed with
//!   the subscription's secret, of the string `"{timestamp}.{body}"`.
//!
//! Targets go through the fetcher's address guard at every attempt, like audits.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use tokio::sync::{mpsc, Semaphore};

/// Attempts per delivery (the first try and four retries).
pub const MAX_ATTEMPTS: u32 = 5;
/// Default delay before the first retry; it doubles at each further attempt
/// (1 s, 2 s, 4 s, 8 s).
pub const DEFAULT_RETRY_BASE_MS: u64 = 1_000;
/// Time a receiver gets to answer one attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// Events waiting for the worker; past that, new events are dropped (and logged).
pub const QUEUE_CAPACITY: usize = 1_024;
/// Deliveries in flight at once, server-wide.
pub const MAX_CONCURRENT_DELIVERIES: usize = 16;
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

/// One event to deliver to the subscriptions of its owner.
#[derive(Debug, Clone)]
struct Event {
    user_id: String,
    name: &'static str,
    data: Value,
}

/// The sending side of webhook delivery, shared through [`crate::AppState`].
#[derive(Debug)]
pub struct Dispatcher {
    tx: mpsc::Sender<Event>,
    /// (owner, event) pairs known to have no enabled subscription, and since when.
    unsubscribed: Arc<Mutex<HashMap<(String, &'static str), Instant>>>,
    /// Events dropped on a full queue since the last warning.
    dropped: AtomicU64,
    last_drop_warning: Mutex<Option<Instant>>,
    /// The receiving side until the worker is started (on the first event, inside the
    /// runtime that emits it).
    rx: Mutex<Option<mpsc::Receiver<Event>>>,
    store: store::Store,
    fetcher: fetch::Fetcher,
    retry_base: Duration,
}

impl Dispatcher {
    /// A dispatcher delivering with `fetcher`, logging into `store`.
    pub fn new(store: store::Store, fetcher: fetch::Fetcher, retry_base: Duration) -> Dispatcher {
        let (tx, rx) = mpsc::channel(QUEUE_CAPACITY);
        Dispatcher {
            tx,
            unsubscribed: Arc::default(),
            dropped: AtomicU64::new(0),
            last_drop_warning: Mutex::new(None),
            rx: Mutex::new(Some(rx)),
            store,
            fetcher,
            retry_base,
        }
    }

    /// Forgets what is known about `user_id`'s subscriptions: call after creating, deleting,
    /// enabling or disabling one.
    pub fn subscriptions_changed(&self, user_id: &str) {
        self.unsubscribed.lock().unwrap_or_else(|p| p.into_inner()).retain(|(user, _), _| user != user_id);
    }

    /// Queues `event` (one of [`store::WEBHOOK_EVENTS`]) with `data` for the subscriptions
    /// of `user_id`. Never waits; a full queue drops the event with a warning.
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
            // One warning per 10 s with a count, not a line per event.
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            let mut last = self.last_drop_warning.lock().unwrap_or_else(|p| p.into_inner());
            if last.is_none_or(|at| at.elapsed() >= Duration::from_secs(10)) {
                *last = Some(Instant::now());
                self.dropped.store(0, Ordering::Relaxed);
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
            let worker = Worker {
                unsubscribed: Arc::clone(&self.unsubscribed),
                store: self.store.clone(),
                fetcher: self.fetcher.clone(),
                retry_base: self.retry_base,
                slots: Arc::new(Semaphore::new(MAX_CONCURRENT_DELIVERIES)),
            };
            runtime.spawn(worker.run(rx));
        }
    }
}

#[derive(Clone)]
struct Worker {
    unsubscribed: Arc<Mutex<HashMap<(String, &'static str), Instant>>>,
    store: store::Store,
    fetcher: fetch::Fetcher,
    retry_base: Duration,
    slots: Arc<Semaphore>,
}

impl Worker {
    async fn run(self, mut rx: mpsc::Receiver<Event>) {
        while let Some(event) = rx.recv().await {
            let store = self.store.clone();
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
            let payload = json!({
                "id": uuid::Uuid::new_v4().to_string(),
                "event": event.name,
                "createdAt": crate::now_rfc3339(),
                "data": event.data,
            });
            for hook in hooks {
                let worker = self.clone();
                let payload = payload.clone();
                tokio::spawn(async move { worker.deliver(hook, payload).await });
            }
        }
    }

    /// Delivers one event to one subscription, retrying until a 2xx or
    /// [`MAX_ATTEMPTS`] attempts.
    async fn deliver(&self, hook: store::Webhook, payload: Value) {
        let Ok(url) = url::Url::parse(&hook.url) else {
            tracing::warn!(webhook = %hook.id, "webhook url no longer parses");
            return;
        };
        let body = payload.to_string();
        let event = payload["event"].as_str().unwrap_or_default().to_string();
        let event_id = payload["id"].as_str().unwrap_or_default().to_string();
        for attempt in 1..=MAX_ATTEMPTS {
            let outcome = {
                let _slot = self.slots.acquire().await;
                let timestamp = time::OffsetDateTime::now_utc().unix_timestamp();
                let headers = vec![
                    ("x-webhook-event".to_string(), event.clone()),
                    ("x-webhook-id".to_string(), event_id.clone()),
                    (TIMESTAMP_HEADER.to_string(), timestamp.to_string()),
                    (SIGNATURE_HEADER.to_string(), signature_header(&hook.secret, timestamp, &body)),
                ];
                self.fetcher.post_json(&url, &headers, &payload, DELIVERY_TIMEOUT).await
            };
            let (status, error) = match &outcome {
                Ok((status, _, _)) => (Some(*status), None),
                Err(e) => (None, Some(e.to_string())),
            };
            let record = store::NewDelivery {
                webhook_id: hook.id.clone(),
                event: event.clone(),
                payload: body.clone(),
                attempt,
                status_code: status,
                error,
            };
            let store = self.store.clone();
            if let Ok(Err(e)) = tokio::task::spawn_blocking(move || store.record_delivery(record)).await {
                // The subscription may have been deleted meanwhile.
                tracing::debug!(webhook = %hook.id, error = %e, "delivery not logged");
            }
            let done = status.is_some_and(|s| (200..300).contains(&s));
            // A refused target will be refused again: no point retrying.
            let hopeless = matches!(&outcome, Err(e) if e.is_blocked() || e.is_invalid_url());
            if done || hopeless {
                return;
            }
            if attempt < MAX_ATTEMPTS {
                tokio::time::sleep(backoff(self.retry_base, attempt)).await;
            }
        }
        tracing::warn!(webhook = %hook.id, event = %event, "webhook delivery gave up");
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
        assert_eq!(dispatcher.dropped.load(Ordering::Relaxed), 0);
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
