//! Politeness shared by the crawls of every replica of one database (docs/API.md, "Site
//! crawl", "Politeness"): the requests in flight to each host (`host_slots`, a row per
//! request, with an expiry so that a killed replica's slots come back) and when the next
//! request to each host may start (`host_pacing`: a `Crawl-delay`, a `Retry-After`). Times
//! are milliseconds since the Unix epoch, integers on both databases, so that the
//! statements can compare and add them the same way on each.
//!
//! Every statement runs on its own (no transaction): each is one row's atomic upsert or
//! delete, which both databases serialise per row, so two replicas racing for the last free
//! slot of a host cannot both get it.

use crate::db::Store;
use crate::error::Result;
use crate::sql::args;

/// `host_pacing` rows whose time passed longer ago than this are deleted when a replica
/// holds a host back: a row only matters while its time is ahead.
const PACING_KEPT_MS: i64 = 60 * 60 * 1000;

impl Store {
    /// Takes one of the `max` request slots of `host` for `holder` until `until_ms`: a slot
    /// nobody holds, or one whose holder let it expire before `now_ms` (a replica that died
    /// mid-request). The slot's number, or `None` when all `max` are held.
    pub fn claim_host_slot(
        &self,
        host: &str,
        holder: &str,
        max: u32,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Option<u32>> {
        self.write_each(|db| {
            for slot in 0..max {
                let taken = db.query_opt(
                    "INSERT INTO host_slots (host, slot, holder, expires_at) VALUES (?1, ?2, ?3, ?4) \
                     ON CONFLICT (host, slot) DO UPDATE SET holder = excluded.holder, \
                     expires_at = excluded.expires_at WHERE host_slots.expires_at < ?5 RETURNING slot",
                    args![host, slot, holder, until_ms, now_ms],
                    |row| row.get::<i64>(0),
                )?;
                if taken.is_some() {
                    return Ok(Some(slot));
                }
            }
            Ok(None)
        })
    }

    /// Gives back `holder`'s slot `slot` of `host` (nothing when another holder took it
    /// over after it expired).
    pub fn release_host_slot(&self, host: &str, slot: u32, holder: &str) -> Result<()> {
        self.write_each(|db| {
            db.execute(
                "DELETE FROM host_slots WHERE host = ?1 AND slot = ?2 AND holder = ?3",
                args![host, slot, holder],
            )?;
            Ok(())
        })
    }

    /// The slots of `host` held now (expired ones left out), for tests and diagnostics.
    pub fn host_slots_held(&self, host: &str, now_ms: i64) -> Result<u64> {
        self.read(|db| {
            let n: i64 = db.query_one(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM host_slots WHERE host = ?1 AND expires_at >= ?2",
                args![host, now_ms],
                |row| row.get(0),
            )?;
            Ok(u64::try_from(n).unwrap_or(0))
        })
    }

    /// When the next request to `host` may start, when a delay or a back-off set one.
    pub fn host_next_start(&self, host: &str) -> Result<Option<i64>> {
        self.read(|db| {
            db.query_opt("SELECT next_at FROM host_pacing WHERE host = ?1", args![host], |row| row.get::<i64>(0))
        })
    }

    /// Reserves the next start of a request to `host` under a delay of `delay_ms` between
    /// starts: the later of `now_ms` and the host's next start, which moves on to that time
    /// plus the delay. Gives the reserved start.
    pub fn reserve_host_start(&self, host: &str, now_ms: i64, delay_ms: i64) -> Result<i64> {
        self.write_each(|db| {
            let next: i64 = db.query_one(
                "INSERT INTO host_pacing (host, next_at) VALUES (?1, CAST(?2 AS BIGINT) + CAST(?3 AS BIGINT)) \
                 ON CONFLICT (host) DO UPDATE SET next_at = \
                 (CASE WHEN host_pacing.next_at > CAST(?2 AS BIGINT) THEN host_pacing.next_at \
                 ELSE CAST(?2 AS BIGINT) END) + CAST(?3 AS BIGINT) \
                 RETURNING next_at",
                args![host, now_ms, delay_ms],
                |row| row.get(0),
            )?;
            Ok(next - delay_ms)
        })
    }

    /// Holds `host` back: no request to it starts before `until_ms` (a later time already
    /// set stays). Rows of other hosts long past are deleted on the way.
    pub fn hold_host(&self, host: &str, until_ms: i64, now_ms: i64) -> Result<()> {
        self.write_each(|db| {
            db.execute(
                "INSERT INTO host_pacing (host, next_at) VALUES (?1, CAST(?2 AS BIGINT)) \
                 ON CONFLICT (host) DO UPDATE SET next_at = \
                 CASE WHEN host_pacing.next_at > CAST(?2 AS BIGINT) THEN host_pacing.next_at \
                 ELSE CAST(?2 AS BIGINT) END",
                args![host, until_ms],
            )?;
            db.execute("DELETE FROM host_pacing WHERE next_at < ?1", args![now_ms - PACING_KEPT_MS])?;
            Ok(())
        })
    }
}
