//! The delivery loop over the store's outbox (docs/API.md, "Webhooks").
//!
//! The queue of every subscription is its pending rows in the outbox, so what it holds
//! survives a restart and is counted where it is kept. The bounds:
//!
//! - a subscription holds at most [`super::MAX_PENDING_PER_SUBSCRIPTION`] pending
//!   deliveries (waiting, in flight, or waiting for a retry), all together at most
//!   [`super::MAX_PENDING_TOTAL`]; past that the store writes a newer event `dropped` (the
//!   newest is dropped, the queued ones keep their turn) when the event is written;
//! - at most [`super::MAX_IN_FLIGHT_PER_SUBSCRIPTION`] attempts of one subscription run at
//!   once, so a receiver that never answers ties up that many connections and no more;
//! - at most [`super::MAX_CONCURRENT_DELIVERIES`] attempts run server-wide. Subscriptions take
//!   turns for free places: each one's oldest due row first, in the order they have waited,
//!   so the next free place goes to the subscription that has waited longest, not to the
//!   one with the longest queue.
//!
//! The two in-flight bounds count unexpired claims in the table, this process's and any
//! other's; the store applies them in the transaction that claims
//! (`Store::claim_webhook_deliveries`). The loop here only decides when to claim: at start,
//! whenever it is woken (an event was written, an attempt ended), when the next retry or
//! lease expiry comes due, and at least every [`IDLE_POLL`].

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use time::OffsetDateTime;
use tokio::sync::watch;

use super::{Shared, CLAIM_LEASE, MAX_CONCURRENT_DELIVERIES, MAX_IN_FLIGHT_PER_SUBSCRIPTION};

/// The longest the loop sleeps without looking at the outbox. Every change of this process
/// wakes it at once; this catches rows written by another process on the same database.
pub const IDLE_POLL: Duration = Duration::from_secs(5);
/// How long finished rows (delivered, failed, dropped) stay in the outbox. Every attempt
/// stays in the delivery log regardless.
pub const FINISHED_RETENTION: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// How often finished rows past [`FINISHED_RETENTION`] are deleted.
const PRUNE_INTERVAL: Duration = Duration::from_secs(60 * 60);

/// What the outbox holds right now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Deliveries held (pending: waiting, in flight, waiting for a retry).
    pub held: usize,
    /// Unexpired claims, any process's.
    pub in_flight: usize,
    /// Subscriptions holding at least one delivery.
    pub subscriptions: usize,
    /// Attempts this process has in flight.
    pub in_flight_here: usize,
}

/// The claim bounds of the loop.
pub const LIMITS: store::ClaimLimits = store::ClaimLimits {
    in_flight_per_subscription: MAX_IN_FLIGHT_PER_SUBSCRIPTION,
    in_flight_total: MAX_CONCURRENT_DELIVERIES,
    lease: CLAIM_LEASE,
};

/// Claims what is due, starts its attempts, and sleeps until there may be more; returns
/// when `stop` turns true.
pub(super) async fn run(shared: Arc<Shared>, mut stop: Option<watch::Receiver<bool>>) {
    let mut pruned: Option<Instant> = None;
    loop {
        if stop.as_ref().is_some_and(|s| *s.borrow()) {
            return;
        }
        if pruned.is_none_or(|at| at.elapsed() >= PRUNE_INTERVAL) {
            pruned = Some(Instant::now());
            prune(&shared).await;
        }
        let now = OffsetDateTime::now_utc();
        let wait = match claim(&shared, now).await {
            Ok(next) => next.map_or(IDLE_POLL, |at| until(now, at).min(IDLE_POLL)),
            Err(e) => {
                tracing::error!(error = %e, "webhook outbox not read");
                IDLE_POLL
            }
        };
        tokio::select! {
            () = shared.wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
            () = stopped(&mut stop) => return,
        }
    }
}

/// Claims the due rows the bounds allow, starts an attempt for each, and returns when the
/// next row may become claimable by time alone (a retry coming due, a claim expiring), as
/// seen from `now`: rows already due but held back by a bound are claimed when an attempt
/// ends and wakes the loop.
async fn claim(shared: &Arc<Shared>, now: OffsetDateTime) -> store::Result<Option<OffsetDateTime>> {
    let store = shared.store.clone();
    let worker = shared.worker.clone();
    let found = tokio::task::spawn_blocking(move || {
        let claimed = store.claim_webhook_deliveries(&worker, now, LIMITS)?;
        Ok::<_, store::Error>((claimed, store.next_webhook_wakeup(now)?))
    })
    .await;
    let (claimed, next) = match found {
        Ok(found) => found?,
        Err(e) => {
            tracing::error!(error = %e, "webhook claim task failed");
            return Ok(None);
        }
    };
    for delivery in claimed {
        shared.in_flight.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(Arc::clone(shared).attempt(delivery));
    }
    Ok(next)
}

async fn prune(shared: &Arc<Shared>) {
    let store = shared.store.clone();
    let before = OffsetDateTime::now_utc() - FINISHED_RETENTION;
    if let Ok(Err(e)) = tokio::task::spawn_blocking(move || store.prune_webhook_outbox(before)).await {
        tracing::warn!(error = %e, "finished webhook deliveries not pruned");
    }
}

/// The wait from `now` until `at` (none when it has passed).
fn until(now: OffsetDateTime, at: OffsetDateTime) -> Duration {
    Duration::try_from(at - now).unwrap_or(Duration::ZERO)
}

/// Resolves once `stop` turns true (or its sender is gone); never without one.
async fn stopped(stop: &mut Option<watch::Receiver<bool>>) {
    let Some(stop) = stop else { return std::future::pending().await };
    if stop.wait_for(|stopped| *stopped).await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_never_negative() {
        let now = OffsetDateTime::now_utc();
        assert_eq!(until(now, now - time::Duration::seconds(3)), Duration::ZERO);
        assert_eq!(until(now, now + time::Duration::milliseconds(1500)), Duration::from_millis(1500));
    }
}
