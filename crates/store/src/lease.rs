//! The lease columns (`claimed_by`, `claimed_until`) that workflow runs and crawls share: a
//! replica drives a row while it holds the lease (docs/ARCHITECTURE.md, "Replicas"). The
//! table names are the crate's own constants, never input.

use time::OffsetDateTime;

use crate::clock::{self, format_rfc3339};
use crate::error::{Error, Result};
use crate::sql::{args, Db};

/// A table whose rows carry a lease, and what a row of it is called in errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Leased {
    pub(crate) table: &'static str,
    pub(crate) entity: &'static str,
}

pub(crate) const RUNS: Leased = Leased { table: "workflow_runs", entity: "workflow run" };
pub(crate) const CRAWLS: Leased = Leased { table: "crawls", entity: "crawl" };

impl Leased {
    /// Extends `worker`'s lease on row `id` to `until`; `false` when `worker` no longer holds
    /// it or the row ended.
    pub(crate) fn renew(self, db: &Db<'_>, id: &str, worker: &str, until: OffsetDateTime) -> Result<bool> {
        let sql = format!(
            "UPDATE {} SET claimed_until = ?3 WHERE id = ?1 AND claimed_by = ?2 AND state IN ('queued', 'running')",
            self.table
        );
        Ok(db.execute(&sql, args![id, worker, format_rfc3339(until)])? > 0)
    }

    /// Gives up `worker`'s lease on row `id`.
    pub(crate) fn release(self, db: &Db<'_>, id: &str, worker: &str) -> Result<()> {
        let sql = format!(
            "UPDATE {} SET claimed_by = NULL, claimed_until = NULL WHERE id = ?1 AND claimed_by = ?2",
            self.table
        );
        db.execute(&sql, args![id, worker])?;
        Ok(())
    }

    /// Who holds row `id`'s lease and until when (`None`: nobody).
    pub(crate) fn holder(self, db: &Db<'_>, id: &str) -> Result<Option<(String, OffsetDateTime)>> {
        let sql = format!("SELECT claimed_by, claimed_until FROM {} WHERE id = ?1", self.table);
        let row: Option<(Option<String>, Option<String>)> =
            db.query_opt(&sql, args![id], |row| Ok((row.get(0)?, row.get(1)?)))?;
        match row.ok_or_else(|| Error::not_found(self.entity, id))? {
            (Some(worker), Some(until)) => Ok(Some((worker, clock::decode(self.table, &until)))),
            _ => Ok(None),
        }
    }
}
