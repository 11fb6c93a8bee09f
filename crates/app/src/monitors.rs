//! Monitoring: a task of the service re-audits monitored pages when they are due, compares
//! each audit with the previous one of the page, stores alerts and sends them to the
//! owner's `monitor.alert` webhooks (docs/API.md, "Monitoring").
//!
//! Alert rules ([`AlertRule`]):
//! - `score_drop` (warning): the score fell by [`SCORE_DROP`] points or more;
//! - `new_critical` (critical): a critical issue that the previous audit did not have;
//! - `status_not_2xx` (critical): the page answers a status outside 200..=299 (raised when
//!   it starts; not again while it lasts);
//! - `unreachable` (critical): the page could not be fetched at all (raised at every
//!   failed check, since a failed check stores no audit to compare with).
//!
//! Monitoring obeys robots.txt, unlike an on-demand audit: before each check
//! the site's robots.txt is read (through the fetcher's per-origin cache) and the page is not
//! fetched when it disallows [`CRAWLER`] (by name or through the `*` group), or when it
//! answers 5xx or does not answer, which RFC 9309 §2.3.1.4 treats as a complete disallow.
//! Such a check raises `unreachable` with the reason and stores no audit; a robots.txt that
//! answers 4xx allows everything.
//!
//! A monitor is claimed before it is checked: the claim moves its next run to the end of a
//! lease ([`crate::Setup::lease`]), renewed while the check runs, so no other replica (and
//! no later tick) starts it twice; the check then sets the next run one interval on. A
//! replica killed mid-check leaves the monitor due again when the lease runs out
//! (docs/ARCHITECTURE.md, "Replicas").

use std::time::Duration;

use serde_json::{json, Value};
use time::OffsetDateTime;
use tokio::sync::watch;
use vocab::{MonitorId, UserId};

use crate::{App, AppError, StoredResult};

mod report;
pub use report::{AlertView, MonitorReport, RuleView, SeverityBreakdown};

/// The product token monitoring answers to in robots.txt (the user agent is
/// `SeoAuditBot/<version> (+<base_url>/bot)`).
pub const CRAWLER: &str = "SeoAuditBot";

/// What the page `GET /bot` says about the bot (docs/API.md, "GET /bot"): its fetcher's
/// limits, how often monitoring checks a page, and whether badges audit in the background.
pub fn bot_facts(fetch: &fetch::FetchConfig, monitor_interval_s: u64, badge_audits: bool) -> pages::bot::BotFacts {
    pages::bot::BotFacts {
        product_token: CRAWLER.to_string(),
        user_agent: fetch.user_agent(),
        base_url: fetch.base_url.trim_end_matches('/').to_string(),
        connect_timeout: fetch.connect_timeout,
        total_timeout: fetch.total_timeout,
        max_body_bytes: fetch.max_body_bytes,
        max_redirects: fetch.max_redirects,
        text_timeout: fetch.text_timeout,
        text_max_bytes: fetch.text_max_bytes,
        monitor_interval_s,
        crawl_in_flight: crawl::DEFAULT_MAX_IN_FLIGHT,
        crawl_max_delay: crawl::MAX_CRAWL_DELAY,
        badge_audits: badge_audits.then_some(crate::badges::BADGE_AUDIT_COOLDOWN),
    }
}

/// Points of score drop that raise an alert.
pub const SCORE_DROP: i64 = 5;
/// How often the scheduler looks for due monitors.
pub const TICK: Duration = Duration::from_millis(500);
/// Monitors one tick claims at most (the rest stay due for the next tick or replica).
pub const CLAIM_BATCH: usize = 32;

/// The alert rules of monitoring (docs/API.md, "Monitoring"), by their stored names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum AlertRule {
    /// The score dropped by [`SCORE_DROP`] points or more.
    ScoreDrop,
    /// A critical issue appeared.
    NewCritical,
    /// The page answered outside 200-299.
    #[strum(serialize = "status_not_2xx")]
    StatusNot2xx,
    /// The page could not be fetched, or robots.txt disallows it.
    Unreachable,
}

impl AlertRule {
    /// The stored and shown name.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The severity of its alerts.
    pub fn severity(self) -> &'static str {
        match self {
            AlertRule::ScoreDrop => "warning",
            AlertRule::NewCritical | AlertRule::StatusNot2xx | AlertRule::Unreachable => "critical",
        }
    }

    /// What it watches, as monitor_site reports it.
    pub fn description(self) -> &'static str {
        match self {
            AlertRule::ScoreDrop => "The score dropped by 5 points or more since the previous audit.",
            AlertRule::NewCritical => "A critical issue appeared that the previous audit did not have.",
            AlertRule::StatusNot2xx => "The page answered with an HTTP status outside 200-299.",
            AlertRule::Unreachable => {
                "The page could not be fetched (DNS, connection, TLS, timeout, blocked address, or robots.txt disallows SeoAuditBot)."
            }
        }
    }
}

/// The monitors of the service: checks due pages, and finds or makes a key owner's monitor.
/// Cheap to clone.
#[derive(Debug, Clone)]
pub struct Monitors {
    app: App,
    /// Seconds between two checks of a new monitor.
    interval_s: u32,
}

impl Monitors {
    /// Monitors over `app`, checking new monitors every `interval_s` seconds (at least 1).
    pub fn new(app: App, interval_s: u64) -> Monitors {
        Monitors { app, interval_s: u32::try_from(interval_s.max(1)).unwrap_or(u32::MAX) }
    }

    /// Starts the scheduler; it stops when `stop` turns true.
    pub fn spawn(&self, mut stop: watch::Receiver<bool>) {
        let monitors = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(TICK) => {}
                    _ = stop.changed() => return,
                }
                if *stop.borrow() {
                    return;
                }
                let lease = monitors.app.lease;
                let claimed = monitors
                    .app
                    .db(move |s| {
                        let now = OffsetDateTime::now_utc();
                        s.claim_due_monitors(now, now + lease, CLAIM_BATCH)
                    })
                    .await;
                let due = match claimed {
                    Ok(due) => due,
                    Err(e) => {
                        tracing::warn!(error = %e, "due monitors not claimed");
                        continue;
                    }
                };
                for monitor in due {
                    let monitors = monitors.clone();
                    tokio::spawn(async move { monitors.check_claimed(&monitor).await });
                }
            }
        });
    }

    /// The owner's monitor of `url`, created (due one interval from now) when there is
    /// none; the flag says whether it was created.
    ///
    /// # Errors
    /// The store failed.
    pub async fn ensure(&self, user_id: &UserId, url: &str) -> Result<(store::Monitor, bool), AppError> {
        let (user, url) = (user_id.clone(), url.to_string());
        let interval = self.interval_s;
        self.app
            .db(move |s| {
                let held = s.list_monitors(&user)?;
                if let Some(m) = held.iter().find(|m| m.url == url) {
                    return Ok(Some((m.clone(), false)));
                }
                if held.len() >= MAX_MONITORS_PER_USER {
                    return Ok(None);
                }
                let next = OffsetDateTime::now_utc() + time::Duration::seconds(i64::from(interval));
                match s.create_monitor(&user, &url, interval, next) {
                    Ok(m) => Ok(Some((m, true))),
                    // A concurrent call created it first.
                    Err(e) if e.is_conflict() => {
                        s.list_monitors(&user)?.into_iter().find(|m| m.url == url).map(|m| Some((m, false))).ok_or(e)
                    }
                    Err(e) => Err(e),
                }
            })
            .await?
            .ok_or_else(too_many_monitors)
    }

    /// Refuses, before anything is audited, a new monitor of `url` for an owner who holds
    /// [`MAX_MONITORS_PER_USER`] already.
    async fn check_room(&self, user_id: &UserId, url: &str) -> Result<(), AppError> {
        let (user, url) = (user_id.clone(), url.to_string());
        let room = self
            .app
            .db(move |s| {
                let held = s.list_monitors(&user)?;
                Ok(held.len() < MAX_MONITORS_PER_USER || held.iter().any(|m| m.url == url))
            })
            .await?;
        if room {
            Ok(())
        } else {
            Err(too_many_monitors())
        }
    }

    /// [`Monitors::check`] of a monitor this replica claimed: the claim is renewed while the
    /// check runs, then the next run is set one interval after the check ends.
    async fn check_claimed(&self, monitor: &store::Monitor) {
        let lease = self.app.lease;
        let (app, id) = (self.app.clone(), monitor.id.clone());
        let heartbeat = crate::lease::Heartbeat::start(lease, move || {
            let (app, id) = (app.clone(), id.clone());
            async move {
                let until = OffsetDateTime::now_utc() + lease;
                // A deleted monitor has nothing left to hold.
                app.db(move |s| Ok(s.reschedule_monitor(&id, until).is_ok())).await.ok()
            }
        });
        self.check(monitor).await;
        heartbeat.stop().await;
        let (id, interval) = (monitor.id.clone(), i64::from(monitor.interval_s));
        let next = OffsetDateTime::now_utc() + time::Duration::seconds(interval);
        match self.app.db(move |s| s.reschedule_monitor(&id, next)).await {
            Err(AppError::Store(e)) if e.is_not_found() => {}
            Err(e) => tracing::error!(monitor = %monitor.id, error = %e, "monitor not rescheduled"),
            Ok(()) => {}
        }
    }

    /// Re-audits one monitored page and raises the alerts its rules call for.
    pub async fn check(&self, monitor: &store::Monitor) {
        let app = &self.app;
        app.observer().monitor_run();
        let url = monitor.url.clone();
        let previous = app.db(move |s| s.latest_audit_for_url(&url)).await.ok().flatten();
        let alerts = match fetch::validate_url(&monitor.url) {
            Err(e) => vec![unreachable(&e.into())],
            Ok(url) => match robots_refusal(app, &url).await {
                Some(reason) => vec![(
                    AlertRule::Unreachable,
                    format!("The page was not fetched: {reason}; monitoring obeys robots.txt (robots_disallowed)."),
                )],
                None => match app.audit_and_store(&url, &monitor.user_id).await.map(|(stored, _)| stored) {
                    Ok(current) => alerts(previous.as_ref(), &current),
                    // The service was too busy for background work the whole while: the page
                    // is not at fault, so no alert; the next scheduled check tries again.
                    Err(AppError::Overloaded) => {
                        tracing::warn!(monitor = %monitor.id, "monitor check skipped: audit queue busy");
                        Vec::new()
                    }
                    // The page answered (or did not): that is what the alert is about.
                    Err(e @ AppError::Fetch(_)) => vec![unreachable(&e)],
                    // The service's own failure (store, engine): logged, no alert.
                    Err(e) => {
                        tracing::error!(monitor = %monitor.id, error = %e, "monitor check failed");
                        Vec::new()
                    }
                },
            },
        };
        for (rule, message) in alerts {
            let (rule, severity) = (rule.name(), rule.severity());
            // The alert and its `monitor.alert` event are written in one transaction.
            let (id, url, m) = (monitor.id.clone(), monitor.url.clone(), message.clone());
            let data = move |alert: &store::Alert| {
                json!({
                    "monitorId": id, "url": url, "alertId": alert.id,
                    "rule": rule, "severity": severity, "message": message,
                })
            };
            let id = monitor.id.clone();
            match app.db(move |s| s.insert_alert_with_event(&id, rule, severity, &m, data)).await {
                Ok((_, enqueued)) => app.events.enqueued(&enqueued),
                Err(e) => tracing::error!(monitor = %monitor.id, error = %e, "alert not stored"),
            }
        }
    }
}

/// Alerts the report of [`Monitors::watch_page`] lists at most.
pub const RECENT_ALERTS: usize = 20;

/// Monitors one owner may hold at most (docs/API.md, "Monitoring"; docs/SECURITY.md): each
/// costs an audit per interval, paid by the service, not by the owner's quota.
pub const MAX_MONITORS_PER_USER: usize = 100;

/// The refusal of a monitor over [`MAX_MONITORS_PER_USER`].
fn too_many_monitors() -> AppError {
    AppError::refused(
        crate::ErrorCode::InvalidRequest,
        format!("An owner may hold at most {MAX_MONITORS_PER_USER} monitors; stop one first (DELETE /api/v1/monitors/{{id}})."),
    )
}

/// A failed step of [`Monitors::watch_page`]: its error, and what it concerned (`monitor`,
/// `alerts`, or the page's URL when its first audit failed) for the monitor_site tool's
/// error text.
#[derive(Debug)]
pub struct WatchError {
    /// The step's error.
    pub error: AppError,
    /// What it concerned.
    pub what: String,
}

impl Monitors {
    /// The monitor_site report of the owner's monitor of `url`, created when there is none:
    /// a page never audited is audited once now, so the first report has a breakdown.
    ///
    /// # Errors
    /// The step that failed ([`WatchError`]).
    pub async fn watch_page(&self, user_id: &UserId, url: &url::Url) -> Result<MonitorReport, WatchError> {
        let fail = |what: &str| {
            let what = what.to_string();
            move |error| WatchError { error, what }
        };
        let app = &self.app;
        self.check_room(user_id, url.as_str()).await.map_err(fail("monitor"))?;
        let latest = match app.latest_audit(url.to_string()).await.map_err(fail("monitor"))? {
            Some(a) => a,
            None => app.audit_and_store(url, user_id).await.map_err(fail(url.as_str()))?.0,
        };
        let (monitor, created) = self.ensure(user_id, url.as_str()).await.map_err(fail("monitor"))?;
        let alerts = app.recent_alerts(monitor.id.clone(), RECENT_ALERTS).await.map_err(fail("alerts"))?;
        // A monitor check may have stored an audit (and raised the alerts just read) since
        // `latest` was read: report the newest audit, so its issue counts and the alerts agree.
        let latest = app.latest_audit(url.to_string()).await.ok().flatten().unwrap_or(latest);
        Ok(MonitorReport::of(&monitor, created, &alerts, &latest))
    }
}

/// A monitor of a key owner as `GET /api/v1/monitors` lists it (docs/API.md, "Managing
/// what a key created").
#[derive(Debug, Clone)]
pub struct OwnedMonitor {
    /// The monitor.
    pub monitor: store::Monitor,
    /// When its latest scheduled check started: a check reschedules the monitor one
    /// interval ahead as it starts, so this is `next_run_at` less one interval; `None`
    /// before the first check.
    pub last_checked_at: Option<OffsetDateTime>,
    /// Its newest alert.
    pub last_alert: Option<store::Alert>,
}

impl OwnedMonitor {
    /// The monitor as `GET /api/v1/monitors` lists it on the wire.
    pub fn wire(&self) -> api::Monitor {
        use strum::VariantArray as _;
        api::Monitor {
            id: self.monitor.id.clone(),
            url: self.monitor.url.clone(),
            interval_seconds: self.monitor.interval_s,
            created_at: self.monitor.created_at.into(),
            last_checked_at: self.last_checked_at.map(vocab::Timestamp::from),
            next_run_at: self.monitor.next_run_at.into(),
            rules: AlertRule::VARIANTS.iter().map(|r| r.name()).collect(),
            last_alert: self.last_alert.as_ref().map(|a| api::MonitorAlert {
                id: a.id.clone(),
                rule: a.rule.clone(),
                severity: a.severity.clone(),
                message: a.message.clone(),
                created_at: a.created_at.into(),
            }),
        }
    }
}

impl App {
    /// The monitors of `user_id`, oldest first.
    ///
    /// # Errors
    /// The store failed.
    pub async fn owned_monitors(&self, user_id: UserId) -> Result<Vec<OwnedMonitor>, AppError> {
        self.db(move |s| {
            s.list_monitors(&user_id)?
                .into_iter()
                .map(|monitor| {
                    let last_alert = s.recent_alerts(&monitor.id, 1)?.into_iter().next();
                    let started = monitor.next_run_at - time::Duration::seconds(i64::from(monitor.interval_s));
                    let last_checked_at = (started > monitor.created_at).then_some(started);
                    Ok(OwnedMonitor { monitor, last_checked_at, last_alert })
                })
                .collect()
        })
        .await
    }

    /// Stops monitor `id` of `user_id`: it is deleted with its alerts, so the scheduler
    /// never checks it again (a check already under way finishes, and its alerts are not
    /// stored).
    ///
    /// # Errors
    /// `not_found` when `user_id` holds no such monitor (another owner's id is answered
    /// exactly as an unknown one); the store failed.
    pub async fn stop_monitor(&self, user_id: UserId, id: MonitorId) -> Result<(), AppError> {
        let monitor = id.clone();
        match self.db(move |s| Ok(s.delete_monitor(&user_id, &monitor))).await? {
            Ok(()) => Ok(()),
            Err(e) if e.is_not_found() => {
                Err(AppError::refused(crate::ErrorCode::NotFound, format!("No monitor {id}.")))
            }
            Err(e) => Err(e.into()),
        }
    }
}

impl App {
    /// Stops the monitor of `url` of `user_id` (monitor_site's `stop` action), as
    /// [`App::stop_monitor`] does.
    ///
    /// # Errors
    /// `not_found` when the owner does not monitor that page; the store's failure.
    pub async fn stop_monitor_of(&self, user_id: UserId, url: &url::Url) -> Result<MonitorStopped, AppError> {
        let page = url.to_string();
        let stopped = self.db(move |s| {
            let Some(monitor) = s.list_monitors(&user_id)?.into_iter().find(|m| m.url == page) else {
                return Ok(None);
            };
            match s.delete_monitor(&user_id, &monitor.id) {
                Ok(()) => Ok(Some(monitor)),
                // Stopped by a concurrent call.
                Err(e) if e.is_not_found() => Ok(None),
                Err(e) => Err(e),
            }
        });
        match stopped.await? {
            Some(m) => Ok(MonitorStopped { monitor_id: m.id, url: m.url, stopped: true }),
            None => {
                let message = format!("No monitor of {url} for this API key's owner.");
                Err(AppError::refused(crate::ErrorCode::NotFound, message))
            }
        }
    }
}

/// What monitor_site does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MonitorAction {
    /// Monitor the page (made when it is not yet) and report on it.
    #[default]
    Watch,
    /// Stop monitoring the page: the monitor and its alerts are deleted.
    Stop,
}

/// A monitor monitor_site's `stop` action ended.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MonitorStopped {
    /// The stopped monitor's id.
    #[schemars(with = "String")]
    pub monitor_id: MonitorId,
    /// The page no longer monitored.
    pub url: String,
    /// Always true.
    pub stopped: bool,
}

/// Why robots.txt keeps the monitor away from `url`, or `None` when it may fetch it (read
/// as every audit reads it: [`crate::pipeline::site_robots`]).
async fn robots_refusal(app: &App, url: &url::Url) -> Option<String> {
    let robots = crate::pipeline::site_robots_off_worker(app.fetcher.fetch_robots_txt(url).await).await?;
    let verdict = robots.verdict(CRAWLER, url.as_str());
    if verdict.allowed {
        return None;
    }
    Some(match robots.unreachable_reason() {
        Some(reason) => {
            format!("robots.txt could not be read ({reason}), which RFC 9309 treats as a complete disallow")
        }
        None => {
            let rule = verdict.matched_rule.map(|rule| format!(" (`{rule}`)")).unwrap_or_default();
            format!("robots.txt disallows {CRAWLER} from {}{rule}", url.path())
        }
    })
}

/// An alert to raise: its rule and its message.
pub type Raised = (AlertRule, String);

fn unreachable(e: &AppError) -> Raised {
    (
        AlertRule::Unreachable,
        // The failure's own sentences follow the code (docs/API.md, "Errors").
        format!("The page could not be audited ({}). {}", e.code(), e.message()),
    )
}

fn criticals(result: &StoredResult) -> Vec<String> {
    result.of_severity("critical").map(|r| if r.id.is_empty() { r.title.clone() } else { r.id.clone() }).collect()
}

/// The alerts raised by `current` after `previous` (none before the first comparison,
/// except a non-2xx status).
pub fn alerts(previous: Option<&store::StoredAudit>, current: &store::StoredAudit) -> Vec<Raised> {
    let now = StoredResult::of(current);
    let before = previous.map(StoredResult::of);
    let mut out = Vec::new();
    if !now.is_2xx() && before.as_ref().is_none_or(StoredResult::is_2xx) {
        let status = now.result.page.status_code;
        out.push((AlertRule::StatusNot2xx, format!("The page answered with HTTP status {status}.")));
    }
    let Some((previous, before)) = previous.zip(before) else { return out };
    let drop = previous.score - current.score;
    if drop >= SCORE_DROP {
        out.push((
            AlertRule::ScoreDrop,
            format!("The score dropped by {drop} points, from {} to {}.", previous.score, current.score),
        ));
    }
    // The one comparison: a critical rule failing now that did not fail before.
    let diff = crate::Comparison::of(&before.result, &now.result);
    let new: Vec<String> =
        criticals(&now).into_iter().filter(|id| diff.failing_only_in_b.iter().any(|f| f == id)).collect();
    if !new.is_empty() {
        out.push((AlertRule::NewCritical, format!("New critical issue(s): {}.", new.join(", "))));
    }
    out
}

/// The alert rules as monitor_site reports them.
pub fn rules_json() -> Vec<Value> {
    use strum::VariantArray as _;
    AlertRule::VARIANTS.iter().map(|r| json!({ "rule": r.name(), "description": r.description() })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit(score: i64, status: u16, critical: &[&str]) -> store::StoredAudit {
        let recs: Vec<Value> = critical.iter().map(|id| json!({ "id": id, "type": "critical" })).collect();
        store::StoredAudit {
            id: "a".into(),
            url: "https://e.example/".into(),
            final_url: "https://e.example/".into(),
            host: "e.example".into(),
            score,
            ruleset_version: "1".into(),
            result_json: json!({ "page": { "status_code": status }, "recommendations": recs }).to_string(),
            user_id: None,
            public: true,
            created_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn check_rules(previous: Option<store::StoredAudit>, current: store::StoredAudit, expected: &[&str]) {
        let got: Vec<&str> = alerts(previous.as_ref(), &current).into_iter().map(|(r, _)| r.name()).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn alert_rules() {
        check_rules(None, audit(80, 200, &["x"]), &[]);
        check_rules(None, audit(80, 500, &[]), &["status_not_2xx"]);
        check_rules(Some(audit(80, 200, &[])), audit(76, 200, &[]), &[]);
        check_rules(Some(audit(80, 200, &[])), audit(75, 200, &[]), &["score_drop"]);
        check_rules(Some(audit(80, 200, &["a"])), audit(80, 200, &["a"]), &[]);
        check_rules(Some(audit(80, 200, &["a"])), audit(80, 200, &["a", "b"]), &["new_critical"]);
        check_rules(
            Some(audit(90, 200, &[])),
            audit(60, 404, &["s"]),
            &["status_not_2xx", "score_drop", "new_critical"],
        );
        // Still failing: not raised again.
        check_rules(Some(audit(60, 404, &[])), audit(60, 404, &[]), &[]);
    }

    #[test]
    fn an_unreachable_page_is_told_in_the_fetchers_words() {
        let e = AppError::Fetch(fetch::Error::Dns {
            host: "gone.invalid".into(),
            failure: fetch::DnsFailure::Reserved,
            detail: String::new(),
        });
        let (rule, message) = unreachable(&e);
        assert_eq!(rule, AlertRule::Unreachable);
        assert_eq!(
            message,
            "The page could not be audited (target_unreachable). Name lookup failed: gone.invalid is under \
             .invalid, a domain that never resolves."
        );
    }
}
