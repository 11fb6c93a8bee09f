//! [`AppState`]: what every handler shares, and the bounded audit slots.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::Config;
use crate::error::ApiError;
use crate::limiter::Limiter;

/// Shared state of the service: cheap to clone (a handful of `Arc`s).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The database.
    pub store: store::Store,
    /// The guarded network client.
    pub fetcher: fetch::Fetcher,
    /// The one rate limiter of every quota-consuming endpoint.
    pub limiter: Arc<Limiter>,
    /// Settings the service was started with.
    pub config: Arc<Config>,
    /// Bounded audit concurrency and queue.
    pub audits: Arc<AuditSlots>,
    /// When the service started (`uptime_s`).
    pub started: Instant,
    /// Background audits queued by the badge and report pages.
    pub badges: Arc<crate::badge_queue::BadgeQueue>,
    /// Per-IP flood guard of the badge and report routes (not the audit quota).
    pub widget_guard: Arc<Limiter>,
    /// The AI search provider of geo-check (or why there is none).
    pub geo: Arc<crate::geo::GeoService>,
    /// Webhook delivery (events of key owners to their subscriptions).
    pub webhooks: Arc<crate::webhooks::Dispatcher>,
    /// Identity (device, inode) of the database file the store is connected to; see
    /// [`AppState::check_db_file`].
    pub db_file: Arc<std::sync::Mutex<Option<(u64, u64)>>>,
}

/// Failure to build the state.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Store(#[from] store::Error),
    /// The fetcher settings are invalid (a bad allow-list entry).
    #[error("invalid fetch settings: {0}")]
    Fetch(#[from] fetch::Error),
}

impl AppState {
    /// Opens the database under `config.data` and builds the fetcher.
    pub fn new(config: Config) -> Result<AppState, StateError> {
        let store = store::Store::open(config.db_path())?;
        AppState::with_store(config, store)
    }

    /// Builds the state around an open store.
    pub fn with_store(config: Config, store: store::Store) -> Result<AppState, StateError> {
        let fetcher = fetch::Fetcher::new(config.fetch_config())?;
        let retry_base = std::time::Duration::from_millis(config.webhook_retry_base_ms);
        let webhooks = Arc::new(crate::webhooks::Dispatcher::new(store.clone(), fetcher.clone(), retry_base));
        let db_file = Arc::new(std::sync::Mutex::new(db_file_identity(store.path()).ok()));
        Ok(AppState {
            db_file,
            geo: Arc::new(crate::geo::GeoService::from_config(&config)),
            webhooks,
            limiter: Arc::new(Limiter::new(Some(store.clone()))),
            badges: Arc::new(crate::badge_queue::BadgeQueue::new()),
            widget_guard: Arc::new(Limiter::new(None)),
            audits: Arc::new(AuditSlots::new(config.max_concurrent_audits, config.audit_queue)),
            store,
            fetcher,
            config: Arc::new(config),
            started: Instant::now(),
        })
    }

    /// What one page's analysis may cost (`analysis_cpu_ms`).
    pub fn analysis_limits(&self) -> crate::pipeline::AnalysisLimits {
        crate::pipeline::AnalysisLimits::from_config(&self.config)
    }

    /// Runs a store call on the blocking pool (store calls block on disk and locks).
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&store::Store) -> store::Result<T> + Send + 'static,
    {
        self.check_db_file()?;
        let store = self.store.clone();
        match tokio::task::spawn_blocking(move || f(&store)).await {
            Ok(result) => result.map_err(ApiError::from),
            Err(e) => Err(ApiError::internal(format!("store task failed: {e}"))),
        }
    }
}

impl AppState {
    /// 500 `internal` when the database file is no longer the one the service opened:
    /// deleted, renamed away, replaced, or made read-only. SQLite keeps writing to the open
    /// inode of a deleted file, so without this check the service would answer `ok` and
    /// store audits nobody can ever read. One `stat`, done before every store call.
    ///
    /// When a database of ours is put back at the path (a restored copy of a deleted file),
    /// the store reconnects to it and the service recovers; any other file there is refused.
    pub fn check_db_file(&self) -> Result<(), ApiError> {
        let mut known = self.db_file.lock().unwrap_or_else(|p| p.into_inner());
        let Some(opened) = *known else { return Ok(()) };
        let path = self.store.path();
        match db_file_identity(path) {
            // A disconnected store retries even when the identity matches: a restored file
            // may reuse the inode number of the deleted one.
            Ok(now) if now == opened && self.store.is_connected() => {}
            Ok(now) => {
                let writable = std::fs::metadata(path).is_ok_and(|m| !m.permissions().readonly());
                if !writable || self.store.reopen().is_err() {
                    return Err(ApiError::internal(format!("database file {} was replaced", path.display())));
                }
                tracing::warn!(path = %path.display(), "database file replaced by a copy of ours: reconnected");
                *known = Some(now);
            }
            Err(e) => return Err(ApiError::internal(format!("database file {}: {e}", path.display()))),
        }
        match std::fs::metadata(path) {
            Ok(m) if m.permissions().readonly() => {
                Err(ApiError::internal(format!("database file {} is read-only", path.display())))
            }
            Ok(_) => Ok(()),
            Err(e) => Err(ApiError::internal(format!("database file {}: {e}", path.display()))),
        }
    }
}

/// (device, inode) of a regular file; an error for anything else.
fn db_file_identity(path: &std::path::Path) -> std::io::Result<(u64, u64)> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        Ok((0, 0))
    }
}

/// At most `max` audits fetch and analyse at once; at most `queue` more wait. Admission is
/// decided without waiting ([`AuditSlots::admit`]), so a full server answers 503 at once
/// instead of piling up connections.
#[derive(Debug)]
pub struct AuditSlots {
    max: usize,
    semaphore: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    queue: usize,
}

/// A place in the audit slots: either a slot already, or a place in the queue.
#[derive(Debug)]
pub struct Ticket {
    permit: Option<OwnedSemaphorePermit>,
    semaphore: Arc<Semaphore>,
    queued: Option<QueuePlace>,
}

#[derive(Debug)]
struct QueuePlace(Arc<AtomicUsize>);

impl Drop for QueuePlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl AuditSlots {
    /// Slots for `max` concurrent audits (at least one) and `queue` waiting ones.
    pub fn new(max: usize, queue: usize) -> AuditSlots {
        let max = max.max(1);
        AuditSlots { max, semaphore: Arc::new(Semaphore::new(max)), waiting: Arc::new(AtomicUsize::new(0)), queue }
    }

    /// A free slot, or a place in the queue, or 503 `overloaded` when the queue is full.
    pub fn admit(&self) -> Result<Ticket, ApiError> {
        if let Ok(permit) = self.semaphore.clone().try_acquire_owned() {
            return Ok(Ticket { permit: Some(permit), semaphore: self.semaphore.clone(), queued: None });
        }
        let taken =
            self.waiting.fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| (w < self.queue).then_some(w + 1));
        match taken {
            Ok(_) => Ok(Ticket {
                permit: None,
                semaphore: self.semaphore.clone(),
                queued: Some(QueuePlace(self.waiting.clone())),
            }),
            Err(_) => Err(ApiError::overloaded()),
        }
    }

    /// One place for each of `n` audits, all or none (a batch): the items of an admitted
    /// batch wait in the queue like any other audit, so the queue bound holds for them too.
    pub fn admit_many(&self, n: usize) -> Result<Vec<Ticket>, ApiError> {
        let mut tickets = Vec::with_capacity(n);
        for _ in 0..n {
            // A refusal drops the tickets taken so far, giving their places back.
            tickets.push(self.admit()?);
        }
        Ok(tickets)
    }

    /// A place for work nobody waits on (workflow steps, monitor checks, badge audits):
    /// taken only while the queue is less than half full, so background work never takes
    /// the places clients need; `None` means defer it and try again later.
    pub fn admit_background(&self) -> Option<Ticket> {
        if self.waiting.load(Ordering::Acquire) * 2 >= self.queue {
            return None;
        }
        self.admit().ok()
    }

    /// [`AuditSlots::admit_background`], retried with a growing pause (0.5 s doubling to
    /// 8 s) until `patience` has passed; then 503 `overloaded`. While it waits it holds no
    /// place: deferred work costs clients nothing.
    pub async fn admit_background_within(&self, patience: std::time::Duration) -> Result<Ticket, ApiError> {
        let started = Instant::now();
        let mut pause = std::time::Duration::from_millis(500);
        loop {
            if let Some(ticket) = self.admit_background() {
                return Ok(ticket);
            }
            if started.elapsed() >= patience {
                return Err(ApiError::overloaded());
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(std::time::Duration::from_secs(8));
        }
    }

    /// Audits running (holding a slot) now.
    pub fn running(&self) -> usize {
        self.max - self.semaphore.available_permits()
    }

    /// Audits waiting in the queue now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }
}

impl Ticket {
    /// Waits until the ticket's audit may run; hold the permit while it does.
    pub async fn ready(mut self) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Some(permit) = self.permit.take() {
            return Ok(permit);
        }
        let permit = self.semaphore.clone().acquire_owned().await.map_err(ApiError::internal)?;
        drop(self.queued.take());
        Ok(permit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn admission_is_bounded() {
        let slots = AuditSlots::new(1, 1);
        let first = slots.admit().unwrap();
        let second = slots.admit().unwrap();
        assert_eq!(slots.admit().unwrap_err().code, "overloaded");
        assert!(slots.admit_background().is_none());
        let permit = first.ready().await.unwrap();
        drop(permit);
        let _permit = second.ready().await.unwrap();
        // The queue place was given back when the second ticket got its slot.
        let third = slots.admit().unwrap();
        drop(third);
        assert_eq!((slots.running(), slots.waiting()), (1, 0));
    }

    #[tokio::test]
    async fn batches_take_every_place_or_none() {
        let slots = AuditSlots::new(1, 3);
        let held = slots.admit_many(2).unwrap();
        assert_eq!((slots.running(), slots.waiting()), (1, 1));
        // Three more do not fit in the two places left: none is kept.
        assert_eq!(slots.admit_many(3).unwrap_err().code, "overloaded");
        assert_eq!(slots.waiting(), 1);
        drop(held);
        assert_eq!((slots.running(), slots.waiting()), (0, 0));
    }

    #[tokio::test]
    async fn background_work_leaves_half_the_queue_to_clients() {
        let slots = AuditSlots::new(1, 4);
        let _running = slots.admit().unwrap();
        let _a = slots.admit_background().unwrap();
        let _b = slots.admit_background().unwrap();
        // Two of four places wait: background work is deferred, clients still get in.
        assert!(slots.admit_background().is_none());
        let _client = slots.admit().unwrap();
        let refused = slots.admit_background_within(std::time::Duration::from_millis(1)).await;
        assert_eq!(refused.unwrap_err().code, "overloaded");
    }
}
