//! The one quota counter of the service: fixed one-minute windows per identity. The use
//! cases charge it themselves through the caller's [`Payer`] ([`App::charge`]), once the
//! request is admitted; the server writes the decision as the `x-ratelimit-*` headers.
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
//! ([`App::consume_quota_in_db`], on the blocking pool; docs/ARCHITECTURE.md,
//! "Replicas"). Should the database not answer, the process falls back to its own memory
//! count (the request is not refused for the database's sake; the other replicas do the
//! same).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use time::OffsetDateTime;

use crate::application::App;
use crate::{AppError, ErrorCode, KeyRecord};

/// Past this many identities the map is swept of windows that ended.
const SWEEP_THRESHOLD: usize = 10_000;

/// Requests (quota units) per minute of each kind of identity (docs/API.md, Quota; the
/// `[rate_limits]` section of the service's settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimits {
    /// Per client IP, without a key.
    pub anonymous: u32,
    /// Keys of tier `free` without their own limit.
    pub free: u32,
    /// Keys of tier `pro` without their own limit.
    pub pro: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits { anonymous: store::ANONYMOUS_RATE_LIMIT, free: store::FREE_RATE_LIMIT, pro: store::PRO_RATE_LIMIT }
    }
}

impl RateLimits {
    /// The per-minute limit of a tier.
    pub fn for_tier(&self, tier: store::Tier) -> u32 {
        match tier {
            store::Tier::Free => self.free,
            store::Tier::Pro => self.pro,
        }
    }
}

/// The identity a request acts as: what the quota is counted and the usage recorded under.
#[derive(Debug, Clone)]
pub enum Identity {
    /// No key: limited per client network (docs/API.md, "Conventions of every endpoint":
    /// an IPv4 address, an IPv6 client's prefix).
    Anonymous {
        /// The client network's address: the IPv4 address (IPv4-mapped IPv6 included), or
        /// the IPv6 address with the bits past `prefix` cleared.
        ip: IpAddr,
        /// Bits of `ip` that count: 32 for IPv4, the configured prefix for IPv6.
        prefix: u8,
    },
    /// A known, usable key.
    Key(Arc<KeyRecord>),
}

impl Identity {
    /// The limiter and usage identity: `key:<id>`, `ip:<IPv4 address>`, or
    /// `ip:<IPv6 network>/<prefix>` (`ip:<address>` for a full /128).
    pub fn label(&self) -> String {
        match self {
            Identity::Anonymous { ip: ip @ IpAddr::V6(_), prefix } if *prefix < 128 => {
                format!("{}/{prefix}", crate::ip_identity(ip))
            }
            Identity::Anonymous { ip, .. } => crate::ip_identity(ip),
            Identity::Key(k) => k.identity(),
        }
    }

    /// Quota units per minute: the key's own limit, else its tier's configured limit;
    /// the anonymous limit without a key.
    pub fn rate_limit(&self, limits: &RateLimits) -> u32 {
        match self {
            Identity::Anonymous { .. } => limits.anonymous,
            Identity::Key(k) => k.rate_limit_or(limits.for_tier(k.tier)),
        }
    }

    /// The tier the rate limiter counts this identity under, as a metric label:
    /// `anonymous`, `free` or `pro`.
    pub fn tier_label(&self) -> &'static str {
        match self {
            Identity::Key(k) => k.tier.as_str(),
            Identity::Anonymous { .. } => "anonymous",
        }
    }

    /// The key, if any.
    pub fn key(&self) -> Option<&KeyRecord> {
        match self {
            Identity::Key(k) => Some(k),
            Identity::Anonymous { .. } => None,
        }
    }

    /// Owner of the key, if any.
    pub fn user_id(&self) -> Option<&vocab::UserId> {
        self.key().map(|k| &k.user_id)
    }
}

/// Why a presented key cannot act for a request (docs/API.md, "Conventions of every
/// endpoint": 401 for an unknown key, 403 for the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRefusal {
    /// No such key.
    Unknown,
    /// The key is disabled.
    Disabled,
    /// The key has expired.
    Expired,
    /// The key lacks this scope.
    MissingScope(vocab::Scope),
}

/// Whether `record` may act now for an operation that needs `scope` (none: any key that is
/// enabled and not expired).
///
/// # Errors
/// Why it may not: disabled, expired, or lacking the scope, in that order.
pub fn check_key(record: &KeyRecord, scope: Option<vocab::Scope>, now: OffsetDateTime) -> Result<(), KeyRefusal> {
    if !record.enabled {
        return Err(KeyRefusal::Disabled);
    }
    if record.is_expired(now) {
        return Err(KeyRefusal::Expired);
    }
    match scope {
        Some(scope) if !record.has_scope(scope) => Err(KeyRefusal::MissingScope(scope)),
        _ => Ok(()),
    }
}

/// Who pays for one request and with what: the caller's identity, the shared limiter and
/// the caller's units per minute. A use case charges through it itself ([`App::charge`]),
/// after admission (docs/ARCHITECTURE.md, "One audit path"), so no layer above the
/// application decides on quota. The last [`Decision`] is kept for the protocol layer,
/// which reports it (the REST API as `x-ratelimit-*` headers) whatever the use case answered.
#[derive(Debug)]
pub struct Payer {
    identity: Identity,
    limiter: Arc<Limiter>,
    limit: u32,
    /// The configured limits, which tell a refused caller what would raise its own.
    limits: RateLimits,
    /// Units the caller paid before the use case ran (an agent-tool call pays one unit per
    /// call in the protocol layer), deducted from the use case's charge.
    prepaid: u32,
    decision: Mutex<Option<Decision>>,
}

impl Payer {
    /// `identity` paying on `limiter` within its limit of `limits`.
    pub fn new(identity: Identity, limiter: Arc<Limiter>, limits: &RateLimits) -> Payer {
        let limit = identity.rate_limit(limits);
        Payer { identity, limiter, limit, limits: *limits, prepaid: 0, decision: Mutex::new(None) }
    }

    /// The same payer, `units` already paid (an agent-tool call's unit).
    pub fn prepaid(mut self, units: u32) -> Payer {
        self.prepaid = units;
        self
    }

    /// Who is asking.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Owner of the caller's key, if any.
    pub fn owner(&self) -> Option<&vocab::UserId> {
        self.identity.user_id()
    }

    /// The caller's units per minute.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The limiter's last answer to this payer's charge, if it charged.
    pub fn decision(&self) -> Option<Decision> {
        *self.decision.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What the charge of one agent-tool call gave ([`App::charge_call`]); the protocol layer
/// answers it in its own terms (a JSON-RPC error naming the window and what would raise the
/// limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallCharge {
    /// The tool is free of quota ([`crate::agent::tools::free_of_quota`]): nothing charged.
    Free,
    /// One unit charged; the window after it.
    Granted(Decision),
    /// Refused, nothing charged: the window, and what would raise the caller's limit.
    Refused {
        /// The window as it stands.
        decision: Decision,
        /// What would raise the limit.
        raise: Raise,
    },
}

/// What would raise the per-minute limit of a caller refused for quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raise {
    /// An API key (the caller has none).
    Key,
    /// A key of this higher tier (a free key whose own limit is below that tier's).
    Tier(store::Tier),
    /// Nothing but waiting: a pro key, or a free key whose own limit reaches pro's already.
    Nothing,
}

impl App {
    /// Charges one agent-tool call to `payer` before the tool runs: one unit on the same
    /// limiter, identity and limit as the REST endpoints, so REST and tool calls share one
    /// quota; nothing for the tools free of quota (the status polls, docs/API.md, "Quota").
    /// A refusal is counted by the observer and says what would raise the caller's limit.
    pub async fn charge_call(&self, tool: &str, payer: &Payer) -> CallCharge {
        if crate::agent::tools::free_of_quota(tool) {
            return CallCharge::Free;
        }
        let decision = self.consume(payer, 1).await;
        if decision.allowed {
            return CallCharge::Granted(decision);
        }
        let raise = match &payer.identity {
            Identity::Anonymous { .. } => Raise::Key,
            Identity::Key(k) if k.tier == store::Tier::Free && payer.limit < payer.limits.pro => {
                Raise::Tier(store::Tier::Pro)
            }
            Identity::Key(_) => Raise::Nothing,
        };
        CallCharge::Refused { decision, raise }
    }

    /// The usage snapshot of the key `payer` acts with (`GET /api/v1/usage`, which charges
    /// nothing): its owner, tier and per-minute limit, the units it used this minute and in
    /// the last 24 hours, and the owner's keys and enabled webhook subscriptions. The
    /// limiter counts exactly and at once, the store's copy is written behind it and
    /// survives restarts: each may be ahead of the other for a moment, so the larger is
    /// reported.
    ///
    /// # Errors
    /// `unauthorized` without a key; the store failed.
    pub async fn usage_snapshot(&self, payer: &Payer) -> Result<api::Usage, AppError> {
        let Some(key) = payer.identity.key() else {
            return Err(AppError::refused(ErrorCode::Unauthorized, "This endpoint needs an API key."));
        };
        let label = payer.identity.label();
        let facts = self.usage(label.clone(), key.user_id.clone()).await?;
        let this_minute = facts.counts.this_minute.max(u64::from(payer.limiter.used_this_minute(&label)));
        Ok(api::Usage {
            ok: true,
            api_version: audit_core::API_VERSION,
            user_id: key.user_id.clone(),
            tier: key.tier.as_str(),
            rate_limit_per_minute: payer.limit,
            requests_this_minute: this_minute,
            requests_last_24h: facts.counts.last_24h.max(this_minute),
            // The configured tier limits, not only the built-in defaults, decide.
            api_keys: facts.wire_keys(&payer.limits),
            webhook_subscriptions: facts.webhook_subscriptions,
        })
    }

    /// Takes `units` from `payer`'s window on its limiter and keeps the decision for the
    /// `x-ratelimit-*` headers; a refusal (nothing taken) is counted by the observer. The
    /// step [`App::charge`] and [`App::charge_call`] share.
    async fn consume(&self, payer: &Payer, units: u32) -> Decision {
        let decision = payer.limiter.consume(&payer.identity.label(), units, payer.limit).await;
        *payer.decision.lock().unwrap_or_else(|p| p.into_inner()) = Some(decision);
        if !decision.allowed {
            self.observer().rate_limited(payer.identity.tier_label());
        }
        decision
    }

    /// Charges `units` to `payer` (less what it paid beforehand): granted, or 429
    /// `rate_limited` naming the limit, what was asked and what remains, with nothing
    /// consumed (docs/API.md, "Quota"). A refusal is counted by the observer.
    ///
    /// # Errors
    /// That refusal.
    pub async fn charge(&self, payer: &Payer, units: u32) -> Result<(), AppError> {
        let due = units.saturating_sub(payer.prepaid);
        if due == 0 && payer.prepaid > 0 {
            return Ok(());
        }
        let limit = payer.limit;
        let decision = self.consume(payer, due).await;
        if decision.allowed {
            return Ok(());
        }
        if payer.prepaid > 0 {
            // An agent tool's extra units are a rendered audit's or crawl's.
            let message = format!(
                "Rendering needs {} requests of quota but only {} of {limit} per minute remain; retry in {} \
                 seconds, or audit without render.",
                due + payer.prepaid,
                decision.remaining + payer.prepaid,
                decision.reset_s
            );
            return Err(AppError::refused(ErrorCode::RateLimited, message));
        }
        let hint = if payer.identity.key().is_some() { "" } else { " An API key raises the limit." };
        let message = if due > 1 && decision.remaining > 0 {
            format!(
                "This request needs {due} requests of quota but only {} of {limit} per minute remain; retry in {} \
                 seconds, or send fewer URLs.{hint}",
                decision.remaining, decision.reset_s
            )
        } else {
            format!("Rate limit of {limit} requests per minute reached; retry in {} seconds.{hint}", decision.reset_s)
        };
        let details = serde_json::json!({
            "limit": limit,
            "requested": due,
            "remaining": decision.remaining,
            "retry_after_s": decision.reset_s,
        });
        Err(AppError::Refused(vocab::Refusal::new(ErrorCode::RateLimited, message).with_details(details)))
    }
}

/// The answer of [`Limiter::consume`] (the server writes it as the `x-ratelimit-*` headers).
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
    usage: Option<App>,
    /// Count in the database ([`App::counts_quota_in_db`]), not in memory.
    shared: bool,
}

impl Limiter {
    /// A limiter that records granted units through `usage` (None: memory only). When
    /// `usage`'s store is shared by replicas (PostgreSQL), the count is the database's.
    pub fn new(usage: Option<App>) -> Limiter {
        let shared = usage.as_ref().is_some_and(App::counts_quota_in_db);
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
    fn decision(consumption: crate::Consumption, limit: u32, now: OffsetDateTime) -> Decision {
        let reset_s = 60 - u64::try_from(now.unix_timestamp().rem_euclid(60)).unwrap_or(0);
        let (allowed, used) = match consumption {
            crate::Consumption::Allowed { this_minute } => (true, this_minute),
            crate::Consumption::Denied { this_minute, .. } => (false, this_minute),
        };
        let remaining = u64::from(limit).saturating_sub(used);
        Decision { allowed, limit, remaining: u32::try_from(remaining).unwrap_or(u32::MAX), reset_s }
    }

    /// [`Limiter::consume`] at an explicit instant, in memory only.
    pub fn consume_at(&self, identity: &str, units: u32, limit: u32, now: OffsetDateTime) -> Decision {
        let minute = crate::minute_bucket(now);
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
        let minute = crate::minute_bucket(OffsetDateTime::now_utc());
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

    fn label(ip: &str, prefix: u8) -> String {
        Identity::Anonymous { ip: ip.parse().unwrap(), prefix }.label()
    }

    #[test]
    fn anonymous_labels_name_the_network() {
        assert_eq!(label("203.0.113.7", 32), "ip:203.0.113.7");
        assert_eq!(label("2001:db8:1:2::", 64), "ip:2001:db8:1:2::/64");
        assert_eq!(label("2001:db8::1", 128), "ip:2001:db8::1");
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
