//! [`AppState`]: what every handler shares: the application, its engines wired to the settings, the
//! limiters.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::config::Config;
use crate::error::ApiError;
use app::quota::Limiter;

/// Shared state of the service: cheap to clone (a handful of `Arc`s).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The one rate limiter of every quota-consuming endpoint.
    pub limiter: Arc<Limiter>,
    /// Settings the service was started with.
    pub config: Arc<Config>,
    /// The application layer: the one audit path and the use cases.
    pub app: app::App,
    /// When the service started (`uptime_s`).
    pub started: Instant,
    /// Background audits queued by the badge and report pages.
    pub badges: Arc<app::BadgeQueue>,
    /// Per-IP flood guard of the badge and report routes (not the audit quota).
    pub widget_guard: Arc<Limiter>,
    /// The AI search provider of geo-check (or why there is none).
    pub geo: Arc<app::GeoService>,
    /// Webhook delivery (events of key owners to their subscriptions).
    pub webhooks: Arc<app::webhooks::Dispatcher>,
    /// Monitoring: the scheduler [`crate::serve`] starts, and monitor_site's monitors.
    pub monitors: app::Monitors,
    /// The workflow engine of the workflow tools.
    pub workflows: app::Workflows,
    /// The Prometheus metrics, kept when `metrics_listen` is set (the `telemetry` crate).
    pub metrics: Option<Arc<telemetry::Metrics>>,
    /// Set from the shutdown signal on: `/readyz` answers 503 (docs/API.md, "Metrics,
    /// liveness and readiness").
    pub draining: Arc<AtomicBool>,
    /// Site crawls (docs/API.md, "Site crawl").
    pub crawls: app::crawl::Crawls,
    /// Scheduled crawls (docs/API.md, "Scheduled crawls"): the scheduler [`crate::serve`]
    /// starts, and the schedules' routes.
    pub schedules: app::crawl::Schedules,
    /// The bytes of request bodies being received, all requests together
    /// (`body_budget_mb`).
    pub bodies: http_serve::request::BodyBudget,
}

/// Failure to build the state: the database or the fetch settings.
pub type StateError = app::OpenError;

impl AppState {
    /// Opens the database under `config.data`, builds the fetcher, and wires the
    /// application and its engines to the settings.
    pub fn new(config: Config) -> Result<AppState, StateError> {
        let metrics = config.metrics_listen.map(|_| Arc::new(telemetry::Metrics::new()));
        let (app, webhooks) = app::App::open(app::Setup {
            database: config.database(),
            fetch: config.fetch_config(),
            max_concurrent_audits: config.max_concurrent_audits,
            audit_queue: config.audit_queue,
            analysis_cpu_ms: config.analysis_cpu_ms,
            webhook_retry_base: std::time::Duration::from_millis(config.webhook_retry_base_ms),
            lease: std::time::Duration::from_millis(config.lease_ms),
            observer: metrics.clone().map(|m| m as Arc<dyn app::Observer>),
            render: config.render_config(),
        })?;
        let monitors = app::Monitors::new(app.clone(), config.monitor_interval_s);
        let bodies = http_serve::request::BodyBudget::new(
            usize::try_from(config.body_budget_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
        );
        // Background audits of all domains together share one budget per minute.
        let budget = Limiter::new(None);
        let budget = Box::new(move |per_minute| budget.consume_in_memory("badge-audits", 1, per_minute).allowed);
        let limiter = Arc::new(Limiter::new(Some(app.clone())));
        let crawls = app::crawl::Crawls::new(app.clone())
            .with_time_limit(std::time::Duration::from_secs(config.crawl_time_limit_s.max(1)))
            .with_external_budget(config.crawl_external_budget)
            .with_caps(config.max_running_crawls, config.max_running_crawls_per_caller)
            .with_max_pages(config.max_pages);
        // A scheduled run is charged on the service's one limiter, as a crawl started with
        // its key is.
        let schedules = app::crawl::Schedules::new(crawls.clone(), limiter.clone(), config.rate_limits);
        Ok(AppState {
            geo: Arc::new(app::GeoService::new(&config.geo, config.fetch_config())),
            webhooks,
            limiter,
            badges: Arc::new(app::BadgeQueue::new(app.clone(), config.badge_audit_url.clone(), budget)),
            widget_guard: Arc::new(Limiter::new(None)),
            workflows: app::Workflows::new(app.clone(), monitors.clone()),
            crawls,
            schedules,
            monitors,
            app,
            config: Arc::new(config),
            started: Instant::now(),
            metrics,
            draining: Arc::new(AtomicBool::new(false)),
            bodies,
        })
    }

    /// Whether the service is shutting down (`/readyz` answers 503).
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Marks the service as shutting down: `/readyz` answers 503 from now on.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// What one page's analysis may cost (`analysis_cpu_ms`).
    pub fn analysis_limits(&self) -> app::pipeline::AnalysisLimits {
        self.app.limits
    }

    /// 500 `internal` when the database file is no longer the one the service opened
    /// ([`app::App::check_db`], on the blocking pool).
    pub async fn check_db(&self) -> Result<(), ApiError> {
        Ok(self.app.check_db().await?)
    }
}
