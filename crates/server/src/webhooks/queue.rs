//! The per-subscription delivery queues of webhook events (docs/API.md, "Webhooks").
//!
//! Every subscription has its own queue. A delivery is *held* by its subscription from the
//! moment it is queued until its last attempt ends: while it waits, while an attempt is in
//! flight, and while it waits for a retry. The bounds:
//!
//! - a subscription holds at most [`Limits::pending_per_subscription`] deliveries; a new
//!   event past that is refused (the newest is dropped, the queued ones keep their turn);
//! - all subscriptions together hold at most [`Limits::pending_total`]; past that every new
//!   event is refused the same way;
//! - at most [`Limits::in_flight_per_subscription`] attempts of one subscription run at
//!   once, so a receiver that never answers ties up that many connections and no more;
//! - at most [`Limits::in_flight_total`] attempts run server-wide. Subscriptions take turns
//!   for free places (round robin), so the next free place goes to the subscription that
//!   has waited longest, not to the one with the longest queue.
//!
//! The structure knows nothing about HTTP, the store or time: [`Queues::push`] adds a
//! delivery, [`Queues::claim`] hands out the next attempt to make, [`Queues::finished`]
//! and [`Queues::retry_later`] / [`Queues::retry_now`] report what became of it. The
//! dispatcher feeds it from the in-memory event channel today; a store-backed outbox can
//! feed the same calls (push what it claims, mark done on `finished`).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// One event to deliver to one subscription.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// The subscription's id.
    pub webhook_id: String,
    /// The event name (`audit.completed`, ...).
    pub event: &'static str,
    /// The event id, the same for every subscription and every attempt (`x-webhook-id`).
    pub event_id: Arc<str>,
    /// The JSON body, shared by the event's deliveries.
    pub payload: Arc<serde_json::Value>,
    /// The attempt this delivery is due for, 1 for the first.
    pub attempt: u32,
}

/// The bounds of [`Queues`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Attempts of one subscription in flight at once.
    pub in_flight_per_subscription: usize,
    /// Attempts in flight at once, server-wide.
    pub in_flight_total: usize,
    /// Deliveries one subscription holds (waiting, in flight, or waiting for a retry).
    pub pending_per_subscription: usize,
    /// Deliveries all subscriptions together hold.
    pub pending_total: usize,
}

/// Why [`Queues::push`] refused a delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The subscription already holds [`Limits::pending_per_subscription`] deliveries.
    SubscriptionFull,
    /// The server already holds [`Limits::pending_total`] deliveries.
    TotalFull,
}

/// What the queues hold right now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Deliveries held (waiting, in flight, waiting for a retry).
    pub held: usize,
    /// Attempts in flight.
    pub in_flight: usize,
    /// Subscriptions holding at least one delivery.
    pub subscriptions: usize,
}

/// The queue of one subscription.
#[derive(Debug)]
struct Lane {
    /// The subscription as last read from the store (its URL and secret).
    hook: Arc<store::Webhook>,
    /// Deliveries due now, oldest first (retries go to the front).
    waiting: VecDeque<Delivery>,
    in_flight: usize,
    /// Deliveries whose retry is not due yet.
    retrying: usize,
    /// Listed in [`Queues::ready`].
    listed: bool,
}

impl Lane {
    fn held(&self) -> usize {
        self.waiting.len() + self.in_flight + self.retrying
    }
}

/// Every subscription's queue; see the module documentation.
#[derive(Debug)]
pub struct Queues {
    limits: Limits,
    lanes: HashMap<String, Lane>,
    /// Subscriptions with a delivery due and room for another attempt, in turn order.
    ready: VecDeque<String>,
    held: usize,
    in_flight: usize,
}

impl Queues {
    /// Empty queues with these bounds (each at least 1).
    pub fn new(limits: Limits) -> Queues {
        let limits = Limits {
            in_flight_per_subscription: limits.in_flight_per_subscription.max(1),
            in_flight_total: limits.in_flight_total.max(1),
            pending_per_subscription: limits.pending_per_subscription.max(1),
            pending_total: limits.pending_total.max(1),
        };
        Queues { limits, lanes: HashMap::new(), ready: VecDeque::new(), held: 0, in_flight: 0 }
    }

    /// Queues `delivery` for `hook` (whose id it must carry), unless a bound refuses it.
    ///
    /// # Errors
    /// [`Refused`] saying which bound was reached; nothing is queued then.
    pub fn push(&mut self, hook: &store::Webhook, delivery: Delivery) -> Result<(), Refused> {
        debug_assert_eq!(hook.id, delivery.webhook_id);
        let held = self.lanes.get(&hook.id).map_or(0, Lane::held);
        if held >= self.limits.pending_per_subscription {
            return Err(Refused::SubscriptionFull);
        }
        if self.held >= self.limits.pending_total {
            return Err(Refused::TotalFull);
        }
        let lane = self.lanes.entry(hook.id.clone()).or_insert_with(|| Lane {
            hook: Arc::new(hook.clone()),
            waiting: VecDeque::new(),
            in_flight: 0,
            retrying: 0,
            listed: false,
        });
        if *lane.hook != *hook {
            lane.hook = Arc::new(hook.clone());
        }
        lane.waiting.push_back(delivery);
        self.held += 1;
        self.list(&hook.id);
        Ok(())
    }

    /// The next attempt to make, if one is due and the bounds allow it: the subscription
    /// (as last read) and the delivery. The attempt is in flight until
    /// [`Queues::finished`] or [`Queues::retry_later`] is called for it.
    pub fn claim(&mut self) -> Option<(Arc<store::Webhook>, Delivery)> {
        if self.in_flight >= self.limits.in_flight_total {
            return None;
        }
        while let Some(id) = self.ready.pop_front() {
            let per_subscription = self.limits.in_flight_per_subscription;
            let Some(lane) = self.lanes.get_mut(&id) else { continue };
            lane.listed = false;
            if lane.in_flight >= per_subscription {
                continue;
            }
            let Some(delivery) = lane.waiting.pop_front() else { continue };
            lane.in_flight += 1;
            let hook = Arc::clone(&lane.hook);
            self.in_flight += 1;
            // Back to the end of the line if it has more to send.
            self.list(&id);
            return Some((hook, delivery));
        }
        None
    }

    /// The attempt in flight for `webhook_id` was the delivery's last: it is no longer held.
    pub fn finished(&mut self, webhook_id: &str) {
        if let Some(lane) = self.lanes.get_mut(webhook_id) {
            if lane.in_flight > 0 {
                lane.in_flight -= 1;
                self.in_flight -= 1;
                self.held -= 1;
            }
        }
        self.list(webhook_id);
        self.forget_if_idle(webhook_id);
    }

    /// The attempt in flight for `webhook_id` failed and will be retried later: it stays
    /// held, and gives back its place in flight. Hand it back with [`Queues::retry_now`].
    pub fn retry_later(&mut self, webhook_id: &str) {
        if let Some(lane) = self.lanes.get_mut(webhook_id) {
            if lane.in_flight > 0 {
                lane.in_flight -= 1;
                lane.retrying += 1;
                self.in_flight -= 1;
            }
        }
        self.list(webhook_id);
    }

    /// A retry announced with [`Queues::retry_later`] is due: it goes to the front of its
    /// subscription's queue.
    pub fn retry_now(&mut self, delivery: Delivery) {
        let id = delivery.webhook_id.clone();
        let Some(lane) = self.lanes.get_mut(&id) else { return };
        if lane.retrying == 0 {
            return;
        }
        lane.retrying -= 1;
        lane.waiting.push_front(delivery);
        self.list(&id);
    }

    /// What is held and in flight.
    pub fn stats(&self) -> Stats {
        Stats { held: self.held, in_flight: self.in_flight, subscriptions: self.lanes.len() }
    }

    /// What `webhook_id` holds (0 for an unknown subscription).
    pub fn held_by(&self, webhook_id: &str) -> usize {
        self.lanes.get(webhook_id).map_or(0, Lane::held)
    }

    /// Puts the subscription in line when it has a delivery due and room in flight.
    fn list(&mut self, id: &str) {
        let per_subscription = self.limits.in_flight_per_subscription;
        if let Some(lane) = self.lanes.get_mut(id) {
            if !lane.listed && !lane.waiting.is_empty() && lane.in_flight < per_subscription {
                lane.listed = true;
                self.ready.push_back(id.to_string());
            }
        }
    }

    fn forget_if_idle(&mut self, id: &str) {
        if self.lanes.get(id).is_some_and(|lane| lane.held() == 0) {
            self.lanes.remove(id);
            // A stale entry in `ready` is skipped by `claim`.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(id: &str) -> store::Webhook {
        store::Webhook {
            id: id.into(),
            user_id: format!("owner-of-{id}"),
            url: format!("https://{id}.example/"),
            events: vec!["audit.completed".into()],
            secret: "whsec_x".into(),
            enabled: true,
            created_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn delivery(id: &str, n: u32) -> Delivery {
        Delivery {
            webhook_id: id.into(),
            event: "audit.completed",
            event_id: format!("{id}-{n}").into(),
            payload: Arc::new(serde_json::json!({ "n": n })),
            attempt: 1,
        }
    }

    const LIMITS: Limits =
        Limits { in_flight_per_subscription: 2, in_flight_total: 3, pending_per_subscription: 4, pending_total: 6 };

    fn claimed(q: &mut Queues) -> Vec<String> {
        std::iter::from_fn(|| q.claim()).map(|(_, d)| d.event_id.to_string()).collect()
    }

    #[test]
    fn one_subscription_never_has_more_than_its_share_in_flight() {
        let mut q = Queues::new(LIMITS);
        let a = hook("a");
        for n in 0..4 {
            q.push(&a, delivery("a", n)).unwrap();
        }
        assert_eq!(claimed(&mut q), ["a-0", "a-1"], "two in flight, the rest waits");
        assert_eq!(q.stats(), Stats { held: 4, in_flight: 2, subscriptions: 1 });
        q.finished("a");
        assert_eq!(claimed(&mut q), ["a-2"]);
        assert_eq!(q.held_by("a"), 3);
    }

    #[test]
    fn a_busy_subscription_leaves_room_for_the_others_in_turn() {
        let mut q = Queues::new(LIMITS);
        let (a, b) = (hook("a"), hook("b"));
        for n in 0..4 {
            q.push(&a, delivery("a", n)).unwrap();
        }
        assert_eq!(claimed(&mut q), ["a-0", "a-1"]);
        // `a` has two hanging attempts; `b` still gets the third place at once.
        q.push(&b, delivery("b", 0)).unwrap();
        assert_eq!(claimed(&mut q), ["b-0"]);
        // All three places taken: nothing more until one ends, then turns alternate.
        q.push(&b, delivery("b", 1)).unwrap();
        assert!(q.claim().is_none());
        q.finished("b");
        assert_eq!(claimed(&mut q), ["b-1"]);
        q.finished("a");
        q.finished("b");
        assert_eq!(claimed(&mut q), ["a-2"]);
    }

    #[test]
    fn the_newest_event_is_refused_past_the_bounds() {
        let mut q = Queues::new(LIMITS);
        let (a, b, c) = (hook("a"), hook("b"), hook("c"));
        for n in 0..4 {
            q.push(&a, delivery("a", n)).unwrap();
        }
        assert_eq!(q.push(&a, delivery("a", 4)), Err(Refused::SubscriptionFull));
        // In flight and retrying deliveries count too.
        assert_eq!(claimed(&mut q), ["a-0", "a-1"]);
        q.retry_later("a");
        assert_eq!(q.push(&a, delivery("a", 5)), Err(Refused::SubscriptionFull));
        // The server-wide bound.
        q.push(&b, delivery("b", 0)).unwrap();
        q.push(&b, delivery("b", 1)).unwrap();
        assert_eq!(q.push(&c, delivery("c", 0)), Err(Refused::TotalFull));
        assert_eq!(q.stats().held, 6);
        // A due retry goes before its subscription's waiting deliveries; turns alternate.
        q.retry_now(Delivery { attempt: 2, ..delivery("a", 0) });
        let next: Vec<(String, u32)> =
            std::iter::from_fn(|| q.claim()).map(|(_, d)| (d.event_id.to_string(), d.attempt)).collect();
        assert_eq!(next, [("a-0".to_string(), 2), ("b-0".to_string(), 1)]);
    }

    #[test]
    fn idle_subscriptions_are_forgotten_and_counts_return_to_zero() {
        let mut q = Queues::new(LIMITS);
        let a = hook("a");
        q.push(&a, delivery("a", 0)).unwrap();
        assert_eq!(claimed(&mut q), ["a-0"]);
        q.retry_later("a");
        assert_eq!(q.stats(), Stats { held: 1, in_flight: 0, subscriptions: 1 });
        assert!(q.claim().is_none(), "a retry is not due before retry_now");
        q.retry_now(Delivery { attempt: 2, ..delivery("a", 0) });
        assert_eq!(claimed(&mut q), ["a-0"]);
        q.finished("a");
        assert_eq!(q.stats(), Stats::default());
        // Stray reports change nothing.
        q.finished("a");
        q.retry_later("zz");
        q.retry_now(delivery("zz", 0));
        assert_eq!(q.stats(), Stats::default());
        assert!(q.claim().is_none());
    }

    #[test]
    fn a_changed_subscription_is_delivered_with_its_new_form() {
        let mut q = Queues::new(LIMITS);
        let mut a = hook("a");
        q.push(&a, delivery("a", 0)).unwrap();
        a.secret = "whsec_new".into();
        q.push(&a, delivery("a", 1)).unwrap();
        let (h, _) = q.claim().unwrap();
        assert_eq!(h.secret, "whsec_new");
    }
}
