//! Persistence of seo-audit: one SQLite file, reached through a pool of connections.
//!
//! [`Store`] is the whole face of the crate: open it once with [`Store::open`] and clone it
//! freely (the pool is inside). Opening creates the file and applies the embedded
//! migrations (`migrations/NNNN_name.sql`, recorded in `schema_migrations`, one transaction
//! each), so a database is always at the schema of the running build.
//!
//! Table families, one module each, all methods on [`Store`]:
//! - users: [`Store::create_user`], [`Store::get_user`], [`Tier`];
//! - API keys: [`Store::create_key`] returns the plaintext key once (`sa_` + 32 base62
//!   characters) and stores only its SHA-256; [`Store::lookup`], [`Store::list_keys`],
//!   [`Store::set_enabled`], [`Store::revoke`], [`Store::touch_last_used`]; [`KeyRecord`]
//!   serialises as the documented key record and never carries the hash;
//! - audits: [`Store::insert_audit`], [`Store::latest_audit_for_host`] (the badge),
//!   [`Store::latest_audit_for_url`], [`Store::audits_for_url`], [`Store::count_audits`];
//! - AI-readiness answers, in their bounded stored form: [`Store::insert_readiness`],
//!   [`Store::latest_public_readiness`] (the report page);
//! - usage: per-identity minute buckets, [`Store::record_usage`], [`Store::usage_counts`],
//!   [`Store::consume`] (atomic check and record), [`Store::prune_usage`];
//! - webhooks, their delivery log and their outbox (one row per delivery still to make:
//!   [`Store::enqueue_webhook_event`], the `*_with_event` writes that store a change and its
//!   event in one transaction, [`Store::claim_webhook_deliveries`],
//!   [`Store::record_webhook_attempt`]), and the geo-check cache;
//! - workflow runs with steps and approval gates ([`Store::create_run`],
//!   [`Store::decide_approval`], [`Store::recover_interrupted_runs`]); monitors and alerts;
//!   tracked keywords; experiments;
//! - crawl schedules: [`Store::create_crawl_schedule`] (within a per-owner cap),
//!   [`Store::claim_due_crawl_schedules`] (one replica per run), [`Store::queue_scheduled_crawl`]
//!   and [`Store::record_schedule_comparison`] (each run judged once);
//! - site crawls: [`Store::queue_crawl`] and [`Store::start_queued_crawls`] (in order, within
//!   caps), the frontier of each ([`Store::crawl_frontier`],
//!   a `crawl::FrontierStore`), its pages, inlinks, sitemap URLs and issues, leases
//!   ([`Store::adopt_crawls`]); the report's pages table sorted and filtered
//!   ([`Store::crawl_page_table`]); share links of a crawl's report
//!   ([`Store::create_crawl_share`]) and the service's secret that signs them
//!   ([`Store::service_secret`]);
//! - politeness shared by the crawls of every replica: the request slots of each host
//!   ([`Store::claim_host_slot`], [`Store::release_host_slot`]) and its next allowed start
//!   ([`Store::reserve_host_start`], [`Store::hold_host`]);
//! - [`Store::ping`] for the status endpoint.
//!
//! Every connection runs with WAL, `busy_timeout` 5 s, `foreign_keys` on and
//! `synchronous = NORMAL` (`OFF` for a scratch database: [`StoreOptions::durable`]). Changes that touch several rows run in one `BEGIN IMMEDIATE`
//! transaction, so a failure leaves nothing half-written. On SQLite the pooled connections
//! only read; every write runs on one writing connection, the writers taking turns in the
//! order they came (up to [`WRITE_WAIT`]), so none fails for a lock another write of the
//! process holds.
//!
//! **All methods are synchronous** and may block on disk or on another writer (for its turn,
//! up to [`WRITE_WAIT`]): async code calls them through `tokio::task::spawn_blocking`.
//!
//! Errors are one [`Error`] enum; callers use its predicates: [`Error::is_not_found`],
//! [`Error::is_unavailable`] (the database cannot be opened, read or written: status
//! `degraded`, HTTP 503), [`Error::is_conflict`], [`Error::is_invalid`].
//!
//! Times are [`vocab::Timestamp`] (or [`time::OffsetDateTime`] where the store computes with
//! them) in memory and RFC 3339 UTC text with milliseconds on disk and on the wire
//! ([`now_rfc3339`], [`format_rfc3339`]); a stored time is read without failing on its text
//! (docs/ARCHITECTURE.md, "crates/store").
//!
//! ```
//! use store::{NewAudit, NewKey, Store, Tier};
//!
//! let dir = tempfile::tempdir()?;
//! let store = Store::open(dir.path().join("seo-audit.db"))?;
//!
//! let (plaintext, key) = store.create_key(NewKey::new("ci", Tier::Free))?;
//! assert!(plaintext.starts_with("sa_"));
//! let found = store.lookup(&plaintext)?.expect("the key just created");
//! assert_eq!(found.id, key.id);
//! assert_eq!(found.effective_rate_limit(), store::FREE_RATE_LIMIT);
//!
//! store.insert_audit(NewAudit::new(
//!     "https://example.com",
//!     "https://example.com/",
//!     87,
//!     "1.0.0",
//!     r#"{"ok":true}"#,
//! ))?;
//! let badge = store.latest_audit_for_host("Example.com", store::BADGE_MAX_AGE)?;
//! assert_eq!(badge.map(|a| a.score), Some(87));
//!
//! store.ping()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod audits;
mod checkpoint;
mod clock;
mod crawl_shares;
mod crawl_site;
mod crawl_table;
mod crawls;
mod db;
mod error;
#[cfg(test)]
mod frontier_plans;
mod geo_cache;
mod host_pacing;
mod keys;
mod lease;
mod migrations;
mod readiness;
mod retention;
mod schedules;
mod sql;
mod tracking;
mod usage;
mod users;
mod webhooks;
mod workflows;
mod writer;

pub use audits::{host_and_path, AuditFilter, EventData, NewAudit, StoredAudit, BADGE_MAX_AGE};
pub use clock::{format_rfc3339, now_rfc3339, parse_rfc3339};
pub use crawl_shares::{
    generate_share_id, CrawlShare, MAX_SHARES_PER_CRAWL, SERVICE_SECRET_BYTES, SHARE_ID_RANDOM_LEN, SHARE_ID_TAG,
};
pub use crawl_site::{CrawlSite, BATCH as CRAWL_SITE_BATCH};
pub use crawl_table::{PageSort, PageTable, PageTableQuery, PageTableRow, SortOrder, StatusFilter};
pub use crawls::{
    generate_crawl_id, Crawl, CrawlCaps, CrawlEnd, CrawlFilter, CrawlFrontier, CrawlIssue, CrawlPage, CrawlPause,
    CrawlProgress, CrawlState, CrawlWriter, FailedRule, IssueCount, IssueKind, IssueLocations, NewCrawl, PageFact,
    CRAWL_ID_RANDOM_LEN, CRAWL_ID_TAG, CRAWL_MAX_RESUMES, MAX_ISSUE_DETAIL_BYTES, MAX_ISSUE_LOCATIONS_BYTES,
    MAX_PAUSE_REASON_BYTES,
};
pub use db::{
    Database, Store, StoreOptions, BUSY_TIMEOUT, DB_FILE_NAME, DEFAULT_POOL_SIZE, PG_CONNECT_TIMEOUT, POOL_TIMEOUT,
    WRITE_WAIT,
};
pub use error::{Error, Result};
pub use geo_cache::{GeoCacheEntry, GEO_CACHE_TTL};
pub use keys::{
    generate_key, hash_key, parse_scopes, KeyRecord, NewKey, DEFAULT_SCOPES, KEY_PREFIX_LEN, KEY_RANDOM_LEN, KEY_TAG,
    MAX_KEY_NAME_LEN, SCOPES,
};
pub use migrations::{Migration, MIGRATIONS, PG_MIGRATIONS};
pub use readiness::{NewReadiness, StoredReadiness, MAX_READINESS_RECORD_BYTES};
pub use retention::{Pruned, Retention};
pub use schedules::{CrawlSchedule, NewCrawlSchedule};
pub use tracking::{
    Alert, AlertFilter, AlertSource, Experiment, Keyword, Monitor, NewExperiment, NewScheduleAlert, OwnedAlert,
    DEFAULT_MONITOR_INTERVAL_S,
};
pub use usage::{ip_identity, minute_bucket, Consumption, UsageCounts, USAGE_RETENTION_MINUTES, USAGE_WINDOW_MINUTES};
pub use users::{parse_tier, Tier, User, ANONYMOUS_RATE_LIMIT, FREE_RATE_LIMIT, PRO_RATE_LIMIT};
pub use webhooks::{
    webhook_backoff, webhook_retry_delay, AttemptOutcome, AttemptRecorded, ClaimLimits, ClaimedDelivery, Delivery,
    Enqueued, LoggedDelivery, NewDelivery, NewWebhook, OutboxEntry, OutboxState, OutboxStats, Webhook, WebhookPayload,
    WEBHOOK_DELIVERED_EVENTS, WEBHOOK_DROPPED_PREFIX, WEBHOOK_EVENTS, WEBHOOK_MAX_ATTEMPTS,
    WEBHOOK_MAX_PENDING_PER_SUBSCRIPTION, WEBHOOK_MAX_PENDING_TOTAL, WEBHOOK_RETRY_JITTER, WEBHOOK_SECRET_TAG,
    WEBHOOK_TEST_EVENT,
};
pub use workflows::{
    Approval, Intent, NewRun, Recovered, RunState, StepStatus, WorkflowRun, WorkflowStep, GATE_STEP, INTERRUPTED,
    MAX_RESUMES,
};
