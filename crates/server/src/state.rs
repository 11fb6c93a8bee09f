//! [`AppState`]: what every handler shares, and the bounded audit slots.

use std::sync::Arc;
use std::time::Instant;

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
    /// The application layer: the one audit path and the use cases.
    pub app: app::App,
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
        let audits = Arc::new(app::AuditSlots::new(config.max_concurrent_audits, config.audit_queue));
        let app = app::App::new(
            store.clone(),
            fetcher.clone(),
            audits,
            app::pipeline::AnalysisLimits::cpu_ms(config.analysis_cpu_ms),
            webhooks.clone(),
        );
        Ok(AppState {
            db_file,
            geo: Arc::new(crate::geo::GeoService::from_config(&config)),
            webhooks,
            limiter: Arc::new(Limiter::new(Some(store.clone()))),
            badges: Arc::new(crate::badge_queue::BadgeQueue::new()),
            widget_guard: Arc::new(Limiter::new(None)),
            app,
            store,
            fetcher,
            config: Arc::new(config),
            started: Instant::now(),
        })
    }

    /// What one page's analysis may cost (`analysis_cpu_ms`).
    pub fn analysis_limits(&self) -> app::pipeline::AnalysisLimits {
        self.app.limits
    }

    /// Runs a store call on the blocking pool (store calls block on disk and locks), after
    /// [`AppState::check_db_file`] in the same blocking task: no file I/O on the reactor.
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&store::Store) -> store::Result<T> + Send + 'static,
    {
        let state = self.clone();
        match tokio::task::spawn_blocking(move || {
            state.check_db_file()?;
            f(&state.store).map_err(ApiError::from)
        })
        .await
        {
            Ok(result) => result,
            Err(e) => Err(ApiError::internal(format!("store task failed: {e}"))),
        }
    }

    /// [`AppState::check_db_file`] on the blocking pool (it stats, and may reopen, the file).
    pub async fn check_db(&self) -> Result<(), ApiError> {
        let state = self.clone();
        match tokio::task::spawn_blocking(move || state.check_db_file()).await {
            Ok(result) => result,
            Err(e) => Err(ApiError::internal(format!("database check task failed: {e}"))),
        }
    }
}

impl AppState {
    /// 500 `internal` when the database file is no longer the one the service opened:
    /// deleted, renamed away, replaced, or made read-only. SQLite keeps writing to the open
    /// inode of a deleted file, so without this check the service would answer `ok` and
    /// store audits nobody can ever read. One `stat`, done before every store call. Blocking:
    /// call it from the blocking pool ([`AppState::db`], [`AppState::check_db`]).
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
