//! The application value every use case runs on ([`App`]), apart from the use cases: each
//! module that holds one (`audit`, `quota`, `crawl`...) names it here, so none of them needs
//! another's file for it (`.ci/import_loops.py`).

use std::sync::Arc;

use fetch::Fetcher;

use crate::observe::Observer;
use crate::pipeline::AnalysisLimits;
use crate::slots::AuditSlots;

/// The browser of rendered audits, or why there is none.
#[derive(Debug, Clone)]
pub(crate) enum Browser {
    /// A pool of tabs.
    Ready(render::Renderer),
    /// No browser: why (the cause the log and `not_configured`'s log line name).
    Off(Arc<str>),
}

/// Who delivers the events a use case wrote to the store's webhook outbox (the server's
/// webhook dispatcher). Events are written in the same transaction as the change that
/// causes them (docs/API.md, "Webhooks"); this only says there is work.
pub trait Events: Send + Sync {
    /// Events were written to the outbox; never waits.
    fn enqueued(&self, enqueued: &store::Enqueued);
}

/// The application: what every use case runs on. Cheap to clone.
#[derive(Clone)]
pub struct App {
    /// The database.
    pub store: store::Store,
    /// The guarded network client.
    pub fetcher: Fetcher,
    /// Bounded audit concurrency and queue: taken only by the entries of this module
    /// (read-only outside: [`App::audits_running`], [`App::audits_waiting`]).
    pub(crate) slots: Arc<AuditSlots>,
    /// What one page's analysis may cost.
    pub limits: AnalysisLimits,
    pub(crate) events: Arc<dyn Events>,
    /// The database file the store opened (see [`App::check_db_file`]).
    pub(crate) db_file: crate::db_file::DbFile,
    /// Quota grants waiting to be written ([`App::record_usage`]).
    pub(crate) usage: Arc<crate::writers::UsageBuffer>,
    /// Audits waiting to be stored ([`App::record`]).
    pub(crate) writer: Arc<crate::writers::AuditWriter>,
    /// How long a replica's claim on shared work (a monitor check, a workflow run) holds
    /// without being renewed ([`crate::Setup::lease`]).
    pub lease: std::time::Duration,
    /// Who counts what the application does ([`crate::Observer`]; nothing by default).
    pub(crate) observer: Arc<dyn Observer>,
    /// The browser of rendered audits ([`App::with_renderer`]; none by default).
    pub(crate) browser: Browser,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("slots", &self.slots).field("limits", &self.limits).finish_non_exhaustive()
    }
}
