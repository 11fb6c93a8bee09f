//! seo-audit's application layer: every use case as a typed function over the store, the
//! fetcher and the engines, with no HTTP and no JSON-RPC in it. The server translates HTTP
//! and JSON-RPC to these functions and their errors back (docs/ARCHITECTURE.md).
//!
//! - [`App`]: the store, the fetcher, the audit slots, the analysis limits and where events
//!   go; the one audit path (admission, quota, fetch, analysis, result, record; module
//!   `audit`) is entered through [`App::audit_for_client`], [`App::audit_batch`],
//!   [`App::audit_charged`], [`App::audit_background`] or [`App::admit_paid`] with
//!   [`App::audit_paid`]; [`App::db`] runs a store call on the blocking pool.
//! - [`AuditSlots`]: the bounded audit concurrency and queue every audit passes.
//! - [`pipeline`]: fetching a page with its robots.txt and analysing it within its budget.
//! - [`Comparison`]: the one comparison of two audits (regressions, competitors, monitors).
//! - [`StoredResult`]: a stored audit read back as a typed value.
//! - The background engines: [`Workflows`] (workflow runs), [`Monitors`] (monitoring and
//!   its alert rules), [`BadgeQueue`] (background audits of the badge and report pages) and
//!   [`webhooks::Dispatcher`] (the webhook outbox).
//! - Use cases of the endpoints: [`opportunities`], [`fixes`], [`content`] (content gaps),
//!   [`ai`] (AI readiness and scan), [`GeoService`] (geo-check).
//! - [`history`]: stored audits read back (an owner's list, one audit, a URL's history).
//! - [`report`]: the public report pages (which audit a domain's report shows, where a
//!   visitor's audit is shown).
//! - [`glossary`]: the SEO glossary (get_seo_concept, the methodology resource).
//! - [`agent`]: what the agent-tool endpoint says besides its tools (identity, resources,
//!   prompts).
//! - [`techstack`]: technology detection from a page's facts, HTML and headers.
//! - [`quota`]: who a request acts as ([`quota::Identity`]) and the per-minute quota counter
//!   of every identity ([`quota::Limiter`]).
//! - [`Observer`]: what the application tells whoever counts it (the service's metrics).
//! - [`AppError`]: why a use case failed.

mod accounts;
pub mod agent;
pub mod ai;
mod ai_agents;
pub mod alerts;
mod application;
mod audit;
pub mod audit_compare;
pub mod badges;
mod compare;
pub mod competitors;
pub mod concept;
pub mod config;
pub mod content;
pub mod crawl;
mod db;
mod db_file;
mod error;
pub mod experiments;
pub mod fixes;
pub mod geo;
pub mod glossary;
pub mod history;
pub mod homed;
pub mod keywords;
mod lease;
pub mod memory;
pub mod methodology;
pub mod monitors;
pub mod observe;
pub mod opportunities;
pub mod pipeline;
pub mod quota;
pub mod report;
pub mod requests;
mod robots_memo;
mod setup;
pub mod site_info;
mod slots;
mod stored;
pub mod techstack;
pub mod webhooks;
pub mod workflows;
mod writers;

pub use accounts::{UsageFacts, MAX_WEBHOOKS_PER_USER};
pub use ai_visibility::{AGENT_PROBE_BUDGET, MAX_AGENT_PROBES};
pub use application::{App, Events};
pub use audit::{audit_record, page_text, AuditOptions, Audited, BatchAudits, Paid, MAX_STORED_TEXT, RENDER_UNITS};
pub use badges::BadgeQueue;
pub use compare::Comparison;
pub use error::{AppError, CURSOR_EXPECTED, GEO_SETTINGS, INTERNAL_MESSAGE, OVERLOADED_MESSAGE, RENDER_INSTALL};
pub use geo::{GeoService, GeoSettings};
pub use lease::DEFAULT_LEASE;
pub use monitors::{AlertRule, Monitors, OwnedMonitor};
pub use observe::{NoObserver, Observer, Phase};
pub use quota::RateLimits;
/// The settings of rendered audits' browser pool (docs/API.md, "Rendered audits"): the
/// server reaches the rendering crate only through the application.
pub use render::{RenderConfig, Renderer, Reservation};
pub use setup::{FetchSettings, OpenError, Setup};
pub use slots::{AuditSlots, Ticket};
pub use stored::StoredResult;
pub use workflows::Workflows;

// The lower layers' data types and pure helpers that the server speaks in. The server reaches
// the store and the fetcher only through `App`'s use cases; these are the values that cross
// (docs/ARCHITECTURE.md, "What each crate may import").
pub use fetch::{
    clip, validate_url, ConnectFailure, Error as FetchError, FetchConfig, TimeoutPhase, DEFAULT_BASE_URL,
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_TEXT_TIMEOUT, DEFAULT_TOTAL_TIMEOUT, MAX_URL_LEN,
};
pub use store::{
    format_rfc3339, ip_identity, minute_bucket, now_rfc3339, Alert, Consumption, Database, Error as StoreError, Intent,
    KeyRecord, LoggedDelivery, NewRun, OutboxState, Pruned, Retention, RunState, StepStatus, StoredAudit, Tier,
    Webhook, WebhookPayload, WorkflowRun, WorkflowStep, ANONYMOUS_RATE_LIMIT, BADGE_MAX_AGE, DB_FILE_NAME,
    DEFAULT_MONITOR_INTERVAL_S, FREE_RATE_LIMIT, GATE_STEP, PRO_RATE_LIMIT, SCOPES, WEBHOOK_DELIVERED_EVENTS,
    WEBHOOK_EVENTS,
};
pub use vocab::{
    AuditId, CrawlId, ErrorCode, MonitorId, Refusal, ScheduleId, Scope, Timestamp, UserId, WebhookEvent, WebhookId,
};
