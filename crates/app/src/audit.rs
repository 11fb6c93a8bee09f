//! The one audit path. Every audit the service makes (REST single and batch, every agent
//! tool, the AI and content endpoints, the report form, workflows, monitors, the badge's
//! background audits) goes through `run_audit`, private to this module: a place among the audit slots, the
//! caller's quota, the fetch, the analysis within its budget, the result, the stored row and
//! its event. The order of those steps is decided here and nowhere else:
//!
//! 1. **admission** ([`AuditSlots`]): a client gets a slot or a queue place, or
//!    `overloaded` at once; background work is deferred while the queue is half full;
//! 2. **quota**, charged only once admitted, so a full server charges nothing: the caller's
//!    [`crate::quota::Payer`], charged by [`App::charge`] here, not by the protocol layer;
//! 3. **fetch and analysis** ([`crate::pipeline::audit_url`]), the slot held until the
//!    analysis ends;
//! 4. **result and record**: the stored row keeps the result and the page's visible text
//!    (what keyword history counts), and a key owner's audit fires `audit.completed`.
//!
//! The entries are [`App::audit_for_client`], [`App::audit_batch`], [`App::audit_charged`],
//! [`App::audit_background`], and [`App::admit_paid`] with [`App::audit_paid`] for use cases
//! that do more beside the audit (AI readiness, geo-check, content gaps); admission, the
//! charge and `run_audit` are private to this module (`.ci/run` checks that no other file
//! calls them). Two things take an audit slot without being audits: get_site_info parses
//! a page it does not score or store ([`App::parse_slot`]), and content-gap competitors
//! are fetched and parsed in the places [`Paid::beside`] holds. A site crawl analyses its
//! pages through the same gate (`pipeline::analyse_blocking`, in the App's audit slots)
//! and is charged once per crawl, not per page (docs/API.md, "Site crawl").

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ai_visibility::Robots;
use audit_core::{Audit, AuditResult};
use fetch::Fetcher;
use futures_util::StreamExt as _;
use serde_json::json;
use url::Url;

use crate::application::{App, Browser, Events};
use crate::observe::{analysed_outcome, NoObserver, Observer, Phase};
use crate::pipeline::{audit_page, AnalysisLimits};
use crate::slots::{AuditSlots, Ticket};
use crate::AppError;

/// Most bytes of visible text kept with a stored audit (keyword tracking reads it).
pub const MAX_STORED_TEXT: usize = 64 * 1024;

/// Quota units of a rendered audit (docs/API.md, "Rendered audits"); an audit without
/// rendering is one unit.
pub const RENDER_UNITS: u32 = 5;

/// How a page is audited: the options of the one audit path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditOptions {
    /// Render the page in headless Chromium and audit the rendered DOM, with the
    /// `rendering` section (docs/API.md, "Rendered audits").
    pub render: bool,
}

impl AuditOptions {
    /// A rendered audit.
    pub const RENDERED: AuditOptions = AuditOptions { render: true };

    /// The quota units one audit with these options costs: 1, or [`RENDER_UNITS`].
    pub fn units(self) -> u32 {
        if self.render {
            RENDER_UNITS
        } else {
            1
        }
    }
}

/// The budget of a computation that is no parse (a content-gap comparison, a report's
/// scrub, a comparison of stored results): the analysis budget's parse share (60%) exists to
/// leave the walk and the rules room after a parse, and such work has no later stage, so it
/// may run to the share the work after a parse has (80%, counted from its start), the rest
/// left for writing its answer. Cancellation stops it as it stops an analysis.
struct Computing<'a>(&'a dyn audit_core::Budget);

impl audit_core::Budget for Computing<'_> {
    fn exhausted(&self) -> bool {
        self.0.after_parse_exhausted()
    }

    fn after_parse_exhausted(&self) -> bool {
        self.0.after_parse_exhausted()
    }
}

/// Places among the audit slots, taken and charged by [`App::admit_paid`]: the page's
/// (its audit runs through [`App::audit_paid`]) and those of the pages fetched beside it.
/// Dropped, it gives every place back.
#[derive(Debug)]
#[must_use]
pub struct Paid {
    ticket: Ticket,
    /// Places of the pages fetched beside the audited one (content-gap competitors, each
    /// fetched and parsed in its place, never audited or stored).
    pub beside: Vec<Ticket>,
}

/// The outcomes of a batch ([`App::audit_batch`]): one per URL as sent, a URL sent twice
/// audited once.
#[derive(Debug)]
pub struct BatchAudits {
    /// Per URL as sent: the index of its audit in `audits`, or why it is not a URL to audit.
    positions: Vec<Result<usize, AppError>>,
    /// One per distinct URL.
    audits: Vec<Result<Audited, AppError>>,
}

impl BatchAudits {
    /// The outcome of each URL as sent, in order.
    pub fn iter(&self) -> impl Iterator<Item = Result<&Audited, &AppError>> {
        self.positions.iter().map(|p| match p {
            Ok(i) => self.audits[*i].as_ref(),
            Err(e) => Err(e),
        })
    }

    /// The outcome of each URL as sent, in order, made by `f` once per distinct URL (a URL
    /// sent twice gets a copy of the first's).
    pub fn into_each<T: Clone>(self, mut f: impl FnMut(Result<Audited, AppError>) -> T) -> Vec<T> {
        let done: Vec<T> = self.audits.into_iter().map(&mut f).collect();
        self.positions
            .into_iter()
            .map(|p| match p {
                Ok(i) => done[i].clone(),
                Err(e) => f(Err(e)),
            })
            .collect()
    }
}

/// A fetched, audited and (when the store answered) stored page.
#[derive(Debug)]
pub struct Audited {
    /// The engine's audit (its page facts fill fix templates, content gaps, AI readiness),
    /// freed on the analysis thread that made it ([`crate::homed`]).
    pub audit: crate::homed::Homed<Audit>,
    /// The site's robots.txt as it answered (AI-bot access reads more than the verdict),
    /// its reading shared with the other audits of the site.
    pub robots_txt: Option<Arc<Robots>>,
    /// `scanned_at` of the result.
    pub scanned_at: vocab::Timestamp,
    /// The wire result, built once: what was stored and what the caller answers with.
    pub result: AuditResult,
    /// The stored row; `None` when storing failed (logged: the caller still has its audit).
    pub stored: Option<store::StoredAudit>,
}

impl App {
    /// The application over `store` and `fetcher`, with `max_concurrent` audit slots, a
    /// queue of `queue`, the analysis `limits`, and `events` for key owners' events.
    pub fn new(
        store: store::Store,
        fetcher: Fetcher,
        slots: Arc<AuditSlots>,
        limits: AnalysisLimits,
        events: Arc<dyn Events>,
    ) -> App {
        let db_file = crate::db_file::db_file_of(&store);
        App {
            store,
            fetcher,
            slots,
            limits,
            events,
            db_file,
            usage: Arc::default(),
            writer: Arc::default(),
            lease: crate::lease::DEFAULT_LEASE,
            observer: Arc::new(NoObserver),
            browser: Browser::Off("no browser was set up in this process".into()),
        }
    }

    /// The application rendering pages with `renderer` (`Err`: why there is no browser;
    /// rendered audits then answer `not_configured`, everything else works as before).
    pub fn with_renderer(mut self, renderer: Result<render::Renderer, render::RenderError>) -> App {
        self.browser = match renderer {
            Ok(r) => Browser::Ready(r),
            Err(e) => Browser::Off(e.to_string().into()),
        };
        self
    }

    /// Whether rendered audits can run (a browser was found at start).
    pub fn renders(&self) -> bool {
        matches!(self.browser, Browser::Ready(_))
    }

    /// `not_configured` when `render` is asked for and there is no browser: what a use case
    /// that renders later (a crawl) checks before it charges anything.
    ///
    /// # Errors
    /// [`AppError::RenderNotConfigured`].
    pub fn check_render(&self, render: bool) -> Result<(), AppError> {
        self.renderer_for(AuditOptions { render }).map(drop)
    }

    /// Places in the render pool for `n` rendered audits, all or none, taken before anything
    /// is charged and held until each render ends (docs/API.md, "Rendered audits"): `n`
    /// `None`s without rendering.
    ///
    /// # Errors
    /// [`AppError::RenderNotConfigured`], or [`AppError::Overloaded`] when fewer than `n`
    /// places are free (every tab busy and the render queue full).
    fn reserve_renders(&self, options: AuditOptions, n: usize) -> Result<Vec<Option<render::Reservation>>, AppError> {
        match self.renderer_for(options)? {
            None => Ok((0..n).map(|_| None).collect()),
            Some(renderer) => {
                let places = renderer.try_reserve(n).map_err(|_| AppError::Overloaded)?;
                Ok(places.into_iter().map(Some).collect())
            }
        }
    }

    /// The renderer `options` need: `None` without rendering.
    ///
    /// # Errors
    /// [`AppError::RenderNotConfigured`] when rendering is asked for and there is no browser,
    /// checked before anything is admitted or charged.
    pub(crate) fn renderer_for(&self, options: AuditOptions) -> Result<Option<&render::Renderer>, AppError> {
        match (&self.browser, options.render) {
            (_, false) => Ok(None),
            (Browser::Ready(r), true) => Ok(Some(r)),
            (Browser::Off(why), true) => Err(AppError::RenderNotConfigured(why.to_string())),
        }
    }

    /// The application telling `observer` what it does (audit outcomes and phases, store
    /// calls, webhook attempts, monitor checks, workflow steps).
    pub fn with_observer(mut self, observer: Arc<dyn Observer>) -> App {
        self.observer = observer;
        self
    }

    /// Who counts what the application does.
    pub fn observer(&self) -> &dyn Observer {
        &*self.observer
    }

    /// Audits `url` for a client who waits: admission, then the charge of `payer`
    /// ([`AuditOptions::units`]; its refusal is returned as it is and nothing else happens),
    /// then [`App::run_audit`]. The audit is the payer's key owner's.
    ///
    /// # Errors
    /// `not_configured` (rendering without a browser) or `overloaded` before anything is
    /// charged, `rate_limited`, or what the audit met.
    pub async fn audit_for_client(
        &self,
        url: &Url,
        options: AuditOptions,
        payer: &crate::quota::Payer,
    ) -> Result<Audited, AppError> {
        let place = self.reserve_renders(options, 1)?.pop().flatten();
        let units = options.units();
        let mut tickets = self.admit_charged(1, |_| self.charge(payer, units)).await?;
        let ticket = tickets.pop().ok_or_else(|| AppError::internal("no audit ticket"))?;
        self.run_audit_in(url, payer.owner(), options, ticket, place).await
    }

    /// Audits the URLs of a batch as sent (docs/API.md, "POST /api/v1/audit/batch"): each
    /// checked on its own (an invalid one is its own outcome), the distinct ones audited
    /// once each. A batch whose distinct URLs need more units than the caller's whole
    /// per-minute limit can never pass and is refused (`invalid_request`, nothing charged).
    /// Otherwise a place for each distinct URL, all or none, then one charge for all of them
    /// ([`AuditOptions::units`] each), then `concurrency` audits at a time.
    ///
    /// # Errors
    /// That refusal, `not_configured` (rendering without a browser), `overloaded` when the
    /// queue cannot hold them all, or `rate_limited`; nothing is charged or audited then.
    pub async fn audit_batch(
        &self,
        urls: &[String],
        options: AuditOptions,
        concurrency: usize,
        payer: &crate::quota::Payer,
    ) -> Result<BatchAudits, AppError> {
        let mut distinct: Vec<Url> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let positions: Vec<Result<usize, AppError>> = urls
            .iter()
            .map(|raw| {
                let url = crate::validate_url(raw)?;
                Ok(*index.entry(url.to_string()).or_insert_with(|| {
                    distinct.push(url);
                    distinct.len() - 1
                }))
            })
            .collect();
        let (units, limit) = (options.units(), payer.limit());
        if distinct.len().saturating_mul(units as usize) > limit as usize {
            let keyed = payer.identity().key().is_some();
            return Err(api::request::larger_than_limit_each(distinct.len(), units, limit, keyed).into());
        }
        let places = self.reserve_renders(options, distinct.len())?;
        let tickets = self.admit_charged(distinct.len(), |n| self.charge(payer, n.saturating_mul(units))).await?;
        let owner = payer.owner();
        let audits = futures_util::stream::iter(distinct.into_iter().zip(tickets).zip(places))
            .map(|((url, ticket), place)| async move { self.run_audit_in(&url, owner, options, ticket, place).await })
            .buffered(concurrency.max(1))
            .collect()
            .await;
        Ok(BatchAudits { positions, audits })
    }

    /// Audits `url` for a caller whose quota was charged already (an agent-tool call is
    /// charged per call): admission as for a client, no further charge.
    ///
    /// # Errors
    /// `overloaded`, or what the audit met.
    pub async fn audit_charged(&self, url: &Url, owner: Option<&crate::UserId>) -> Result<Audited, AppError> {
        let ticket = self.slots.admit()?;
        self.run_audit(url, owner, AuditOptions::default(), ticket).await
    }

    /// Audits `url` for work nobody waits on (workflow steps, monitor checks, badge audits):
    /// admitted only while the queue is less than half full, deferred (holding no place) for
    /// up to `patience`.
    ///
    /// # Errors
    /// `overloaded` once `patience` is over, or what the audit met.
    pub async fn audit_background(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        patience: Duration,
    ) -> Result<Audited, AppError> {
        let ticket = self.slots.admit_background_within(patience).await?;
        self.run_audit(url, owner, AuditOptions::default(), ticket).await
    }

    /// Admission and the charge for a use case that audits one page amid work of its own
    /// (AI readiness and visibility fetch llms.txt beside it, geo-check may answer from its
    /// cache instead, content gaps fetch competitors): places for the page and for `beside`
    /// pages fetched with it, then one unit charged to `payer` for the request. The page's audit
    /// then runs through [`App::audit_paid`]; dropping the [`Paid`] gives the places back.
    ///
    /// # Errors
    /// `overloaded` before anything is charged, or the charge's refusal.
    pub async fn admit_paid(&self, beside: usize, payer: &crate::quota::Payer) -> Result<Paid, AppError> {
        let mut tickets = self.admit_charged(1 + beside, |_| self.charge(payer, 1)).await?;
        let beside = tickets.split_off(1);
        let ticket = tickets.pop().ok_or_else(|| AppError::internal("no audit ticket"))?;
        Ok(Paid { ticket, beside })
    }

    /// The audit of the page [`App::admit_paid`] admitted and charged.
    ///
    /// # Errors
    /// What the audit met.
    pub async fn audit_paid(&self, paid: Paid, url: &Url, owner: Option<&crate::UserId>) -> Result<Audited, AppError> {
        self.run_audit(url, owner, AuditOptions::default(), paid.ticket).await
    }

    /// An audit slot for fetching and parsing a page without auditing it (get_site_info,
    /// whose tool call is charged by the caller): admitted as a client's audit (a full
    /// server answers `overloaded` at once), held until the parse ends. Nothing is scored
    /// or stored, so it is not an audit.
    ///
    /// # Errors
    /// `overloaded`, or the slot was closed.
    pub async fn parse_slot(&self) -> Result<tokio::sync::OwnedSemaphorePermit, AppError> {
        self.slots.admit()?.ready().await
    }

    /// Runs `work`, whose cost grows with its input (the content-gap comparison, a report or
    /// crawl page made from a stored result, an export), the way an audit's analysis runs:
    /// admitted among the audit slots (a full server answers `overloaded` at once), on an
    /// analysis thread rather than the async workers that answer every other request,
    /// within the `analysis_cpu_ms` budget `work` reads from its [`audit_core::Budget`], and
    /// stopped when the caller goes away (the budget reports exhaustion). docs/SECURITY.md,
    /// "Work that grows with its input".
    ///
    /// # Errors
    /// `overloaded`, or the work panicked (`internal`).
    pub async fn compute<T, F>(&self, work: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn audit_core::Budget) -> T + Send + 'static,
    {
        self.compute_admitted(self.slots.admit()?, work).await
    }

    /// [`App::compute`] in a place admitted beforehand (with the request's other places,
    /// before its charge).
    ///
    /// # Errors
    /// The work panicked (`internal`).
    pub async fn compute_admitted<T, F>(&self, ticket: Ticket, work: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn audit_core::Budget) -> T + Send + 'static,
    {
        let slot = ticket.ready().await?;
        crate::pipeline::analyse_blocking(Some(slot), self.limits, move |budget| work(&Computing(budget))).await
    }

    /// Audits running now (each holds a slot).
    pub fn audits_running(&self) -> usize {
        self.slots.running()
    }

    /// Audits waiting for a slot.
    pub fn audits_waiting(&self) -> usize {
        self.slots.waiting()
    }

    /// Places for `n` audits, then the charge: admission first, so a full server charges
    /// nothing. Dropping the tickets gives the places back.
    ///
    /// # Errors
    /// `overloaded`, or the charge's refusal.
    async fn admit_charged<E: From<AppError>, F: std::future::Future<Output = Result<(), E>>>(
        &self,
        n: usize,
        charge: impl FnOnce(u32) -> F,
    ) -> Result<Vec<Ticket>, E> {
        let tickets = self.slots.admit_many(n)?;
        charge(u32::try_from(n).unwrap_or(u32::MAX)).await?;
        Ok(tickets)
    }

    /// The audit path after admission: waits for the slot, fetches (and with
    /// [`AuditOptions::render`] renders) and analyses the page (the slot held until the
    /// analysis ends), builds the result and records it. A rendered audit's result is the
    /// audit of the rendered DOM with its `rendering` section, and that is what is stored.
    /// A rendered audit takes its place in the render pool here (a caller that charges for
    /// it takes the place before the charge: [`App::audit_for_client`]).
    ///
    /// # Errors
    /// What the fetch or the render met, or an engine failure. A failure to store is
    /// logged, not returned ([`Audited::stored`] is `None`).
    async fn run_audit(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        options: AuditOptions,
        ticket: Ticket,
    ) -> Result<Audited, AppError> {
        let place = self.reserve_renders(options, 1)?.pop().flatten();
        self.run_audit_in(url, owner, options, ticket, place).await
    }

    /// [`App::run_audit`] with the render pool's `place` already taken (`Some` exactly when
    /// `options` render).
    async fn run_audit_in(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        options: AuditOptions,
        ticket: Ticket,
        place: Option<render::Reservation>,
    ) -> Result<Audited, AppError> {
        if options.render && place.is_none() {
            return Err(AppError::internal("a rendered audit without its place in the render pool"));
        }
        let slot = ticket.ready().await?;
        let page = match audit_page(&self.fetcher, place, url, Some(slot), self.limits, &*self.observer).await {
            Ok(page) => page,
            Err(e) => {
                self.observer.audit_done(e.code());
                return Err(e);
            }
        };
        let scanned_at = vocab::Timestamp::now();
        let mut result = page.audit.to_result(&scanned_at.to_string());
        result.rendering = page.rendering;
        // The rendering's texts come from the page too: bounded as the rest of the result.
        result.bound();
        let storing = Instant::now();
        let stored = match self.record(url, owner, &page.audit, &result).await {
            Ok(stored) => Some(stored),
            Err(e) => {
                tracing::error!(url = %url, error = %e, "audit not stored");
                None
            }
        };
        self.observer.audit_phase(Phase::Store, storing.elapsed());
        self.observer.audit_done(analysed_outcome(&page.audit));
        Ok(Audited { audit: page.audit, robots_txt: page.robots_txt, scanned_at, result, stored })
    }

    /// Stores an audit with its page text and, for a key owner, fires `audit.completed`: the
    /// event is written to the webhook outbox in the audit's own transaction.
    ///
    /// # Errors
    /// The store failed, or the result did not serialise.
    pub async fn record(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        audit: &Audit,
        result: &AuditResult,
    ) -> Result<store::StoredAudit, AppError> {
        let record = audit_record(url, owner, result, Some(page_text(audit)))?;
        let (page, score, scanned_at) = (url.to_string(), result.score.percentage, result.scanned_at.clone());
        let data: store::EventData = Box::new(
            move |stored: &store::StoredAudit| json!({ "url": &page, "score": score, "scannedAt": &scanned_at, "auditId": stored.id }),
        );
        let (done, written) = tokio::sync::oneshot::channel();
        if self.writer.add(record, data, done) {
            let (store, writer) = (self.store.clone(), self.writer.clone());
            drop(tokio::task::spawn_blocking(move || writer.run(&store)));
        }
        let (stored, enqueued) = written.await.map_err(|_| AppError::internal("the audit writer stopped"))??;
        self.events.enqueued(&enqueued);
        Ok(stored)
    }
}

/// The text kept with a stored audit ([`store::NewAudit::page_text`]): the walk's visible
/// text, white space collapsed, at most [`MAX_STORED_TEXT`] bytes; the words keyword tracking
/// counts.
pub fn page_text(audit: &Audit) -> String {
    text::collapse_white_space(&audit.page.visible_text, MAX_STORED_TEXT)
}

/// The row for an audit of `url`: the result JSON as the API answers it (the envelope `ok`,
/// `api_version`, then the engine's result; docs/API.md "The audit result"; rows keep the
/// envelope so that they read the same whichever version wrote them), its score, ruleset and
/// final URL, the page text when kept, owned by `owner`.
///
/// # Errors
/// The result did not serialise.
pub fn audit_record(
    url: &Url,
    owner: Option<&crate::UserId>,
    result: &AuditResult,
    page_text: Option<String>,
) -> Result<store::NewAudit, AppError> {
    #[derive(serde::Serialize)]
    struct Row<'a> {
        ok: bool,
        api_version: &'static str,
        #[serde(flatten)]
        result: &'a AuditResult,
    }
    let row = Row { ok: true, api_version: audit_core::API_VERSION, result };
    let json = serde_json::to_string(&row).map_err(AppError::internal)?;
    let mut record = store::NewAudit::new(
        url.as_str(),
        result.page.final_url.clone(),
        i64::from(result.score.percentage),
        result.score.ruleset_version.clone(),
        json,
    );
    record.user_id = owner.cloned();
    record.page_text = page_text;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_audit_keeps_the_page_text() {
        let html =
            b"<html><head><title>Copper kettles</title></head><body><p>Copper   kettles\nfor tea</p></body></html>";
        let audit = audit_core::audit(audit_core::Page::parse("https://example.com/", html, Default::default()));
        let url = Url::parse("https://example.com/").unwrap();
        let result = audit.to_result("2026-01-01T00:00:00.000Z");
        let record = audit_record(&url, Some(&"u1".into()), &result, Some(page_text(&audit))).unwrap();
        assert!(record.page_text.as_deref().is_some_and(|t| t.ends_with("Copper kettles for tea")), "{record:?}");
        assert_eq!(record.user_id.as_deref(), Some("u1"));
        // The result JSON is the result, nothing added.
        let stored: AuditResult = serde_json::from_str(&record.result_json).unwrap();
        assert_eq!(stored, result);
    }

    /// `GET /api/v1/audit` answers the stored row's JSON as it is: it must be, byte for
    /// byte, the full answer the server would otherwise serialise.
    #[test]
    fn the_stored_row_is_the_full_answer_byte_for_byte() {
        let html =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/sites/load/article.html")).unwrap();
        let audit = audit_core::audit(audit_core::Page::parse("https://example.com/a", &html, Default::default()));
        let url = Url::parse("https://example.com/a").unwrap();
        let mut result = audit.to_result("2026-01-01T00:00:00.000Z");
        result.bound();
        let record = audit_record(&url, None, &result, None).unwrap();
        let answer = serde_json::to_string(&api::FullAnswer::new(result)).unwrap();
        assert!(answer.len() > 5_000, "a real result: {} bytes", answer.len());
        assert_eq!(record.result_json, answer);
    }
}
