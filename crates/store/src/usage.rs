use crate::sql::{args, Db};
use serde::Serialize;
use time::OffsetDateTime;

use crate::db::Store;
use crate::error::Result;

/// Minute buckets counted in `last_24h`: the current minute and the 1439 before it.
pub const USAGE_WINDOW_MINUTES: i64 = 24 * 60;
/// Buckets older than this many minutes are deleted by [`Store::prune_usage`].
pub const USAGE_RETENTION_MINUTES: i64 = 48 * 60;

/// Units consumed by one identity, as of a given instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct UsageCounts {
    /// Units in the current clock minute (UTC, `:00` to `:59`).
    pub this_minute: u64,
    /// Units in the last [`USAGE_WINDOW_MINUTES`] minute buckets, the current one included.
    pub last_24h: u64,
}

/// Outcome of [`Store::consume`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consumption {
    /// The units were recorded; `this_minute` includes them.
    Allowed {
        /// Units used in this minute, after this request.
        this_minute: u64,
    },
    /// Not enough quota was left; nothing was recorded.
    Denied {
        /// Units used in this minute, unchanged.
        this_minute: u64,
        /// Seconds until the next minute starts (1..=60), for `Retry-After`.
        retry_after_s: u64,
    },
}

/// The usage identity of an anonymous client: `ip:<addr>`.
pub fn ip_identity(addr: &std::net::IpAddr) -> String {
    format!("ip:{addr}")
}

/// Minutes since the Unix epoch: the bucket `at` falls into.
pub fn minute_bucket(at: OffsetDateTime) -> i64 {
    at.unix_timestamp().div_euclid(60)
}

fn counts(conn: &Db<'_>, identity: &str, minute: i64) -> Result<UsageCounts> {
    let (this_minute, last_24h): (i64, i64) = conn.query_one(
        "SELECT COALESCE(SUM(CASE WHEN minute = ?2 THEN count END), 0), \
                COALESCE(SUM(count), 0) \
         FROM usage_buckets WHERE identity = ?1 AND minute > ?2 - ?3 AND minute <= ?2",
        args![identity, minute, USAGE_WINDOW_MINUTES],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    Ok(UsageCounts {
        this_minute: u64::try_from(this_minute).unwrap_or(0),
        last_24h: u64::try_from(last_24h).unwrap_or(0),
    })
}

fn add(conn: &Db<'_>, identity: &str, units: u32, minute: i64) -> Result<()> {
    conn.prepare(
        "INSERT INTO usage_buckets (identity, minute, count) VALUES (?1, ?2, ?3) \
         ON CONFLICT (identity, minute) DO UPDATE SET count = usage_buckets.count + excluded.count",
    )?
    .execute(args![identity, minute, units])?;
    Ok(())
}

impl Store {
    /// Adds `units` to the identity's bucket of the minute `at` falls into. One upsert, so
    /// concurrent callers never lose a count.
    pub fn record_usage(&self, identity: &str, units: u32, at: OffsetDateTime) -> Result<()> {
        if units == 0 {
            return Ok(());
        }
        self.write_each(|conn| add(conn, identity, units, minute_bucket(at)))
    }

    /// [`Store::record_usage`] for many grants in one transaction: all are counted or none.
    pub fn record_usage_many(&self, grants: &[(String, u32, OffsetDateTime)]) -> Result<()> {
        if grants.iter().all(|(_, units, _)| *units == 0) {
            return Ok(());
        }
        self.write(|tx| {
            for (identity, units, at) in grants.iter().filter(|(_, units, _)| *units > 0) {
                add(tx, identity, *units, minute_bucket(*at))?;
            }
            Ok(())
        })
    }

    /// Units used by `identity` in the minute of `now` and in the 24 hours before it.
    pub fn usage_counts(&self, identity: &str, now: OffsetDateTime) -> Result<UsageCounts> {
        self.read(|conn| counts(conn, identity, minute_bucket(now)))
    }

    /// Records `units` only when this minute's total stays within `limit_per_minute`: the
    /// check and the add are ONE statement (an upsert whose update only happens under the
    /// limit, `RETURNING` the new count), run outside any transaction. It is atomic on both
    /// databases, so concurrent callers (threads, or replicas on one PostgreSQL database)
    /// are granted exactly `limit_per_minute` units between them (docs/ARCHITECTURE.md,
    /// "Replicas"). A batch reserves all its units or none; a refusal writes nothing and
    /// reports the count as it stands.
    pub fn consume(
        &self,
        identity: &str,
        units: u32,
        limit_per_minute: u32,
        at: OffsetDateTime,
    ) -> Result<Consumption> {
        let minute = minute_bucket(at);
        let used = |conn: &Db<'_>| -> Result<u64> {
            let n: Option<i64> = conn.query_opt(
                "SELECT count FROM usage_buckets WHERE identity = ?1 AND minute = ?2",
                args![identity, minute],
                |row| row.get(0),
            )?;
            Ok(n.and_then(|n| u64::try_from(n).ok()).unwrap_or(0))
        };
        let denied = |this_minute| {
            let into_minute = u64::try_from(at.unix_timestamp().rem_euclid(60)).unwrap_or(0);
            Consumption::Denied { this_minute, retry_after_s: 60 - into_minute }
        };
        if units == 0 {
            return self.read(|conn| Ok(Consumption::Allowed { this_minute: used(conn)? }));
        }
        self.write_each(|conn| {
            if units > limit_per_minute {
                // The first insert of a minute is not checked by the upsert's condition.
                return Ok(denied(used(conn)?));
            }
            let granted: Option<i64> = conn.query_opt(
                "INSERT INTO usage_buckets (identity, minute, count) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (identity, minute) DO UPDATE SET count = usage_buckets.count + excluded.count \
                 WHERE usage_buckets.count + excluded.count <= ?4 RETURNING count",
                args![identity, minute, units, limit_per_minute],
                |row| row.get(0),
            )?;
            Ok(match granted {
                Some(n) => Consumption::Allowed { this_minute: u64::try_from(n).unwrap_or(0) },
                None => denied(used(conn)?),
            })
        })
    }

    /// Deletes buckets older than [`USAGE_RETENTION_MINUTES`] before `now`; returns how
    /// many. The server calls it now and then (it is cheap: the minute column is indexed).
    pub fn prune_usage(&self, now: OffsetDateTime) -> Result<usize> {
        let cutoff = minute_bucket(now) - USAGE_RETENTION_MINUTES;
        self.write_each(|conn| conn.execute("DELETE FROM usage_buckets WHERE minute < ?1", args![cutoff]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn check(at: OffsetDateTime, expected: i64) {
        assert_eq!(minute_bucket(at), expected, "{at}");
    }

    #[test]
    fn minute_buckets() {
        check(datetime!(1970-01-01 00:00:00 UTC), 0);
        check(datetime!(1970-01-01 00:00:59.999 UTC), 0);
        check(datetime!(1970-01-01 00:01:00 UTC), 1);
        check(datetime!(1969-12-31 23:59:59 UTC), -1);
        check(datetime!(1970-01-01 01:00:30 +01:00), 0);
    }
}
