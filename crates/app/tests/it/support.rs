//! An application over a fresh SQLite file, fetching from loopback only, and payers of
//! every kind.

use std::sync::Arc;
use std::time::Duration;

use app::quota::{Identity, Limiter, Payer};
use app::{App, RateLimits};

/// An application in its own temporary directory (removed when dropped).
pub struct TestApp {
    pub app: App,
    pub limiter: Arc<Limiter>,
    _dir: tempfile::TempDir,
}

/// The application with `slots` audits at once and `queue` waiting, allowed to fetch
/// from 127.0.0.1 and `localhost` (the fixture servers), rendering off.
pub fn open(slots: usize, queue: usize) -> TestApp {
    let dir = tempfile::tempdir().expect("temporary directory");
    let database = store::Database::Sqlite(dir.path().join("seo-audit.db"));
    open_on(dir, database, slots, queue)
}

/// [`open`] over `database` (a replica of a PostgreSQL database, when several open the
/// same one).
pub fn open_on(dir: tempfile::TempDir, database: store::Database, slots: usize, queue: usize) -> TestApp {
    let fetch = fetch::FetchConfig {
        allow_targets: vec!["127.0.0.1".to_string(), "localhost".to_string()],
        ..fetch::FetchConfig::default()
    };
    let (app, _webhooks) = App::open(app::Setup {
        database,
        fetch,
        max_concurrent_audits: slots,
        audit_queue: queue,
        analysis_cpu_ms: 10_000,
        webhook_retry_base: Duration::from_secs(1),
        lease: Duration::from_secs(30),
        observer: None,
        // No browser: a rendered audit or crawl is refused `not_configured`.
        render: render::RenderConfig {
            chromium: Some(dir.path().join("no-chromium")),
            ..render::RenderConfig::default()
        },
    })
    .expect("the application opens");
    let limiter = Arc::new(Limiter::new(Some(app.clone())));
    TestApp { app, limiter, _dir: dir }
}

impl TestApp {
    /// The directory of its database (the SQLite file and its journal).
    pub fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    /// An anonymous caller from `ip` with `per_minute` units.
    pub fn anonymous(&self, ip: &str, per_minute: u32) -> Payer {
        let identity = Identity::Anonymous { ip: ip.parse().expect("an address"), prefix: 32 };
        let limits = RateLimits { anonymous: per_minute, ..RateLimits::default() };
        Payer::new(identity, Arc::clone(&self.limiter), &limits)
    }

    /// Units `ip` has left this minute (asking costs nothing).
    pub async fn remaining(&self, ip: &str, per_minute: u32) -> u32 {
        self.limiter.consume(&format!("ip:{ip}"), 0, per_minute).await.remaining
    }
}

/// An HTML page titled `title` linking to `links`.
pub fn page(title: &str, links: &[&str]) -> String {
    let anchors: String = links.iter().map(|l| format!("<a href=\"{l}\">{l}</a>")).collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><title>{title}</title>\
         <meta name=\"description\" content=\"A page of the use-case tests, long enough to be a description.\">\
         </head><body><h1>{title}</h1><p>Some words of text on this page.</p>{anchors}</body></html>"
    )
}
