//! Leases on shared work (docs/ARCHITECTURE.md, "Replicas"): a replica that took a job (a
//! monitor check, a workflow run) renews its claim in the database while the job runs, so
//! the claim only runs out when the replica died or hung, and another replica then takes
//! the job over.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

/// Renewals per lease: a claim is renewed this many times before it would run out, so one
/// slow or failed renewal does not lose it.
const RENEWALS_PER_LEASE: u32 = 3;

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
    pub(crate) async fn stop(self) {
        self.stop.notify_one();
        let _ = self.task.await;
    }
}
