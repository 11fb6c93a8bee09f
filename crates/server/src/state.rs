//! [`AppState`]: what every handler shares: the application, its engines wired to the settings, the
//! limiters.

use std::sync::Arc;
use std::time::Instant;

use crate::config::Config;
use crate::error::ApiError;
use crate::limiter::Limiter;

/// Shared state of the service: cheap to clone (a handful of `Arc`s).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The database.
    pub store: store::Store,
    /// The guarded network client.
    pub fetcher: fetch::Fetcher,
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
}

/// Failure to build the state.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Store(#[from] store::Error),
    /// The fetcher settings are invalid (a bad allow-list entry).
    #[error("invalid fetch settings: {0}")]
    Fetch(#[from] fetch::Error),
}

impl AppState {
    /// Opens the database under `config.data` and builds the fetcher.
    pub fn new(config: Config) -> Result<AppState, StateError> {
        let store = store::Store::open(config.db_path())?;
        AppState::with_store(config, store)
    }

    /// Builds the state around an open store: the application and its engines, wired to
    /// the settings.
    pub fn with_store(config: Config, store: store::Store) -> Result<AppState, StateError> {
        let fetcher = fetch::Fetcher::new(config.fetch_config())?;
        let retry_base = std::time::Duration::from_millis(config.webhook_retry_base_ms);
        let webhooks = Arc::new(app::webhooks::Dispatcher::new(store.clone(), fetcher.clone(), retry_base));
        let audits = Arc::new(app::AuditSlots::new(config.max_concurrent_audits, config.audit_queue));
        let app = app::App::new(
            store.clone(),
            fetcher.clone(),
            audits,
            app::pipeline::AnalysisLimits::cpu_ms(config.analysis_cpu_ms),
            webhooks.clone(),
        );
        let monitors = app::Monitors::new(app.clone(), config.monitor_interval_s);
        let geo = app::GeoSettings {
            base_url: config.geo.base_url.clone(),
            api_key: config.geo.api_key.clone(),
            model: config.geo.model.clone(),
            timeout_ms: config.geo.timeout_ms,
        };
        // Background audits of all domains together share one budget per minute.
        let budget = Limiter::new(None);
        let budget = Box::new(move |per_minute| budget.consume("badge-audits", 1, per_minute).allowed);
        Ok(AppState {
            geo: Arc::new(app::GeoService::new(&geo, config.fetch_config())),
            webhooks,
            limiter: Arc::new(Limiter::new(Some(app.clone()))),
            badges: Arc::new(app::BadgeQueue::new(app.clone(), config.badge_audit_url.clone(), budget)),
            widget_guard: Arc::new(Limiter::new(None)),
            workflows: app::Workflows::new(app.clone(), monitors.clone()),
            monitors,
            app,
            store,
            fetcher,
            config: Arc::new(config),
            started: Instant::now(),
        })
    }

    /// What one page's analysis may cost (`analysis_cpu_ms`).
    pub fn analysis_limits(&self) -> app::pipeline::AnalysisLimits {
        self.app.limits
    }

    /// Runs a store call on the blocking pool ([`app::App::db`]: the database file is
    /// checked first, in the same blocking task).
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&store::Store) -> store::Result<T> + Send + 'static,
    {
        Ok(self.app.db(f).await?)
    }

    /// 500 `internal` when the database file is no longer the one the service opened
    /// ([`app::App::check_db`], on the blocking pool).
    pub async fn check_db(&self) -> Result<(), ApiError> {
        Ok(self.app.check_db().await?)
    }
}
