use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, TransactionBehavior};

use crate::checkpoint::{self, Checkpointer};
use crate::error::{Error, Result};
use crate::migrations;
use crate::sql::{args, Db, PgConn, PgHandle, PgSession};
use crate::writer::{Turn, Writer};

/// How long a connection waits for another writer before giving up with `SQLITE_BUSY`: on
/// SQLite, the writers of this process queue for their turn instead ([`WRITE_WAIT`]), so this
/// is how long a write waits for another process on the same file.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an SQLite write waits for its turn behind the other writes of the process
/// (`crate::writer`): far more than a queue of short transactions needs (a crawl commits its
/// batch within a quarter of a second, docs/ARCHITECTURE.md), so that reaching it means the
/// database is stuck, not busy.
pub const WRITE_WAIT: Duration = Duration::from_secs(60);
/// Default number of pooled connections.
pub const DEFAULT_POOL_SIZE: u32 = 8;
/// How long a caller waits for a free pooled connection.
pub const POOL_TIMEOUT: Duration = Duration::from_secs(5);
/// File name of the database inside the data directory (`--data DIR`).
pub const DB_FILE_NAME: &str = "seo-audit.db";
/// How long opening a PostgreSQL connection may take when the URL sets no
/// `connect_timeout`.
pub const PG_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest wait of [`Store::ping`] for a PostgreSQL connection.
pub const PING_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a PostgreSQL transaction that keeps losing serialization races is run again
/// (at least 12 times): under contention on a busy machine a count alone ran out while the
/// rivals were still descheduled, and the write was lost for a race it would have won.
const PG_RETRY_FOR: Duration = Duration::from_secs(10);
/// The fewest re-runs of such a transaction, however long they take.
const PG_RETRIES: u32 = 12;

/// Tuning of [`Store::open_with`]; [`Store::open`] uses the defaults.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Maximum number of pooled connections.
    pub pool_size: u32,
    /// How long a caller waits for a free connection.
    pub pool_timeout: Duration,
    /// How long a statement waits for a lock held by another connection (SQLite: another
    /// process's; this process's writers queue, [`StoreOptions::write_wait`]).
    pub busy_timeout: Duration,
    /// SQLite: how long a write waits for its turn behind the other writes of this process.
    /// No effect on PostgreSQL, whose writers take row locks.
    pub write_wait: Duration,
    /// SQLite: whether a commit survives a power loss or an operating system crash
    /// (`synchronous = NORMAL`, the default: the file is synced at each checkpoint). `false`
    /// (`synchronous = OFF`) is for a scratch database thrown away when the process ends, the
    /// command line's crawl (docs/PERFORMANCE.md, "Site crawl"): the syncs go, and a crash
    /// of the process alone still loses nothing committed. No effect on PostgreSQL.
    pub durable: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            pool_size: DEFAULT_POOL_SIZE,
            pool_timeout: POOL_TIMEOUT,
            busy_timeout: BUSY_TIMEOUT,
            write_wait: WRITE_WAIT,
            durable: true,
        }
    }
}

/// Where the data lives: an SQLite file (the default) or a PostgreSQL database shared by
/// any number of replicas.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file, created with its directories when absent.
    Sqlite(PathBuf),
    /// A `postgres://` (or `postgresql://`) URL.
    Postgres(String),
}

impl Database {
    /// What to show of the location in logs and messages: the file path, or the URL without
    /// its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => redact(url),
        }
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.describe())
    }
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        Ok(parsed) => parsed.to_string(),
        Err(_) => "postgres://(unparsable URL)".to_owned(),
    }
}

/// The database: a pool of connections to one SQLite file or one PostgreSQL database.
/// Cheap to clone.
///
/// Every method is synchronous and may block on disk or network I/O or on another writer
/// (on SQLite for its turn, up to [`StoreOptions::write_wait`]): async callers run them
/// through `tokio::task::spawn_blocking`.
#[derive(Clone)]
pub struct Store {
    backend: Arc<Backend>,
    options: StoreOptions,
    /// Set when a query met a damaged SQLite file or the integrity check failed: the file
    /// is then reported damaged by [`Store::ping`] until [`Store::reopen`] (shared by clones).
    damaged: Arc<AtomicBool>,
}

enum Backend {
    Sqlite {
        /// Shared by every clone, so [`Store::reopen`] switches them all at once; `None`
        /// while no database of ours is at the path.
        pool: RwLock<Option<Pool<SqliteConnectionManager>>>,
        /// Every write's connection, one writer at a time in the order they came (the pool's
        /// connections only read: `query_only`).
        writer: Arc<Writer>,
        path: PathBuf,
    },
    Postgres {
        pool: Pool<PgManager>,
        url: String,
    },
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("database", &self.describe()).finish_non_exhaustive()
    }
}

/// The pool of reading connections: each `query_only`, so that a write can only be made on
/// the writer's connection, in its turn (a write slipped onto a pooled connection would
/// contend for SQLite's lock by polling again, and fails instead).
fn build_pool(path: &Path, options: &StoreOptions) -> Result<Pool<SqliteConnectionManager>> {
    let (busy, durable) = (options.busy_timeout, options.durable);
    let manager = SqliteConnectionManager::file(path).with_init(move |conn| {
        configure(conn, busy, durable)?;
        conn.pragma_update(None, "query_only", "ON")
    });
    Ok(Pool::builder()
        .max_size(options.pool_size.max(1))
        .min_idle(Some(1))
        .connection_timeout(options.pool_timeout)
        .build(manager)?)
}

/// The most SQLite page cache the writer's connection keeps, in KiB (SQLite's default is
/// 2,000 KiB, which every connection starts with). Every write of a crawl finds its rows by
/// index (a URL in the primary key, the queue index, the inlinks): once a crawl's file
/// outgrows the cache, each of them reads its index pages back from the operating system, and
/// in the million-page run the writer spent a third of its time there (`pread` and page
/// look-ups) and its rate fell from 430 to 250 pages a second (docs/PERFORMANCE.md, "A million
/// pages"). The writer is one connection: this is at most 64 MiB of the process's memory.
pub const WRITER_CACHE_MAX_KIB: i64 = 64 * 1024;

/// The least page cache of the writer: SQLite's own default.
pub const WRITER_CACHE_MIN_KIB: i64 = 2_000;

/// The writer's page cache for a file of `file_bytes`: an eighth of the file, between
/// SQLite's default and [`WRITER_CACHE_MAX_KIB`]. A crawl's file is mostly its pages' records,
/// read once each by the site rules; what the writes come back to is the indexes, about a
/// sixth of the file while the crawl runs (205 of 1,380 MiB at 300,000 pages of the
/// generated site). Sized with the file, the cache costs a small crawl (a 52 MB store of
/// 2,000 pages) 6.5 MiB instead of the 45 MiB a fixed 64 MiB cache filled, and reaches its
/// bound at a file of 512 MiB (about 65,000 pages of 8 KB), from where a large crawl's memory
/// is flat (docs/PERFORMANCE.md, "Session 26: the step measured and removed").
pub fn writer_cache_kib(file_bytes: u64) -> i64 {
    let kib = i64::try_from(file_bytes / 8 / 1024).unwrap_or(i64::MAX);
    kib.clamp(WRITER_CACHE_MIN_KIB, WRITER_CACHE_MAX_KIB)
}

/// Sizes the writer's page cache for its file as it is now (see [`writer_cache_kib`]). Called
/// when the connection opens and at most every [`crate::writer::RESIZE_INTERVAL`] after.
fn size_writer_cache(conn: &Connection) -> rusqlite::Result<()> {
    let pages: i64 = conn.pragma_query_value(None, "page_count", |r| r.get(0))?;
    let page_size: i64 = conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
    let bytes = u64::try_from(pages.saturating_mul(page_size)).unwrap_or(0);
    // A negative size is in KiB (SQLite's `cache_size`).
    conn.pragma_update(None, "cache_size", -writer_cache_kib(bytes))
}

/// The writers' queue of the file at `path`, whose connection is opened when first needed
/// (and again after one was given up).
///
/// The log's checkpoints run on a thread of the file's own (`crate::checkpoint`): the end of a
/// turn that left a long log wakes it, and each connection the writer opens comes with one for
/// that thread, opened in the same turn. Without the thread (the system refused it), the
/// writer's connection keeps SQLite's automatic checkpoint.
fn writer_of(path: &Path, options: &StoreOptions) -> Writer {
    let (path, busy, durable) = (path.to_path_buf(), options.busy_timeout, options.durable);
    let checkpointer = Checkpointer::start().map(Arc::new);
    let (opening, ending) = (checkpointer.clone(), checkpointer);
    Writer::new(
        Box::new(move || {
            let conn = Connection::open(&path)?;
            configure(&conn, busy, durable)?;
            size_writer_cache(&conn)?;
            if let Some(checkpointer) = &opening {
                // Read-write, never create: the file the writer just opened.
                let theirs = Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
                configure(&theirs, busy, durable)?;
                checkpointer.hand_over(theirs);
                checkpoint::install(&conn);
            }
            Ok(conn)
        }),
        Box::new(size_writer_cache),
        Box::new(move |conn| {
            if let Some(checkpointer) = &ending {
                checkpointer.turn_ending(conn);
            }
        }),
    )
}

/// Applies the connection settings every connection needs. Foreign keys and the busy
/// timeout are per connection in SQLite, so they cannot be set once in the file.
fn configure(conn: &Connection, busy_timeout: Duration, durable: bool) -> rusqlite::Result<()> {
    conn.busy_timeout(busy_timeout)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", if durable { "NORMAL" } else { "OFF" })?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(())
}

/// Opens PostgreSQL connections for the pool: the URL's settings, a connect timeout when
/// it has none, the application name `seo-audit`.
#[derive(Debug)]
struct PgManager {
    config: postgres::Config,
}

impl r2d2::ManageConnection for PgManager {
    type Connection = PgConn;
    type Error = postgres::Error;

    fn connect(&self) -> std::result::Result<PgConn, postgres::Error> {
        Ok(PgConn::new(self.config.connect(postgres::NoTls)?))
    }

    fn is_valid(&self, conn: &mut PgConn) -> std::result::Result<(), postgres::Error> {
        conn.parts().0.simple_query("").map(|_| ())
    }

    fn has_broken(&self, conn: &mut PgConn) -> bool {
        conn.parts().0.is_closed()
    }
}

fn pg_config(url: &str) -> Result<postgres::Config> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(Error::invalid(
            "database URL",
            format!("{} is not a postgres:// URL (SQLite needs none: it lives under --data)", redact(url)),
        ));
    }
    let mut config =
        postgres::Config::from_str(url).map_err(|e| Error::invalid("database URL", format!("{}: {e}", redact(url))))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(PG_CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name("seo-audit");
    }
    config.keepalives(true).keepalives_idle(Duration::from_secs(30));
    Ok(config)
}

impl Store {
    /// Opens (creating when absent, with its parent directories) the SQLite database file
    /// at `path` and applies pending migrations.
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
        Store::open_database(&Database::Sqlite(path.as_ref().to_path_buf()), options)
    }

    /// Connects to a PostgreSQL database by URL and applies pending migrations.
    pub fn connect(url: &str) -> Result<Store> {
        Store::open_database(&Database::Postgres(url.to_owned()), StoreOptions::default()).map(|(s, _)| s)
    }

    /// Opens either database and applies pending migrations; returns the versions applied.
    pub fn open_database(database: &Database, options: StoreOptions) -> Result<(Store, Vec<u32>)> {
        let backend = match database {
            Database::Sqlite(path) => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent)
                        .map_err(|source| Error::Io { path: parent.to_path_buf(), source })?;
                }
                // A connection of our own first: its errors are SQLite's own (the pool
                // would only report a timeout), and switching to WAL before the pool opens
                // its connections keeps them from racing to change the journal mode.
                let first = Connection::open(path)?;
                configure(&first, options.busy_timeout, options.durable)?;
                drop(first);
                Backend::Sqlite {
                    pool: RwLock::new(Some(build_pool(path, &options)?)),
                    writer: Arc::new(writer_of(path, &options)),
                    path: path.clone(),
                }
            }
            Database::Postgres(url) => {
                let config = pg_config(url)?;
                // One connection first, for the server's own error (the pool would only
                // report a timeout).
                let first = config.connect(postgres::NoTls)?;
                let manager = PgManager { config };
                let pool = Pool::builder()
                    .max_size(options.pool_size.max(1))
                    .min_idle(Some(0))
                    .connection_timeout(options.pool_timeout)
                    .build_unchecked(manager);
                drop(first);
                Backend::Postgres { pool, url: url.clone() }
            }
        };
        let store = Store { backend: Arc::new(backend), options, damaged: Arc::default() };
        let applied = migrations::apply(&store)?;
        Ok((store, applied))
    }

    /// Whether the data lives in PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(*self.backend, Backend::Postgres { .. })
    }

    /// Where the data lives, for messages: the file path or the URL without its password.
    pub fn describe(&self) -> String {
        match &*self.backend {
            Backend::Sqlite { path, .. } => path.display().to_string(),
            Backend::Postgres { url, .. } => redact(url),
        }
    }

    /// Reconnects to the file now at [`Store::path`]: for a database file restored under a
    /// running service after the one it had open was deleted. Call it only when the file at
    /// the path is no longer the one the store opened. The old connections are closed, and
    /// the write-ahead log and shared-memory files beside the path, which belonged to the
    /// deleted file, are removed before the new file is opened (SQLite would otherwise apply
    /// the old log to it). A file that is not a database of ours at the current schema
    /// version (empty, another database, not a database) is refused, and the store stays
    /// disconnected until a good one is there. On PostgreSQL there is no file: the pool
    /// reconnects by itself, and this does nothing.
    pub fn reopen(&self) -> Result<()> {
        let Backend::Sqlite { pool, writer, path } = &*self.backend else {
            return Ok(());
        };
        // The writer's turn first (no write is under way while the files change; its
        // connection to the old file is closed with the turn), then the pool: a writer holding
        // its turn may still read from the pool meanwhile.
        let mut turn = writer.take(self.options.write_wait)?;
        turn.discard();
        let mut pool = pool.write().unwrap_or_else(|p| p.into_inner());
        *pool = None;
        for suffix in ["-wal", "-shm"] {
            let mut side = path.clone().into_os_string();
            side.push(suffix);
            let _ = std::fs::remove_file(side);
        }
        // Read-write but never create: a WAL database cannot be opened read-only without its
        // shared-memory file, which was just removed.
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        let version = migrations::current_version(&Db::Lite(&conn)).unwrap_or(0);
        let ours = migrations::latest();
        drop(conn);
        if version != ours {
            return Err(Error::Invalid {
                field: "database file",
                reason: format!(
                    "{} is not a seo-audit database at schema version {ours} (found {version})",
                    path.display()
                ),
            });
        }
        *pool = Some(build_pool(path, &self.options)?);
        self.damaged.store(false, Ordering::SeqCst);
        Ok(())
    }

    /// SQLite's own check of the file (`PRAGMA quick_check`: every page and index entry read
    /// once, without comparing indexes with their tables): a fault marks the store damaged
    /// ([`Store::ping`] then fails with [`Error::Damaged`]). Reads the whole file: the service
    /// runs it in the background now and then, never per request. Nothing to do on PostgreSQL,
    /// which checks its own pages.
    pub fn check_integrity(&self) -> Result<()> {
        if self.is_postgres() {
            return Ok(());
        }
        let verdict = self.read(|db| db.query_map("PRAGMA quick_check(5)", args![], |row| row.get::<String>(0)));
        match verdict {
            Ok(lines) if lines.len() == 1 && lines[0] == "ok" => Ok(()),
            Ok(lines) => {
                self.damaged.store(true, Ordering::SeqCst);
                Err(Error::Damaged(lines.join("; ")))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether a damaged file was met (see [`Store::check_integrity`]).
    pub fn is_damaged(&self) -> bool {
        self.damaged.load(Ordering::SeqCst)
    }

    /// Notes a damaged file when `result` says so, and passes it on.
    fn noting<T>(&self, result: Result<T>) -> Result<T> {
        if let Err(e) = &result {
            if e.is_damaged() {
                self.damaged.store(true, Ordering::SeqCst);
            }
        }
        result
    }

    /// Applies pending migrations (already done by [`Store::open`]; idempotent) and returns
    /// the versions it applied now.
    pub fn migrate(&self) -> Result<Vec<u32>> {
        migrations::apply(self)
    }

    /// Highest migration version applied to the database.
    pub fn schema_version(&self) -> Result<u32> {
        self.read(migrations::current_version)
    }

    /// Whether the store has a database open (false after a [`Store::reopen`] that refused
    /// the file at the path).
    pub fn is_connected(&self) -> bool {
        match &*self.backend {
            Backend::Sqlite { pool, .. } => pool.read().unwrap_or_else(|p| p.into_inner()).is_some(),
            Backend::Postgres { .. } => true,
        }
    }

    /// Writes a consistent copy of the whole SQLite database (including what is still in
    /// the write-ahead log) to a new file at `dest`: a backup to restore from. PostgreSQL
    /// is backed up with its own tools (`pg_dump`), and this refuses.
    // The `let copied` binding is needed: the statement borrows the connection, which must
    // outlive it.
    #[allow(clippy::let_and_return)]
    pub fn backup(&self, dest: impl AsRef<Path>) -> Result<()> {
        if self.is_postgres() {
            return Err(Error::invalid("backup", "the database is PostgreSQL: back it up with pg_dump"));
        }
        let dest = dest.as_ref().to_string_lossy().into_owned();
        // On a connection of its own: `VACUUM INTO` writes (the copy), which the pooled
        // connections may not, and it only reads the database, so it need not wait for the
        // writer's turn nor hold it.
        let Backend::Sqlite { path, .. } = &*self.backend else { unreachable!("PostgreSQL refused above") };
        self.noting((|| {
            let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
            configure(&conn, self.options.busy_timeout, self.options.durable)?;
            let copied = Db::Lite(&conn).execute("VACUUM INTO ?1", args![dest]).map(drop);
            copied
        })())
    }

    /// Path of the SQLite database file; `None` on PostgreSQL.
    pub fn path(&self) -> Option<&Path> {
        match &*self.backend {
            Backend::Sqlite { path, .. } => Some(path),
            Backend::Postgres { .. } => None,
        }
    }

    /// One real round trip on a pooled connection, timed, for the status endpoint: `SELECT 1`
    /// on PostgreSQL; on SQLite a count of the schema's rows, which reads the file's first
    /// pages, and [`Error::Damaged`] once a damaged file was met. An error here means the
    /// database is unavailable.
    /// On PostgreSQL it waits at most [`PING_TIMEOUT`] for a connection: a health check
    /// must answer "down" while the load balancer still listens, not time out.
    pub fn ping(&self) -> Result<Duration> {
        let started = Instant::now();
        let select = |db: &Db<'_>| db.query_one("SELECT CAST(1 AS BIGINT)", args![], |row| row.get::<i64>(0));
        let one = match &*self.backend {
            Backend::Postgres { pool, .. } => {
                let mut conn = pool.get_timeout(PING_TIMEOUT.min(self.options.pool_timeout))?;
                let db = conn.db();
                let one = select(&db);
                one?
            }
            Backend::Sqlite { .. } => {
                if self.is_damaged() {
                    return Err(Error::Damaged("a query met a corrupt page, or the integrity check failed".into()));
                }
                self.read(|db| {
                    db.query_one("SELECT COUNT(*) FROM sqlite_master", args![], |row| row.get::<i64>(0)).map(|_| 1)
                })?
            }
        };
        debug_assert_eq!(one, 1);
        Ok(started.elapsed())
    }

    fn sqlite_pool(
        pool: &RwLock<Option<Pool<SqliteConnectionManager>>>,
        path: &Path,
    ) -> Result<Pool<SqliteConnectionManager>> {
        pool.read().unwrap_or_else(|p| p.into_inner()).clone().ok_or_else(|| Error::Invalid {
            field: "database file",
            reason: format!("{} is not connected: the file was replaced", path.display()),
        })
    }

    /// The writer's turn (SQLite), after the other writes of the process that asked first.
    fn turn(
        &self,
        writer: &Arc<Writer>,
        pool: &RwLock<Option<Pool<SqliteConnectionManager>>>,
        path: &Path,
    ) -> Result<Turn> {
        // A store whose file was replaced and refused writes nothing, as it reads nothing.
        Store::sqlite_pool(pool, path)?;
        writer.take(self.options.write_wait)
    }

    /// Runs `f` inside one write transaction, committed only when `f` succeeds.
    ///
    /// SQLite: on the writer's connection in its turn (`crate::writer`: the writes of the
    /// process one at a time, in the order they came), `BEGIN IMMEDIATE`, which takes
    /// SQLite's write lock up front (a deferred transaction that reads first and then writes
    /// fails at once with `SQLITE_BUSY` when another process's writer got in between, without
    /// honouring the busy timeout), so `f` runs alone. PostgreSQL: a
    /// `SERIALIZABLE` transaction, which gives `f` the same guarantee (its reads and writes
    /// act as if no other transaction ran at the same time); one that loses a race with
    /// another replica is rolled back and `f` runs again, a few times, after a short
    /// random pause. So `f` may run more than once and must not act outside the database.
    pub(crate) fn write<T>(&self, mut f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        match &*self.backend {
            Backend::Sqlite { pool, writer, path } => self.noting((|| {
                let mut turn = self.turn(writer, pool, path)?;
                let tx = turn.conn().transaction_with_behavior(TransactionBehavior::Immediate)?;
                let out = f(&Db::Lite(&tx))?;
                tx.commit()?;
                Ok(out)
            })()),
            Backend::Postgres { pool, .. } => {
                let mut conn = pool.get()?;
                let (mut attempt, started) = (0, Instant::now());
                loop {
                    match pg_transaction(&mut conn, &mut f) {
                        Err(e) if e.is_retryable() && (attempt < PG_RETRIES || started.elapsed() < PG_RETRY_FOR) => {
                            attempt += 1;
                            std::thread::sleep(retry_pause(attempt));
                        }
                        other => return other,
                    }
                }
            }
        }
    }

    /// Runs `f`'s writes each as a statement of its own (a single-statement write needs no
    /// transaction): on SQLite on the writer's connection, in its turn; on PostgreSQL on a
    /// pooled connection, as [`Store::read`].
    // The `let out` bindings are needed: `db` borrows the connection and must be dropped
    // before it.
    #[allow(clippy::let_and_return)]
    pub(crate) fn write_each<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match &*self.backend {
            Backend::Sqlite { pool, writer, path } => self.noting((|| {
                let mut turn = self.turn(writer, pool, path)?;
                let db = Db::Lite(turn.conn());
                let out = f(&db);
                out
            })()),
            Backend::Postgres { .. } => self.read(f),
        }
    }

    /// Gives back what the writer's page cache holds (SQLite's `PRAGMA shrink_memory` on the
    /// writer's connection, in its turn; nothing on PostgreSQL, whose caches are the server's).
    /// The cache a crawl's writes filled, up to [`WRITER_CACHE_MAX_KIB`], serves the writes to
    /// come, not the site rules' reads, which run on the pooled connections: released before
    /// them, it is not held under theirs at the crawl's peak (docs/PERFORMANCE.md, "The site
    /// rules at the end"). The cache fills again as writes need it.
    ///
    /// # Errors
    /// The writer's turn could not be had.
    pub fn release_writer_cache(&self) -> Result<()> {
        match &*self.backend {
            Backend::Sqlite { .. } => self.write_each(|db| db.execute_batch("PRAGMA shrink_memory")),
            Backend::Postgres { .. } => Ok(()),
        }
    }

    /// Runs `f` on a pooled connection, each statement on its own: reads only (SQLite's
    /// pooled connections are `query_only`; a write goes through [`Store::write`] or
    /// [`Store::write_each`]).
    // The `let out` bindings are needed: `db` borrows the pooled connection and must be
    // dropped before it.
    #[allow(clippy::let_and_return)]
    pub(crate) fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match &*self.backend {
            Backend::Sqlite { pool, path, .. } => self.noting((|| {
                let conn = Store::sqlite_pool(pool, path)?.get()?;
                let db = Db::Lite(&conn);
                let out = f(&db);
                out
            })()),
            Backend::Postgres { pool, .. } => {
                let mut conn = pool.get()?;
                let db = conn.db();
                let out = f(&db);
                out
            }
        }
    }
}

/// A write transaction held open across calls, for work that writes many small things at
/// a rate where a commit each would cost more than the writes: a crawl's frontier and its
/// pages are written in batches ([`crate::CrawlFrontier`]). Committed by
/// [`OpenTx::commit`]; rolled back when dropped without it.
///
/// SQLite: `BEGIN IMMEDIATE` on the writer's connection, in its turn, held until the commit
/// (the other writers wait in line meanwhile: keep batches short). PostgreSQL: a `READ
/// COMMITTED` transaction (row locks, no serialization failures to re-run: the batch's
/// statements are upserts and claims `FOR UPDATE SKIP LOCKED`, right at any isolation).
pub(crate) struct OpenTx {
    /// `None` once committed or rolled back.
    held: Option<Held>,
}

impl migrations::Transactions for Store {
    fn read_tx<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.read(f)
    }

    fn write_tx<T>(&self, f: impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
        self.write(f)
    }
}

enum Held {
    Lite(Turn),
    Pg(Box<r2d2::PooledConnection<PgManager>>),
}

impl Held {
    /// Rolls the transaction back; an SQLite writer's connection whose rollback failed is
    /// closed at the end of the turn, so the next writer does not inherit a transaction.
    fn roll_back(&mut self) {
        if self.batch("ROLLBACK").is_err() {
            if let Held::Lite(turn) = self {
                turn.discard();
            }
        }
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        match self {
            Held::Lite(turn) => Db::Lite(turn.conn()).execute_batch(sql),
            Held::Pg(conn) => conn.db().execute_batch(sql),
        }
    }
}

impl Store {
    /// Whether another writer waits for this SQLite file's write turn; `None` on
    /// PostgreSQL, whose writers do not queue in this process (an open transaction there
    /// holds row locks that another replica may be waiting for unseen).
    pub(crate) fn writers_waiting(&self) -> Option<bool> {
        match &*self.backend {
            Backend::Sqlite { writer, .. } => Some(writer.others_waiting()),
            Backend::Postgres { .. } => None,
        }
    }

    /// Opens an [`OpenTx`].
    pub(crate) fn begin(&self) -> Result<OpenTx> {
        let mut held = match &*self.backend {
            Backend::Sqlite { pool, writer, path } => Held::Lite(self.turn(writer, pool, path)?),
            Backend::Postgres { pool, .. } => Held::Pg(Box::new(pool.get()?)),
        };
        held.batch(match held {
            Held::Lite(_) => "BEGIN IMMEDIATE",
            Held::Pg(_) => "BEGIN ISOLATION LEVEL READ COMMITTED",
        })?;
        Ok(OpenTx { held: Some(held) })
    }
}

impl OpenTx {
    /// Runs `f` inside the transaction.
    // The `let out` binding is needed: `db` borrows the connection and must be dropped
    // before it.
    #[allow(clippy::let_and_return)]
    pub(crate) fn run<T>(&mut self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self.held.as_mut().expect("an open transaction holds its connection") {
            Held::Lite(turn) => f(&Db::Lite(turn.conn())),
            Held::Pg(conn) => {
                let db = conn.db();
                let out = f(&db);
                out
            }
        }
    }

    /// Commits the transaction (rolled back when the commit fails).
    pub(crate) fn commit(mut self) -> Result<()> {
        let mut held = self.held.take().expect("an open transaction holds its connection");
        let out = held.batch("COMMIT");
        if out.is_err() {
            held.roll_back();
        }
        out
    }
}

impl std::fmt::Debug for OpenTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenTx").field("open", &self.held.is_some()).finish()
    }
}

impl Drop for OpenTx {
    fn drop(&mut self) {
        if let Some(mut held) = self.held.take() {
            // Nothing to tell anyone: the connection goes back without the transaction, or,
            // when even the rollback fails, is closed (by the pool's check on PostgreSQL).
            held.roll_back();
        }
    }
}

/// One SERIALIZABLE transaction around `f` on a PostgreSQL connection.
fn pg_transaction<T>(conn: &mut PgConn, f: &mut impl FnMut(&Db<'_>) -> Result<T>) -> Result<T> {
    let (client, statements) = conn.parts();
    let tx = client.build_transaction().isolation_level(postgres::IsolationLevel::Serializable).start()?;
    let db = Db::Pg(RefCell::new(PgHandle { session: PgSession::Tx(tx), statements }));
    let out = f(&db)?;
    let Db::Pg(cell) = db else { unreachable!("built as PostgreSQL above") };
    match cell.into_inner().session {
        PgSession::Tx(tx) => tx.commit()?,
        PgSession::Auto(_) => unreachable!("built as a transaction above"),
    }
    Ok(out)
}

/// A random pause before retry `attempt` (1-based): 1 to 2^attempt ms, at most 250 ms.
fn retry_pause(attempt: u32) -> Duration {
    let ceiling = (1u64 << attempt.min(8)).min(250);
    Duration::from_millis(1 + rand::random::<u64>() % ceiling)
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

    /// A pragma's value on `conn`, as text.
    fn pragma(conn: &Connection, pragma: &str) -> String {
        conn.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get::<_, rusqlite::types::Value>(0))
            .map(|v| match v {
                rusqlite::types::Value::Integer(n) => n.to_string(),
                rusqlite::types::Value::Text(t) => t.to_ascii_lowercase(),
                other => format!("{other:?}"),
            })
            .unwrap()
    }

    #[test]
    fn every_connection_carries_the_pragmas_and_only_the_writer_writes() {
        for durable in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let options = StoreOptions { durable, ..StoreOptions::default() };
            let store = Store::open_with(dir.path().join("x.db"), options).unwrap();
            // Hold several connections at once so that more than the first one is checked.
            let Backend::Sqlite { pool, writer, path } = &*store.backend else { unreachable!() };
            let pool = Store::sqlite_pool(pool, path).unwrap();
            let conns: Vec<_> = (0..3).map(|_| pool.get().unwrap()).collect();
            let mut turn = writer.take(WRITE_WAIT).unwrap();
            for (conn, reads_only) in conns.iter().map(|c| (&**c, true)).chain([(&*turn.conn(), false)]) {
                assert_eq!(pragma(conn, "journal_mode"), "wal");
                assert_eq!(pragma(conn, "foreign_keys"), "1");
                // NORMAL (1) for a database kept, OFF (0) for a scratch one.
                assert_eq!(pragma(conn, "synchronous"), if durable { "1" } else { "0" });
                assert_eq!(pragma(conn, "busy_timeout"), "5000");
                assert_eq!(pragma(conn, "query_only"), if reads_only { "1" } else { "0" });
                // A new file's writer starts with SQLite's default page cache, as the readers.
                assert_eq!(pragma(conn, "cache_size"), "-2000");
            }
            drop(turn);
            // A write slipped onto a pooled connection is refused, not raced for the lock.
            let err = store.read(|db| db.execute("CREATE TABLE t (x INTEGER)", args![])).unwrap_err();
            assert!(err.to_string().contains("readonly"), "{err}");
            store.write_each(|db| db.execute("CREATE TABLE t (x INTEGER)", args![])).unwrap();
        }
    }

    #[test]
    fn the_writer_cache_is_an_eighth_of_the_file_between_the_default_and_64_mib() {
        const MIB: u64 = 1024 * 1024;
        assert_eq!(writer_cache_kib(0), WRITER_CACHE_MIN_KIB);
        // 2,000 KiB is an eighth of 16,000 KiB: below it the default, above it more.
        assert_eq!(writer_cache_kib(16_000 * 1024 - 1), WRITER_CACHE_MIN_KIB);
        assert_eq!(writer_cache_kib(16_000 * 1024), 2_000);
        assert_eq!(writer_cache_kib(16_008 * 1024), 2_001);
        assert_eq!(writer_cache_kib(52 * MIB), 52 * 1024 / 8);
        // The bound is reached at 512 MiB and kept beyond it.
        assert_eq!(writer_cache_kib(512 * MIB - 8 * 1024), WRITER_CACHE_MAX_KIB - 1);
        assert_eq!(writer_cache_kib(512 * MIB), WRITER_CACHE_MAX_KIB);
        assert_eq!(writer_cache_kib(10 * 1024 * MIB), WRITER_CACHE_MAX_KIB);
        assert_eq!(writer_cache_kib(u64::MAX), WRITER_CACHE_MAX_KIB);
    }

    #[test]
    fn the_writer_cache_grows_with_the_file_while_the_connection_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("x.db")).unwrap();
        let Backend::Sqlite { writer, .. } = &*store.backend else { unreachable!() };
        let cache = |writer: &Arc<Writer>| pragma(&*writer.take(WRITE_WAIT).unwrap().conn(), "cache_size");
        assert_eq!(cache(writer), "-2000");
        // 48 MiB of rows: an eighth is 6 MiB, more than the default.
        store.write_each(|db| db.execute("CREATE TABLE t (x BLOB)", args![])).unwrap();
        for _ in 0..48 {
            store.write_each(|db| db.execute("INSERT INTO t VALUES (zeroblob(1048576))", args![])).unwrap();
        }
        // The first turn a resizing interval after the last fitting has the file's size,
        // however few turns came between (a crawl's batches are long turns).
        std::thread::sleep(crate::writer::RESIZE_INTERVAL);
        let after: i64 = cache(writer).parse().unwrap();
        assert!((-6 * 1024 - 64..=-6 * 1024).contains(&after), "{after}");
    }

    #[test]
    fn the_log_stays_bounded_under_writes_that_never_pause() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db");
        let store = Store::open(&path).unwrap();
        store.write_each(|db| db.execute("CREATE TABLE t (x BLOB)", args![])).unwrap();
        // 96 commits of 1 MiB back to back (about 24,700 pages of log in all, three times the
        // writer's backstop): the thread copies behind the writer, and the log starts again
        // whenever a write finds it all copied.
        let mut wal = PathBuf::from(&path).into_os_string();
        wal.push("-wal");
        let mut largest = 0;
        for _ in 0..96 {
            store.write_each(|db| db.execute("INSERT INTO t VALUES (zeroblob(1048576))", args![])).unwrap();
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
        }
        let page = 4096 + 24;
        let bound = (crate::checkpoint::BACKSTOP_FRAMES as u64 + 300) * page;
        assert!(largest <= bound, "the log reached {largest} bytes, over {bound}");
        // Everything reached the file, the last commits with the thread's next checkpoint.
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::fs::metadata(&path).unwrap().len() < 96 * 1024 * 1024 && Instant::now() < deadline {
            store.write_each(|db| db.execute("INSERT INTO t VALUES (zeroblob(1048576))", args![])).unwrap();
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(std::fs::metadata(&path).unwrap().len() >= 96 * 1024 * 1024);
    }
}
