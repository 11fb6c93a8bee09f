//! Scheduled crawls (docs/API.md, "Scheduled crawls"): a key owner's crawl of a site run
//! daily or weekly at a time of day (UTC); each run compared with the schedule's previous
//! completed run, and an alert (the `crawl.alert` webhook event, with the monitors' alert
//! rules `new_critical` and `score_drop`) on new findings of a critical rule or a site score
//! drop over the schedule's threshold.
//!
//! [`Schedules::spawn`] starts the scheduler of this replica. Each tick it claims the due
//! schedules (a lease in the database, renewed while the run starts, as monitors and
//! workflow runs hold theirs: docs/ARCHITECTURE.md, "Replicas"), charges the run to the key
//! that made the schedule as a crawl is charged, checks the start page as a crawl start
//! does, and queues the crawl and moves the schedule to its next time in one transaction
//! that holds only while the claim is still this replica's: a run starts once, whatever the
//! replicas. Schedules are rows of the database, so they survive restarts; a run missed
//! while every replica was down starts at the next tick, once.
//!
//! Each tick also judges the runs that have ended since: the comparison is computed, then
//! written with its alert events in one compare-and-set transaction, so a run is alerted on
//! once even when two replicas judge it at once.

use std::sync::Arc;
use std::time::Duration;

use api::schedules::{ScheduleAlert, ScheduleChange, MAX_SCHEDULES_PER_OWNER, WEEKDAYS};
use serde_json::{json, Value};
use time::OffsetDateTime;
use tokio::sync::watch;
use vocab::{ScheduleId, UserId};

use super::change::{compare, CrawlFacts};
use super::request::CrawlRequest;
use super::Crawls;
use crate::monitors::AlertRule;
use crate::quota::{Identity, Limiter, Payer, RateLimits};
use crate::{AppError, ErrorCode};

/// How often the scheduler looks for due schedules and ended runs.
pub const TICK: Duration = Duration::from_millis(500);
/// Schedules one tick claims at most (the rest stay due for the next tick or replica).
const CLAIM_BATCH: usize = 8;
/// Points of site score drop that raise an alert by default (the monitors' threshold).
pub const DEFAULT_SCORE_DROP: u32 = 5;
/// When a run the quota refused is tried again.
const QUOTA_RETRY: time::Duration = time::Duration::minutes(1);

/// When a schedule runs: every day, or every week on one day, at a minute of the day (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cadence {
    /// The day of a weekly schedule, 0 (Monday) to 6 (Sunday); `None`: daily.
    pub weekday: Option<u8>,
    /// Minutes after midnight UTC, 0 to 1439.
    pub minute_of_day: u32,
}

impl Cadence {
    /// The first run time strictly after `after`.
    pub fn next_after(self, after: OffsetDateTime) -> OffsetDateTime {
        let after = after.to_offset(time::UtcOffset::UTC);
        let mut at = after.replace_time(time::Time::MIDNIGHT) + time::Duration::minutes(i64::from(self.minute_of_day));
        match self.weekday {
            None => {
                if at <= after {
                    at += time::Duration::days(1);
                }
            }
            Some(day) => {
                let today = i64::from(after.weekday().number_days_from_monday());
                at += time::Duration::days((i64::from(day) - today).rem_euclid(7));
                if at <= after {
                    at += time::Duration::days(7);
                }
            }
        }
        at
    }

    fn of(schedule: &store::CrawlSchedule) -> Cadence {
        Cadence { weekday: schedule.weekday, minute_of_day: schedule.minute_of_day }
    }
}

/// A schedule as asked for, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleInput {
    /// The crawl each run starts.
    pub crawl: CrawlRequest,
    /// When it runs.
    pub cadence: Cadence,
    /// The score drop that raises an alert.
    pub score_drop: u32,
}

/// The member at fault of the crawl request, named as a member of `crawl`.
fn within_crawl(e: AppError) -> AppError {
    match e {
        AppError::Refused(mut refusal) => {
            if let Some(name) = refusal.details.as_ref().and_then(|d| d["parameter"].as_str()).map(str::to_string) {
                let nested = format!("crawl.{name}");
                refusal.message = refusal.message.replacen(&format!("`{name}`"), &format!("`{nested}`"), 1);
                if let Some(details) = refusal.details.as_mut() {
                    details["parameter"] = Value::from(nested);
                }
            }
            AppError::Refused(refusal)
        }
        other => other,
    }
}

/// `HH:MM` as minutes after midnight.
fn minute_of_day(text: &str) -> Option<u32> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 || !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// Reads the body of `POST /api/v1/crawl-schedules` (documented as
/// [`api::schedules::ScheduleRequest`]), each member checked in the documented order: the
/// crawl as `POST /api/v1/crawls` checks its body (a member at fault named `crawl.NAME`),
/// then `frequency`, `time`, `weekday`, `alert_score_drop`.
///
/// # Errors
/// `missing_parameter` or `invalid_request` naming the member at fault.
pub fn parse_schedule(body: api::schedules::ScheduleRequest) -> Result<ScheduleInput, AppError> {
    let crawl = body.crawl.required("crawl", "an object: the body of `POST /api/v1/crawls`")?;
    // The crawl member is read as the crawl route reads its body, then checked the same way.
    let crawl = api::body::parse::<api::crawls::CrawlRequest>(Value::Object(crawl).to_string().as_bytes())
        .map_err(AppError::from)
        .and_then(super::parse_start)
        .map_err(within_crawl)?;
    let frequency = body.frequency.required_text("frequency")?;
    let time = body.time.required_text("time")?;
    let minute = minute_of_day(&time)
        .ok_or_else(|| AppError::invalid_field("time", "a time of day `HH:MM` in UTC (00:00 to 23:59)"))?;
    let weekday = body.weekday.optional("weekday", "a day of the week, `monday` to `sunday`")?;
    let weekday = match (frequency.as_str(), weekday) {
        ("daily", None) => None,
        ("daily", Some(_)) => return Err(AppError::invalid_field("weekday", "absent for a daily schedule")),
        ("weekly", None) => return Err(AppError::missing_parameter("weekday")),
        ("weekly", Some(day)) => Some(
            WEEKDAYS
                .iter()
                .position(|d| *d == day)
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| AppError::invalid_field("weekday", "a day of the week, `monday` to `sunday`"))?,
        ),
        _ => return Err(AppError::invalid_field("frequency", "`daily` or `weekly`")),
    };
    let score_drop = match body.alert_score_drop.optional("alert_score_drop", "a whole number from 1 to 100")? {
        None => DEFAULT_SCORE_DROP,
        Some(n) => u32::try_from(n)
            .ok()
            .filter(|n| (1..=100).contains(n))
            .ok_or_else(|| AppError::invalid_field("alert_score_drop", "a whole number from 1 to 100"))?,
    };
    Ok(ScheduleInput { crawl, cadence: Cadence { weekday, minute_of_day: minute }, score_drop })
}

/// The schedule as the API shows it.
pub fn wire(schedule: &store::CrawlSchedule) -> api::schedules::CrawlSchedule {
    let paused = schedule.state == "paused";
    api::schedules::CrawlSchedule {
        id: schedule.id.clone(),
        url: schedule.url.clone(),
        frequency: schedule.frequency.clone(),
        weekday: schedule.weekday.and_then(|d| WEEKDAYS.get(usize::from(d))).map(|d| d.to_string()),
        time: format!("{:02}:{:02}", schedule.minute_of_day / 60, schedule.minute_of_day % 60),
        alert_score_drop: schedule.score_drop,
        state: schedule.state.clone(),
        next_run_at: (!paused).then(|| vocab::Timestamp::from(schedule.next_run_at)),
        created_at: vocab::Timestamp::from(schedule.created_at),
        runs: schedule.runs,
        last_run_at: schedule.last_run_at.map(vocab::Timestamp::from),
        last_crawl_id: schedule.last_crawl_id.clone(),
        last_error: schedule.last_error.clone(),
        last_change: schedule.last_change_json.as_deref().and_then(|j| serde_json::from_str(j).ok()),
        last_alerts: schedule.last_alert_json.as_deref().and_then(|j| serde_json::from_str(j).ok()).unwrap_or_default(),
    }
}

fn not_found(id: &str) -> AppError {
    AppError::refused(ErrorCode::NotFound, format!("No crawl schedule {id:?} of this key's owner."))
}

fn owned<T>(id: &str, found: Result<T, store::Error>) -> Result<T, AppError> {
    match found {
        Ok(t) => Ok(t),
        Err(e) if e.is_not_found() => Err(not_found(id)),
        Err(e) => Err(e.into()),
    }
}

/// The alerts a run's change raises: `new_critical` for new findings of a critical rule,
/// `score_drop` for a site score `threshold` points or more below the previous run's.
pub fn alerts(change: &api::crawls::CrawlChange, threshold: u32) -> Vec<(AlertRule, String)> {
    let mut out = Vec::new();
    let critical: Vec<String> = change
        .rules
        .iter()
        .filter(|r| r.severity == "critical" && r.new.total > 0)
        .map(|r| format!("{} ({} URL{})", r.id, r.new.total, if r.new.total == 1 { "" } else { "s" }))
        .collect();
    if !critical.is_empty() {
        out.push((
            AlertRule::NewCritical,
            format!("New critical findings since the previous run: {}.", critical.join(", ")),
        ));
    }
    if let (Some(delta), Some(now), Some(before)) =
        (change.site_score_change, change.crawl.site_score, change.against.site_score)
    {
        if delta <= -i64::from(threshold) {
            out.push((
                AlertRule::ScoreDrop,
                format!("The site score dropped by {} points since the previous run, from {before} to {now}.", -delta),
            ));
        }
    }
    out
}

/// The counts of a change the schedule keeps.
fn change_of(change: &api::crawls::CrawlChange) -> ScheduleChange {
    ScheduleChange {
        crawl_id: change.crawl.id.clone(),
        against_crawl_id: change.against.id.clone(),
        site_score_change: change.site_score_change,
        new_findings: change.new_findings,
        new_critical_findings: change.rules.iter().filter(|r| r.severity == "critical").map(|r| r.new.total).sum(),
        fixed_findings: change.fixed_findings,
        pages_added: change.pages_added.total,
        pages_gone: change.pages_gone.total,
    }
}

/// The crawl schedules of the service (see the module documentation). Cheap to clone.
#[derive(Debug, Clone)]
pub struct Schedules {
    crawls: Crawls,
    limiter: Arc<Limiter>,
    limits: RateLimits,
    /// This scheduler's name on the claims it holds, unique per process.
    worker: Arc<str>,
}

impl Schedules {
    /// The scheduler starting runs with `crawls`, charging them on `limiter` within `limits`
    /// (the service's one limiter, so a run counts against its key as a crawl started with
    /// it does).
    pub fn new(crawls: Crawls, limiter: Arc<Limiter>, limits: RateLimits) -> Schedules {
        let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4());
        Schedules { crawls, limiter, limits, worker: worker.into() }
    }

    fn app(&self) -> &crate::App {
        &self.crawls.app
    }

    /// Makes a schedule for the owner of `key` (each run charged to that key): the start URL
    /// checked as an audit's (`invalid_url`, without fetching it), at most
    /// [`MAX_SCHEDULES_PER_OWNER`] an owner (`invalid_request` past it).
    ///
    /// # Errors
    /// Those refusals, or the store.
    pub async fn create(&self, key: &store::KeyRecord, input: ScheduleInput) -> Result<store::CrawlSchedule, AppError> {
        let url = crate::validate_url(input.crawl.url.as_str())?;
        let request = CrawlRequest { url, ..input.crawl };
        let options_json = serde_json::to_string(&request).map_err(AppError::internal)?;
        let new = store::NewCrawlSchedule {
            user_id: key.user_id.clone(),
            key_id: key.id.clone(),
            url: request.url.to_string(),
            options_json,
            frequency: if input.cadence.weekday.is_some() { "weekly" } else { "daily" }.to_string(),
            weekday: input.cadence.weekday,
            minute_of_day: input.cadence.minute_of_day,
            score_drop: input.score_drop,
            next_run_at: input.cadence.next_after(OffsetDateTime::now_utc()),
        };
        self.app().db(move |s| s.create_crawl_schedule(new, MAX_SCHEDULES_PER_OWNER)).await?.ok_or_else(|| {
            AppError::refused(
                ErrorCode::InvalidRequest,
                format!(
                    "An owner may hold at most {MAX_SCHEDULES_PER_OWNER} crawl schedules; end one first \
                     (DELETE /api/v1/crawl-schedules/{{id}})."
                ),
            )
        })
    }

    /// The schedules of `owner`, oldest first.
    ///
    /// # Errors
    /// The store.
    pub async fn list(&self, owner: UserId) -> Result<Vec<store::CrawlSchedule>, AppError> {
        self.app().db(move |s| s.list_crawl_schedules(&owner)).await
    }

    /// Schedule `id` of `owner`.
    ///
    /// # Errors
    /// `not_found` (another owner's too), or the store.
    pub async fn get(&self, owner: UserId, id: ScheduleId) -> Result<store::CrawlSchedule, AppError> {
        let key = id.clone();
        owned(&id, self.app().db(move |s| Ok(s.get_crawl_schedule(&owner, &key))).await?)
    }

    /// Pauses schedule `id` of `owner`.
    ///
    /// # Errors
    /// `not_found`, or the store.
    pub async fn pause(&self, owner: UserId, id: ScheduleId) -> Result<store::CrawlSchedule, AppError> {
        let key = id.clone();
        owned(&id, self.app().db(move |s| Ok(s.set_crawl_schedule_state(&owner, &key, None))).await?)
    }

    /// Resumes schedule `id` of `owner`: its next run is its next time from now.
    ///
    /// # Errors
    /// `not_found`, or the store.
    pub async fn resume(&self, owner: UserId, id: ScheduleId) -> Result<store::CrawlSchedule, AppError> {
        let schedule = self.get(owner.clone(), id.clone()).await?;
        let next = Cadence::of(&schedule).next_after(OffsetDateTime::now_utc());
        let key = id.clone();
        owned(&id, self.app().db(move |s| Ok(s.set_crawl_schedule_state(&owner, &key, Some(next)))).await?)
    }

    /// Ends schedule `id` of `owner`: it is deleted; its crawls stay.
    ///
    /// # Errors
    /// `not_found`, or the store.
    pub async fn end(&self, owner: UserId, id: ScheduleId) -> Result<(), AppError> {
        let key = id.clone();
        owned(&id, self.app().db(move |s| Ok(s.delete_crawl_schedule(&owner, &key))).await?)
    }

    /// What the `schedule_crawl` agent tool asks of the schedules of `identity`'s owner: make
    /// one (its key needs the `audit` scope: each run is a crawl charged to it, which only
    /// such a key may start; the request checked as [`parse_schedule`] checks the REST body),
    /// list them, or pause, resume or end the one `args.schedule_id` names.
    ///
    /// # Errors
    /// `unauthorized` without a key, `forbidden` without the scope, `missing_parameter`
    /// without the id the action needs, and the refusals of each use case.
    pub async fn act(
        &self,
        app: &crate::App,
        identity: &Identity,
        args: api::schedules::ScheduleCrawlArgs,
    ) -> Result<api::schedules::ScheduleCrawlAnswer, AppError> {
        use api::schedules::{ScheduleAction as Action, ScheduleCrawlAnswer as Answer};
        let Identity::Key(key) = identity else {
            return Err(AppError::refused(ErrorCode::Unauthorized, "This tool needs an API key."));
        };
        let owner = key.user_id.clone();
        let id = || {
            let id = args.schedule_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(ScheduleId::from);
            id.ok_or_else(|| {
                AppError::refused(ErrorCode::MissingParameter, "The argument schedule_id is needed for this action.")
            })
        };
        let one = |s: store::CrawlSchedule| Answer::Schedule { schedule: Box::new(wire(&s)) };
        match args.action {
            Action::Create => {
                if !key.has_scope(crate::Scope::Audit) {
                    let message = "Scheduling a crawl needs an API key with the audit scope.";
                    return Err(AppError::refused(ErrorCode::Forbidden, message));
                }
                // The tool's arguments are the REST body's members, each of its one type.
                fn given<T>(value: Option<T>) -> api::body::Field<T> {
                    value.map_or(api::body::Field::Absent, api::body::Field::Given)
                }
                let request = api::schedules::ScheduleRequest {
                    crawl: given(args.crawl),
                    frequency: given(args.frequency),
                    time: given(args.time),
                    weekday: given(args.weekday),
                    alert_score_drop: given(args.alert_score_drop),
                };
                self.create(key, parse_schedule(request)?).await.map(one)
            }
            Action::List => {
                let list = self.list(owner).await?;
                Ok(Answer::List { schedules: list.iter().map(wire).collect() })
            }
            Action::Pause => self.pause(owner, id()?).await.map(one),
            Action::Resume => self.resume(owner, id()?).await.map(one),
            Action::End => {
                let id = id()?;
                self.end(owner, id.clone()).await?;
                Ok(Answer::Ended { deleted: id })
            }
            Action::Alerts => {
                let request = api::alerts::ListAlerts { source: args.source, cursor: args.cursor, limit: args.limit };
                let listing = app.list_alerts(owner, request).await?;
                Ok(Answer::Alerts { alerts: listing.alerts, next_cursor: listing.next_cursor })
            }
        }
    }

    /// Starts the scheduler of this replica; it stops when `stop` turns true.
    pub fn spawn(&self, mut stop: watch::Receiver<bool>) {
        let schedules = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(TICK) => {}
                    _ = stop.changed() => return,
                }
                if *stop.borrow() {
                    return;
                }
                schedules.tick().await;
            }
        });
    }

    /// One turn of the scheduler: the ended runs judged, then the due schedules claimed and
    /// their runs started (each in a task of its own). A schedule whose previous run has not
    /// ended and been judged is not claimed: its due run waits for it.
    pub async fn tick(&self) {
        self.judge_ended().await;
        let (worker, lease) = (self.worker.clone(), self.app().lease);
        let claimed = self
            .app()
            .db(move |s| {
                let now = OffsetDateTime::now_utc();
                s.claim_due_crawl_schedules(&worker, now, now + lease, CLAIM_BATCH)
            })
            .await;
        match claimed {
            Ok(due) => {
                for schedule in due {
                    let schedules = self.clone();
                    tokio::spawn(async move { schedules.run(schedule).await });
                }
            }
            Err(e) => tracing::warn!(error = %e, "due crawl schedules not claimed"),
        }
    }

    /// Starts the run of a schedule this replica claimed, renewing the claim meanwhile.
    async fn run(&self, schedule: store::CrawlSchedule) {
        let (app, lease) = (self.app().clone(), self.app().lease);
        let (id, worker) = (schedule.id.clone(), self.worker.clone());
        let heartbeat = crate::lease::Heartbeat::start(lease, move || {
            let (app, id, worker) = (app.clone(), id.clone(), worker.clone());
            async move {
                let until = OffsetDateTime::now_utc() + lease;
                app.db(move |s| s.renew_crawl_schedule(&id, &worker, until)).await.ok()
            }
        });
        let next = Cadence::of(&schedule).next_after(OffsetDateTime::now_utc());
        let started = self.start_run(&schedule, next).await;
        heartbeat.stop().await;
        let (id, worker) = (schedule.id.clone(), self.worker.clone());
        let written = match started {
            Ok(Some(crawl)) => {
                tracing::info!(schedule = %schedule.id, crawl = %crawl.id, "scheduled crawl started");
                Ok(())
            }
            // Paused, ended or taken over meanwhile: nothing was queued.
            Ok(None) => self.app().db(move |s| s.release_crawl_schedule(&id, &worker)).await,
            Err(e) => {
                tracing::info!(schedule = %schedule.id, code = e.code(), "scheduled crawl not started");
                let retry = if e.code() == ErrorCode::RateLimited.as_str() {
                    OffsetDateTime::now_utc() + QUOTA_RETRY
                } else {
                    next
                };
                let reason = format!("The run was not started ({}): {}", e.code(), e.message());
                self.app().db(move |s| s.skip_scheduled_run(&id, &worker, retry, &reason).map(drop)).await
            }
        };
        if let Err(e) = written {
            tracing::warn!(schedule = %schedule.id, error = %e, "crawl schedule not updated (its claim runs out)");
        }
    }

    /// The run's crawl, checked, charged and queued (`None`: the claim was lost, or the
    /// schedule paused or ended meanwhile).
    async fn start_run(
        &self,
        schedule: &store::CrawlSchedule,
        next: OffsetDateTime,
    ) -> Result<Option<store::Crawl>, AppError> {
        let key_id = schedule.key_id.clone();
        let key = match self.app().db(move |s| Ok(s.get_key(&key_id))).await? {
            Ok(key) => key,
            Err(e) if e.is_not_found() => {
                return Err(AppError::refused(ErrorCode::Forbidden, "The key that made this schedule is gone."))
            }
            Err(e) => return Err(e.into()),
        };
        if let Err(refusal) = crate::quota::check_key(&key, Some(crate::Scope::Audit), OffsetDateTime::now_utc()) {
            return Err(AppError::refused(
                ErrorCode::Forbidden,
                format!("The key that made this schedule may not crawl any more ({refusal:?})."),
            ));
        }
        let request: CrawlRequest = serde_json::from_str(&schedule.options_json).map_err(AppError::internal)?;
        crate::validate_url(request.url.as_str())?;
        let owner = key.user_id.clone();
        let payer = Payer::new(Identity::Key(Arc::new(key)), self.limiter.clone(), &self.limits);
        self.app().check_render(request.render)?;
        self.app().charge(&payer, crate::AuditOptions { render: request.render }.units()).await?;
        let limit = self.crawls.pages_limit(payer.identity().key());
        let prepared = self.crawls.prepare(request, Some(owner), limit, &payer.identity().label()).await?;
        let (id, worker) = (schedule.id.clone(), self.worker.clone());
        let crawl = self.app().db(move |s| s.queue_scheduled_crawl(&id, &worker, next, prepared.new)).await?;
        if crawl.is_some() {
            self.crawls.dispatch().await;
        }
        Ok(crawl)
    }

    /// Judges the runs that have ended since the last tick.
    async fn judge_ended(&self) {
        let ended = match self.app().db(|s| s.crawl_schedules_to_compare(CLAIM_BATCH)).await {
            Ok(ended) => ended,
            Err(e) => {
                tracing::warn!(error = %e, "ended scheduled crawls not read");
                return;
            }
        };
        for (schedule, crawl) in ended {
            if let Err(e) = self.judge(&schedule, crawl).await {
                // Tried again at the next tick.
                tracing::warn!(schedule = %schedule.id, error = %e, "scheduled crawl not compared");
            }
        }
    }

    /// Compares run `crawl` of `schedule` with the previous completed run and writes the
    /// change and its alerts, once.
    async fn judge(&self, schedule: &store::CrawlSchedule, crawl: store::Crawl) -> Result<(), AppError> {
        let completed = crawl.state == store::CrawlState::Completed;
        let baseline = if completed { Some(crawl.id.clone()) } else { schedule.baseline_crawl_id.clone() };
        let change = match (&schedule.baseline_crawl_id, completed) {
            (Some(previous), true) if *previous != crawl.id => {
                let previous = previous.clone();
                let current = crawl.clone();
                let facts = self
                    .app()
                    .db(move |s| match s.get_crawl(&previous) {
                        // A previous run pruned or deleted by retention is not compared.
                        Ok(before) if before.pages_pruned_at.is_none() => {
                            Ok(Some((CrawlFacts::read(s, current)?, CrawlFacts::read(s, before)?)))
                        }
                        Ok(_) => Ok(None),
                        Err(e) if e.is_not_found() => Ok(None),
                        Err(e) => Err(e),
                    })
                    .await?;
                match facts {
                    // The comparison grows with the crawls: the application's work.
                    Some((now, before)) => Some(self.app().compute(move |_| compare(&now, &before)).await?),
                    None => None,
                }
            }
            _ => None,
        };
        let raised = change.as_ref().map(|c| alerts(c, schedule.score_drop)).unwrap_or_default();
        let kept = change.as_ref().map(change_of);
        let now = vocab::Timestamp::now();
        let listed: Vec<ScheduleAlert> = raised
            .iter()
            .map(|(rule, message)| ScheduleAlert {
                rule: rule.name().to_string(),
                severity: rule.severity().to_string(),
                message: message.clone(),
                crawl_id: crawl.id.clone(),
                against_crawl_id: kept.as_ref().map(|c| c.against_crawl_id.clone()).unwrap_or_default(),
                created_at: now,
            })
            .collect();
        let events: Vec<Value> = listed
            .iter()
            .map(|a| {
                json!({
                    "scheduleId": schedule.id, "crawlId": a.crawl_id, "againstCrawlId": a.against_crawl_id,
                    "url": schedule.url, "rule": a.rule, "severity": a.severity, "message": a.message,
                    "change": kept,
                })
            })
            .collect();
        // The rows of the owner's alert list (docs/API.md, "Alerts"), beside the monitors'.
        let rows: Vec<store::NewScheduleAlert> = listed
            .iter()
            .map(|a| store::NewScheduleAlert {
                rule: a.rule.clone(),
                severity: a.severity.clone(),
                message: a.message.clone(),
            })
            .collect();
        let change_json = kept.as_ref().map(serde_json::to_string).transpose().map_err(AppError::internal)?;
        let alert_json =
            (!listed.is_empty()).then(|| serde_json::to_string(&listed)).transpose().map_err(AppError::internal)?;
        let (id, crawl_id) = (schedule.id.clone(), crawl.id.clone());
        let written = self
            .app()
            .db(move |s| {
                s.record_schedule_comparison(
                    &id,
                    &crawl_id,
                    baseline.as_deref(),
                    change_json.as_deref(),
                    alert_json.as_deref(),
                    &rows,
                    &events,
                )
            })
            .await?;
        for enqueued in written.unwrap_or_default() {
            self.app().events.enqueued(&enqueued);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_next_run_is_the_first_time_strictly_after() {
        // 2026-11-28 is a Saturday.
        let daily = Cadence { weekday: None, minute_of_day: 3 * 60 };
        assert_eq!(daily.next_after(datetime!(2026-11-28 02:59 UTC)), datetime!(2026-11-28 03:00 UTC));
        assert_eq!(daily.next_after(datetime!(2026-11-28 03:00 UTC)), datetime!(2026-11-29 03:00 UTC));
        assert_eq!(daily.next_after(datetime!(2026-12-31 23:00 UTC)), datetime!(2027-01-01 03:00 UTC));
        let monday = Cadence { weekday: Some(0), minute_of_day: 30 };
        assert_eq!(monday.next_after(datetime!(2026-11-28 12:00 UTC)), datetime!(2026-11-30 00:30 UTC));
        assert_eq!(monday.next_after(datetime!(2026-11-30 00:30 UTC)), datetime!(2026-12-07 00:30 UTC));
        assert_eq!(monday.next_after(datetime!(2026-11-30 00:29 UTC)), datetime!(2026-11-30 00:30 UTC));
        let saturday = Cadence { weekday: Some(5), minute_of_day: 23 * 60 + 59 };
        assert_eq!(saturday.next_after(datetime!(2026-11-28 12:00 +02:00)), datetime!(2026-11-28 23:59 UTC));
    }

    fn parse(body: Value) -> Result<ScheduleInput, AppError> {
        parse_schedule(api::body::parse(body.to_string().as_bytes())?)
    }

    fn refusal(body: Value) -> (String, String) {
        match parse(body.clone()) {
            Err(AppError::Refused(r)) => (
                r.code.as_str().to_string(),
                r.details.as_ref().and_then(|d| d["parameter"].as_str()).unwrap_or_default().to_string(),
            ),
            other => panic!("{body}: {other:?}"),
        }
    }

    #[test]
    fn a_schedule_request_is_read_and_each_fault_named() {
        let ok = parse(json!({"crawl": {"url": "https://a.test/", "max_pages": 5}, "frequency": "weekly",
            "time": "04:30", "weekday": "friday", "alert_score_drop": 10}))
        .unwrap();
        assert_eq!(ok.cadence, Cadence { weekday: Some(4), minute_of_day: 270 });
        assert_eq!((ok.score_drop, ok.crawl.max_pages), (10, Some(5)));
        let daily = parse(json!({"crawl": {"url": "https://a.test/"}, "frequency": "daily", "time": "00:00"})).unwrap();
        assert_eq!((daily.cadence.weekday, daily.score_drop), (None, DEFAULT_SCORE_DROP));
        let crawl = json!({"url": "https://a.test/"});
        for (body, code, member) in [
            (json!({"frequency": "daily", "time": "01:00"}), "missing_parameter", ""),
            (json!({"crawl": {}, "frequency": "daily", "time": "01:00"}), "missing_parameter", ""),
            (
                json!({"crawl": {"url": "x", "max_pages": 0}, "frequency": "daily", "time": "01:00"}),
                "invalid_request",
                "crawl.max_pages",
            ),
            (
                json!({"crawl": {"url": "x", "nope": 1}, "frequency": "daily", "time": "01:00"}),
                "invalid_request",
                "crawl.nope",
            ),
            (json!({"crawl": crawl, "frequency": "hourly", "time": "01:00"}), "invalid_request", "frequency"),
            (json!({"crawl": crawl, "frequency": "daily", "time": "24:00"}), "invalid_request", "time"),
            (json!({"crawl": crawl, "frequency": "daily", "time": "1:00"}), "invalid_request", "time"),
            (json!({"crawl": crawl, "frequency": "daily", "time": 100}), "invalid_request", "time"),
            (
                json!({"crawl": crawl, "frequency": "daily", "time": "01:00", "weekday": "monday"}),
                "invalid_request",
                "weekday",
            ),
            (json!({"crawl": crawl, "frequency": "weekly", "time": "01:00"}), "missing_parameter", ""),
            (
                json!({"crawl": crawl, "frequency": "weekly", "time": "01:00", "weekday": "someday"}),
                "invalid_request",
                "weekday",
            ),
            (
                json!({"crawl": crawl, "frequency": "daily", "time": "01:00", "alert_score_drop": 0}),
                "invalid_request",
                "alert_score_drop",
            ),
            (
                json!({"crawl": crawl, "frequency": "daily", "time": "01:00", "alert_score_drop": "5"}),
                "invalid_request",
                "alert_score_drop",
            ),
        ] {
            let (got_code, got_member) = refusal(body.clone());
            assert_eq!(got_code, code, "{body}");
            if !member.is_empty() {
                assert_eq!(got_member, member, "{body}");
            }
        }
        // An unknown member of the schedule itself.
        assert_eq!(
            refusal(json!({"crawl": crawl, "frequency": "daily", "time": "01:00", "every": 2})).0,
            "invalid_request"
        );
    }

    fn change(score: (u32, u32), critical_new: u64) -> api::crawls::CrawlChange {
        let side = |id: &str, s: u32| api::crawls::ComparedCrawl {
            id: id.into(),
            finished_at: None,
            site_score: Some(s),
            pages: 1,
        };
        let list = |total: u64| api::crawls::UrlList { urls: Vec::new(), total };
        api::crawls::CrawlChange {
            crawl: side("now", score.1),
            against: side("before", score.0),
            site_score_change: Some(i64::from(score.1) - i64::from(score.0)),
            rules: vec![
                api::crawls::RuleChange {
                    id: "made-up-critical-rule".into(),
                    kind: "site".into(),
                    severity: "critical".into(),
                    new: list(critical_new),
                    fixed: list(0),
                    still_failing: list(0),
                },
                api::crawls::RuleChange {
                    id: "made-up-warning-rule".into(),
                    kind: "page".into(),
                    severity: "warning".into(),
                    new: list(3),
                    fixed: list(0),
                    still_failing: list(0),
                },
            ],
            new_findings: critical_new + 3,
            fixed_findings: 0,
            pages_added: list(0),
            pages_gone: list(0),
            status_changes_total: 0,
            status_changes: Vec::new(),
            indexability_changes_total: 0,
            indexability_changes: Vec::new(),
        }
    }

    #[test]
    fn alerts_follow_new_critical_findings_and_the_threshold() {
        let names =
            |c: &api::crawls::CrawlChange, t: u32| alerts(c, t).into_iter().map(|a| a.0.name()).collect::<Vec<_>>();
        assert_eq!(names(&change((80, 80), 0), 5), Vec::<&str>::new(), "warnings alone raise nothing");
        assert_eq!(names(&change((80, 76), 0), 5), Vec::<&str>::new());
        assert_eq!(names(&change((80, 75), 0), 5), ["score_drop"]);
        assert_eq!(names(&change((80, 75), 0), 6), Vec::<&str>::new());
        assert_eq!(names(&change((80, 90), 2), 5), ["new_critical"]);
        let both = alerts(&change((90, 60), 1), 5);
        assert_eq!(both[0].1, "New critical findings since the previous run: made-up-critical-rule (1 URL).");
        assert_eq!(both[1].1, "The site score dropped by 30 points since the previous run, from 90 to 60.");
        assert_eq!(change_of(&change((90, 60), 2)).new_critical_findings, 2);
    }
}
