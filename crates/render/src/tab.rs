//! One render: a fresh browser context with its own guarded proxy, one tab in it, the
//! navigation, the wait for the page to settle, and the serialised DOM.
//!
//! Attribution of requests: every render starts its own [`GuardedProxy`] on a fresh loopback
//! port and creates its browser context with that proxy (`Target.createBrowserContext`'s
//! `proxyServer`), so whatever the proxy records was asked for by this render's page and no
//! other; the proxy and the context go when the render ends.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::{
    BrowserContextId, SetDownloadBehaviorBehavior, SetDownloadBehaviorParams,
};
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventResponseReceived, ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{EventLifecycleEvent, GetFrameTreeParams, NavigateParams};
use chromiumoxide::cdp::browser_protocol::target::{CreateBrowserContextParams, CreateTargetParams};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::Page;
use fetch::proxy::{GuardedProxy, ProxyLimits, ProxyLog};
use futures_util::StreamExt;
use url::Url;

use crate::browser::BrowserProcess;
use crate::{BlockedRequest, RenderError, Rendered};

/// How long the network must be quiet after `load` for the page to count as settled.
const QUIET: Duration = Duration::from_millis(500);
/// Extra time to serialise the DOM of a page that did not settle within the limit.
const SNAPSHOT_BUDGET: Duration = Duration::from_secs(2);
/// Longest wait for closing a tab and its context.
const CLEANUP_BUDGET: Duration = Duration::from_secs(3);

/// What the tab produced before the proxy log is read.
struct Snapshot {
    final_url: String,
    html: String,
    status: Option<u16>,
    timed_out: bool,
}

/// Why the document itself did not load.
struct DocumentFailed {
    /// The document's URL.
    url: String,
    /// Chromium's error text (`net::ERR_...`).
    text: String,
}

enum Outcome {
    Done(Snapshot),
    DocumentFailed(DocumentFailed),
}

/// Disposes of a browser context (and its tabs) when a render is dropped before it could
/// do so itself (its caller went away, or the hang guard fired), so no context outlives its
/// render.
struct Disposal {
    /// `None` once the render disposes of the context itself.
    browser: Option<Arc<BrowserProcess>>,
    context: BrowserContextId,
}

impl Drop for Disposal {
    fn drop(&mut self) {
        let Some(browser) = self.browser.take() else { return };
        let context = self.context.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = tokio::time::timeout(CLEANUP_BUDGET, browser.browser.dispose_browser_context(context)).await;
            });
        }
    }
}

fn cdp(err: impl std::fmt::Display) -> RenderError {
    RenderError::Browser(err.to_string())
}

/// Renders `url` in `browser` within `timeout` (from navigation to the serialised DOM).
pub(crate) async fn render(
    browser: &Arc<BrowserProcess>,
    fetcher: &fetch::Fetcher,
    url: &Url,
    timeout: Duration,
) -> Result<Rendered, RenderError> {
    let started = Instant::now();
    let max_html = fetcher.config().max_body_bytes;
    let proxy = GuardedProxy::start(fetcher.clone(), ProxyLimits::of(fetcher.config()))
        .await
        .map_err(|e| RenderError::Browser(format!("cannot start the proxy: {e}")))?;
    let params = CreateBrowserContextParams {
        dispose_on_detach: Some(true),
        proxy_server: Some(proxy.url()),
        // Loopback is not bypassed: the proxy judges it like any other address.
        proxy_bypass_list: Some("<-loopback>".to_string()),
        ..CreateBrowserContextParams::default()
    };
    let context = browser.browser.create_browser_context(params).await.map_err(cdp)?;
    let mut disposal = Disposal { browser: Some(Arc::clone(browser)), context: context.clone() };
    let outcome = in_context(browser, &context, url, timeout, max_html).await;
    disposal.browser = None;
    let _ = tokio::time::timeout(CLEANUP_BUDGET, browser.browser.dispose_browser_context(context)).await;
    let log = proxy.log();
    drop(proxy);
    let snapshot = match outcome? {
        Outcome::Done(snapshot) => snapshot,
        Outcome::DocumentFailed(failed) => return Err(document_error(&log, &failed.url, &failed.text)),
    };
    // A document the proxy refused (a redirect to an inner address, say) reaches the
    // browser as the proxy's 403: the render of that document is that refusal.
    if let Some(event) = find_event(&log, &snapshot.final_url) {
        return Err(RenderError::Fetch(event.error.clone()));
    }
    Ok(Rendered {
        final_url: snapshot.final_url,
        html: snapshot.html,
        blocked: log
            .refused
            .iter()
            .map(|event| BlockedRequest { url: event.url.clone(), reason: event.error.to_string() })
            .collect(),
        requests: log.requests,
        elapsed: started.elapsed(),
        timed_out: snapshot.timed_out,
        status: snapshot.status,
    })
}

async fn in_context(
    browser: &BrowserProcess,
    context: &BrowserContextId,
    url: &Url,
    timeout: Duration,
    max_html: usize,
) -> Result<Outcome, RenderError> {
    let mut deny = SetDownloadBehaviorParams::new(SetDownloadBehaviorBehavior::Deny);
    deny.browser_context_id = Some(context.clone());
    browser.browser.execute(deny).await.map_err(cdp)?;
    let mut target = CreateTargetParams::new("about:blank");
    target.browser_context_id = Some(context.clone());
    let page = browser.browser.new_page(target).await.map_err(cdp)?;
    let outcome = drive(&page, url, timeout, max_html).await;
    let _ = tokio::time::timeout(CLEANUP_BUDGET, page.close()).await;
    outcome
}

/// The lifecycle of the main frame's current document.
#[derive(Default)]
struct Settling {
    loader: Option<String>,
    load: bool,
    idle: bool,
}

async fn drive(page: &Page, url: &Url, timeout: Duration, max_html: usize) -> Result<Outcome, RenderError> {
    let started = Instant::now();
    let deadline = tokio::time::Instant::from_std(started + timeout);
    // Listening before navigating: no event of the new document is missed.
    let mut lifecycle = page.event_listener::<EventLifecycleEvent>().await.map_err(cdp)?;
    let mut responses = page.event_listener::<EventResponseReceived>().await.map_err(cdp)?;
    let mut sent = page.event_listener::<EventRequestWillBeSent>().await.map_err(cdp)?;
    let mut finished = page.event_listener::<EventLoadingFinished>().await.map_err(cdp)?;
    let mut failed = page.event_listener::<EventLoadingFailed>().await.map_err(cdp)?;

    // A document that has not even begun to arrive by the limit has nothing to show.
    let navigation = tokio::time::timeout_at(deadline, page.execute(NavigateParams::new(url.as_str())))
        .await
        .map_err(|_| RenderError::Timeout(timeout))?
        .map_err(cdp)?
        .result;
    if let Some(text) = navigation.error_text.filter(|t| !t.is_empty()) {
        return Ok(Outcome::DocumentFailed(DocumentFailed { url: url.to_string(), text }));
    }
    let main = navigation.frame_id;
    let is_document = |response: &EventResponseReceived| {
        response.r#type == ResourceType::Document && response.frame_id.as_ref() == Some(&main)
    };

    // Settled: the current document of the main frame (a client-side navigation starts a
    // new one) has fired `load`, and then no request of the page has been in flight for
    // QUIET (500 ms): counted here from the Network events, or Chromium's own `networkIdle`,
    // whichever comes first.
    let mut settled = false;
    let mut status = None;
    let mut state = Settling::default();
    let mut in_flight: HashSet<String> = HashSet::new();
    let mut quiet_since = tokio::time::Instant::now();
    while !settled {
        let quiet_at = if state.load && in_flight.is_empty() { quiet_since + QUIET } else { deadline };
        tokio::select! {
            // Events before timers: a quiet window ends only once what is already known
            // has been counted.
            biased;
            event = lifecycle.next() => {
                let Some(event) = event else { break };
                if event.frame_id != main {
                    continue;
                }
                let loader = event.loader_id.inner().clone();
                if event.name == "init" || state.loader.as_ref() != Some(&loader) {
                    state = Settling { loader: Some(loader), ..Settling::default() };
                }
                match event.name.as_str() {
                    "load" => {
                        state.load = true;
                        quiet_since = tokio::time::Instant::now();
                    }
                    "networkIdle" => state.idle = true,
                    _ => {}
                }
                settled = state.load && state.idle;
            }
            sent = sent.next() => {
                let Some(sent) = sent else { break };
                in_flight.insert(sent.request_id.inner().clone());
            }
            finished = finished.next() => {
                let Some(finished) = finished else { break };
                if in_flight.remove(finished.request_id.inner()) && in_flight.is_empty() {
                    quiet_since = tokio::time::Instant::now();
                }
            }
            failed = failed.next() => {
                let Some(failed) = failed else { break };
                if in_flight.remove(failed.request_id.inner()) && in_flight.is_empty() {
                    quiet_since = tokio::time::Instant::now();
                }
            }
            response = responses.next() => {
                let Some(response) = response else { break };
                if is_document(&response) {
                    status = u16::try_from(response.response.status).ok();
                }
            }
            () = tokio::time::sleep_until(quiet_at), if quiet_at < deadline => settled = true,
            () = tokio::time::sleep_until(deadline) => break,
        }
    }
    while let Some(Some(response)) = futures_util::FutureExt::now_or_never(responses.next()) {
        if is_document(&response) {
            status = u16::try_from(response.response.status).ok();
        }
    }

    // The DOM as it stands, settled or not; a page that did not settle gets a short extra
    // budget for it, and one that cannot be serialised even then (a script that never
    // yields) is a timeout.
    let snapshot_deadline = tokio::time::Instant::now().max(deadline) + SNAPSHOT_BUDGET;
    let snapshot = tokio::time::timeout_at(snapshot_deadline, serialise(page, max_html)).await;
    let (final_url, html) = match snapshot {
        Ok(Ok(found)) => found,
        Ok(Err(err)) if settled => return Err(err),
        _ => return Err(RenderError::Timeout(timeout)),
    };
    // An error page in the main frame: the document did not load.
    let tree = tokio::time::timeout_at(snapshot_deadline, page.execute(GetFrameTreeParams::default())).await;
    if let Ok(Ok(tree)) = tree {
        if let Some(unreachable) = tree.result.frame_tree.frame.unreachable_url.clone() {
            return Ok(Outcome::DocumentFailed(DocumentFailed { url: unreachable, text: "an error page".into() }));
        }
    }
    Ok(Outcome::Done(Snapshot { final_url, html, status, timed_out: !settled }))
}

/// The document as it stands: its doctype and `outerHTML`, at most `max_html` bytes, and
/// its URL.
async fn serialise(page: &Page, max_html: usize) -> Result<(String, String), RenderError> {
    let expression = format!(
        "(() => {{ const d = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : ''; \
         const h = document.documentElement ? document.documentElement.outerHTML : ''; \
         let s = d + h; if (s.length > {max_html}) s = s.slice(0, {max_html}); \
         return JSON.stringify([location.href, s]); }})()"
    );
    let mut params = EvaluateParams::new(expression);
    params.return_by_value = Some(true);
    let answer = page.execute(params).await.map_err(cdp)?.result;
    if let Some(exception) = answer.exception_details {
        return Err(RenderError::Browser(format!("the DOM could not be serialised: {}", exception.text)));
    }
    let text = answer.result.value.as_ref().and_then(|v| v.as_str()).unwrap_or("[\"\",\"\"]");
    let (href, mut html): (String, String) =
        serde_json::from_str(text).map_err(|e| RenderError::Browser(format!("bad DOM answer: {e}")))?;
    if html.len() > max_html {
        let mut cut = max_html;
        while !html.is_char_boundary(cut) {
            cut -= 1;
        }
        html.truncate(cut);
    }
    Ok((href, html))
}

/// The proxy's record of a request for `url` (the same URL, or a tunnel to its host for
/// https), refused or failed.
fn find_event<'a>(log: &'a ProxyLog, url: &str) -> Option<&'a fetch::proxy::ProxyEvent> {
    let parsed = Url::parse(url).ok()?;
    let tunnel = match parsed.scheme() {
        "https" => Some(format!("https://{}:{}", parsed.host_str()?, parsed.port_or_known_default()?)),
        _ => None,
    };
    log.refused.iter().chain(log.failed.iter()).find(|event| {
        Url::parse(&event.url).is_ok_and(|u| u == parsed) || tunnel.as_deref() == Some(event.url.as_str())
    })
}

/// The error of a document that did not load: the proxy's reason when it has one.
fn document_error(log: &ProxyLog, url: &str, text: &str) -> RenderError {
    match find_event(log, url) {
        Some(event) => RenderError::Fetch(event.error.clone()),
        None => RenderError::Browser(format!("the page {url} could not be loaded: {text}")),
    }
}
