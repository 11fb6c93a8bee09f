//! Leases on shared work (docs/ARCHITECTURE.md, "Replicas"): a replica that took a job (a
//! monitor check, a workflow run) renews its claim in the database while the job runs, so
//! the claim only runs out when the replica died or hung, and another replica then takes
//! the job over.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

/// Default of [`crate::Setup::lease`].
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);

/// Renewals per lease: a claim is renewed this many times before it would run out, so one
/// slow or failed renewal does not lose it.
const RENEWALS_PER_LEASE: u32 = 3;

/// Runs `sweep` every `every` until `stop` turns true: the sweep of a replica that adopts
/// work whose lease ran out (workflow runs, crawls).
pub(crate) fn spawn_sweeper<F, Fut>(every: Duration, mut stop: tokio::sync::watch::Receiver<bool>, sweep: F)
where
    F: Fn() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stop.changed() => return,
            }
            if *stop.borrow() {
                return;
            }
            sweep().await;
        }
    });
}

/// A background task renewing one lease until [`Heartbeat::stop`].
#[derive(Debug)]
pub(crate) struct Heartbeat {
    task: tokio::task::JoinHandle<()>,
    stop: Arc<Notify>,
    lost: Arc<AtomicBool>,
}

impl Heartbeat {
    /// Calls `renew` every third of `lease`. `renew` answers `Some(false)` when the claim
    /// is no longer ours (the heartbeat then stops and [`Heartbeat::lost`] turns true) and
    /// `None` when the database did not answer (tried again at the next beat).
    pub(crate) fn start<F, Fut>(lease: Duration, renew: F) -> Heartbeat
    where
        F: Fn() -> Fut + Send + 'static,
        Fut: Future<Output = Option<bool>> + Send,
    {
        let (stop, lost) = (Arc::new(Notify::new()), Arc::new(AtomicBool::new(false)));
        let every = lease / RENEWALS_PER_LEASE;
        let (stopped, flag) = (stop.clone(), lost.clone());
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(every) => {}
                    () = stopped.notified() => return,
                }
                if renew().await == Some(false) {
                    flag.store(true, Ordering::SeqCst);
                    return;
                }
            }
        });
        Heartbeat { task, stop, lost }
    }

    /// Whether the claim was found to be someone else's: the job must stop.
    pub(crate) fn lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Stops renewing, after the renewal under way (if any) is written: nothing renews
    /// the lease once this returns, so the caller's final write of it stands.
    pub(crate) async fn stop(mut self) {
        self.stop.notify_one();
        let _ = (&mut self.task).await;
    }
}

impl Drop for Heartbeat {
    /// A job that ends without [`Heartbeat::stop`] (its task panicked or was dropped) stops
    /// renewing too, so its lease runs out and another claimer takes the job over.
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[tokio::test]
    async fn a_lease_found_taken_is_lost_and_no_longer_renewed() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = calls.clone();
        // Renewed twice, then found to be someone else's.
        let heartbeat = Heartbeat::start(Duration::from_millis(30), move || {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            async move { Some(n < 3) }
        });
        while !heartbeat.lost() {
            tokio::task::yield_now().await;
        }
        // The task has ended: stopping it waits for nothing, and it renewed no more.
        heartbeat.stop().await;
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_dropped_heartbeat_renews_no_more() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = calls.clone();
        let heartbeat = Heartbeat::start(Duration::from_millis(3), move || {
            counter.fetch_add(1, Ordering::SeqCst);
            async { Some(true) }
        });
        while calls.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        let task = heartbeat.task.abort_handle();
        drop(heartbeat);
        while !task.is_finished() {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn stop_waits_for_the_renewal_under_way() {
        let (started, finished) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (s, f) = (started.clone(), finished.clone());
        let heartbeat = Heartbeat::start(Duration::from_millis(3), move || {
            let (s, f) = (s.clone(), f.clone());
            async move {
                s.store(true, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(50)).await;
                f.store(true, Ordering::SeqCst);
                None // the database did not answer: not lost
            }
        });
        while !started.load(Ordering::SeqCst) {
            tokio::task::yield_now().await;
        }
        heartbeat.stop().await;
        assert!(finished.load(Ordering::SeqCst), "the renewal under way was written before stop returned");
    }
}
