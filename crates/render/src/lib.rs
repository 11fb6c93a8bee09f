//! Rendered audits: a page loaded in headless Chromium, as a search engine that runs
//! JavaScript sees it (`docs/API.md`, "Rendered audits").
//!
//! A [`Renderer`] is a fixed pool of browser tabs with a bounded queue. Every request the
//! browser makes (document, scripts, XHR, frames, images, websockets) goes through a forward
//! proxy in this process that applies the fetcher's address guard and its size and time
//! limits; requests the guard refuses are listed in [`Rendered::blocked`].
//!
//! This crate is I/O (it starts processes and serves the proxy); the comparison of the
//! served and the rendered page is pure and lives in `audit-core`.

mod browser;
mod error;

pub use browser::{reap_orphans, Reaped, PROFILE_OWNER_FILE, PROFILE_PREFIX};
pub use error::RenderError;
mod tab;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use url::Url;

use crate::browser::BrowserProcess;

/// Time a render may take beyond its limit (serialising a page that did not settle, closing
/// its tab and context) before the browser is taken to hang.
const HANG_MARGIN: Duration = Duration::from_secs(15);

/// How often the memory of the browser's processes is read while a page renders.
const MEMORY_POLL: Duration = Duration::from_millis(200);

/// Resolves, with the bytes used, once the processes of `browser` together use more than
/// `limit` bytes; never otherwise. Reading the processes' memory walks their page tables
/// (`/proc/PID/smaps_rollup`), so it is done on the blocking pool, not the async workers.
async fn over_memory(browser: &Arc<BrowserProcess>, limit: u64) -> u64 {
    loop {
        tokio::time::sleep(MEMORY_POLL).await;
        let reading = Arc::clone(browser);
        let used = tokio::task::spawn_blocking(move || reading.memory_bytes()).await.unwrap_or(0);
        if used > limit {
            return used;
        }
    }
}

/// The JavaScript heap of one page, in MiB: half the browser's memory limit (at least
/// 64 MiB), so one page's script fails in its own tab before the watchdog must restart the
/// whole browser.
fn heap_mb(config: &RenderConfig) -> u64 {
    (config.memory_limit_bytes >> 21).max(64)
}

/// How renders are bounded (`docs/API.md`, "Rendered audits").
#[derive(Debug, Clone)]
pub struct RenderConfig {
    /// The Chromium binary; `None` looks for `chromium`, `chromium-browser`,
    /// `google-chrome` and `google-chrome-stable` on `PATH`.
    pub chromium: Option<PathBuf>,
    /// Tabs rendering at once (default 2).
    pub tabs: usize,
    /// Renders that may wait for a tab; one more is refused as overloaded (default 8).
    pub queue: usize,
    /// The time limit of one render, from navigation to the serialised DOM (default 10 s).
    pub timeout: Duration,
    /// The browser is restarted once its processes together use more memory than this
    /// (default 1 GiB).
    pub memory_limit_bytes: u64,
}

impl Default for RenderConfig {
    fn default() -> RenderConfig {
        RenderConfig {
            chromium: None,
            tabs: 2,
            queue: 8,
            timeout: Duration::from_secs(10),
            memory_limit_bytes: 1 << 30,
        }
    }
}

/// A request of the page that the address guard (or a limit) refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedRequest {
    /// The URL the browser asked for.
    pub url: String,
    /// Why it was refused, in a sentence (the fetcher's wording, e.g. the guard's refusal).
    pub reason: String,
}

/// A page as the browser left it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The URL of the document after redirects and client-side navigation.
    pub final_url: String,
    /// The serialised DOM: the document's doctype (when it has one) and
    /// `document.documentElement.outerHTML`, at most the fetcher's body limit in bytes.
    pub html: String,
    /// Requests refused by the guard or a limit, in the order they were made.
    pub blocked: Vec<BlockedRequest>,
    /// Requests the page made through the proxy, refused ones included.
    pub requests: u32,
    /// Wall-clock time of the render.
    pub elapsed: Duration,
    /// The page had not settled (loaded, then no request for 500 ms) within the time limit;
    /// `html` is the DOM as it stood at the limit.
    pub timed_out: bool,
    /// The HTTP status of the last document answer of the main frame, when the browser
    /// reported one.
    pub status: Option<u16>,
}

/// A pool of headless-Chromium tabs behind the guarded proxy. Cheap to clone.
///
/// - At most `tabs` renders run at once, each in a fresh browser context (an incognito-like
///   profile of its own, closed after the render) with its own proxy; `queue` more may wait
///   for a tab, and one more is refused at once with [`RenderError::Overloaded`].
/// - One browser serves all tabs. It starts on the first render (with a fresh temporary
///   profile directory, removed when it goes), and is replaced when it has died (a render
///   that finds it dead starts a new one, and a render that fails because it died is tried
///   once more) or when its processes together use more than `memory_limit_bytes` after a
///   render.
#[derive(Clone)]
pub struct Renderer {
    inner: Arc<Inner>,
}

struct Inner {
    config: RenderConfig,
    chromium: PathBuf,
    fetcher: fetch::Fetcher,
    tabs: Semaphore,
    /// Renders running or waiting for a tab.
    admitted: AtomicUsize,
    /// The browser, once started; renders hold a clone while they use it, so a replaced
    /// browser is killed when the last render on it ends.
    browser: tokio::sync::Mutex<Option<Arc<BrowserProcess>>>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("config", &self.inner.config)
            .field("chromium", &self.inner.chromium)
            .finish_non_exhaustive()
    }
}

/// A place in the pool (running or waiting for a tab), taken before the render it is for
/// ([`Renderer::reserve`], [`Renderer::try_reserve`]) and given back when it is dropped:
/// when its render ends, or unused. A caller that charges for a render takes its place
/// first, so a full pool is refused before anything is charged (`docs/API.md`, "Rendered
/// audits").
#[must_use = "a reservation holds a place in the pool until it is dropped"]
pub struct Reservation {
    renderer: Renderer,
}

impl std::fmt::Debug for Reservation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reservation").finish_non_exhaustive()
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.renderer.inner.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Reservation {
    /// The renderer this place belongs to.
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// Renders `url` in this place ([`Renderer::render`] without its admission); the place
    /// is given back when the render ends.
    ///
    /// # Errors
    /// See [`RenderError`]; never [`RenderError::Overloaded`] for want of a place.
    pub async fn render(self, url: &Url) -> Result<Rendered, RenderError> {
        let renderer = self.renderer.clone();
        renderer.render_in(url, self).await
    }
}

impl Renderer {
    /// A renderer whose browser requests pass `fetcher`'s address guard and limits. The
    /// browser starts on the first render.
    ///
    /// # Errors
    /// [`RenderError::NotConfigured`] when no Chromium binary is found.
    pub fn new(config: RenderConfig, fetcher: fetch::Fetcher) -> Result<Renderer, RenderError> {
        // A service killed before it could clean up left its browser running and its
        // profile on disk; the next start takes them away.
        let reaped = browser::reap_orphans(&std::env::temp_dir());
        if reaped != browser::Reaped::default() {
            tracing::info!(browsers = reaped.browsers, profiles = reaped.profiles, "reaped what a killed service left");
        }
        let chromium = browser::find_chromium(config.chromium.as_deref())?;
        let tabs = Semaphore::new(config.tabs.max(1));
        Ok(Renderer {
            inner: Arc::new(Inner {
                config,
                chromium,
                fetcher,
                tabs,
                admitted: AtomicUsize::new(0),
                browser: tokio::sync::Mutex::new(None),
            }),
        })
    }

    /// The settings this renderer was built with.
    pub fn config(&self) -> &RenderConfig {
        &self.inner.config
    }

    /// The Chromium binary in use.
    pub fn chromium(&self) -> &std::path::Path {
        &self.inner.chromium
    }

    /// Renders running or waiting for a tab.
    pub fn in_flight(&self) -> usize {
        self.inner.admitted.load(Ordering::SeqCst)
    }

    /// The process id of the running browser, if one runs (for operators and tests).
    pub async fn browser_pid(&self) -> Option<u32> {
        self.inner.browser.lock().await.as_ref().and_then(|b| b.pid())
    }

    /// Places in the pool still free (running or waiting for a tab).
    pub fn free_places(&self) -> usize {
        self.places().saturating_sub(self.in_flight())
    }

    /// Places in the pool: tabs plus queue.
    fn places(&self) -> usize {
        self.inner.config.tabs.max(1) + self.inner.config.queue
    }

    /// One place in the pool, or [`RenderError::Overloaded`] when every tab is busy and the
    /// queue is full.
    ///
    /// # Errors
    /// [`RenderError::Overloaded`].
    pub fn reserve(&self) -> Result<Reservation, RenderError> {
        self.try_reserve(1)?.pop().ok_or(RenderError::Overloaded)
    }

    /// `n` places in the pool, all or none: [`RenderError::Overloaded`] (and no place taken)
    /// when fewer than `n` are free.
    ///
    /// # Errors
    /// [`RenderError::Overloaded`].
    pub fn try_reserve(&self, n: usize) -> Result<Vec<Reservation>, RenderError> {
        let limit = self.places();
        self.inner
            .admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |taken| {
                taken.checked_add(n).filter(|&after| after <= limit)
            })
            .map_err(|_| RenderError::Overloaded)?;
        Ok((0..n).map(|_| Reservation { renderer: self.clone() }).collect())
    }

    /// The profile directory of the running browser, if one runs (for operators and tests):
    /// a fresh temporary directory per browser start, removed when the browser goes.
    pub async fn profile_dir(&self) -> Option<PathBuf> {
        self.inner.browser.lock().await.as_ref().and_then(|b| b.profile_dir())
    }

    /// Loads `url` in a fresh browser context, waits until the page settles (network idle or
    /// the time limit), and returns the serialised DOM: [`Renderer::reserve`], then
    /// [`Reservation::render`].
    ///
    /// Only `http` and `https` URLs are rendered (`file:`, `data:` and the like are
    /// [`fetch::Error::InvalidUrl`]), and the URL must pass the address guard before the
    /// browser is asked; a document the guard refuses after a redirect is
    /// [`RenderError::Fetch`] too.
    ///
    /// # Errors
    /// See [`RenderError`].
    pub async fn render(&self, url: &Url) -> Result<Rendered, RenderError> {
        self.check(url)?;
        let place = self.reserve()?;
        self.render_in(url, place).await
    }

    /// Whether `url` may be rendered at all: http or https, with a host, and passing the
    /// address guard.
    fn check(&self, url: &Url) -> Result<(), RenderError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(RenderError::Fetch(fetch::Error::InvalidUrl(format!(
                "only http and https pages are rendered, not {}:",
                url.scheme()
            ))));
        }
        if url.host().is_none() {
            return Err(RenderError::Fetch(fetch::Error::InvalidUrl("it has no host".into())));
        }
        self.inner.fetcher.guard().check_url(url)?;
        Ok(())
    }

    /// The render of `url` in the reserved `_place`, held until it ends.
    async fn render_in(&self, url: &Url, _place: Reservation) -> Result<Rendered, RenderError> {
        let inner = &*self.inner;
        self.check(url)?;
        let _tab = inner.tabs.acquire().await.map_err(|_| RenderError::Overloaded)?;

        let mut retried = false;
        loop {
            let browser = self.browser().await?;
            let rendering = tab::render(&browser, &inner.fetcher, url, inner.config.timeout);
            // Every step of a render has its own bound; this one catches a browser that
            // stopped answering commands, which is then replaced. The watchdog bounds the
            // browser's memory while the page runs, not only once it is done: a page that
            // allocates outside the JavaScript heap reached 2.3 GB against a 1 GiB limit.
            let bounded = tokio::time::timeout(inner.config.timeout + HANG_MARGIN, rendering);
            let result = tokio::select! {
                result = bounded => result,
                used = over_memory(&browser, inner.config.memory_limit_bytes) => {
                    tracing::warn!(used, limit = inner.config.memory_limit_bytes, "a render went over the memory limit; the browser is restarted");
                    self.discard(&browser).await;
                    return Err(RenderError::Browser(format!(
                        "the page made the browser use {used} bytes, over its limit of {} bytes",
                        inner.config.memory_limit_bytes
                    )));
                }
            };
            let Ok(result) = result else {
                tracing::warn!("the browser stopped answering; it is restarted");
                self.discard(&browser).await;
                return Err(RenderError::Timeout(inner.config.timeout));
            };
            if !browser.alive() {
                tracing::warn!("the browser died during a render; it is restarted");
                self.discard(&browser).await;
                if matches!(result, Err(RenderError::Browser(_))) && !retried {
                    retried = true;
                    continue;
                }
                return result;
            }
            let used = browser.memory_bytes();
            if used > inner.config.memory_limit_bytes {
                tracing::info!(
                    used,
                    limit = inner.config.memory_limit_bytes,
                    "the browser is restarted: over its memory limit"
                );
                self.discard(&browser).await;
            }
            return result;
        }
    }

    /// The running browser, started (or restarted, when it died) on demand.
    async fn browser(&self) -> Result<Arc<BrowserProcess>, RenderError> {
        let mut slot = self.inner.browser.lock().await;
        if let Some(browser) = slot.as_ref() {
            if browser.alive() {
                return Ok(Arc::clone(browser));
            }
            tracing::warn!("the browser died; starting a new one");
        }
        *slot = None;
        let browser = Arc::new(BrowserProcess::launch(&self.inner.chromium, heap_mb(&self.inner.config)).await?);
        *slot = Some(Arc::clone(&browser));
        Ok(browser)
    }

    /// Forgets `browser` (if it is still the current one); it is killed, with its
    /// processes and profile, when the last render using it ends.
    async fn discard(&self, browser: &Arc<BrowserProcess>) {
        let mut slot = self.inner.browser.lock().await;
        if slot.as_ref().is_some_and(|current| Arc::ptr_eq(current, browser)) {
            *slot = None;
        }
    }
}
