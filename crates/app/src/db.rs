//! The store on the blocking pool. Store calls block on disk and locks, so every use case
//! and background job runs them through [`App::db`], never on the async reactor
//! (docs/ARCHITECTURE.md, "Background work"). Each call first checks that the database
//! file is still the one the service opened ([`App::check_db_file`]).

use crate::db_file::db_file_identity;
use crate::{App, AppError, Pruned, Retention};

impl App {
    /// Runs a store call on the blocking pool, after [`App::check_db_file`] in the same
    /// blocking task: no file I/O on the reactor.
    ///
    /// # Errors
    /// The store's error, the database file check's, or a failed task.
    pub async fn db<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&store::Store) -> store::Result<T> + Send + 'static,
    {
        let app = self.clone();
        let started = std::time::Instant::now();
        let done = tokio::task::spawn_blocking(move || {
            app.check_db_file()?;
            f(&app.store).map_err(AppError::from)
        })
        .await;
        self.observer.db_call(started.elapsed());
        match done {
            Ok(result) => result,
            Err(e) => Err(AppError::internal(format!("store task failed: {e}"))),
        }
    }

    /// [`App::check_db_file`] on the blocking pool (it stats, and may reopen, the file).
    ///
    /// # Errors
    /// The database file is not the one the service opened, or the task failed.
    pub async fn check_db(&self) -> Result<(), AppError> {
        let app = self.clone();
        match tokio::task::spawn_blocking(move || app.check_db_file()).await {
            Ok(result) => result,
            Err(e) => Err(AppError::internal(format!("database check task failed: {e}"))),
        }
    }

    /// An internal error when the database file is no longer the one the service opened:
    /// deleted, renamed away, replaced, or made read-only. SQLite keeps writing to the open
    /// inode of a deleted file, so without this check the service would answer `ok` and
    /// store audits nobody can ever read. One `stat`, done before every store call.
    /// Blocking: call it from the blocking pool ([`App::db`], [`App::check_db`]).
    ///
    /// When a database of ours is put back at the path (a restored copy of a deleted file),
    /// the store reconnects to it and the service recovers; any other file there is refused.
    ///
    /// # Errors
    /// The file is gone, replaced by a foreign one, or read-only.
    pub fn check_db_file(&self) -> Result<(), AppError> {
        let mut known = self.db_file.lock().unwrap_or_else(|p| p.into_inner());
        let Some(opened) = *known else { return Ok(()) };
        // PostgreSQL has no file to watch (`db_file_of` gave `None` and returned above).
        let Some(path) = self.store.path() else { return Ok(()) };
        match db_file_identity(path) {
            // A disconnected store retries even when the identity matches: a restored file
            // may reuse the inode number of the deleted one.
            Ok(now) if now == opened && self.store.is_connected() => {}
            Ok(now) => {
                let writable = std::fs::metadata(path).is_ok_and(|m| !m.permissions().readonly());
                if !writable || self.store.reopen().is_err() {
                    return Err(AppError::Internal(format!("database file {} was replaced", path.display())));
                }
                tracing::warn!(path = %path.display(), "database file replaced by a copy of ours: reconnected");
                *known = Some(now);
            }
            Err(e) => return Err(AppError::Internal(format!("database file {}: {e}", path.display()))),
        }
        match std::fs::metadata(path) {
            Ok(m) if m.permissions().readonly() => {
                Err(AppError::Internal(format!("database file {} is read-only", path.display())))
            }
            Ok(_) => Ok(()),
            Err(e) => Err(AppError::Internal(format!("database file {}: {e}", path.display()))),
        }
    }

    /// Checks the database file now, then every [`INTEGRITY_CHECK_EVERY`], until `stop`: a
    /// damaged SQLite file is reported by the status endpoints even when no request has read
    /// a damaged page yet (`PRAGMA quick_check`; docs/API.md, "GET /api/status").
    pub fn spawn_integrity_checks(&self, stop: tokio::sync::watch::Receiver<bool>) {
        let app = self.clone();
        let check = move || {
            let app = app.clone();
            async move {
                match app.db(|s| s.check_integrity()).await {
                    Ok(()) => {}
                    Err(AppError::Store(e)) if e.is_damaged() => {
                        tracing::error!(error = %e, "the database file is damaged: restore it from a backup")
                    }
                    Err(e) => tracing::warn!(error = %e, "database integrity check not run"),
                }
            }
        };
        tokio::spawn(check());
        crate::lease::spawn_sweeper(INTEGRITY_CHECK_EVERY, stop, check);
    }

    /// Deletes the audits (and AI-readiness answers), crawls, old crawls' pages and geo-check
    /// answers `policy` no longer keeps, in small transactions, now and then every
    /// [`RETENTION_EVERY`], until `stop` (docs/API.md, "Running the service"). A failed sweep
    /// is tried again at the next one.
    pub fn spawn_retention(&self, policy: Retention, stop: tokio::sync::watch::Receiver<bool>) {
        let app = self.clone();
        let sweep = move || {
            let app = app.clone();
            async move {
                match app.db(move |s| s.prune(&policy, time::OffsetDateTime::now_utc())).await {
                    Ok(pruned) if pruned == Pruned::default() => {}
                    Ok(pruned) => tracing::info!(
                        audits = pruned.audits,
                        readiness_answers = pruned.readiness,
                        crawls = pruned.crawls,
                        geo_answers = pruned.geo_answers,
                        crawl_pages = pruned.crawl_pages,
                        "retention: deleted what is kept no longer"
                    ),
                    Err(e) => tracing::warn!(error = %e, "retention sweep failed"),
                }
            }
        };
        tokio::spawn(sweep());
        crate::lease::spawn_sweeper(RETENTION_EVERY, stop, sweep);
    }
}

/// How often the SQLite file's integrity is checked (`PRAGMA quick_check` reads the whole
/// file once).
pub const INTEGRITY_CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// How often the retention sweep runs (the first time at start).
pub const RETENTION_EVERY: std::time::Duration = std::time::Duration::from_secs(60 * 60);
