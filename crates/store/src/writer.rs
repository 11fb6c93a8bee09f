//! The one writer of an SQLite file: every write of the process (a transaction, a single
//! statement, a crawl's open batch) runs on one connection, taken in turn, in the order the
//! writers came (docs/ARCHITECTURE.md, "`crates/store`").
//!
//! SQLite lets one connection write at a time, and a connection that finds the write lock
//! taken does not queue for it: its busy handler sleeps and tries again, with pauses growing
//! to 100 ms. A crawl that commits its batch and opens the next one at once takes the lock
//! back within microseconds, so a writer polling beside a few running crawls could miss every
//! gap for its whole busy timeout and fail with "database is locked" (queueing a crawl,
//! storing an audit, counting quota, the sweeps). Here writers wait on a ticket queue in this
//! process instead: the lock is handed to the writer that has waited longest, and SQLite's own
//! busy timeout is left for another process on the same file (the command line's `keys` and
//! `migrate`).
//!
//! Hand-written over a mutex and a condition variable: the standard library's mutex promises
//! no order, and the fair locks of the ecosystem give neither a guard that can be held across
//! calls (a crawl's batch) without unsafe code nor a way to tell a thread that already holds
//! the turn from one that waits for it.

use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::error::{Error, Result};

/// Opens the writer's connection (again, after it was closed).
type Open = Box<dyn Fn() -> rusqlite::Result<Connection> + Send + Sync>;

/// Adjusts the kept connection to its file as the file grows (its page cache).
type Resize = Box<dyn Fn(&Connection) -> rusqlite::Result<()> + Send + Sync>;

/// Runs at the end of each turn, on the thread that held it, before the turn passes on, with
/// the connection when it is kept (the file's checkpoints are asked for or run there:
/// `crate::checkpoint`).
type TurnEnding = Box<dyn Fn(Option<&Connection>) + Send + Sync>;

/// How often the writer's [`Resize`] (two `PRAGMA`s) runs at most: at the first turn this
/// long after the last (or after the connection opened). A crawl's file grows by about 10 MB
/// a second at most (1,300 pages of 8 KB), so the cache lags its file by that much. Counting
/// turns instead made the lag a matter of how long turns are: once a crawl held its batches
/// open for up to a second, 256 turns were four minutes and 230,000 pages of the generated
/// site, and the writer's cache stayed at SQLite's 2 MB until then and filled to 64 MiB at
/// once (docs/PERFORMANCE.md, "Session 26: the step measured and removed").
pub(crate) const RESIZE_INTERVAL: Duration = Duration::from_secs(1);

/// The writers' queue of one SQLite file and its connection.
pub(crate) struct Writer {
    state: Mutex<Queue>,
    turn: Condvar,
    open: Open,
    resize: Resize,
    turn_ending: TurnEnding,
}

#[derive(Default)]
struct Queue {
    /// The ticket the next writer to come takes.
    next: u64,
    /// The ticket whose turn it is (held, or about to be taken by its waiter).
    serving: u64,
    /// Tickets whose writers stopped waiting: skipped when their turn comes.
    abandoned: BTreeSet<u64>,
    /// The thread holding the turn, to refuse it a second turn it would wait for forever.
    holder: Option<ThreadId>,
    /// The connection, while nobody holds the turn (`None` until first used, or after a
    /// connection was given up as broken).
    conn: Option<Connection>,
    /// When the connection was last fitted to its file ([`RESIZE_INTERVAL`]).
    resized: Option<Instant>,
}

impl Writer {
    /// A queue whose connection `open` makes (when first needed) and `resize` adjusts every
    /// [`RESIZE_INTERVAL`] at most; `turn_ending` runs at the end of each turn.
    pub(crate) fn new(open: Open, resize: Resize, turn_ending: TurnEnding) -> Writer {
        Writer { state: Mutex::new(Queue::default()), turn: Condvar::new(), open, resize, turn_ending }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for this writer's turn, at most `patience`, and gives it with the connection.
    ///
    /// # Errors
    /// [`Error::Busy`] when the turn did not come within `patience`, or at once when this
    /// thread already holds the turn (a write asked for inside an open batch would otherwise
    /// wait for itself); the connection's error when it could not be opened.
    pub(crate) fn take(self: &Arc<Self>, patience: Duration) -> Result<Turn> {
        let me = std::thread::current().id();
        let mut queue = self.queue();
        if queue.holder == Some(me) {
            return Err(Error::Busy(
                "a write was asked for by the thread that holds the writer's turn (an open batch): it would wait \
                 for itself"
                    .into(),
            ));
        }
        let ticket = queue.next;
        queue.next += 1;
        let deadline = Instant::now() + patience;
        while queue.serving != ticket {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                queue.abandoned.insert(ticket);
                return Err(Error::Busy(format!(
                    "waited {} s for the other writes to the database file",
                    patience.as_secs_f64()
                )));
            }
            queue = self.turn.wait_timeout(queue, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        queue.holder = Some(me);
        let conn = queue.conn.take();
        // A connection about to be opened is fitted as it opens.
        let resize = conn.is_some() && queue.resized.is_some_and(|at| at.elapsed() >= RESIZE_INTERVAL);
        if resize || conn.is_none() {
            queue.resized = Some(Instant::now());
        }
        drop(queue);
        let conn = match conn {
            Some(conn) => {
                if resize {
                    // A setting of performance only: if it fails, the connection keeps the
                    // one it had, and a connection broken for good fails the write that
                    // follows, which reports it.
                    let _ = (self.resize)(&conn);
                }
                conn
            }
            None => match (self.open)() {
                Ok(conn) => conn,
                Err(e) => {
                    self.give_back(None);
                    return Err(e.into());
                }
            },
        };
        Ok(Turn { writer: self.clone(), conn: Some(conn), keep: true })
    }

    /// Whether a writer waits for the turn (besides the one holding it, if any): a crawl
    /// that holds its batch open between results asks this to know when to let go.
    pub(crate) fn others_waiting(&self) -> bool {
        let queue = self.queue();
        // Tickets from `serving` to `next` are held or waiting: the one served is held when
        // a holder is named, and about to be taken by its waiter otherwise. An abandoned
        // ticket is always after `serving` (its turn had not come when its writer gave up).
        let held = u64::from(queue.holder.is_some());
        let waiting = queue.next.saturating_sub(queue.serving).saturating_sub(held);
        waiting > queue.abandoned.len() as u64
    }

    /// Ends a turn: the connection back in its place, the turn to the next writer waiting.
    fn give_back(&self, conn: Option<Connection>) {
        let mut guard = self.queue();
        let queue = &mut *guard;
        queue.conn = conn;
        queue.holder = None;
        queue.serving += 1;
        while queue.abandoned.remove(&queue.serving) {
            queue.serving += 1;
        }
        drop(guard);
        self.turn.notify_all();
    }
}

/// The writer's turn: its connection, for as long as this is held; the turn passes to the
/// next writer when it is dropped.
pub(crate) struct Turn {
    writer: Arc<Writer>,
    /// `None` only while being dropped.
    conn: Option<Connection>,
    /// Whether the connection goes back for the next writer (`false`: it is closed, and the
    /// next writer opens another).
    keep: bool,
}

impl Turn {
    /// The writer's connection.
    pub(crate) fn conn(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("a turn holds the connection until dropped")
    }

    /// Closes the connection at the end of the turn instead of keeping it: for one whose
    /// state is unknown (a rollback failed), or one to a file about to be replaced.
    pub(crate) fn discard(&mut self) {
        self.keep = false;
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        // A connection still inside a transaction (a rollback that failed unseen) is closed
        // too: the next writer's `BEGIN` would fail on it.
        let conn = self.conn.take().filter(|c| self.keep && c.is_autocommit());
        (self.writer.turn_ending)(conn.as_ref());
        self.writer.give_back(conn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> Arc<Writer> {
        Arc::new(Writer::new(Box::new(Connection::open_in_memory), Box::new(|_| Ok(())), Box::new(|_| ())))
    }

    #[test]
    fn the_connection_is_fitted_when_it_opens_and_then_at_most_once_an_interval() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (opened, resized) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (o, r) = (opened.clone(), resized.clone());
        let writer = Arc::new(Writer::new(
            Box::new(move || {
                o.fetch_add(1, Ordering::SeqCst);
                Connection::open_in_memory()
            }),
            Box::new(move |_| {
                r.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
            Box::new(|_| ()),
        ));
        let counts = || (opened.load(Ordering::SeqCst), resized.load(Ordering::SeqCst));
        // Many turns within an interval of the opening: none refits the connection (the
        // opening fitted it).
        let started = Instant::now();
        let mut turns = 0;
        while turns < 1_000 && started.elapsed() < RESIZE_INTERVAL / 2 {
            drop(writer.take(Duration::from_secs(5)).unwrap());
            turns += 1;
        }
        assert!(turns > 1);
        assert_eq!(counts(), (1, 0));
        // The first turn an interval later does, however few turns came between.
        std::thread::sleep(RESIZE_INTERVAL);
        drop(writer.take(Duration::from_secs(5)).unwrap());
        assert_eq!(counts(), (1, 1));
        drop(writer.take(Duration::from_secs(5)).unwrap());
        assert_eq!(counts(), (1, 1));
        // A connection given up is opened again, and fitted as it opens, not by a resize.
        writer.take(Duration::from_secs(5)).unwrap().discard();
        std::thread::sleep(RESIZE_INTERVAL);
        drop(writer.take(Duration::from_secs(5)).unwrap());
        assert_eq!(counts(), (2, 1));
    }

    #[test]
    fn writers_take_their_turns_in_the_order_they_came() {
        let writer = memory();
        let first = writer.take(Duration::from_secs(5)).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut threads = Vec::new();
        for n in 0..5u64 {
            let (mine, log) = (writer.clone(), order.clone());
            threads.push(std::thread::spawn(move || {
                let _turn = mine.take(Duration::from_secs(30)).unwrap();
                log.lock().unwrap().push(n);
            }));
            // Each has its ticket before the next comes: the order they came is 0 to 4.
            while writer.queue().next <= n + 1 {
                std::thread::yield_now();
            }
        }
        drop(first);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_writer_that_stops_waiting_is_skipped_and_the_connection_kept() {
        let writer = memory();
        let mut first = writer.take(Duration::from_secs(5)).unwrap();
        first.conn().execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        let impatient = {
            let writer = writer.clone();
            std::thread::spawn(move || writer.take(Duration::from_millis(50)).map(drop))
        };
        let err = impatient.join().unwrap().unwrap_err();
        assert!(matches!(err, Error::Busy(_)) && err.is_unavailable(), "{err}");
        drop(first);
        // The abandoned ticket is passed over, and the same in-memory database is still there.
        let mut next = writer.take(Duration::from_secs(1)).unwrap();
        next.conn().execute_batch("INSERT INTO t VALUES (1)").unwrap();
    }

    #[test]
    fn a_writer_waiting_for_the_turn_is_seen_by_its_holder() {
        let writer = memory();
        assert!(!writer.others_waiting(), "nobody at all");
        let held = writer.take(Duration::from_secs(5)).unwrap();
        assert!(!writer.others_waiting(), "the holder alone");
        let next = {
            let writer = writer.clone();
            std::thread::spawn(move || writer.take(Duration::from_secs(30)).map(drop))
        };
        while !writer.others_waiting() {
            std::thread::yield_now();
        }
        // One that gave up is not counted: it waits no more.
        let impatient = {
            let writer = writer.clone();
            std::thread::spawn(move || writer.take(Duration::from_millis(10)).map(drop))
        };
        assert!(impatient.join().unwrap().is_err());
        assert!(writer.others_waiting(), "the first waiter still waits");
        drop(held);
        next.join().unwrap().unwrap();
        assert!(!writer.others_waiting(), "all served");
    }

    #[test]
    fn the_thread_holding_the_turn_is_refused_a_second_at_once() {
        let writer = memory();
        let _held = writer.take(Duration::from_secs(5)).unwrap();
        // Refused, not timed out: the text says why.
        let err = writer.take(Duration::from_secs(30)).map(drop).unwrap_err();
        assert!(matches!(&err, Error::Busy(text) if text.contains("open batch")), "{err}");
    }

    #[test]
    fn a_discarded_connection_is_opened_again() {
        let writer = memory();
        let mut turn = writer.take(Duration::from_secs(5)).unwrap();
        turn.conn().execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        turn.discard();
        drop(turn);
        // A fresh in-memory database: the table went with the closed connection.
        let mut turn = writer.take(Duration::from_secs(5)).unwrap();
        assert!(turn.conn().execute_batch("INSERT INTO t VALUES (1)").is_err());
    }
}
