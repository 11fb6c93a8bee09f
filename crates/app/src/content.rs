//! The content-gap use case (docs/API.md, "POST /api/content-gap"):
//!
//! - One request takes one place in the audit queue for the page and one for each
//!   competitor (503 when the server is full) and costs one quota unit however many
//!   competitors it names: they are part of the one analysis the client asked for. The
//!   page's audit is stored like every audit, so badges and reports see it.
//! - Competitors are fetched (at most [`COMPETITOR_CONCURRENCY`] at a time, duplicates
//!   once), parsed but not audited; one that cannot be fetched, or answers a non-2xx
//!   status, is left out and named in [`GapAnswer::skipped`]; only the page itself failing
//!   fails the request.

use futures_util::StreamExt as _;
use serde::Serialize;
use serde_json::Value;
use url::Url;

use crate::{App, AppError, Ticket};

/// Competitor pages fetched at once by one content-gap request.
pub const COMPETITOR_CONCURRENCY: usize = 3;

/// A validated content-gap request.
#[derive(Debug, Clone)]
pub struct GapRequest {
    /// The page.
    pub url: Url,
    /// The title the caller gives the page (instead of the page's own).
    pub title: Option<String>,
    /// The word count the caller gives.
    pub word_count: Option<usize>,
    /// The headings the caller gives.
    pub headings: Option<Vec<String>>,
    /// Distinct competitor URLs, in the order given (at most
    /// [`content_gap::MAX_COMPETITORS`]).
    pub competitors: Vec<Url>,
}

/// The answer of a content-gap analysis.
#[derive(Debug, Clone)]
pub struct GapAnswer {
    /// The engine's report.
    pub report: content_gap::ContentGapReport,
    /// How many competitors were compared.
    pub competitors_compared: usize,
    /// The competitors left out, in the order given.
    pub skipped: Vec<Skipped>,
}

impl GapAnswer {
    /// The answer of `POST /api/content-gap` (and of the analyze_content_gap tool) for the
    /// page `url`.
    pub fn wire(self, url: &Url) -> api::ContentGapResult {
        api::ContentGapResult {
            ok: true,
            api_version: audit_core::API_VERSION,
            url: url.to_string(),
            report: self.report,
            competitors_compared: self.competitors_compared,
            skipped_competitors: self
                .skipped
                .into_iter()
                .map(|s| api::SkippedCompetitor { url: s.url, code: s.code, message: s.message, details: s.details })
                .collect(),
        }
    }
}

/// A competitor left out of the comparison, and why (`skippedCompetitors`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// The competitor's URL.
    pub url: String,
    /// The error code ([`AppError::code`]).
    pub code: &'static str,
    /// The sentence ([`AppError::message`]).
    pub message: String,
    /// The details ([`AppError::details`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl App {
    /// Compares the page of `req` with its competitors: admission for every page first,
    /// then one unit charged to `payer` for the whole request, then the page through the one
    /// audit path while the competitors are fetched and parsed, each in its own slot.
    ///
    /// # Errors
    /// `overloaded` before anything is charged, the charge's refusal, or what the page's
    /// audit met.
    pub async fn content_gap(
        &self,
        req: GapRequest,
        owner: Option<&crate::UserId>,
        payer: &crate::quota::Payer,
    ) -> Result<GapAnswer, AppError> {
        // One place more than the pages: the comparison itself, whose cost grows with the
        // headings and links of every page, runs in a slot of its own like an analysis.
        let mut paid = self.admit_paid(req.competitors.len() + 1, payer).await?;
        let comparing = paid.beside.pop().ok_or_else(|| AppError::internal("no comparison ticket"))?;
        let competitor_tickets = std::mem::take(&mut paid.beside);
        let (page, competitors) = tokio::join!(
            self.audit_paid(paid, &req.url, owner),
            self.competitors(&req.competitors, competitor_tickets)
        );
        let page = page?.audit.into_inner().page;
        let (pages, skipped) = competitors;
        let compared = pages.len();
        let url = req.url.to_string();
        let (title, word_count, headings) = (req.title, req.word_count, req.headings);
        let report = self
            .compute_admitted(comparing, move |budget| {
                let input =
                    content_gap::GapInput { url, title, word_count, headings, page: Some(&page), competitors: &pages };
                content_gap::analyze_within(&input, budget)
            })
            .await?
            .ok_or_else(too_complex)?;
        Ok(GapAnswer { report, competitors_compared: compared, skipped })
    }

    /// Fetches and parses the competitors: the pages that could be compared, in the order
    /// given, and each one left out. A competitor is not audited (no rules, no score, not
    /// stored): its page is only parsed for what it covers, in the place admitted for it with
    /// the request ([`crate::Paid::beside`]), within the same analysis budget as audits.
    async fn competitors(&self, urls: &[Url], tickets: Vec<Ticket>) -> (Vec<audit_core::Page>, Vec<Skipped>) {
        let outcomes: Vec<(Url, Result<audit_core::Page, AppError>)> =
            futures_util::stream::iter(urls.iter().cloned().zip(tickets))
                .map(|(url, ticket)| async move {
                    let page = match ticket.ready().await {
                        Ok(slot) => self.competitor(&url, slot).await,
                        Err(e) => Err(e),
                    };
                    (url, page)
                })
                .buffered(COMPETITOR_CONCURRENCY)
                .collect()
                .await;
        let mut pages = Vec::new();
        let mut skipped = Vec::new();
        for (url, outcome) in outcomes {
            match outcome {
                Ok(page) => pages.push(page),
                Err(e) => {
                    if e.code() == "internal" {
                        tracing::error!(url = %url, error = %e, "competitor failed");
                    }
                    skipped.push(Skipped {
                        url: url.to_string(),
                        code: e.code(),
                        message: e.message(),
                        details: e.details(),
                    });
                }
            }
        }
        (pages, skipped)
    }

    async fn competitor(
        &self,
        url: &Url,
        slot: tokio::sync::OwnedSemaphorePermit,
    ) -> Result<audit_core::Page, AppError> {
        let fetched = self.fetcher.fetch_page(url).await?;
        // An error page's headings say nothing about what the competitor covers.
        if !(200..300).contains(&fetched.status) {
            return Err(AppError::CompetitorStatus(fetched.status));
        }
        let requested = url.to_string();
        crate::pipeline::analyse_blocking(Some(slot), self.limits, move |budget| {
            let http = crate::pipeline::http_facts(&requested, &fetched, None);
            audit_core::Page::parse_within(&requested, &fetched.body, http, budget)
        })
        .await
        .map_err(|e| AppError::internal(format!("competitor parse failed: {e}")))
    }
}

/// The comparison ran out of its CPU budget: the pages hold more headings and links than
/// can be compared within `analysis_cpu_ms` (docs/SECURITY.md, "Work that grows with its
/// input"). The request is refused whole rather than answered from part of the pages.
fn too_complex() -> AppError {
    AppError::refused(
        crate::ErrorCode::InvalidRequest,
        "The page and its competitors hold too many headings and links to compare within the analysis time limit.",
    )
}
