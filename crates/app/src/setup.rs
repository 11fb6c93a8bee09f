//! Opening the application: the database, the guarded fetcher, the audit slots and the
//! webhook dispatcher, from the settings the server maps onto [`Setup`].

use std::sync::Arc;
use std::time::Duration;

use crate::pipeline::AnalysisLimits;
use crate::webhooks::Dispatcher;
use crate::{App, AuditSlots};

/// What the application is opened with.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Where the data lives: an SQLite file (created when absent) or a PostgreSQL
    /// database; migrated to this build's schema when opened.
    pub database: store::Database,
    /// The fetcher's timeouts, body limit, allow-list and user agent.
    pub fetch: fetch::FetchConfig,
    /// Audits that run at once.
    pub max_concurrent_audits: usize,
    /// Audits that may wait for a slot.
    pub audit_queue: usize,
    /// CPU time one page's analysis may take, in milliseconds.
    pub analysis_cpu_ms: u64,
    /// Delay before the first retry of a webhook delivery; it doubles at each attempt.
    pub webhook_retry_base: Duration,
    /// How long a claim on shared work (a monitor check, a workflow run) holds without
    /// being renewed: a replica that dies mid-job has its work taken over by another this
    /// long after its last renewal (docs/ARCHITECTURE.md, "Replicas").
    pub lease: Duration,
    /// Who counts what the application does (the service's metrics); `None`: nobody.
    pub observer: Option<Arc<dyn crate::Observer>>,
    /// The browser pool of rendered audits (docs/API.md, "Rendered audits"). When no
    /// Chromium is found, rendering is off (logged once) and the rest works as before.
    pub render: render::RenderConfig,
}

/// How targets are fetched (the `[fetch]` section of the service's settings): the fetcher's
/// limits in config-file units.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FetchSettings {
    /// Longest wait for a connection, per hop.
    pub connect_timeout_ms: u64,
    /// Longest time for a whole page fetch.
    pub total_timeout_ms: u64,
    /// Longest time for robots.txt and other text files.
    pub text_timeout_ms: u64,
    /// Largest page body after decompression.
    pub max_body_bytes: usize,
    /// How long a site's robots.txt is reused across audits of its pages (0: never).
    pub robots_cache_ttl_s: u64,
}

impl Default for FetchSettings {
    fn default() -> Self {
        FetchSettings {
            connect_timeout_ms: ms(fetch::DEFAULT_CONNECT_TIMEOUT),
            total_timeout_ms: ms(fetch::DEFAULT_TOTAL_TIMEOUT),
            text_timeout_ms: ms(fetch::DEFAULT_TEXT_TIMEOUT),
            max_body_bytes: fetch::DEFAULT_MAX_BODY_BYTES,
            // Short enough that an edited robots.txt shows within a minute, long enough that
            // a batch or a crawl of one site asks for it once.
            robots_cache_ttl_s: 60,
        }
    }
}

impl FetchSettings {
    /// The fetcher's settings: these limits, the service's public `base_url` (its user
    /// agent), the targets let through the address guard, and whether only those are reached.
    pub fn config(&self, base_url: &str, allow_targets: &[String], offline: bool) -> fetch::FetchConfig {
        fetch::FetchConfig {
            connect_timeout: Duration::from_millis(self.connect_timeout_ms),
            total_timeout: Duration::from_millis(self.total_timeout_ms),
            text_timeout: Duration::from_millis(self.text_timeout_ms),
            max_body_bytes: self.max_body_bytes,
            base_url: base_url.to_string(),
            allow_targets: allow_targets.to_vec(),
            robots_cache_ttl: Duration::from_secs(self.robots_cache_ttl_s),
            offline,
            ..fetch::FetchConfig::default()
        }
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Why the application could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Store(#[from] store::Error),
    /// The fetcher settings are invalid (a bad allow-list entry).
    #[error("invalid fetch settings: {0}")]
    Fetch(#[from] fetch::Error),
}

impl App {
    /// Opens the database and builds the fetcher and the webhook dispatcher (which the
    /// caller starts, [`Dispatcher::spawn`]) the application writes its events to.
    ///
    /// # Errors
    /// The database cannot be opened or migrated, or the fetch settings are invalid.
    pub fn open(setup: Setup) -> Result<(App, Arc<Dispatcher>), OpenError> {
        let (store, _) = store::Store::open_database(&setup.database, store::StoreOptions::default())?;
        let fetcher = fetch::Fetcher::new(setup.fetch)?;
        let webhooks = Arc::new(Dispatcher::new(store.clone(), fetcher.clone(), setup.webhook_retry_base));
        let slots = Arc::new(AuditSlots::new(setup.max_concurrent_audits, setup.audit_queue));
        let limits = AnalysisLimits::cpu_ms(setup.analysis_cpu_ms);
        let mut app = App::new(store, fetcher, slots, limits, webhooks.clone());
        // A lease shorter than this would be renewed more often than the database can
        // answer under load.
        app.lease = setup.lease.max(Duration::from_millis(100));
        if let Some(observer) = setup.observer {
            webhooks.observe(observer.clone());
            app = app.with_observer(observer);
        }
        let renderer = render::Renderer::new(setup.render, app.fetcher.clone());
        match &renderer {
            Ok(_) => tracing::info!("rendered audits are on"),
            Err(e) => tracing::warn!(error = %e, "rendered audits are off: render=true answers 503 not_configured"),
        }
        Ok((app.with_renderer(renderer), webhooks))
    }
}
