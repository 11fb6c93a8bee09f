use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use r2d2::{Pool, PooledConnection};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::error::{Error, Result};
use crate::migrations;

/// How long a connection waits for another writer before giving up with `SQLITE_BUSY`.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Default number of pooled connections.
pub const DEFAULT_POOL_SIZE: u32 = 8;
/// How long a caller waits for a free pooled connection.
pub const POOL_TIMEOUT: Duration = Duration::from_secs(5);
/// File name of the database inside the data directory (`--data DIR`).
pub const DB_FILE_NAME: &str = "seo-audit.db";

/// Tuning of [`Store::open_with`]; [`Store::open`] uses the defaults.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Maximum number of pooled connections.
    pub pool_size: u32,
    /// How long a caller waits for a free connection.
    pub pool_timeout: Duration,
    /// How long a statement waits for a lock held by another connection.
    pub busy_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions { pool_size: DEFAULT_POOL_SIZE, pool_timeout: POOL_TIMEOUT, busy_timeout: BUSY_TIMEOUT }
    }
}

/// The database: a pool of SQLite connections to one file. Cheap to clone.
///
/// Every method is synchronous and may block on disk I/O or on another writer (up to the
/// busy timeout): async callers run them through `tokio::task::spawn_blocking`.
#[derive(Clone)]
pub struct Store {
    /// Shared by every clone, so [`Store::reopen`] switches them all at once; `None` while
    /// no database of ours is at the path.
    pool: Arc<RwLock<Option<Pool<SqliteConnectionManager>>>>,
    path: PathBuf,
    options: StoreOptions,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish_non_exhaustive()
    }
}

fn build_pool(path: &Path, options: &StoreOptions) -> Result<Pool<SqliteConnectionManager>> {
    let busy = options.busy_timeout;
    let manager = SqliteConnectionManager::file(path).with_init(move |conn| configure(conn, busy));
    Ok(Pool::builder()
        .max_size(options.pool_size.max(1))
        .min_idle(Some(1))
        .connection_timeout(options.pool_timeout)
        .build(manager)?)
}

/// Applies the connection settings every connection needs. Foreign keys and the busy
/// timeout are per connection in SQLite, so they cannot be set once in the file.
fn configure(conn: &Connection, busy_timeout: Duration) -> rusqlite::Result<()> {
    conn.busy_timeout(busy_timeout)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

impl Store {
    /// Opens (creating when absent, with its parent directories) the database file at
    /// `path` and applies pending migrations.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(path, StoreOptions::default())
    }

    /// [`Store::open`] with explicit pool and timeout settings.
    pub fn open_with(path: impl AsRef<Path>, options: StoreOptions) -> Result<Store> {
        Store::open_reporting(path, options).map(|(store, _)| store)
    }

    /// [`Store::open_with`] that also returns the migration versions it applied (empty when
    /// the database was already at this build's schema), for `seo-audit migrate` to report.
    pub fn open_reporting(path: impl AsRef<Path>, options: StoreOptions) -> Result<(Store, Vec<u32>)> {
        let path = path.as_ref().to_path_buf();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| Error::Io { path: parent.to_path_buf(), source })?;
        }
        // Migrate on a connection of our own first: its errors are SQLite's own (the pool
        // would only report a timeout), and switching to WAL before the pool opens its
        // connections keeps them from racing to change the journal mode.
        let mut first = Connection::open(&path)?;
        configure(&first, options.busy_timeout)?;
        let applied = migrations::apply(&mut first)?;
        drop(first);

        let pool = build_pool(&path, &options)?;
        Ok((Store { pool: Arc::new(RwLock::new(Some(pool))), path, options }, applied))
    }

    /// Reconnects to the file now at [`Store::path`]: for a database file restored under a
    /// running service after the one it had open was deleted. Call it only when the file at
    /// the path is no longer the one the store opened. The old connections are closed, and
    /// the write-ahead log and shared-memory files beside the path, which belonged to the
    /// deleted file, are removed before the new file is opened (SQLite would otherwise apply
    /// the old log to it). A file that is not a database of ours at the current schema
    /// version (empty, another database, not a database) is refused, and the store stays
    /// disconnected until a good one is there.
    pub fn reopen(&self) -> Result<()> {
        let mut pool = self.pool.write().unwrap_or_else(|p| p.into_inner());
        *pool = None;
        for suffix in ["-wal", "-shm"] {
            let mut side = self.path.clone().into_os_string();
            side.push(suffix);
            let _ = std::fs::remove_file(side);
        }
        // Read-write but never create: a WAL database cannot be opened read-only without its
        // shared-memory file, which was just removed.
        let conn = Connection::open_with_flags(&self.path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        let version = migrations::current_version(&conn).unwrap_or(0);
        let ours = migrations::MIGRATIONS.last().map_or(0, |m| m.version);
        drop(conn);
        if version != ours {
            return Err(Error::Invalid {
                field: "database file",
                reason: format!(
                    "{} is not a seo-audit database at schema version {ours} (found {version})",
                    self.path.display()
                ),
            });
        }
        *pool = Some(build_pool(&self.path, &self.options)?);
        Ok(())
    }

    /// Applies pending migrations (already done by [`Store::open`]; idempotent) and returns
    /// the versions it applied now.
    pub fn migrate(&self) -> Result<Vec<u32>> {
        let mut conn = self.conn()?;
        migrations::apply(&mut conn)
    }

    /// Highest migration version applied to the database.
    pub fn schema_version(&self) -> Result<u32> {
        self.read(migrations::current_version)
    }

    /// Whether the store has a database open (false after a [`Store::reopen`] that refused
    /// the file at the path).
    pub fn is_connected(&self) -> bool {
        self.pool.read().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Writes a consistent copy of the whole database (including what is still in the
    /// write-ahead log) to a new file at `dest`: a backup to restore from.
    pub fn backup(&self, dest: impl AsRef<Path>) -> Result<()> {
        let dest = dest.as_ref().to_string_lossy().into_owned();
        self.conn()?.execute("VACUUM INTO ?1", [dest])?;
        Ok(())
    }

    /// Path of the database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// One real `SELECT 1` round trip on a pooled connection, timed, for the status
    /// endpoint. An error here means the database is unavailable.
    pub fn ping(&self) -> Result<Duration> {
        let started = Instant::now();
        let conn = self.conn()?;
        let one: i64 = conn.query_row("SELECT 1", [], |row| row.get(0))?;
        debug_assert_eq!(one, 1);
        Ok(started.elapsed())
    }

    pub(crate) fn conn(&self) -> Result<PooledConnection<SqliteConnectionManager>> {
        let pool = self.pool.read().unwrap_or_else(|p| p.into_inner()).clone();
        let Some(pool) = pool else {
            return Err(Error::Invalid {
                field: "database file",
                reason: format!("{} is not connected: the file was replaced", self.path.display()),
            });
        };
        Ok(pool.get()?)
    }

    /// Runs `f` inside one write transaction, committed only when `f` succeeds.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front: a deferred transaction that reads
    /// first and then writes fails at once with `SQLITE_BUSY` when another writer got in
    /// between, without honouring the busy timeout.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// Runs `f` on a pooled connection (reads and single-statement writes).
    pub(crate) fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.conn()?;
        f(&conn)
    }
}

/// A fresh random id for a row.
pub(crate) fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// A fresh id that sorts by creation time (UUIDv7: a millisecond timestamp, then random
/// bits), for rows made in a stream, audits: each lands at the end of the primary-key index
/// instead of on a random page of it, so a write touches one page of the index, not a page
/// anywhere in it.
pub(crate) fn new_time_ordered_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pooled_connection_carries_the_pragmas() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("x.db")).unwrap();
        // Hold several connections at once so that more than the first one is checked.
        let conns: Vec<_> = (0..3).map(|_| store.conn().unwrap()).collect();
        for conn in &conns {
            let get = |pragma: &str| -> String {
                conn.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get::<_, rusqlite::types::Value>(0))
                    .map(|v| match v {
                        rusqlite::types::Value::Integer(n) => n.to_string(),
                        rusqlite::types::Value::Text(t) => t.to_ascii_lowercase(),
                        other => format!("{other:?}"),
                    })
                    .unwrap()
            };
            assert_eq!(get("journal_mode"), "wal");
            assert_eq!(get("foreign_keys"), "1");
            assert_eq!(get("synchronous"), "1", "NORMAL");
            assert_eq!(get("busy_timeout"), "5000");
        }
    }
}
