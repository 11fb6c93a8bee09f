//! Opening the application: the database, the guarded fetcher, the audit slots and the
//! webhook dispatcher, from the settings the server maps onto [`Setup`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::pipeline::AnalysisLimits;
use crate::webhooks::Dispatcher;
use crate::{App, AuditSlots};

/// What the application is opened with.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The SQLite file (created and migrated when absent).
    pub db_path: PathBuf,
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
        let store = store::Store::open(&setup.db_path)?;
        let fetcher = fetch::Fetcher::new(setup.fetch)?;
        let webhooks = Arc::new(Dispatcher::new(store.clone(), fetcher.clone(), setup.webhook_retry_base));
        let slots = Arc::new(AuditSlots::new(setup.max_concurrent_audits, setup.audit_queue));
        let limits = AnalysisLimits::cpu_ms(setup.analysis_cpu_ms);
        let app = App::new(store, fetcher, slots, limits, webhooks.clone());
        Ok((app, webhooks))
    }
}
