//! The account side of the service: API keys, usage and webhook subscriptions, and the
//! database health check. The server decides who may call what (docs/API.md, "Keys and
//! tiers"); these are the reads and writes behind those decisions.

use time::OffsetDateTime;
use url::Url;
use vocab::{AuditId, MonitorId, UserId, WebhookId};

use crate::{App, AppError};

/// Most webhook subscriptions one owner may hold (docs/API.md, "Webhooks").
pub const MAX_WEBHOOKS_PER_USER: usize = 20;

/// What the usage snapshot reports besides the limiter's own count.
#[derive(Debug, Clone)]
pub struct UsageFacts {
    /// Units the store has recorded for the identity (this minute, the last 24 hours).
    pub counts: store::UsageCounts,
    /// The owner's keys.
    pub keys: Vec<store::KeyRecord>,
    /// The owner's enabled webhook subscriptions.
    pub webhook_subscriptions: u64,
}

impl UsageFacts {
    /// The owner's keys as the usage snapshot lists them on the wire; a key without a limit
    /// of its own has its tier's configured limit (`limits`), not only the built-in default.
    pub fn wire_keys(&self, limits: &crate::RateLimits) -> Vec<api::ApiKey> {
        self.keys
            .iter()
            .map(|k| api::ApiKey {
                id: k.id.clone(),
                name: k.name.clone(),
                key_prefix: k.key_prefix.clone(),
                scopes: k.scopes.clone(),
                rate_limit: k.rate_limit_or(limits.for_tier(k.tier)),
                enabled: k.enabled,
                last_used_at: k.last_used_at.map(vocab::Timestamp::from),
                expires_at: k.expires_at.map(vocab::Timestamp::from),
                created_at: k.created_at.into(),
            })
            .collect()
    }
}

/// Longest key [`App::find_key`] looks up.
pub const MAX_PRESENTED_KEY_LEN: usize = 200;

impl App {
    /// The usable or unusable key a request presented (`None`: no such key; an empty one or
    /// one longer than [`MAX_PRESENTED_KEY_LEN`] is not looked up). Only the key's SHA-256
    /// hash is looked up; [`crate::quota::check_key`] says whether it may act.
    ///
    /// # Errors
    /// The store failed.
    pub async fn find_key(&self, presented: String) -> Result<Option<store::KeyRecord>, AppError> {
        if presented.is_empty() || presented.len() > MAX_PRESENTED_KEY_LEN {
            return Ok(None);
        }
        self.db(move |s| s.lookup(&presented)).await
    }

    /// Records that key `id` was used, without making the caller wait.
    pub fn key_used(&self, id: &str) {
        let app = self.clone();
        let id = id.to_string();
        drop(tokio::task::spawn_blocking(move || {
            if let Err(e) = app.store.touch_last_used(&id) {
                tracing::warn!(error = %e, "last_used_at not updated");
            }
        }));
    }

    /// Records `units` of quota granted to `identity` now, behind the caller's back (the
    /// limiter counts in memory; this copy survives restarts). Grants made while an earlier
    /// write is under way are summed per identity and minute and written together, in one
    /// transaction, as soon as it ends: under load one write carries many grants instead of
    /// one write each. Outside a runtime it writes at once.
    pub fn record_usage(&self, identity: &str, units: u32) {
        let at = OffsetDateTime::now_utc();
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            if let Err(e) = self.store.record_usage(identity, units, at) {
                tracing::warn!(error = %e, identity, "usage not recorded");
            }
            return;
        };
        if !self.usage.add(identity, units, at) {
            return;
        }
        let app = self.clone();
        drop(handle.spawn_blocking(move || {
            while let Some(grants) = app.usage.take() {
                if let Err(e) = app.store.record_usage_many(&grants) {
                    tracing::warn!(error = %e, grants = grants.len(), "usage not recorded");
                }
            }
        }));
    }

    /// Whether quota must be counted in the database rather than in one process's memory:
    /// the store is PostgreSQL, which several replicas may share (docs/ARCHITECTURE.md,
    /// "Replicas").
    pub fn counts_quota_in_db(&self) -> bool {
        self.store.is_postgres()
    }

    /// Grants `units` to `identity` when this minute's count in the database stays within
    /// `limit` ([`store::Store::consume`]: one atomic statement, exact across replicas), on
    /// the blocking pool.
    ///
    /// # Errors
    /// The database did not answer.
    pub async fn consume_quota_in_db(
        &self,
        identity: &str,
        units: u32,
        limit: u32,
    ) -> Result<store::Consumption, AppError> {
        let identity = identity.to_string();
        let at = OffsetDateTime::now_utc();
        self.db(move |s| s.consume(&identity, units, limit, at)).await
    }

    /// A database round trip (the status endpoint's health check).
    ///
    /// # Errors
    /// The database does not answer, or its file is no longer the one opened.
    pub async fn ping(&self) -> Result<(), AppError> {
        self.db(|s| s.ping().map(drop)).await
    }

    /// Usage recorded for `identity`, and the keys and subscriptions of `user_id`.
    ///
    /// # Errors
    /// The store failed.
    pub async fn usage(&self, identity: String, user_id: UserId) -> Result<UsageFacts, AppError> {
        self.db(move |s| {
            let now = OffsetDateTime::now_utc();
            Ok(UsageFacts {
                counts: s.usage_counts(&identity, now)?,
                keys: s.list_keys(Some(&user_id))?,
                webhook_subscriptions: s.count_enabled_webhooks(&user_id)?,
            })
        })
        .await
    }

    /// Subscribes `user_id` to `events` at `url`. Literal inner addresses and localhost names
    /// are refused now; names are judged again when they are resolved at each delivery.
    ///
    /// # Errors
    /// `invalid_request` when the owner holds [`MAX_WEBHOOKS_PER_USER`] subscriptions already,
    /// the address guard's refusal, or the store's failure.
    pub async fn subscribe(&self, user_id: UserId, url: Url, events: Vec<String>) -> Result<store::Webhook, AppError> {
        self.fetcher.guard().check_url(&url).map_err(AppError::from)?;
        let new = store::NewWebhook { user_id: user_id.clone(), url: url.to_string(), events };
        let created = self
            .db(move |s| {
                if s.list_webhooks(&user_id)?.len() >= MAX_WEBHOOKS_PER_USER {
                    return Ok(None);
                }
                s.create_webhook(new).map(Some)
            })
            .await?;
        created.ok_or_else(|| {
            let message =
                format!("An owner may hold at most {MAX_WEBHOOKS_PER_USER} webhook subscriptions; delete one first.");
            AppError::refused(crate::ErrorCode::InvalidRequest, message)
        })
    }

    /// The subscriptions of `user_id`.
    ///
    /// # Errors
    /// The store failed.
    pub async fn subscriptions(&self, user_id: UserId) -> Result<Vec<store::Webhook>, AppError> {
        self.db(move |s| s.list_webhooks(&user_id)).await
    }

    /// Deletes subscription `id` of `user_id`.
    ///
    /// # Errors
    /// `not_found` when `user_id` holds no such subscription (another owner's id is answered
    /// exactly as an unknown one); the store failed.
    pub async fn unsubscribe(&self, user_id: UserId, id: WebhookId) -> Result<(), AppError> {
        let hook = id.clone();
        match self.db(move |s| Ok(s.delete_webhook(&user_id, &hook))).await? {
            Ok(()) => Ok(()),
            Err(e) if e.is_not_found() => Err(crate::webhooks::no_subscription(&id)),
            Err(e) => Err(e.into()),
        }
    }
}

impl App {
    /// The audit a badge or report shows: the newest public one (made without a key, no
    /// older than [`store::BADGE_MAX_AGE`], home page preferred) of the first of `hosts`
    /// that has one (a domain and its other `www.` form).
    ///
    /// # Errors
    /// The store failed.
    pub async fn newest_public_audit(&self, hosts: Vec<String>) -> Result<Option<store::StoredAudit>, AppError> {
        self.db(move |s| {
            for host in &hosts {
                if let Some(found) = s.latest_audit_for_host(host, store::BADGE_MAX_AGE)? {
                    return Ok(Some(found));
                }
            }
            Ok(None)
        })
        .await
    }

    /// Public audit `id`, when it was made for one of `hosts`. An audit made with a key is
    /// private to it, whoever knows its id.
    ///
    /// # Errors
    /// The store failed.
    pub async fn public_audit(&self, id: AuditId, hosts: Vec<String>) -> Result<Option<store::StoredAudit>, AppError> {
        if id.len() > 64 {
            return Ok(None);
        }
        let found = self.db(move |s| s.get_public_audit(&id)).await?;
        Ok(found.filter(|a| hosts.contains(&a.host)))
    }
}

impl App {
    /// The newest stored audit of `url` (as requested or as finally fetched).
    ///
    /// # Errors
    /// The store failed.
    pub async fn latest_audit(&self, url: String) -> Result<Option<store::StoredAudit>, AppError> {
        self.db(move |s| s.latest_audit_for_url(&url)).await
    }

    /// The `limit` newest alerts of monitor `monitor_id`.
    ///
    /// # Errors
    /// The store failed.
    pub async fn recent_alerts(&self, monitor_id: MonitorId, limit: usize) -> Result<Vec<store::Alert>, AppError> {
        self.db(move |s| s.recent_alerts(&monitor_id, limit)).await
    }
}
