//! Politeness across crawls and replicas (docs/API.md, "Site crawl", "Politeness"): at most
//! [`MAX_PER_HOST`] requests in flight to one host from every crawl together, a robots.txt
//! `Crawl-delay` spacing the starts of every crawl's requests to the host, and a `429` or
//! `503` answer holding the host back for all of them ([`retry_wait`]).
//!
//! A crawl's frontier bounds its own requests ([`crawl::Limits`]); two crawls of one host
//! would each take that many. The [`HostPacer`] is the bound they share: in memory when
//! the service runs as one process (SQLite), in the database when replicas share one
//! (PostgreSQL: a row per request in flight, with an expiry so that a killed replica's
//! slots come back, and the host's next allowed start; `store::Store::claim_host_slot`).
//! A request waits for a slot of its host, then for the host's next allowed start, and
//! gives its slot back when it has its answer (before the page is analysed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use url::Url;

/// Requests in flight to one host at most, every crawl of every replica together.
pub const MAX_PER_HOST: usize = crawl::DEFAULT_MAX_IN_FLIGHT;

/// The first back-off after a `429` or `503` without a `Retry-After`; it doubles with each
/// retry of the page. Also the shortest wait a `Retry-After` gives.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// The longest a `Retry-After` (or the back-off) holds a host back.
pub const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Times a page that answered `429` or `503` is asked for again, at most.
pub const MAX_RETRIES: u32 = 2;

/// How long the first wait for a free slot in the database lasts before asking again; it
/// doubles up to [`MAX_POLL`], so that waiting replicas do not hammer the database.
const FIRST_POLL: Duration = Duration::from_millis(20);

/// The longest wait between two asks for a free slot in the database.
const MAX_POLL: Duration = Duration::from_millis(500);

/// What is added to the fetcher's own time limit to make a slot's expiry: a slot outlives
/// any request it covers, and comes back that long after its replica died. The request
/// starts as soon as its slot is taken and ends within the fetcher's limit, so the margin
/// covers only the clocks of replicas that disagree (by well under a second where they keep
/// time) and a late release; the slots of a killed replica hold its hosts back for no
/// longer than the limit and this margin (was 30 s: a crawl taken over from a dead replica
/// then waited 45 s before its first request).
const SLOT_MARGIN: Duration = Duration::from_secs(5);

/// Hosts a process keeps pacing state for before it forgets the idle ones.
const MAX_LOCAL_HOSTS: usize = 1_000;

/// How long to hold a host back after it answered `429` or `503` on the `attempt`-th retry
/// (0 first): its `Retry-After` (seconds or an HTTP date), otherwise [`FIRST_BACKOFF`]
/// doubled per attempt; never less than [`FIRST_BACKOFF`] nor more than [`MAX_BACKOFF`].
pub fn retry_wait(retry_after: Option<&str>, attempt: u32, now: SystemTime) -> Duration {
    retry_after
        .and_then(|value| parse_retry_after(value, now))
        .unwrap_or_else(|| FIRST_BACKOFF.saturating_mul(1u32 << attempt.min(16)))
        .clamp(FIRST_BACKOFF, MAX_BACKOFF)
}

/// A `Retry-After` value (RFC 9110, 10.2.3): a number of seconds, or an HTTP date (a date
/// already past is no wait); `None` when it is neither.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The key a host is paced under: its name in lower case, without a leading `www.` (a site
/// and its `www.` twin are one server, as the frontier counts them), ports aside.
pub fn host_key(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    match host.strip_prefix("www.") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => host,
    }
}

/// The pacer shared by the crawls of a process: cheap to clone (see the module
/// documentation).
#[derive(Clone)]
pub struct HostPacer {
    local: Arc<LocalPacer>,
    shared: Option<Shared>,
    /// Requests in flight per host at most ([`MAX_PER_HOST`] but on the command line).
    per_host: usize,
}

impl std::fmt::Debug for HostPacer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostPacer").field("shared", &self.shared.is_some()).finish_non_exhaustive()
    }
}

/// The database's part of a replica's pacer.
#[derive(Clone)]
struct Shared {
    store: store::Store,
    holder: Arc<str>,
    slot_for: Duration,
}

#[derive(Default)]
struct LocalPacer {
    hosts: Mutex<HashMap<String, Arc<LocalHost>>>,
}

struct LocalHost {
    slots: Arc<Semaphore>,
    next: Mutex<Option<Instant>>,
}

impl Default for HostPacer {
    fn default() -> HostPacer {
        HostPacer::local()
    }
}

impl HostPacer {
    /// A pacer of this process alone: one service process on SQLite, the command line.
    pub fn local() -> HostPacer {
        HostPacer::local_with(MAX_PER_HOST)
    }

    /// A pacer of this process alone with `per_host` requests in flight per host at most
    /// (the command line's `--max-in-flight`).
    pub fn local_with(per_host: usize) -> HostPacer {
        HostPacer { local: Arc::default(), shared: None, per_host: per_host.max(1) }
    }

    /// The pacer of a replica named `holder` of the database `store`: shared with the other
    /// replicas through the database on PostgreSQL, of this process alone on SQLite (one
    /// process uses the file). `request_limit` is the longest a request may take (the
    /// fetcher's time limit): a slot expires that long (and a margin) after it was taken.
    pub fn for_store(store: &store::Store, holder: &str, request_limit: Duration) -> HostPacer {
        let shared = store.is_postgres().then(|| Shared {
            store: store.clone(),
            holder: holder.into(),
            slot_for: request_limit + SLOT_MARGIN,
        });
        HostPacer { local: Arc::default(), shared, per_host: MAX_PER_HOST }
    }

    fn local_host(&self, key: &str) -> Arc<LocalHost> {
        let mut hosts = self.local.hosts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if hosts.len() >= MAX_LOCAL_HOSTS && !hosts.contains_key(key) {
            // A host with every slot free, held back by nothing and used by no waiting
            // request carries nothing worth keeping.
            let now = Instant::now();
            hosts.retain(|_, h| {
                Arc::strong_count(h) > 1
                    || h.slots.available_permits() < self.per_host
                    || h.next.lock().map(|n| n.is_some_and(|at| at > now)).unwrap_or(true)
            });
        }
        Arc::clone(hosts.entry(key.to_string()).or_insert_with(|| {
            Arc::new(LocalHost { slots: Arc::new(Semaphore::new(self.per_host)), next: Mutex::new(None) })
        }))
    }

    /// Waits for a slot of `url`'s host, then for the host's next allowed start (with
    /// `delay`, a `Crawl-delay`, between the starts of two requests): the request may start
    /// when this returns, and its slot is given back when the permit is dropped. A database
    /// that does not answer leaves the pacing of this process alone (logged): a crawl does
    /// not stop for its politeness book-keeping.
    pub async fn acquire(&self, url: &Url, delay: Option<Duration>) -> HostPermit {
        let key = host_key(url);
        let host = self.local_host(&key);
        // The process's own bound first: a request waiting for a slot of the database holds
        // none its neighbours could use, and the database is asked by 4 waiters at most.
        let local = Arc::clone(&host.slots).acquire_owned().await.ok();
        let mut permit = HostPermit { _local: local, _shared: None };
        match &self.shared {
            None => {
                let start = {
                    let mut next = host.next.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let start = next.map_or_else(Instant::now, |at| at.max(Instant::now()));
                    if let Some(delay) = delay {
                        *next = Some(start + delay);
                    }
                    start
                };
                tokio::time::sleep_until(start.into()).await;
            }
            Some(shared) => {
                permit._shared = shared.claim(&key).await;
                if let Some(wait) = shared.turn(&key, delay).await {
                    tokio::time::sleep(wait).await;
                }
            }
        }
        permit
    }

    /// Holds `url`'s host back for `wait`: no request of any crawl starts to it before then
    /// (a later time already set stays).
    pub async fn hold(&self, url: &Url, wait: Duration) {
        let key = host_key(url);
        let until = Instant::now() + wait;
        {
            let host = self.local_host(&key);
            let mut next = host.next.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *next = Some(next.map_or(until, |at| at.max(until)));
        }
        if let Some(shared) = &self.shared {
            let (store, now) = (shared.store.clone(), now_ms());
            let until = now.saturating_add(millis(wait));
            let held = tokio::task::spawn_blocking(move || store.hold_host(&key, until, now)).await;
            if let Ok(Err(e)) = held {
                tracing::warn!(error = %e, "a host's back-off not shared with the other replicas");
            }
        }
    }
}

impl Shared {
    /// A slot of host `key` in the database, asked for again after a pause that doubles up
    /// to [`MAX_POLL`] while every slot is held; `None` when the database did not answer.
    async fn claim(&self, key: &str) -> Option<SharedSlot> {
        let mut pause = FIRST_POLL;
        loop {
            let (store, holder, key2, slot_for) =
                (self.store.clone(), Arc::clone(&self.holder), key.to_string(), self.slot_for);
            let claimed = tokio::task::spawn_blocking(move || {
                let now = now_ms();
                let max = u32::try_from(MAX_PER_HOST).unwrap_or(u32::MAX);
                store.claim_host_slot(&key2, &holder, max, now, now.saturating_add(millis(slot_for)))
            })
            .await;
            match claimed {
                Ok(Ok(Some(slot))) => {
                    return Some(SharedSlot {
                        store: self.store.clone(),
                        host: key.to_string(),
                        slot,
                        holder: Arc::clone(&self.holder),
                    })
                }
                Ok(Ok(None)) => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(MAX_POLL);
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, host = %key, "a host's request slot not taken in the database");
                    return None;
                }
                Err(_) => return None,
            }
        }
    }

    /// How long to wait before starting a request to host `key`: until its next allowed
    /// start, which `delay` moves on when there is one.
    async fn turn(&self, key: &str, delay: Option<Duration>) -> Option<Duration> {
        let (store, key) = (self.store.clone(), key.to_string());
        let start = tokio::task::spawn_blocking(move || {
            let now = now_ms();
            let start = match delay {
                Some(delay) => store.reserve_host_start(&key, now, millis(delay)).map(Some),
                None => store.host_next_start(&key),
            };
            start.map(|start| start.map(|s| s.saturating_sub(now)))
        })
        .await;
        match start {
            Ok(Ok(Some(ms))) if ms > 0 => Some(Duration::from_millis(u64::try_from(ms).unwrap_or(0))),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "a host's next start not read from the database");
                None
            }
            _ => None,
        }
    }
}

/// A request's place among those in flight to its host: given back when dropped.
#[derive(Debug)]
pub struct HostPermit {
    // Both are held for their drop alone, which gives the places back.
    _local: Option<OwnedSemaphorePermit>,
    _shared: Option<SharedSlot>,
}

struct SharedSlot {
    store: store::Store,
    host: String,
    slot: u32,
    holder: Arc<str>,
}

impl std::fmt::Debug for SharedSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedSlot").field("host", &self.host).field("slot", &self.slot).finish_non_exhaustive()
    }
}

impl Drop for SharedSlot {
    fn drop(&mut self) {
        let (store, host, slot, holder) =
            (self.store.clone(), std::mem::take(&mut self.host), self.slot, self.holder.clone());
        // Given back off the async threads; without a runtime (never, in the service) the
        // row expires instead. When the database does not answer (an outage), the release is
        // tried again, with growing pauses, for as long as the slot would be held: a crawl
        // resumed after the outage would otherwise wait for its own dead run's slots to
        // expire before it could ask its host for anything.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let mut pause = Duration::from_millis(250);
                let mut waited = Duration::ZERO;
                loop {
                    let (db, key, by) = (store.clone(), host.clone(), holder.clone());
                    let released = tokio::task::spawn_blocking(move || db.release_host_slot(&key, slot, &by)).await;
                    match released {
                        Ok(Ok(_)) => return,
                        Ok(Err(e)) if waited < RELEASE_RETRY_FOR => {
                            tracing::debug!(error = %e, host = %host, "a host's request slot not given back yet");
                        }
                        Ok(Err(e)) => {
                            tracing::warn!(error = %e, host = %host, "a host's request slot not given back (it expires)");
                            return;
                        }
                        Err(_) => return,
                    }
                    tokio::time::sleep(pause).await;
                    waited += pause;
                    pause = (pause * 2).min(Duration::from_secs(5));
                }
            });
        }
    }
}

/// How long the release of a slot is tried again while the database does not answer.
const RELEASE_RETRY_FOR: Duration = Duration::from_secs(60);

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_as_seconds_or_a_date_and_bounded() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(12));
        assert_eq!(parse_retry_after(&later, now), Some(Duration::from_secs(12)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(12));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(retry_wait(Some("3"), 0, now), Duration::from_secs(3));
        assert_eq!(retry_wait(Some("86400"), 0, now), MAX_BACKOFF, "a day is cut to the bound");
        assert_eq!(retry_wait(Some("0"), 0, now), FIRST_BACKOFF, "no retry without a pause");
        assert_eq!(retry_wait(Some(&past), 1, now), FIRST_BACKOFF);
        // Without one (or with one that cannot be read): 1 s, 2 s, 4 s... up to the bound.
        assert_eq!(retry_wait(None, 0, now), Duration::from_secs(1));
        assert_eq!(retry_wait(Some("soon"), 1, now), Duration::from_secs(2));
        assert_eq!(retry_wait(None, 2, now), Duration::from_secs(4));
        assert_eq!(retry_wait(None, 40, now), MAX_BACKOFF);
    }

    #[test]
    fn a_site_and_its_www_twin_share_one_key_whatever_the_port() {
        let key = |u: &str| host_key(&Url::parse(u).unwrap());
        assert_eq!(key("https://WWW.Example.com/a"), "example.com");
        assert_eq!(key("http://example.com:8080/"), "example.com");
        assert_eq!(key("http://127.0.0.1:9/"), "127.0.0.1");
        assert_ne!(key("https://shop.example.com/"), key("https://example.com/"));
    }

    #[tokio::test]
    async fn at_most_four_requests_hold_a_host_and_a_hold_delays_the_next() {
        let pacer = HostPacer::local();
        let url = Url::parse("http://example.com/").unwrap();
        let mut held = Vec::new();
        for _ in 0..MAX_PER_HOST {
            held.push(pacer.acquire(&url, None).await);
        }
        let waiting = tokio::time::timeout(Duration::from_millis(100), pacer.acquire(&url, None)).await;
        assert!(waiting.is_err(), "a fifth request waits");
        // Another host is not held back by this one.
        let other = Url::parse("http://example.org/").unwrap();
        let _other = tokio::time::timeout(Duration::from_millis(100), pacer.acquire(&other, None)).await.unwrap();
        held.pop();
        let _fifth = tokio::time::timeout(Duration::from_millis(100), pacer.acquire(&url, None)).await.unwrap();
        // A 429's back-off holds every later request of the host.
        pacer.hold(&other, Duration::from_millis(300)).await;
        let at = Instant::now();
        let _after = pacer.acquire(&Url::parse("http://www.example.org/b").unwrap(), None).await;
        assert!(at.elapsed() >= Duration::from_millis(250), "{:?}", at.elapsed());
    }
}
