//! Retention (docs/API.md, "Running the service", retention settings; docs/SECURITY.md,
//! "What one caller can store"): audits (and the AI-readiness answers, by the same ages) and crawls older than their age limit, and crawls
//! past the count kept per owner, are deleted with their rows, and older ended crawls lose
//! their page rows (the crawl, its summary and its issues kept), a bounded batch per
//! transaction so that other writers never wait long for the write lock.

use time::OffsetDateTime;

use crate::clock::format_rfc3339;
use crate::db::Store;
use crate::error::Result;
use crate::sql::args;

/// Rows deleted per transaction at most (audits), so that a sweep holds the write lock
/// only briefly each time.
const BATCH: usize = 500;

/// What is kept, for data made without a key (anonymous) and with one (keyed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Age past which an anonymous audit is deleted.
    pub anonymous_audit_age: time::Duration,
    /// Age past which a keyed audit is deleted.
    pub keyed_audit_age: time::Duration,
    /// Age past which an ended anonymous crawl is deleted, with its pages.
    pub anonymous_crawl_age: time::Duration,
    /// Age past which an ended keyed crawl is deleted, with its pages.
    pub keyed_crawl_age: time::Duration,
    /// Ended anonymous crawls kept at most, all anonymous callers together (the newest).
    pub anonymous_crawls: usize,
    /// Ended crawls kept at most per key owner (the newest).
    pub keyed_crawls_per_owner: usize,
    /// Age (from its end) past which an ended crawl's page rows are deleted, anonymous or
    /// keyed: its pages, their inlinks and its sitemap URLs. The crawl row, its summary,
    /// its progress counts and its issues stay, so its `GET` still answers (and says its
    /// pages were pruned). A crawl is deleted whole by the ages and counts above.
    pub crawl_pages_age: time::Duration,
}

/// What one sweep deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Audits deleted.
    pub audits: u64,
    /// AI-readiness answers deleted (by the audits' ages: an answer is kept as long as the
    /// audit it was made with).
    pub readiness: u64,
    /// Crawls deleted (their pages, links, sitemap URLs and issues with them).
    pub crawls: u64,
    /// Geo-check answers deleted (older than their time to live).
    pub geo_answers: u64,
    /// Crawls whose page rows were deleted, the crawl kept.
    pub crawl_pages: u64,
}

impl Store {
    /// Deletes what `policy` no longer keeps at `now` (see the module documentation).
    /// Crawls that have not ended are never deleted.
    pub fn prune(&self, policy: &Retention, now: OffsetDateTime) -> Result<Pruned> {
        let mut pruned = Pruned::default();
        for (keyed, age) in [(false, policy.anonymous_audit_age), (true, policy.keyed_audit_age)] {
            let before = format_rfc3339(now - age);
            let owner = if keyed { "user_id IS NOT NULL" } else { "user_id IS NULL" };
            loop {
                let sql = format!(
                    "DELETE FROM audits WHERE id IN (SELECT id FROM audits WHERE {owner} AND created_at < ?1 LIMIT ?2)"
                );
                let n = self.write(|tx| tx.execute(&sql, args![before, BATCH]))?;
                pruned.audits += n as u64;
                if n < BATCH {
                    break;
                }
            }
        }
        // AI-readiness answers go by the audits' ages: each was made with an audit, and the
        // report page shows the two together.
        for (keyed, age) in [(false, policy.anonymous_audit_age), (true, policy.keyed_audit_age)] {
            let before = format_rfc3339(now - age);
            let owner = if keyed { "user_id IS NOT NULL" } else { "user_id IS NULL" };
            loop {
                let sql = format!(
                    "DELETE FROM ai_readiness WHERE id IN \
                     (SELECT id FROM ai_readiness WHERE {owner} AND created_at < ?1 LIMIT ?2)"
                );
                let n = self.write(|tx| tx.execute(&sql, args![before, BATCH]))?;
                pruned.readiness += n as u64;
                if n < BATCH {
                    break;
                }
            }
        }
        // Texts no audit refers to any more.
        self.write(|tx| {
            tx.execute(
                "DELETE FROM page_texts WHERE NOT EXISTS (SELECT 1 FROM audits a WHERE a.text_hash = page_texts.hash)",
                args![],
            )
        })?;

        let ended = "state IN ('completed', 'cancelled', 'failed')";
        let mut doomed: Vec<String> = Vec::new();
        self.read(|db| {
            for (keyed, age) in [(false, policy.anonymous_crawl_age), (true, policy.keyed_crawl_age)] {
                let owner = if keyed { "user_id IS NOT NULL" } else { "user_id IS NULL" };
                doomed.extend(db.query_map(
                    &format!("SELECT id FROM crawls WHERE {owner} AND {ended} AND created_at < ?1"),
                    args![format_rfc3339(now - age)],
                    |row| row.get::<String>(0),
                )?);
            }
            // All but the newest `n` rows: SQLite needs a LIMIT before an OFFSET.
            let past = if db.is_postgres() { "OFFSET" } else { "LIMIT -1 OFFSET" };
            doomed.extend(db.query_map(
                &format!(
                    "SELECT id FROM crawls WHERE user_id IS NULL AND {ended} ORDER BY created_at DESC, id {past} ?1"
                ),
                args![policy.anonymous_crawls],
                |row| row.get::<String>(0),
            )?);
            let owners = db.query_map(
                &format!(
                    "SELECT user_id FROM crawls WHERE user_id IS NOT NULL AND {ended} GROUP BY user_id \
                     HAVING COUNT(*) > ?1"
                ),
                args![policy.keyed_crawls_per_owner],
                |row| row.get::<String>(0),
            )?;
            for owner in owners {
                doomed.extend(db.query_map(
                    &format!(
                        "SELECT id FROM crawls WHERE user_id = ?1 AND {ended} ORDER BY created_at DESC, id {past} ?2"
                    ),
                    args![owner, policy.keyed_crawls_per_owner],
                    |row| row.get::<String>(0),
                )?);
            }
            Ok(())
        })?;
        doomed.sort();
        doomed.dedup();
        // One crawl per transaction: its rows go with it (ON DELETE CASCADE), and a crawl's
        // rows are bounded by its pages and sitemap URLs (docs/API.md, "Site crawl").
        for id in doomed {
            let n = self.write(|tx| tx.execute(&format!("DELETE FROM crawls WHERE id = ?1 AND {ended}"), args![id]))?;
            pruned.crawls += n as u64;
        }

        // Old ended crawls' pages, one crawl per transaction: the counts the crawl answers
        // with are read from its pages, so they are kept on the crawl row first.
        let ended_before = format_rfc3339(now - policy.crawl_pages_age);
        let old = self.read(|db| {
            db.query_map(
                &format!(
                    "SELECT id FROM crawls WHERE {ended} AND pages_pruned_at IS NULL AND finished_at IS NOT NULL \
                     AND finished_at < ?1"
                ),
                args![ended_before],
                |row| row.get::<String>(0),
            )
        })?;
        let at = format_rfc3339(now);
        for id in old {
            let n = self.write(|tx| {
                let Some(crawl) = crate::crawls::load_ended(tx, &id)? else { return Ok(0) };
                let progress = serde_json::to_string(&crawl.progress)
                    .map_err(|e| crate::error::Error::corrupt("crawls", e.to_string()))?;
                let n = tx.execute(
                    "UPDATE crawls SET pages_pruned_at = ?2, pruned_progress = ?3 WHERE id = ?1 AND pages_pruned_at IS NULL",
                    args![id, at, progress],
                )?;
                for table in ["crawl_inlinks", "crawl_sitemap_urls", "crawl_pages"] {
                    tx.execute(&format!("DELETE FROM {table} WHERE crawl_id = ?1"), args![id])?;
                }
                Ok(n)
            })?;
            pruned.crawl_pages += n as u64;
        }

        let stale = format_rfc3339(now - crate::GEO_CACHE_TTL);
        pruned.geo_answers =
            self.write(|tx| tx.execute("DELETE FROM geo_cache WHERE created_at < ?1", args![stale]))? as u64;
        Ok(pruned)
    }
}
