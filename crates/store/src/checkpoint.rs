//! The write-ahead log's checkpoints of an SQLite file, on a thread of their own instead of
//! the writer's (docs/PERFORMANCE.md, "A million pages").
//!
//! SQLite's default runs a checkpoint on the committing connection once the log holds 1,000
//! pages: the commit that crosses it copies every page of the log into the file before it
//! returns. A crawl's batch of 64 pages touches thousands of pages spread over its indexes,
//! so every batch crossed it, and at 120,000 pages the checkpoints were 15% of the writer's
//! thread, the one thread the crawl then waited on (its analysis threads were 83% idle).
//! Here the writer's connection only notes the log's length after each commit (its WAL
//! hook, which replaces the automatic checkpoint), and the end of its turn wakes this thread
//! when the log holds [`WAKE_FRAMES`] pages or more; the thread copies them on a connection
//! of its own (`PRAGMA wal_checkpoint(PASSIVE)`: it never waits for the writer, which goes
//! on appending meanwhile, nor for readers). The log starts again from its beginning at the
//! first write after a checkpoint that copied all of it, as before.
//!
//! The writer still checkpoints itself when the log reaches [`BACKSTOP_FRAMES`], at the end
//! of that turn, after waiting for the thread's checkpoint under way: under a writer that
//! never pauses, the thread copies everything but the batch committed meanwhile, the log is
//! never all copied when the next write starts, and it would grow without bound (SQLite
//! starts it again only then). The writer's own checkpoint, in its turn, copies the little
//! left and lets the next write start the log again: the log is at most about
//! [`BACKSTOP_FRAMES`] pages (32 MiB of 4 KiB pages) plus one batch.
//!
//! The thread's connection is opened by the writer's (in the same turn, so never while a
//! restored file replaces the one open: `Store::reopen` holds the turn) and handed over; a
//! connection replaced or left to a deleted file only checkpoints that file, which is
//! harmless.

use std::cell::Cell;
use std::os::raw::c_int;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use rusqlite::hooks::Wal;
use rusqlite::Connection;

/// The log's length (in pages) from which the end of a writer's turn wakes the checkpoint
/// thread: SQLite's own default for its automatic checkpoint.
pub(crate) const WAKE_FRAMES: c_int = 1_000;

/// The log's length (in pages) from which the writer checkpoints itself at the end of its turn
/// (see the module's documentation).
pub(crate) const BACKSTOP_FRAMES: c_int = 8_192;

thread_local! {
    /// The log's length after the last commit of the writer's connection on this thread,
    /// set by [`on_commit`] and taken by [`Checkpointer::turn_ending`].
    static LOG_FRAMES: Cell<c_int> = const { Cell::new(0) };
}

/// The writer connection's WAL hook: SQLite calls it after each commit, on the committing
/// thread, with the log's length in pages; it notes the length for the end of the turn.
/// Installing it turns SQLite's automatic checkpoint off (both are the connection's one WAL
/// hook).
pub(crate) fn on_commit(_wal: &Wal, frames: c_int) -> rusqlite::Result<()> {
    LOG_FRAMES.with(|f| f.set(frames));
    Ok(())
}

/// Installs [`on_commit`] on the writer's connection `conn`.
pub(crate) fn install(conn: &Connection) {
    conn.wal_hook(Some(on_commit));
}

#[derive(Default)]
struct State {
    /// A checkpoint was asked for since the thread last looked.
    wanted: bool,
    /// The store is gone: the thread ends.
    stop: bool,
    /// A connection handed over by the writer, to use from the next checkpoint on.
    handed: Option<Connection>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// Held by whoever runs a checkpoint (the thread, or the writer at the backstop): SQLite
    /// refuses a second checkpoint at once instead of waiting for the first.
    running: Mutex<()>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The checkpoint thread of one SQLite file; it ends when this is dropped.
pub(crate) struct Checkpointer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread (named `sqlite-checkpoint`); `None` when the system refuses a
    /// thread, and the writer then checkpoints itself at [`BACKSTOP_FRAMES`].
    pub(crate) fn start() -> Option<Checkpointer> {
        let shared =
            Arc::new(Shared { state: Mutex::new(State::default()), wake: Condvar::new(), running: Mutex::new(()) });
        let theirs = shared.clone();
        let thread = std::thread::Builder::new().name("sqlite-checkpoint".into()).spawn(move || run(&theirs)).ok()?;
        Some(Checkpointer { shared, thread: Some(thread) })
    }

    /// Hands the thread the connection it checkpoints with from now on (opened beside the
    /// writer's, in the writer's turn).
    pub(crate) fn hand_over(&self, conn: Connection) {
        self.shared.state().handed = Some(conn);
    }

    /// Called at the end of each writer's turn, on the writer's thread, with its connection
    /// when it is kept: past [`BACKSTOP_FRAMES`] the writer checkpoints here, after the
    /// thread's checkpoint under way; past [`WAKE_FRAMES`] the thread is woken.
    pub(crate) fn turn_ending(&self, conn: Option<&Connection>) {
        let frames = LOG_FRAMES.with(|f| f.replace(0));
        match conn {
            Some(conn) if frames >= BACKSTOP_FRAMES => {
                let _running = self.shared.running.lock().unwrap_or_else(|p| p.into_inner());
                // As SQLite's own automatic checkpoint: a failure (a reader in the way)
                // leaves the pages for the next one.
                let _ = checkpoint(conn);
            }
            _ if frames >= WAKE_FRAMES => {
                self.shared.state().wanted = true;
                self.shared.wake.notify_one();
            }
            _ => {}
        }
    }
}

/// `PRAGMA wal_checkpoint(PASSIVE)` on `conn`: copies what no reader still needs, waiting
/// for nobody.
fn checkpoint(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.shared.state().stop = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            // At most the checkpoint under way: the thread looks at `stop` before each.
            let _ = thread.join();
        }
    }
}

/// The thread: waits to be woken, then copies the log into the file on its connection.
fn run(shared: &Shared) {
    let mut conn: Option<Connection> = None;
    loop {
        {
            let mut state = shared.state();
            while !state.wanted && !state.stop {
                state = shared.wake.wait(state).unwrap_or_else(|p| p.into_inner());
            }
            if state.stop {
                return;
            }
            state.wanted = false;
            if let Some(handed) = state.handed.take() {
                conn = Some(handed);
            }
        }
        if let Some(c) = &conn {
            let _running = shared.running.lock().unwrap_or_else(|p| p.into_inner());
            // A failure (the file gone under a restore) drops the connection until the
            // writer hands another.
            if checkpoint(c).is_err() {
                conn = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A file in WAL mode with a table of blobs, its writer carrying the hook (no thread).
    fn hooked(path: &Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch("CREATE TABLE t (x BLOB)").unwrap();
        install(&conn);
        conn
    }

    /// Inserts `mib` blobs of 1 MiB in one commit (about 257 pages of the log each).
    fn insert(conn: &Connection, mib: usize) {
        conn.execute_batch("BEGIN").unwrap();
        for _ in 0..mib {
            conn.execute("INSERT INTO t VALUES (zeroblob(1048576))", []).unwrap();
        }
        conn.execute_batch("COMMIT").unwrap();
    }

    fn file_mib(path: &Path) -> u64 {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) / (1024 * 1024)
    }

    #[test]
    fn the_hook_replaces_the_automatic_checkpoint_and_the_writer_copies_at_the_backstop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db");
        let conn = hooked(&path);
        // The thread is never woken here: its connection is never handed over either.
        let checkpointer = Checkpointer::start().unwrap();
        // 16 MiB: about 4,100 pages, four times SQLite's automatic checkpoint, which would
        // have copied them into the file; with the hook they stay in the log.
        insert(&conn, 16);
        assert!(LOG_FRAMES.with(Cell::get) >= 4_000);
        assert_eq!(file_mib(&path), 0, "nothing was copied into the file");
        // Past the backstop, the end of the turn copies the log on the writer's connection
        // before it returns.
        insert(&conn, 20);
        assert!(LOG_FRAMES.with(Cell::get) >= BACKSTOP_FRAMES);
        checkpointer.turn_ending(Some(&conn));
        assert!(file_mib(&path) >= 35, "the backstop copied the log: {} MiB", file_mib(&path));
    }

    #[test]
    fn the_thread_copies_a_long_log_and_leaves_a_short_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.db");
        let conn = hooked(&path);
        let checkpointer = Checkpointer::start().unwrap();
        checkpointer.hand_over(Connection::open(&path).unwrap());
        // About 514 pages: under WAKE_FRAMES, the end of the turn wakes nobody.
        insert(&conn, 2);
        checkpointer.turn_ending(Some(&conn));
        assert_eq!(LOG_FRAMES.with(Cell::get), 0, "the turn's end took the count");
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(file_mib(&path), 0);
        // About 1,028 more: the thread copies the whole log into the file.
        insert(&conn, 4);
        checkpointer.turn_ending(Some(&conn));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while file_mib(&path) < 6 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(file_mib(&path) >= 6, "copied by the thread: {} MiB", file_mib(&path));
        // Dropping it ends the thread.
        drop(checkpointer);
    }
}
