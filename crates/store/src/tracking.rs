use crate::sql::{args, Db, Row, Value};
use serde::Serialize;
use time::OffsetDateTime;

use vocab::{AlertId, AuditId, CrawlId, ExperimentId, MonitorId, ScheduleId, Timestamp, UserId};

use crate::clock::{self, format_rfc3339, ser};
use crate::db::{new_id, Store};
use crate::error::{Error, Result};

/// Default monitoring interval: daily (docs/API.md, "Monitoring").
pub const DEFAULT_MONITOR_INTERVAL_S: u32 = 24 * 60 * 60;

/// A scheduled re-audit of one URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Monitor {
    /// UUID.
    pub id: MonitorId,
    /// Owner.
    pub user_id: UserId,
    /// Audited URL.
    pub url: String,
    /// Seconds between audits.
    pub interval_s: u32,
    /// When the next audit is due.
    #[serde(serialize_with = "ser::ts")]
    pub next_run_at: OffsetDateTime,
    /// Creation time.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

/// An alert raised by a monitor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// UUID.
    pub id: AlertId,
    /// Monitor that raised it.
    pub monitor_id: MonitorId,
    /// Rule that fired (`score_drop`, `new_critical`, `status_not_2xx`, `unreachable`).
    pub rule: String,
    /// Severity.
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// When it was raised.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

/// A tracked keyword on a target page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Keyword {
    /// UUID.
    pub id: String,
    /// The keyword.
    pub keyword: String,
    /// Page it is tracked on.
    pub target_url: String,
    /// Creation time.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

/// An experiment to create.
#[derive(Debug, Clone, PartialEq)]
pub struct NewExperiment {
    /// Owner.
    pub user_id: UserId,
    /// Title.
    pub title: String,
    /// Hypothesis.
    pub hypothesis: String,
    /// Page under test.
    pub url: String,
    /// Kind of change (free text).
    pub experiment_type: Option<String>,
    /// What success means (free text).
    pub metric_target: Option<String>,
    /// Audit taken as the baseline.
    pub baseline_audit_id: Option<AuditId>,
    /// Baseline value of the metric.
    pub baseline_value: Option<f64>,
}

/// A stored experiment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Experiment {
    /// UUID.
    pub id: ExperimentId,
    /// Title.
    pub title: String,
    /// Hypothesis.
    pub hypothesis: String,
    /// Page under test.
    pub url: String,
    /// Kind of change.
    pub experiment_type: Option<String>,
    /// What success means.
    pub metric_target: Option<String>,
    /// Audit taken as the baseline.
    pub baseline_audit_id: Option<AuditId>,
    /// Baseline value of the metric.
    pub baseline_value: Option<f64>,
    /// Creation time.
    #[serde(serialize_with = "ser::ts")]
    pub created_at: OffsetDateTime,
}

fn monitor_from_row(row: &Row<'_>) -> Result<(String, String, String, u32, String, String)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?))
}

/// The columns of a [`Monitor`], in [`monitor_from_row`]'s order.
const MONITOR_COLUMNS: &str = "id, user_id, url, interval_s, next_run_at, created_at";

fn monitors(conn: &Db<'_>, tail: &str, params: &[crate::sql::Value<'_>]) -> Result<Vec<Monitor>> {
    monitor_rows(conn, &format!("SELECT {MONITOR_COLUMNS} FROM monitors {tail}"), params)
}

/// The monitors a statement returns (a `SELECT` or an `UPDATE ... RETURNING` of
/// [`MONITOR_COLUMNS`]).
fn monitor_rows(conn: &Db<'_>, sql: &str, params: &[crate::sql::Value<'_>]) -> Result<Vec<Monitor>> {
    let mut stmt = conn.prepare(sql)?;
    let raw = stmt.query_map(params, monitor_from_row)?.collect::<Result<Vec<_>>>()?;
    raw.into_iter()
        .map(|(id, user_id, url, interval_s, next, created)| {
            Ok(Monitor {
                id: id.into(),
                user_id: user_id.into(),
                url,
                interval_s,
                next_run_at: clock::decode("monitors", &next),
                created_at: clock::decode("monitors", &created),
            })
        })
        .collect()
}

fn changed(n: usize, entity: &'static str, key: &str) -> Result<()> {
    if n == 0 {
        return Err(Error::not_found(entity, key));
    }
    Ok(())
}

fn new_alert(monitor_id: &str, rule: &str, severity: &str, message: &str) -> Alert {
    Alert {
        id: new_id().into(),
        monitor_id: monitor_id.into(),
        rule: rule.to_owned(),
        severity: severity.to_owned(),
        message: message.to_owned(),
        created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
    }
}

/// Writes a monitor's alert with the monitor's owner (the owner's alert list reads it); a
/// monitor stopped meanwhile gets none, as its alerts go with it.
fn insert_alert_row(conn: &Db<'_>, alert: &Alert) -> Result<()> {
    conn.execute(
        "INSERT INTO alerts (id, user_id, monitor_id, rule, severity, message, created_at) \
         SELECT ?1, user_id, ?2, ?3, ?4, ?5, ?6 FROM monitors WHERE id = ?2",
        args![alert.id, alert.monitor_id, alert.rule, alert.severity, alert.message, format_rfc3339(alert.created_at)],
    )?;
    Ok(())
}

/// An alert a crawl schedule's run raises ([`Store::record_schedule_comparison`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewScheduleAlert {
    /// `new_critical` or `score_drop` (the monitors' rule names).
    pub rule: String,
    /// `critical` or `warning`.
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
}

/// Writes a crawl schedule's alert, raised by its run `crawl_id`, with the schedule's owner.
pub(crate) fn insert_schedule_alert(
    conn: &Db<'_>,
    schedule_id: &str,
    crawl_id: &str,
    alert: &NewScheduleAlert,
    created_at: OffsetDateTime,
) -> Result<()> {
    conn.execute(
        "INSERT INTO alerts (id, user_id, schedule_id, crawl_id, rule, severity, message, created_at) \
         SELECT ?1, user_id, ?2, ?3, ?4, ?5, ?6, ?7 FROM crawl_schedules WHERE id = ?2",
        args![new_id(), schedule_id, crawl_id, alert.rule, alert.severity, alert.message, format_rfc3339(created_at)],
    )?;
    Ok(())
}

/// What raised an alert of the owner's alert list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumString, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum AlertSource {
    /// A monitor's check of a page.
    Monitor,
    /// A crawl schedule's run.
    Schedule,
}

/// An alert as the owner's alert list shows it: a monitor's or a crawl schedule's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OwnedAlert {
    /// Its id.
    pub id: AlertId,
    /// What raised it.
    pub source: AlertSource,
    /// The monitor that raised it (a monitor's alert).
    pub monitor_id: Option<MonitorId>,
    /// The crawl schedule that raised it (a schedule's alert).
    pub schedule_id: Option<ScheduleId>,
    /// The schedule's run that raised it (a schedule's alert).
    pub crawl_id: Option<CrawlId>,
    /// The monitored page, or the schedule's start URL.
    pub url: String,
    /// The rule that fired.
    pub rule: String,
    /// Its severity.
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// When it was raised.
    pub created_at: Timestamp,
}

/// Which of an owner's alerts to list ([`Store::list_alerts`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlertFilter {
    /// Only the alerts of this source.
    pub source: Option<AlertSource>,
    /// Only alerts listed after this one (its `created_at` and id): the paging cursor.
    pub before: Option<(Timestamp, AlertId)>,
}

impl Store {
    /// Starts monitoring `url` for the user; the first audit is due at `next_run_at`.
    /// Monitoring the same URL twice is a conflict ([`Error::is_conflict`]).
    pub fn create_monitor(
        &self,
        user_id: &str,
        url: &str,
        interval_s: u32,
        next_run_at: OffsetDateTime,
    ) -> Result<Monitor> {
        if interval_s == 0 {
            return Err(Error::invalid("interval_s", "must be positive"));
        }
        let monitor = Monitor {
            id: new_id().into(),
            user_id: user_id.into(),
            url: url.to_owned(),
            interval_s,
            next_run_at: clock::truncate_ms(next_run_at),
            created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
        };
        self.write_each(|conn| {
            conn.execute(
                "INSERT INTO monitors (id, user_id, url, interval_s, next_run_at, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                args![
                    monitor.id,
                    monitor.user_id,
                    monitor.url,
                    monitor.interval_s,
                    format_rfc3339(monitor.next_run_at),
                    format_rfc3339(monitor.created_at)
                ],
            )?;
            Ok(())
        })?;
        Ok(monitor)
    }

    /// The user's monitors, oldest first.
    pub fn list_monitors(&self, user_id: &str) -> Result<Vec<Monitor>> {
        self.read(|conn| monitors(conn, "WHERE user_id = ?1 ORDER BY created_at, rowid", args![user_id]))
    }

    /// Monitors whose next audit is due at `now`, most overdue first.
    pub fn due_monitors(&self, now: OffsetDateTime) -> Result<Vec<Monitor>> {
        self.read(|conn| {
            monitors(conn, "WHERE next_run_at <= ?1 ORDER BY next_run_at, rowid", args![format_rfc3339(now)])
        })
    }

    /// Claims, for one check, at most `limit` monitors due at `now` (most overdue first):
    /// their `next_run_at` moves to `lease_until` in the same statement, so no other
    /// claimer (another replica on the same PostgreSQL database) gets them until that lease
    /// ends. The check then sets the next run ([`Store::reschedule_monitor`]); a claimer that
    /// dies mid-check leaves the monitor due again once `lease_until` has passed
    /// (docs/ARCHITECTURE.md, "Replicas"). On PostgreSQL the rows are taken with
    /// `FOR UPDATE SKIP LOCKED`: concurrent claimers skip each other's rows instead of
    /// waiting for them. The monitors are returned with `next_run_at` = `lease_until`.
    pub fn claim_due_monitors(
        &self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: usize,
    ) -> Result<Vec<Monitor>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let (now, until) = (format_rfc3339(now), format_rfc3339(clock::truncate_ms(lease_until)));
        // One statement in autocommit: atomic on both databases (SQLite runs a statement
        // under its write lock; PostgreSQL's row locks and its re-check of the condition on
        // the newest row version keep two claimers apart).
        self.write_each(|conn| {
            let lock = if conn.is_postgres() { " FOR UPDATE SKIP LOCKED" } else { "" };
            let sql = format!(
                "UPDATE monitors SET next_run_at = ?2 WHERE id IN (SELECT id FROM monitors \
                 WHERE next_run_at <= ?1 ORDER BY next_run_at, rowid LIMIT ?3{lock}) RETURNING {MONITOR_COLUMNS}"
            );
            monitor_rows(conn, &sql, args![now, until, limit])
        })
    }

    /// Sets when the monitor's next audit is due.
    pub fn reschedule_monitor(&self, id: &str, next_run_at: OffsetDateTime) -> Result<()> {
        let n = self.write_each(|conn| {
            conn.execute("UPDATE monitors SET next_run_at = ?2 WHERE id = ?1", args![id, format_rfc3339(next_run_at)])
        })?;
        changed(n, "monitor", id)
    }

    /// Stops a monitor of this user (its alerts go with it).
    pub fn delete_monitor(&self, user_id: &str, id: &str) -> Result<()> {
        let n = self.write_each(|conn| {
            conn.execute("DELETE FROM monitors WHERE id = ?1 AND user_id = ?2", args![id, user_id])
        })?;
        changed(n, "monitor", id)
    }

    /// Records an alert of a monitor.
    pub fn insert_alert(&self, monitor_id: &str, rule: &str, severity: &str, message: &str) -> Result<Alert> {
        let alert = new_alert(monitor_id, rule, severity, message);
        self.write_each(|conn| insert_alert_row(conn, &alert))?;
        Ok(alert)
    }

    /// [`Store::insert_alert`] that writes the monitor owner's `monitor.alert` webhook event
    /// with `data` (built from the stored alert) into the outbox in the same transaction.
    pub fn insert_alert_with_event(
        &self,
        monitor_id: &str,
        rule: &str,
        severity: &str,
        message: &str,
        data: impl Fn(&Alert) -> serde_json::Value,
    ) -> Result<(Alert, crate::Enqueued)> {
        let alert = new_alert(monitor_id, rule, severity, message);
        let enqueued = self.write(|tx| {
            insert_alert_row(tx, &alert)?;
            match crate::webhooks::owner_of(tx, "monitors", monitor_id)? {
                Some(owner) => crate::webhooks::enqueue_event(
                    tx,
                    &owner,
                    "monitor.alert",
                    &data(&alert),
                    OffsetDateTime::now_utc(),
                ),
                None => Ok(crate::Enqueued::default()),
            }
        })?;
        Ok((alert, enqueued))
    }

    /// The newest alerts of a monitor, newest first.
    pub fn recent_alerts(&self, monitor_id: &str, limit: usize) -> Result<Vec<Alert>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let raw = self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, monitor_id, rule, severity, message, created_at FROM alerts \
                 WHERE monitor_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(args![monitor_id, limit], alert_from_row)?;
            rows.collect::<Result<Vec<_>>>()
        })?;
        raw.into_iter()
            .map(|(id, monitor_id, rule, severity, message, at)| {
                Ok(Alert {
                    id: id.into(),
                    monitor_id: monitor_id.into(),
                    rule,
                    severity,
                    message,
                    created_at: clock::decode("alerts", &at),
                })
            })
            .collect()
    }

    /// The alerts of `user_id` (its monitors' and its crawl schedules'), newest first, at
    /// most `limit`, read through the owner's index.
    pub fn list_alerts(&self, user_id: &str, filter: &AlertFilter, limit: usize) -> Result<Vec<OwnedAlert>> {
        let mut clauses = vec!["a.user_id = ?".to_owned()];
        let mut values: Vec<Value<'_>> = vec![Value::Text(user_id.into())];
        match filter.source {
            Some(AlertSource::Monitor) => clauses.push("a.monitor_id IS NOT NULL".to_owned()),
            Some(AlertSource::Schedule) => clauses.push("a.schedule_id IS NOT NULL".to_owned()),
            None => {}
        }
        if let Some((created_at, id)) = &filter.before {
            clauses.push("(a.created_at, a.id) < (?, ?)".to_owned());
            values.push(Value::Text(created_at.to_string().into()));
            values.push(Value::Text(id.to_string().into()));
        }
        values.push(Value::Int(i64::try_from(limit).unwrap_or(i64::MAX)));
        let sql = format!(
            "SELECT a.id, a.monitor_id, a.schedule_id, a.crawl_id, COALESCE(m.url, s.url, ''), a.rule, a.severity, \
             a.message, a.created_at FROM alerts a LEFT JOIN monitors m ON m.id = a.monitor_id \
             LEFT JOIN crawl_schedules s ON s.id = a.schedule_id WHERE {} \
             ORDER BY a.created_at DESC, a.id DESC LIMIT ?",
            clauses.join(" AND ")
        );
        self.read(|db| {
            db.query_map(&sql, &values, |row| {
                let monitor_id = row.get::<Option<String>>(1)?.map(MonitorId::from);
                let schedule_id = row.get::<Option<String>>(2)?.map(ScheduleId::from);
                Ok(OwnedAlert {
                    id: AlertId::from(row.get::<String>(0)?),
                    source: if schedule_id.is_some() { AlertSource::Schedule } else { AlertSource::Monitor },
                    monitor_id,
                    schedule_id,
                    crawl_id: row.get::<Option<String>>(3)?.map(CrawlId::from),
                    url: row.get(4)?,
                    rule: row.get(5)?,
                    severity: row.get(6)?,
                    message: row.get(7)?,
                    created_at: row.get(8)?,
                })
            })
        })
    }

    /// Tracks `keyword` on `target_url` for the user; tracking it twice is a conflict.
    pub fn add_keyword(&self, user_id: &str, keyword: &str, target_url: &str) -> Result<Keyword> {
        let keyword = keyword.trim();
        if keyword.is_empty() {
            return Err(Error::invalid("keyword", "must not be empty"));
        }
        let kw = Keyword {
            id: new_id(),
            keyword: keyword.to_owned(),
            target_url: target_url.to_owned(),
            created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
        };
        self.write_each(|conn| {
            conn.execute(
                "INSERT INTO keywords (id, user_id, keyword, target_url, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                args![kw.id, user_id, kw.keyword, kw.target_url, format_rfc3339(kw.created_at)],
            )?;
            Ok(())
        })?;
        Ok(kw)
    }

    /// Stops tracking `keyword` (on every target URL of the user), matched as adding it
    /// matches duplicates: ignoring ASCII case. Returns how many rows went.
    pub fn remove_keyword(&self, user_id: &str, keyword: &str) -> Result<usize> {
        let n = self.write_each(|conn| {
            conn.execute(
                "DELETE FROM keywords WHERE user_id = ?1 AND LOWER(keyword) = LOWER(?2)",
                args![user_id, keyword.trim()],
            )
        })?;
        changed(n, "keyword", keyword)?;
        Ok(n)
    }

    /// The user's tracked keywords, oldest first.
    pub fn list_keywords(&self, user_id: &str) -> Result<Vec<Keyword>> {
        let raw = self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, keyword, target_url, created_at FROM keywords WHERE user_id = ?1 \
                 ORDER BY created_at, rowid",
            )?;
            let rows = stmt.query_map(args![user_id], |row| {
                Ok((row.get::<String>(0)?, row.get::<String>(1)?, row.get::<String>(2)?, row.get::<String>(3)?))
            })?;
            rows.collect::<Result<Vec<_>>>()
        })?;
        raw.into_iter()
            .map(|(id, keyword, target_url, at)| {
                Ok(Keyword { id, keyword, target_url, created_at: clock::decode("keywords", &at) })
            })
            .collect()
    }

    /// Records an experiment.
    pub fn create_experiment(&self, new: NewExperiment) -> Result<Experiment> {
        for (field, value) in [("title", &new.title), ("hypothesis", &new.hypothesis), ("url", &new.url)] {
            if value.trim().is_empty() {
                return Err(Error::invalid(field, "must not be empty"));
            }
        }
        let exp = Experiment {
            id: new_id().into(),
            title: new.title,
            hypothesis: new.hypothesis,
            url: new.url,
            experiment_type: new.experiment_type,
            metric_target: new.metric_target,
            baseline_audit_id: new.baseline_audit_id,
            baseline_value: new.baseline_value,
            created_at: clock::truncate_ms(OffsetDateTime::now_utc()),
        };
        self.write_each(|conn| {
            conn.execute(
                "INSERT INTO experiments (id, user_id, title, hypothesis, url, experiment_type, \
                 metric_target, baseline_audit_id, baseline_value, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                args![
                    exp.id,
                    new.user_id,
                    exp.title,
                    exp.hypothesis,
                    exp.url,
                    exp.experiment_type,
                    exp.metric_target,
                    exp.baseline_audit_id,
                    exp.baseline_value,
                    format_rfc3339(exp.created_at)
                ],
            )?;
            Ok(())
        })?;
        Ok(exp)
    }

    /// The user's experiments, newest first.
    pub fn list_experiments(&self, user_id: &str) -> Result<Vec<Experiment>> {
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, title, hypothesis, url, experiment_type, metric_target, \
                 baseline_audit_id, baseline_value, created_at FROM experiments \
                 WHERE user_id = ?1 ORDER BY created_at DESC, rowid DESC",
            )?;
            let rows = stmt.query_map(args![user_id], |row| {
                Ok((
                    Experiment {
                        id: row.get(0)?,
                        title: row.get(1)?,
                        hypothesis: row.get(2)?,
                        url: row.get(3)?,
                        experiment_type: row.get(4)?,
                        metric_target: row.get(5)?,
                        baseline_audit_id: row.get(6)?,
                        baseline_value: row.get(7)?,
                        created_at: OffsetDateTime::UNIX_EPOCH,
                    },
                    row.get::<String>(8)?,
                ))
            })?;
            rows.map(|row| {
                let (mut exp, at) = row?;
                exp.created_at = clock::decode("experiments", &at);
                Ok(exp)
            })
            .collect()
        })
    }
}

fn alert_from_row(row: &Row<'_>) -> Result<(String, String, String, String, String, String)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?))
}
