//! The one rate limiter of the service: fixed one-minute windows per identity.
//!
//! Counting happens in memory under one mutex, so the check-and-add is exact under any
//! concurrency and costs no I/O. Every unit let through is also written to the store's
//! usage buckets (write-behind: a `spawn_blocking` task per allowed request, not awaited),
//! which feeds `requests_last_24h` of the usage snapshot. Windows are clock minutes (UTC
//! `:00` to `:59`), the same buckets the store uses, so both count alike. A restart starts
//! every window afresh in memory; the store keeps the history.
//!
//! On PostgreSQL, which several replicas may share, a process's memory sees only its own
//! share of an identity's requests, so the decision is taken in the database instead: one
//! counter per identity and minute, checked and added in one statement
//! ([`app::App::consume_quota_in_db`], on the blocking pool; docs/ARCHITECTURE.md,
//! "Replicas"). Should the database not answer, the process falls back to its own memory
//! count (the request is not refused for the database's sake; the other replicas do the
//! same).

use std::collections::HashMap;
use std::sync::Mutex;

use http::{HeaderMap, HeaderValue};
use time::OffsetDateTime;

/// Past this many identities the map is swept of windows that ended.
const SWEEP_THRESHOLD: usize = 10_000;

/// The answer of [`Limiter::consume`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The units were granted (and counted).
    pub allowed: bool,
    /// Units per minute of this identity.
    pub limit: u32,
    /// Units left in this window after this request.
    pub remaining: u32,
    /// Seconds until the window ends (1..=60): `x-ratelimit-reset` and `Retry-After`.
    pub reset_s: u64,
}

impl Decision {
    /// Writes `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`, and
    /// `Retry-After` when refused.
    pub fn write_headers(&self, headers: &mut HeaderMap) {
        headers.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(self.remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(self.reset_s));
        if !self.allowed {
            headers.insert(http::header::RETRY_AFTER, HeaderValue::from(self.reset_s));
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Window {
    minute: i64,
    used: u32,
}

/// Per-identity quota counter shared by every endpoint that consumes quota (REST and the
/// agent-tool endpoint). Identities are strings: `key:<id>` or `ip:<addr>`.
#[derive(Debug)]
pub struct Limiter {
    windows: Mutex<HashMap<String, Window>>,
    usage: Option<app::App>,
    /// Count in the database ([`app::App::counts_quota_in_db`]), not in memory.
    shared: bool,
}

impl Limiter {
    /// A limiter that records granted units through `usage` (None: memory only). When
    /// `usage`'s store is shared by replicas (PostgreSQL), the count is the database's.
    pub fn new(usage: Option<app::App>) -> Limiter {
        let shared = usage.as_ref().is_some_and(app::App::counts_quota_in_db);
        Limiter { windows: Mutex::new(HashMap::new()), usage, shared }
    }

    /// Grants `units` to `identity` when this minute's count stays within `limit`, else
    /// grants nothing (a batch gets all its units or none). In memory (no wait) unless the
    /// database counts, on the blocking pool.
    pub async fn consume(&self, identity: &str, units: u32, limit: u32) -> Decision {
        let now = OffsetDateTime::now_utc();
        if let Some(app) = self.usage.as_ref().filter(|_| self.shared) {
            match app.consume_quota_in_db(identity, units, limit).await {
                Ok(consumption) => return Self::decision(consumption, limit, now),
                Err(e) => tracing::warn!(error = %e, "quota not counted in the database: counted in memory"),
            }
            return self.consume_at(identity, units, limit, now);
        }
        self.consume_in_memory(identity, units, limit)
    }

    /// [`Limiter::consume`] in this process's memory only, whatever the store (the badge's
    /// flood guard and background-audit budget, which stay per replica), recording granted
    /// units through the limiter's app when it has one.
    pub fn consume_in_memory(&self, identity: &str, units: u32, limit: u32) -> Decision {
        let decision = self.consume_at(identity, units, limit, OffsetDateTime::now_utc());
        if let Some(app) = self.usage.as_ref().filter(|_| decision.allowed && units > 0) {
            app.record_usage(identity, units);
        }
        decision
    }

    /// The decision the database's count gives.
    fn decision(consumption: app::Consumption, limit: u32, now: OffsetDateTime) -> Decision {
        let reset_s = 60 - u64::try_from(now.unix_timestamp().rem_euclid(60)).unwrap_or(0);
        let (allowed, used) = match consumption {
            app::Consumption::Allowed { this_minute } => (true, this_minute),
            app::Consumption::Denied { this_minute, .. } => (false, this_minute),
        };
        let remaining = u64::from(limit).saturating_sub(used);
        Decision { allowed, limit, remaining: u32::try_from(remaining).unwrap_or(u32::MAX), reset_s }
    }

    /// [`Limiter::consume`] at an explicit instant, in memory only.
    pub fn consume_at(&self, identity: &str, units: u32, limit: u32, now: OffsetDateTime) -> Decision {
        let minute = app::minute_bucket(now);
        let reset_s = 60 - u64::try_from(now.unix_timestamp().rem_euclid(60)).unwrap_or(0);
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if windows.len() > SWEEP_THRESHOLD {
            windows.retain(|_, w| w.minute == minute);
        }
        let window = windows.entry(identity.to_string()).or_insert(Window { minute, used: 0 });
        if window.minute != minute {
            *window = Window { minute, used: 0 };
        }
        let allowed = window.used.saturating_add(units) <= limit;
        if allowed {
            window.used += units;
        }
        Decision { allowed, limit, remaining: limit.saturating_sub(window.used), reset_s }
    }

    /// Units counted for `identity` in the current minute in this process's memory (where
    /// the database counts, its count is the store's and this one stays 0 but for the
    /// database's outages).
    pub fn used_this_minute(&self, identity: &str) -> u32 {
        let minute = app::minute_bucket(OffsetDateTime::now_utc());
        let windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        windows.get(identity).filter(|w| w.minute == minute).map_or(0, |w| w.used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn check(l: &Limiter, at: OffsetDateTime, id: &str, units: u32, limit: u32, expected: (bool, u32, u64)) {
        let d = l.consume_at(id, units, limit, at);
        assert_eq!((d.allowed, d.remaining, d.reset_s), expected, "{id} {units}/{limit} at {at}");
    }

    #[test]
    fn windows_and_identities() {
        let l = Limiter::new(None);
        let t = datetime!(2026-01-01 00:00:10 UTC);
        check(&l, t, "ip:a", 1, 3, (true, 2, 50));
        check(&l, t, "ip:a", 2, 3, (true, 0, 50));
        check(&l, t, "ip:a", 1, 3, (false, 0, 50));
        check(&l, t, "ip:b", 3, 3, (true, 0, 50));
        check(&l, datetime!(2026-01-01 00:01:00 UTC), "ip:a", 1, 3, (true, 2, 60));
        // A batch larger than what is left gets nothing, and consumes nothing.
        check(&l, datetime!(2026-01-01 00:01:30 UTC), "ip:a", 3, 3, (false, 2, 30));
        check(&l, datetime!(2026-01-01 00:01:59 UTC), "ip:a", 2, 3, (true, 0, 1));
        // A key whose limit was lowered meanwhile has nothing left.
        check(&l, datetime!(2026-01-01 00:01:59 UTC), "ip:a", 1, 1, (false, 0, 1));
        check(&l, t, "ip:c", 0, 0, (true, 0, 50));
    }

    #[test]
    fn exact_under_threads() {
        let l = std::sync::Arc::new(Limiter::new(None));
        let t = datetime!(2026-01-01 00:00:10 UTC);
        let granted: u32 = (0..8)
            .map(|_| {
                let l = l.clone();
                std::thread::spawn(move || (0..100).filter(|_| l.consume_at("k", 1, 250, t).allowed).count() as u32)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .sum();
        assert_eq!(granted, 250);
    }
}
