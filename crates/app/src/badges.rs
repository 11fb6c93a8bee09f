//! Background audits for domains that have no recent audit (docs/API.md, "GET /api/widget").
//!
//! When the badge or the report page of a domain finds no audit from the last 24 hours, it
//! shows "not audited" at once and asks [`BadgeQueue::enqueue`] for one audit of
//! `https://DOMAIN/` (the operator's `badge_audit_url` template). The request never
//! waits for the audit: enqueueing is a few map operations and a `try_send` on a bounded
//! channel, and a worker task started on first use runs the audits through
//! the one audit path ([`App::audit_background`]) and stores them like any other audit.
//!
//! What keeps a popular badge on an unaudited domain from turning into an audit storm:
//! - per domain, at most one audit is queued or running, and after it ends (stored or
//!   failed) the domain rests for [`BADGE_AUDIT_COOLDOWN`];
//! - all domains together get at most [`BADGE_AUDITS_PER_MINUTE`] audits a minute;
//! - the channel holds at most [`BADGE_QUEUE_CAPACITY`] waiting domains;
//! - at most [`BADGE_AUDIT_CONCURRENCY`] background audits run at once, each also holding
//!   one of the server-wide audit slots, so they share the machine with client audits;
//!   they are admitted only while the audit queue is less than half full (deferred up to
//!   [`BADGE_PATIENCE`], then dropped), so they never take the places clients need.
//!
//! A refused request is not remembered: the next badge view of that domain asks again.

pub mod params;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, Semaphore};

use crate::{App, AppError};

/// The URL audited for a domain by default (the `badge_audit_url` setting): `{domain}` is
/// replaced by the validated domain.
pub const DEFAULT_BADGE_AUDIT_URL: &str = "https://{domain}/";
/// Waiting domains the queue holds; more are refused until it drains.
pub const BADGE_QUEUE_CAPACITY: usize = 256;
/// How long a domain is not audited again after a background audit of it ended.
pub const BADGE_AUDIT_COOLDOWN: Duration = Duration::from_secs(10 * 60);
/// Background audits started per minute, all domains together.
pub const BADGE_AUDITS_PER_MINUTE: u32 = 30;
/// How long a background audit waits for room in the audit queue before it is dropped.
pub const BADGE_PATIENCE: Duration = Duration::from_secs(60);
/// Background audits running at the same time.
pub const BADGE_AUDIT_CONCURRENCY: usize = 2;
/// Past this many remembered domains, finished cool-downs are swept from the map.
const SWEEP_THRESHOLD: usize = 4096;

/// What [`BadgeQueue::enqueue`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// An audit of the domain was queued.
    Queued,
    /// An audit of the domain is already queued or running.
    Pending,
    /// The domain was audited in the background a short while ago.
    CoolingDown,
    /// The global per-minute budget of background audits is spent.
    RateLimited,
    /// The queue is full.
    QueueFull,
    /// Background audits are switched off (empty `badge_audit_url`), or the template does
    /// not give a valid URL for this domain.
    Disabled,
}

/// What the report page of a domain never audited tells of the queue.
impl From<Enqueued> for pages::report::Enqueued {
    fn from(e: Enqueued) -> Self {
        match e {
            Enqueued::Queued => pages::report::Enqueued::Queued,
            Enqueued::Pending => pages::report::Enqueued::Pending,
            Enqueued::CoolingDown => pages::report::Enqueued::CoolingDown,
            Enqueued::RateLimited => pages::report::Enqueued::RateLimited,
            Enqueued::QueueFull => pages::report::Enqueued::QueueFull,
            Enqueued::Disabled => pages::report::Enqueued::Disabled,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Entry {
    Pending,
    Ended(Instant),
}

/// The per-domain memory: pending, or ended at some instant.
#[derive(Debug, Default)]
struct Domains {
    entries: HashMap<String, Entry>,
}

impl Domains {
    /// Whether `domain` may be queued at `now`; marks it pending if so.
    fn claim(&mut self, domain: &str, now: Instant, cooldown: Duration) -> Result<(), Enqueued> {
        if self.entries.len() > SWEEP_THRESHOLD {
            self.entries.retain(|_, e| match e {
                Entry::Pending => true,
                Entry::Ended(at) => now.saturating_duration_since(*at) < cooldown,
            });
        }
        match self.entries.get(domain) {
            Some(Entry::Pending) => Err(Enqueued::Pending),
            Some(Entry::Ended(at)) if now.saturating_duration_since(*at) < cooldown => Err(Enqueued::CoolingDown),
            _ => {
                self.entries.insert(domain.to_string(), Entry::Pending);
                Ok(())
            }
        }
    }

    /// Gives a claim back (the audit was not queued after all).
    fn release(&mut self, domain: &str) {
        self.entries.remove(domain);
    }

    /// The audit of `domain` ended at `now`: the cool-down starts.
    fn ended(&mut self, domain: &str, now: Instant) {
        self.entries.insert(domain.to_string(), Entry::Ended(now));
    }
}

/// The budget of background audits: `budget(per_minute)` takes one audit from this minute's
/// `per_minute` ([`BADGE_AUDITS_PER_MINUTE`]), all domains together, and answers `false`
/// when they are spent. The server counts them on a rate limiter of its own.
pub type Budget = Box<dyn Fn(u32) -> bool + Send + Sync>;

/// The queue of background audits; one per service.
pub struct BadgeQueue {
    domains: Arc<Mutex<Domains>>,
    /// The channel to the worker, created with the worker on first use (so building the
    /// queue needs no runtime).
    sender: Mutex<Option<mpsc::Sender<String>>>,
    budget: Budget,
    worker: Worker,
}

impl std::fmt::Debug for BadgeQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BadgeQueue").field("template", &self.worker.template).finish_non_exhaustive()
    }
}

impl BadgeQueue {
    /// An empty queue auditing through `app` the URL `template` gives for a domain (see
    /// [`audit_url_for`]); `budget` grants the audits of each minute. Its worker starts
    /// with the first queued audit.
    pub fn new(app: App, template: String, budget: Budget) -> BadgeQueue {
        BadgeQueue { domains: Arc::default(), sender: Mutex::new(None), budget, worker: Worker { app, template } }
    }

    /// The score the badge of `domain` (validated and lower-cased) shows: that of the newest
    /// public audit of the domain in either `www.` form ([`App::newest_public_audit`]),
    /// clamped to 0..=100; `None` ("not audited") when it has none, in which case one
    /// background audit is asked for ([`BadgeQueue::enqueue`]) and the answer does not wait
    /// for it.
    ///
    /// # Errors
    /// The store failed.
    pub async fn badge_score(&self, domain: &str) -> Result<Option<u32>, AppError> {
        let audit = self.worker.app.newest_public_audit(pages::badge::domain_forms(domain)).await?;
        let score = audit.map(|a| u32::try_from(a.score.clamp(0, 100)).unwrap_or(0));
        if score.is_none() {
            self.enqueue(domain);
        }
        Ok(score)
    }

    /// The URL a background audit of `domain` would fetch (`None`: switched off).
    pub fn audit_url(&self, domain: &str) -> Option<url::Url> {
        audit_url_for(&self.worker.template, domain)
    }

    /// Queues one background audit of `domain` (already validated and lower-cased) unless
    /// one is pending, the domain is cooling down, or a limit says no. Never waits.
    pub fn enqueue(&self, domain: &str) -> Enqueued {
        if self.audit_url(domain).is_none() {
            return Enqueued::Disabled;
        }
        let now = Instant::now();
        if let Err(refused) = lock(&self.domains).claim(domain, now, BADGE_AUDIT_COOLDOWN) {
            return refused;
        }
        if !(self.budget)(BADGE_AUDITS_PER_MINUTE) {
            lock(&self.domains).release(domain);
            return Enqueued::RateLimited;
        }
        let sent = {
            let mut sender = lock(&self.sender);
            let tx = sender.get_or_insert_with(|| self.start_worker());
            tx.try_send(domain.to_string())
        };
        match sent {
            Ok(()) => {
                tracing::info!(domain, "background audit queued");
                Enqueued::Queued
            }
            Err(_) => {
                lock(&self.domains).release(domain);
                tracing::warn!(domain, "background audit queue full");
                Enqueued::QueueFull
            }
        }
    }

    /// Spawns the worker. It holds what audits need but not the queue itself, so it ends
    /// when the queue (and with it the sender) is dropped.
    fn start_worker(&self) -> mpsc::Sender<String> {
        let (tx, mut rx) = mpsc::channel::<String>(BADGE_QUEUE_CAPACITY);
        let domains = self.domains.clone();
        let worker = self.worker.clone();
        tokio::spawn(async move {
            let running = Arc::new(Semaphore::new(BADGE_AUDIT_CONCURRENCY));
            while let Some(domain) = rx.recv().await {
                let Ok(permit) = running.clone().acquire_owned().await else { break };
                let worker = worker.clone();
                let domains = domains.clone();
                tokio::spawn(async move {
                    worker.audit(&domain).await;
                    lock(&domains).ended(&domain, Instant::now());
                    drop(permit);
                });
            }
        });
        tx
    }
}

/// What a background audit needs.
#[derive(Clone)]
struct Worker {
    app: App,
    template: String,
}

impl Worker {
    async fn audit(&self, domain: &str) {
        let Some(url) = audit_url_for(&self.template, domain) else { return };
        // Background work through the one audit path: admitted only while clients leave room
        // in the queue; nobody owns it, so it fires no event and the public pages may show it.
        match self.app.audit_background(&url, None, BADGE_PATIENCE).await {
            Ok(done) => match done.stored {
                Some(stored) => tracing::info!(domain, url = %url, score = stored.score, "background audit stored"),
                None => tracing::error!(domain, url = %url, "background audit not stored"),
            },
            Err(AppError::Overloaded) => tracing::warn!(domain, "background audit dropped: audit queue busy"),
            Err(e) => tracing::warn!(domain, url = %url, error = %e, "background audit failed"),
        }
    }
}

/// The URL a background audit of `domain` fetches: the template with `{domain}` replaced,
/// when that is a valid audit URL. An empty template switches background audits off.
pub fn audit_url_for(template: &str, domain: &str) -> Option<url::Url> {
    if template.trim().is_empty() {
        return None;
    }
    fetch::validate_url(&template.replace("{domain}", domain)).ok()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(d: &mut Domains, domain: &str, at: Instant, expected: Result<(), Enqueued>) {
        assert_eq!(d.claim(domain, at, Duration::from_secs(600)), expected, "{domain}");
    }

    #[test]
    fn one_audit_per_domain_then_a_cool_down() {
        let t0 = Instant::now();
        let mut d = Domains::default();
        check(&mut d, "a.example", t0, Ok(()));
        check(&mut d, "a.example", t0, Err(Enqueued::Pending));
        check(&mut d, "b.example", t0, Ok(()));
        d.ended("a.example", t0 + Duration::from_secs(5));
        check(&mut d, "a.example", t0 + Duration::from_secs(10), Err(Enqueued::CoolingDown));
        check(&mut d, "a.example", t0 + Duration::from_secs(605), Ok(()));
        d.release("b.example");
        check(&mut d, "b.example", t0, Ok(()));
    }

    #[test]
    fn audit_urls() {
        let url = |t: &str, d: &str| audit_url_for(t, d).map(|u| u.to_string());
        assert_eq!(url("https://{domain}/", "example.com").as_deref(), Some("https://example.com/"));
        assert_eq!(url("http://{domain}:8081/", "localhost").as_deref(), Some("http://localhost:8081/"));
        assert_eq!(url("", "example.com"), None);
        assert_eq!(url("ftp://{domain}/", "example.com"), None);
    }
}
