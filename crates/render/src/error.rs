//! The render error: its own module, below both the pool (lib.rs) and the browser process
//! (browser.rs), which each return it.

use std::time::Duration;

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
    /// The browser did not start (the binary exists but fails, or its DevTools socket never
    /// opened); the next render tries again.
    #[error("the browser did not start: {0}")]
    Launch(String),
}
