//! Settings of the service, defined once: [`Config`] and its sections are the settings (a
//! field each: its key in the TOML file, its type, its doc) and their `Default` is the
//! defaults. The binary reads them from the TOML file, the `SEO_AUDIT_*` variables (each
//! setting's name derived from its key) and its flags, in that order over the defaults
//! (docs/API.md, "Running the service"; the layering is `bins/seo-audit/src/settings.rs`).
//! They are data that the binary, the application and the server all read, so they live
//! in the application rather than in the server, which reads its listener's part.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use serde::{Deserialize, Deserializer, Serialize};

/// Largest request body accepted: 1 MiB (docs/API.md, "Conventions of every endpoint").
pub const MAX_REQUEST_BODY_BYTES: usize = 1024 * 1024;
/// Default of `body_budget_mb`: the bytes of bodies held however many clients send them. The
/// allocator keeps about as much again of the bodies refused past it, whatever the budget:
/// 10 HTTP/2 connections of 200 stalled bodies grew the process by 54 to 64 MiB with 16, by
/// 70 MiB with 32 (docs/SECURITY.md, "Request bodies").
pub const DEFAULT_BODY_BUDGET_MB: u64 = 16;
/// Audits of one batch that run at the same time (docs/API.md, "POST /api/v1/audit/batch").
pub const BATCH_CONCURRENCY: usize = 3;
use crate::badges::DEFAULT_BADGE_AUDIT_URL;
/// CPU time one page's analysis (parse, facts, rules) may take: the application's default.
pub use crate::pipeline::DEFAULT_ANALYSIS_CPU;
/// Most URLs in one batch (a bound of the REST interface, defined with its wire types).
pub use api::MAX_BATCH_URLS;
/// Default of [`Config::anonymous_ipv6_prefix`]: an IPv6 client counts as its /64,
/// the block one subscriber usually gets.
pub const DEFAULT_ANONYMOUS_IPV6_PREFIX: u8 = 64;

/// Requests (quota units) per minute of each kind of identity: the application's settings.
pub use crate::RateLimits;

/// Pages per site crawl of each kind of identity: the application's settings (the
/// `[max_pages]` section).
pub use crate::crawl::MaxPages;

/// How targets are fetched: the application's settings (the `[fetch]` section).
pub use crate::FetchSettings;

/// The AI search provider of geo-check (`POST /api/geo-check`): the application's settings.
pub use crate::GeoSettings;

/// Every setting of `seo-audit serve`. [`Config::default`] is the no-configuration service.
/// A field is a setting (a struct field is a `[section]` of settings): adding one here adds
/// it to the file, the environment and the settings tests of the binary at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address and port to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Address and port of the Prometheus metrics listener (`GET /metrics`, also `/livez` and
    /// `/readyz`), apart from the public port; port 0 picks a free port. Unset: no metrics
    /// are kept or served (docs/API.md, "Metrics, liveness and readiness").
    pub metrics_listen: Option<SocketAddr>,
    /// Directory holding the SQLite file ([`crate::DB_FILE_NAME`]).
    pub data: PathBuf,
    /// A `postgres://` URL: the data lives in that PostgreSQL database, shared by every
    /// replica started with the same URL (docs/DEPLOYMENT.md). Empty: SQLite under `data`.
    pub database_url: String,
    /// Public base URL of the service (user agent, links in documents).
    pub base_url: String,
    /// Addresses the address guard lets through (development and tests only).
    pub allow_targets: Vec<String>,
    /// Test and sandbox setting (`SEO_AUDIT_OFFLINE=1`): only `allow_targets` are
    /// reachable, public hosts included in the refusal, and unlisted names are never looked
    /// up (see `crate::FetchConfig::offline`). Off by default.
    pub offline: bool,
    /// Peers whose `X-Forwarded-For` is believed. Empty: the socket peer is the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// Prefix length (1 to 128) of the network an anonymous IPv6 client counts as, for the
    /// anonymous quota and the badge's flood guard; 128 counts every address apart.
    #[serde(deserialize_with = "ipv6_prefix")]
    pub anonymous_ipv6_prefix: u8,
    /// Per-minute quota of each kind of identity.
    pub rate_limits: RateLimits,
    /// Pages per site crawl of each kind of identity (a request's `max_pages` is cut to it).
    pub max_pages: MaxPages,
    /// Audits fetched and analysed at once, server-wide.
    pub max_concurrent_audits: usize,
    /// Audits waiting for a slot; past that, 503 `overloaded`.
    pub audit_queue: usize,
    /// CPU time one page's analysis may take, in milliseconds; a page that needs more is
    /// audited as far as it was parsed, with the `html-too-complex` finding. 0: no limit
    /// (the parser's structural limits still hold).
    pub analysis_cpu_ms: u64,
    /// The Chromium binary of rendered audits (docs/API.md, "Rendered audits"). Unset: the
    /// first of `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable` on
    /// `PATH`; none found: `render=true` answers 503 `not_configured`.
    pub chromium: Option<PathBuf>,
    /// Browser tabs rendering at once.
    pub render_tabs: usize,
    /// Renders that may wait for a tab; past that, 503 `overloaded`.
    pub render_queue: usize,
    /// Time limit of one render, in milliseconds.
    pub render_timeout_ms: u64,
    /// Memory of the browser's processes, in MiB, past which it is restarted.
    pub render_memory_mb: u64,
    /// Target fetching limits.
    pub fetch: FetchSettings,
    /// AI search provider.
    pub geo: GeoSettings,
    /// Time a client gets to send its request headers, in milliseconds: from the accept
    /// to the first complete request head, then for each further head once its first
    /// byte is in.
    pub header_timeout_ms: u64,
    /// Time a client gets to send its request body, in milliseconds (a slow sender is
    /// answered 400 `invalid_request` and cut off).
    pub body_timeout_ms: u64,
    /// Mebibytes of request bodies the server holds while receiving them, all requests
    /// together; past it a body is refused with 503 `overloaded` (docs/SECURITY.md,
    /// "Request bodies").
    pub body_budget_mb: u64,
    /// Longest wait for requests in flight at shutdown, in milliseconds; the process exits
    /// at most about a second after it, work still running or not.
    pub shutdown_grace_ms: u64,
    /// Time a connection may stay open with no request in flight, in milliseconds
    /// (HTTP/1.1 keep-alive and HTTP/2 alike).
    pub idle_timeout_ms: u64,
    /// Connections open at once, server-wide; over it a new connection is closed at once.
    /// 0: only the open-file limit bounds them. Never more than the open-file limit allows
    /// (lowered at start, see `docs/SECURITY.md`).
    pub max_connections: usize,
    /// Connections open at once from one client IP (one /64 for IPv6; trusted proxies
    /// only count globally); over it a new connection is closed at once. 0: no per-IP cap.
    pub max_connections_per_ip: usize,
    /// PEM file of the server's certificate chain (its certificate first): with `tls_key`,
    /// the service speaks HTTPS (HTTP/2 and HTTP/1.1 by ALPN) instead of HTTP. Read at start;
    /// a renewed certificate takes a restart (docs/DEPLOYMENT.md).
    pub tls_cert: Option<PathBuf>,
    /// PEM file of the private key of `tls_cert` (PKCS#8, PKCS#1 or SEC1).
    pub tls_key: Option<PathBuf>,
    /// URL the badge audits in the background for a domain without a recent audit;
    /// `{domain}` is replaced by the domain. Empty: no background audits.
    pub badge_audit_url: String,
    /// Requests per minute per client IP to the badge and report routes: a flood guard,
    /// separate from the audit quota (the badge consumes no audit quota; docs/API.md).
    pub widget_rate_limit: u32,
    /// Seconds between two audits of a monitored page (daily by default; docs/API.md,
    /// "Monitoring").
    pub monitor_interval_s: u64,
    /// Delay before the first retry of a failed webhook delivery, in milliseconds; it
    /// doubles at each further attempt.
    pub webhook_retry_base_ms: u64,
    /// How long a replica's claim on a monitor check or a workflow run holds without being
    /// renewed, in milliseconds: work of a replica that died is taken over by another this
    /// long after its last renewal (docs/API.md, "Running several replicas").
    pub lease_ms: u64,
    /// How long a site crawl runs at most, in seconds, counted from its start across
    /// restarts; then it ends with what it has (docs/API.md, "Site crawl", "Ends").
    pub crawl_time_limit_s: u64,
    /// External URLs a site crawl checks at most (`broken-external-link`): one per page of
    /// its `max_pages`, never more than this; 0 turns the checks off (docs/API.md, "Site
    /// crawl").
    pub crawl_external_budget: u64,
    /// Site crawls running at once, every replica of the database together (at least 1);
    /// more wait `queued` and start in the order they were made (docs/API.md, "Site crawl").
    pub max_running_crawls: usize,
    /// Site crawls of one caller (a key's owner, an anonymous client network) running at
    /// once (at least 1); its others wait `queued`.
    pub max_running_crawls_per_caller: usize,
    /// Days an audit made without a key is kept (then deleted by the hourly retention sweep).
    pub retain_anonymous_audits_days: u32,
    /// Days an audit made with a key is kept.
    pub retain_keyed_audits_days: u32,
    /// Days an ended crawl made without a key is kept, with its pages.
    pub retain_anonymous_crawls_days: u32,
    /// Days an ended crawl made with a key is kept, with its pages.
    pub retain_keyed_crawls_days: u32,
    /// Ended crawls made without a key kept at most, all anonymous callers together (the
    /// newest; older ones are deleted with their pages).
    pub retain_anonymous_crawls: usize,
    /// Ended crawls kept at most per key owner (the newest).
    pub retain_keyed_crawls_per_owner: usize,
    /// Days after its end an ended crawl keeps its pages (anonymous or keyed); then the
    /// retention sweep deletes its page rows and keeps the crawl, its summary and issues.
    pub retain_crawl_pages_days: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            metrics_listen: None,
            data: PathBuf::from("./data"),
            database_url: String::new(),
            base_url: crate::DEFAULT_BASE_URL.to_string(),
            allow_targets: Vec::new(),
            offline: false,
            trusted_proxies: Vec::new(),
            anonymous_ipv6_prefix: DEFAULT_ANONYMOUS_IPV6_PREFIX,
            rate_limits: RateLimits::default(),
            max_pages: MaxPages::default(),
            max_concurrent_audits: 16,
            audit_queue: 64,
            fetch: FetchSettings::default(),
            geo: GeoSettings::default(),
            header_timeout_ms: 10_000,
            analysis_cpu_ms: u64::try_from(DEFAULT_ANALYSIS_CPU.as_millis()).unwrap_or(u64::MAX),
            chromium: None,
            render_tabs: crate::RenderConfig::default().tabs,
            render_queue: crate::RenderConfig::default().queue,
            render_timeout_ms: u64::try_from(crate::RenderConfig::default().timeout.as_millis()).unwrap_or(u64::MAX),
            render_memory_mb: crate::RenderConfig::default().memory_limit_bytes >> 20,
            body_timeout_ms: 30_000,
            body_budget_mb: DEFAULT_BODY_BUDGET_MB,
            shutdown_grace_ms: 30_000,
            idle_timeout_ms: 60_000,
            max_connections: 10_000,
            max_connections_per_ip: 256,
            tls_cert: None,
            tls_key: None,
            badge_audit_url: DEFAULT_BADGE_AUDIT_URL.to_string(),
            widget_rate_limit: 120,
            monitor_interval_s: u64::from(crate::DEFAULT_MONITOR_INTERVAL_S),
            webhook_retry_base_ms: crate::webhooks::DEFAULT_RETRY_BASE_MS,
            lease_ms: u64::try_from(crate::DEFAULT_LEASE.as_millis()).unwrap_or(u64::MAX),
            crawl_time_limit_s: crate::crawl::DEFAULT_TIME_LIMIT.as_secs(),
            crawl_external_budget: crate::crawl::DEFAULT_EXTERNAL_BUDGET,
            max_running_crawls: crate::crawl::DEFAULT_MAX_RUNNING,
            max_running_crawls_per_caller: crate::crawl::DEFAULT_MAX_RUNNING_PER_CALLER,
            retain_anonymous_audits_days: 90,
            retain_keyed_audits_days: 730,
            retain_anonymous_crawls_days: 7,
            retain_keyed_crawls_days: 180,
            retain_anonymous_crawls: 1_000,
            retain_keyed_crawls_per_owner: 200,
            retain_crawl_pages_days: 90,
        }
    }
}

impl Config {
    /// What the retention sweep keeps (the `retain_*` settings).
    pub fn retention(&self) -> crate::Retention {
        let days = |d: u32| time::Duration::days(i64::from(d.max(1)));
        crate::Retention {
            anonymous_audit_age: days(self.retain_anonymous_audits_days),
            keyed_audit_age: days(self.retain_keyed_audits_days),
            anonymous_crawl_age: days(self.retain_anonymous_crawls_days),
            keyed_crawl_age: days(self.retain_keyed_crawls_days),
            anonymous_crawls: self.retain_anonymous_crawls,
            keyed_crawls_per_owner: self.retain_keyed_crawls_per_owner,
            crawl_pages_age: days(self.retain_crawl_pages_days),
        }
    }

    /// Path of the SQLite file inside [`Config::data`].
    pub fn db_path(&self) -> PathBuf {
        self.data.join(crate::DB_FILE_NAME)
    }

    /// Where the data lives: the PostgreSQL database of [`Config::database_url`] when it is
    /// set, else the SQLite file under [`Config::data`].
    pub fn database(&self) -> crate::Database {
        match self.database_url.trim() {
            "" => crate::Database::Sqlite(self.db_path()),
            url => crate::Database::Postgres(url.to_owned()),
        }
    }

    /// `https` when the service speaks TLS (`tls_cert` is set), else `http`.
    pub fn scheme(&self) -> &'static str {
        if self.tls_cert.is_some() {
            "https"
        } else {
            "http"
        }
    }

    /// The browser pool these settings describe.
    pub fn render_config(&self) -> crate::RenderConfig {
        crate::RenderConfig {
            chromium: self.chromium.clone(),
            tabs: self.render_tabs.max(1),
            queue: self.render_queue,
            timeout: std::time::Duration::from_millis(self.render_timeout_ms.max(1)),
            memory_limit_bytes: self.render_memory_mb.saturating_mul(1 << 20),
        }
    }

    /// The fetcher settings these settings describe.
    pub fn fetch_config(&self) -> crate::FetchConfig {
        self.fetch.config(&self.base_url, &self.allow_targets, self.offline)
    }
}

/// An IPv6 prefix length: 1 to 128.
fn ipv6_prefix<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
    let bits = u8::deserialize(deserializer)?;
    if (1..=128).contains(&bits) {
        Ok(bits)
    } else {
        Err(serde::de::Error::custom(format!("{bits} is not an IPv6 prefix length (1 to 128)")))
    }
}
