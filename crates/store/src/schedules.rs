//! Scheduled crawls (docs/API.md, "Scheduled crawls"): a key owner's crawl of a site, run
//! daily or weekly at a time of day (UTC).
//!
//! A due schedule is claimed by one replica for one run ([`Store::claim_due_crawl_schedules`]:
//! `claimed_by`, `claimed_until`, the lease columns that workflow runs and crawls carry,
//! docs/ARCHITECTURE.md, "Replicas"); the run's crawl is then queued and the schedule moved to
//! its next time in one transaction, and only while the claim is still the claimer's
//! ([`Store::queue_scheduled_crawl`]), so a run starts once whatever the replicas. A claimer
//! that dies mid-start leaves the schedule due again when its lease runs out.
//!
//! Each run's end is judged once ([`Store::record_schedule_comparison`]: the schedule's
//! `compared_crawl_id` moves to the run in a compare-and-set, with the alert's webhook events
//! in the same transaction).

use serde_json::Value;
use time::OffsetDateTime;
use vocab::{CrawlId, KeyId, ScheduleId, UserId};

use crate::clock::{self, format_rfc3339};
use crate::crawls::{generate_crawl_id, load_crawl, Crawl, NewCrawl};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};
use crate::sql::{args, Db, Row};
use crate::webhooks::{enqueue_event, Enqueued};

/// A crawl schedule as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlSchedule {
    /// `cs_` and a UUID.
    pub id: ScheduleId,
    /// Owner.
    pub user_id: UserId,
    /// The key that made it: each run is charged to it.
    pub key_id: KeyId,
    /// The start URL of each run.
    pub url: String,
    /// The crawl each run starts, as JSON text (the application's own format).
    pub options_json: String,
    /// `daily` or `weekly`.
    pub frequency: String,
    /// The day of a weekly schedule, 0 (Monday) to 6 (Sunday).
    pub weekday: Option<u8>,
    /// The time of day of each run, in minutes after midnight UTC.
    pub minute_of_day: u32,
    /// Points of site score drop since the previous run that raise an alert.
    pub score_drop: u32,
    /// `active` or `paused`.
    pub state: String,
    /// When the next run is due (meaningless while paused).
    pub next_run_at: OffsetDateTime,
    /// Runs started.
    pub runs: u32,
    /// When the latest run was started (or skipped).
    pub last_run_at: Option<OffsetDateTime>,
    /// The crawl of the latest run.
    pub last_crawl_id: Option<CrawlId>,
    /// Why the latest run did not start, when it did not.
    pub last_error: Option<String>,
    /// The newest run whose end was judged.
    pub compared_crawl_id: Option<CrawlId>,
    /// The newest completed run: what the next run is compared with.
    pub baseline_crawl_id: Option<CrawlId>,
    /// The change of the newest judged run since its baseline (the application's JSON).
    pub last_change_json: Option<String>,
    /// The newest alert (the application's JSON).
    pub last_alert_json: Option<String>,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

/// A schedule to create ([`Store::create_crawl_schedule`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCrawlSchedule {
    /// Owner.
    pub user_id: UserId,
    /// The key that makes it.
    pub key_id: KeyId,
    /// The start URL.
    pub url: String,
    /// The crawl each run starts (JSON text).
    pub options_json: String,
    /// `daily` or `weekly`.
    pub frequency: String,
    /// The day of a weekly schedule, 0 (Monday) to 6 (Sunday).
    pub weekday: Option<u8>,
    /// Minutes after midnight UTC.
    pub minute_of_day: u32,
    /// Score drop that raises an alert.
    pub score_drop: u32,
    /// The first run.
    pub next_run_at: OffsetDateTime,
}

/// The columns of a [`CrawlSchedule`], in [`schedule_from_row`]'s order.
const COLUMNS: &str = "id, user_id, key_id, url, options_json, frequency, weekday, minute_of_day, score_drop, \
     state, next_run_at, runs, last_run_at, last_crawl_id, last_error, compared_crawl_id, baseline_crawl_id, \
     last_change_json, last_alert_json, created_at";

const TABLE: &str = "crawl_schedules";

fn schedule_from_row(row: &Row<'_>) -> Result<CrawlSchedule> {
    Ok(CrawlSchedule {
        id: row.get(0)?,
        user_id: row.get(1)?,
        key_id: row.get(2)?,
        url: row.get(3)?,
        options_json: row.get(4)?,
        frequency: row.get(5)?,
        weekday: row.get(6)?,
        minute_of_day: row.get(7)?,
        score_drop: row.get(8)?,
        state: row.get(9)?,
        next_run_at: clock::decode(TABLE, &row.get::<String>(10)?),
        runs: row.get(11)?,
        last_run_at: clock::decode_opt(TABLE, row.get(12)?),
        last_crawl_id: row.get(13)?,
        last_error: row.get(14)?,
        compared_crawl_id: row.get(15)?,
        baseline_crawl_id: row.get(16)?,
        last_change_json: row.get(17)?,
        last_alert_json: row.get(18)?,
        created_at: clock::decode(TABLE, &row.get::<String>(19)?),
    })
}

fn load(db: &Db<'_>, id: &str) -> Result<CrawlSchedule> {
    db.query_opt(&format!("SELECT {COLUMNS} FROM crawl_schedules WHERE id = ?1"), args![id], schedule_from_row)?
        .ok_or_else(|| Error::not_found("crawl schedule", id))
}

/// A schedule of `user_id` (another owner's is not found, as an unknown id).
fn load_owned(db: &Db<'_>, user_id: &str, id: &str) -> Result<CrawlSchedule> {
    let schedule = load(db, id)?;
    if schedule.user_id != user_id {
        return Err(Error::not_found("crawl schedule", id));
    }
    Ok(schedule)
}

impl Store {
    /// Creates a schedule unless its owner holds `cap` already (`None` then): counted and
    /// written in one transaction, so concurrent calls never go over the cap together.
    pub fn create_crawl_schedule(&self, new: NewCrawlSchedule, cap: usize) -> Result<Option<CrawlSchedule>> {
        let id = format!("cs_{}", new_id().replace('-', ""));
        let now = clock::now_rfc3339();
        let next = format_rfc3339(new.next_run_at);
        self.write(|tx| {
            let held: i64 = tx.query_one(
                "SELECT CAST(COUNT(*) AS BIGINT) FROM crawl_schedules WHERE user_id = ?1",
                args![new.user_id],
                |row| row.get(0),
            )?;
            if usize::try_from(held).unwrap_or(usize::MAX) >= cap {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO crawl_schedules (id, user_id, key_id, url, options_json, frequency, weekday, \
                 minute_of_day, score_drop, state, next_run_at, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'active', ?10, ?11)",
                args![
                    id,
                    new.user_id,
                    new.key_id,
                    new.url,
                    new.options_json,
                    new.frequency,
                    new.weekday,
                    new.minute_of_day,
                    new.score_drop,
                    next,
                    now
                ],
            )?;
            load(tx, &id).map(Some)
        })
    }

    /// The schedules of `user_id`, oldest first.
    pub fn list_crawl_schedules(&self, user_id: &str) -> Result<Vec<CrawlSchedule>> {
        self.read(|db| {
            db.query_map(
                &format!("SELECT {COLUMNS} FROM crawl_schedules WHERE user_id = ?1 ORDER BY created_at, id"),
                args![user_id],
                schedule_from_row,
            )
        })
    }

    /// Schedule `id` of `user_id` (not found for another owner's).
    pub fn get_crawl_schedule(&self, user_id: &str, id: &str) -> Result<CrawlSchedule> {
        self.read(|db| load_owned(db, user_id, id))
    }

    /// Pauses (`next_run_at: None`) or resumes (the next run's time) schedule `id` of
    /// `user_id`. A run already started goes on.
    pub fn set_crawl_schedule_state(
        &self,
        user_id: &str,
        id: &str,
        next_run_at: Option<OffsetDateTime>,
    ) -> Result<CrawlSchedule> {
        self.write(|tx| {
            load_owned(tx, user_id, id)?;
            match next_run_at {
                None => tx.execute("UPDATE crawl_schedules SET state = 'paused' WHERE id = ?1", args![id])?,
                Some(at) => tx.execute(
                    "UPDATE crawl_schedules SET state = 'active', next_run_at = ?2 WHERE id = ?1",
                    args![id, format_rfc3339(at)],
                )?,
            };
            load(tx, id)
        })
    }

    /// Ends schedule `id` of `user_id`: it is deleted (its crawls stay).
    pub fn delete_crawl_schedule(&self, user_id: &str, id: &str) -> Result<()> {
        let n = self.write_each(|db| {
            db.execute("DELETE FROM crawl_schedules WHERE id = ?1 AND user_id = ?2", args![id, user_id])
        })?;
        if n == 0 {
            return Err(Error::not_found("crawl schedule", id));
        }
        Ok(())
    }

    /// Sets when schedule `id` runs next, whatever its owner: what the service's tests use
    /// to make a run due without waiting for its time of day.
    pub fn set_crawl_schedule_next_run(&self, id: &str, at: OffsetDateTime) -> Result<()> {
        let n = self.write_each(|db| {
            db.execute("UPDATE crawl_schedules SET next_run_at = ?2 WHERE id = ?1", args![id, format_rfc3339(at)])
        })?;
        if n == 0 {
            return Err(Error::not_found("crawl schedule", id));
        }
        Ok(())
    }

    /// Claims for `worker`, until `lease_until`, at most `limit` active schedules due at
    /// `now` that nobody holds (or whose holder's lease ran out) and whose previous run has
    /// ended and been judged (so runs of one schedule never overlap, and each is compared
    /// with the one before), most overdue first. One
    /// statement in autocommit: atomic on both databases (SQLite runs it under its write
    /// lock; on PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED` and the condition is
    /// checked again on the newest row version), so two replicas never claim one run.
    pub fn claim_due_crawl_schedules(
        &self,
        worker: &str,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: usize,
    ) -> Result<Vec<CrawlSchedule>> {
        let (now, until) = (format_rfc3339(now), format_rfc3339(lease_until));
        self.write_each(|db| {
            let lock = if db.is_postgres() { " FOR UPDATE SKIP LOCKED" } else { "" };
            let sql = format!(
                "UPDATE crawl_schedules SET claimed_by = ?2, claimed_until = ?3 WHERE id IN (SELECT s.id FROM \
                 crawl_schedules s WHERE s.state = 'active' AND s.next_run_at <= ?1 AND (s.claimed_until IS NULL \
                 OR s.claimed_until <= ?1) AND (s.last_crawl_id IS NULL OR s.compared_crawl_id = s.last_crawl_id \
                 OR NOT EXISTS (SELECT 1 FROM crawls c WHERE c.id = s.last_crawl_id)) \
                 ORDER BY s.next_run_at, s.id LIMIT ?4{lock}) RETURNING {COLUMNS}"
            );
            db.query_map(&sql, args![now, worker, until, limit], schedule_from_row)
        })
    }

    /// Extends `worker`'s claim on schedule `id` to `lease_until`; `false` when the claim is
    /// no longer `worker`'s.
    pub fn renew_crawl_schedule(&self, id: &str, worker: &str, lease_until: OffsetDateTime) -> Result<bool> {
        let n = self.write_each(|db| {
            db.execute(
                "UPDATE crawl_schedules SET claimed_until = ?3 WHERE id = ?1 AND claimed_by = ?2",
                args![id, worker, format_rfc3339(lease_until)],
            )
        })?;
        Ok(n > 0)
    }

    /// Queues the crawl `new` of schedule `id`'s run and moves the schedule to its next run
    /// at `next_run_at`, giving up `worker`'s claim, in one transaction; nothing is written
    /// (`None`) when the claim is no longer `worker`'s or the schedule was paused or ended
    /// meanwhile. The crawl waits for [`Store::start_queued_crawls`] as any other.
    pub fn queue_scheduled_crawl(
        &self,
        id: &str,
        worker: &str,
        next_run_at: OffsetDateTime,
        new: NewCrawl,
    ) -> Result<Option<Crawl>> {
        let crawl_id = generate_crawl_id();
        let (now, next) = (clock::now_rfc3339(), format_rfc3339(next_run_at));
        self.write(|tx| {
            let moved = tx.execute(
                "UPDATE crawl_schedules SET next_run_at = ?3, runs = runs + 1, last_run_at = ?4, \
                 last_crawl_id = ?5, last_error = NULL, claimed_by = NULL, claimed_until = NULL \
                 WHERE id = ?1 AND claimed_by = ?2 AND state = 'active'",
                args![id, worker, next, now, crawl_id],
            )?;
            if moved == 0 {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO crawls (id, user_id, url, state, options_json, max_pages, created_at) \
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6)",
                args![crawl_id, new.user_id, new.url, new.options_json, new.max_pages, now],
            )?;
            load_crawl(tx, &crawl_id).map(Some)
        })
    }

    /// Records that schedule `id`'s run did not start (`error` says why) and moves it to its
    /// next run at `next_run_at`, giving up `worker`'s claim; `false` when the claim was no
    /// longer `worker`'s (nothing written).
    pub fn skip_scheduled_run(&self, id: &str, worker: &str, next_run_at: OffsetDateTime, error: &str) -> Result<bool> {
        let (now, next) = (clock::now_rfc3339(), format_rfc3339(next_run_at));
        let n = self.write_each(|db| {
            db.execute(
                "UPDATE crawl_schedules SET next_run_at = ?3, last_run_at = ?4, last_error = ?5, \
                 claimed_by = NULL, claimed_until = NULL WHERE id = ?1 AND claimed_by = ?2",
                args![id, worker, next, now, error],
            )
        })?;
        Ok(n > 0)
    }

    /// Gives up `worker`'s claim on schedule `id` without running it.
    pub fn release_crawl_schedule(&self, id: &str, worker: &str) -> Result<()> {
        self.write_each(|db| {
            db.execute(
                "UPDATE crawl_schedules SET claimed_by = NULL, claimed_until = NULL WHERE id = ?1 AND claimed_by = ?2",
                args![id, worker],
            )
        })?;
        Ok(())
    }

    /// At most `limit` schedules whose latest run's crawl has ended and not yet been judged,
    /// with that crawl.
    pub fn crawl_schedules_to_compare(&self, limit: usize) -> Result<Vec<(CrawlSchedule, Crawl)>> {
        self.read(|db| {
            let columns: Vec<String> = COLUMNS.split(", ").map(|c| format!("s.{c}")).collect();
            let schedules = db.query_map(
                &format!(
                    "SELECT {} FROM crawl_schedules s JOIN crawls c ON c.id = s.last_crawl_id \
                     WHERE c.state IN ('completed', 'cancelled', 'failed') \
                     AND (s.compared_crawl_id IS NULL OR s.compared_crawl_id <> s.last_crawl_id) \
                     ORDER BY s.last_run_at, s.id LIMIT ?1",
                    columns.join(", ")
                ),
                args![limit],
                schedule_from_row,
            )?;
            schedules
                .into_iter()
                .map(|s| {
                    let crawl = load_crawl(db, s.last_crawl_id.as_deref().unwrap_or_default())?;
                    Ok((s, crawl))
                })
                .collect()
        })
    }

    /// Records the judgement of schedule `id`'s run `crawl_id`, once: `baseline_crawl_id`
    /// becomes `baseline` (what the next run is compared with), the change is kept, and
    /// when `alert` is given it is kept, each of `alerts` becomes a row of the owner's alert
    /// list (beside the monitors' alerts) and each of `events` (`crawl.alert` data) is
    /// written to the owner's webhook outbox, all in one transaction. `None` when that run
    /// was judged already (another replica did it) or the schedule is gone: nothing is
    /// written.
    #[allow(clippy::too_many_arguments)]
    pub fn record_schedule_comparison(
        &self,
        id: &str,
        crawl_id: &str,
        baseline: Option<&str>,
        change_json: Option<&str>,
        alert_json: Option<&str>,
        alerts: &[crate::tracking::NewScheduleAlert],
        events: &[Value],
    ) -> Result<Option<Vec<Enqueued>>> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE crawl_schedules SET compared_crawl_id = ?2, baseline_crawl_id = ?3, last_change_json = ?4, \
                 last_alert_json = COALESCE(?5, last_alert_json) WHERE id = ?1 AND last_crawl_id = ?2 \
                 AND (compared_crawl_id IS NULL OR compared_crawl_id <> ?2)",
                args![id, crawl_id, baseline, change_json, alert_json],
            )?;
            if n == 0 {
                return Ok(None);
            }
            let owner = load(tx, id)?.user_id;
            let now = OffsetDateTime::now_utc();
            for alert in alerts {
                crate::tracking::insert_schedule_alert(tx, id, crawl_id, alert, clock::truncate_ms(now))?;
            }
            events
                .iter()
                .map(|data| enqueue_event(tx, &owner, "crawl.alert", data, now))
                .collect::<Result<_>>()
                .map(Some)
        })
    }
}
