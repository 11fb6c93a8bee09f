//! The AI-visibility use cases (docs/API.md, "AI visibility"): AI readiness and the AI
//! visibility scan of a page. Each one audits the page like the audit endpoint does (an
//! audit slot, one quota unit, the audit stored) while fetching the site's llms.txt, and
//! hands the page, its robots.txt and its llms.txt to the `ai-visibility` engines. A
//! readiness answer is stored in its bounded form for the report page.
//! geo-check is [`crate::GeoService::check`].

use ai_visibility::{
    ai_readiness, ai_visibility_scan, default_llms_url, AiReadiness, AiVisibilityScan, ReadinessRecord,
};
use url::Url;

use crate::{App, AppError, Audited};

/// Where llms.txt was looked for, and its body when the site serves one.
struct Llms {
    url: String,
    body: Option<String>,
}

impl App {
    /// The AI readiness report of `url` for `owner`, charged one unit to `payer` once admitted.
    ///
    /// # Errors
    /// `overloaded`, the charge's refusal, what the audit met, or an engine failure.
    pub async fn ai_readiness(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        payer: &crate::quota::Payer,
    ) -> Result<AiReadiness, AppError> {
        let (page, llms) = self.audit_with_llms(url, owner, payer).await?;
        // The probes run after the audit, so the site meets at most one of our requests at a
        // time (docs/AI-VISIBILITY.md, "What agents meet").
        let agents = crate::ai_agents::probe(
            &self.fetcher,
            &page.audit.page,
            page.robots_txt.as_deref(),
            (llms.url.as_str(), llms.body.as_deref()),
        )
        .await;
        let requested = url.to_string();
        let final_url = page.audit.page.final_url.clone();
        let report = blocking(move || {
            let llms = Some((llms.url.as_str(), llms.body.as_deref()));
            let mut report = ai_readiness(&requested, &page.audit.page, llms, page.robots_txt.as_deref());
            let allowed = |bot: &str| {
                report.ai_crawlers.iter().any(|c| c.bot == bot && c.verdict == ai_visibility::CrawlerAccess::Allowed)
            };
            let extra = crate::ai_agents::recommendations(&agents, allowed);
            report.recommendations.extend(extra);
            report.agents = Some(agents);
            report
        })
        .await?;
        self.record_readiness(url, &final_url, owner, &report).await;
        Ok(report)
    }

    /// Stores the bounded record of a readiness answer ([`ReadinessRecord`]), which the
    /// report page shows when the check was made without a key (docs/AI-VISIBILITY.md,
    /// "The report page"). A failure is logged and the caller keeps its answer, as with a
    /// stored audit.
    async fn record_readiness(&self, url: &Url, final_url: &str, owner: Option<&crate::UserId>, report: &AiReadiness) {
        let record = ReadinessRecord::of(report);
        let json = match serde_json::to_string(&record) {
            Ok(json) => json,
            Err(e) => {
                tracing::error!(url = %url, error = %e, "readiness record not serialised");
                return;
            }
        };
        let new = store::NewReadiness::new(url.as_str(), final_url, i64::from(report.score), json, owner.cloned());
        if let Err(e) = self.db(move |s| s.insert_readiness(new)).await {
            tracing::error!(url = %url, error = %e, "readiness answer not stored");
        }
    }

    /// The newest public AI-readiness answer of the page of `audit` (its final URL's host and
    /// path): the row the report page reads ([`shown_readiness`], within the page's compute).
    ///
    /// # Errors
    /// The store's failures.
    pub async fn public_readiness_of(
        &self,
        audit: &store::StoredAudit,
    ) -> Result<Option<store::StoredReadiness>, AppError> {
        let Some((host, path)) = store::host_and_path(&audit.final_url) else { return Ok(None) };
        self.db(move |s| s.latest_public_readiness(&host, &path)).await
    }

    /// The AI visibility scan of `url` for `owner`, charged one unit to `payer` once admitted.
    ///
    /// # Errors
    /// `overloaded`, the charge's refusal, what the audit met, or an engine failure.
    pub async fn ai_visibility_scan(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        payer: &crate::quota::Payer,
    ) -> Result<AiVisibilityScan, AppError> {
        let (page, llms) = self.audit_with_llms(url, owner, payer).await?;
        blocking(move || ai_visibility_scan(&page.audit.page, llms.body.as_deref(), page.robots_txt.as_deref())).await
    }

    /// Takes an audit slot and a quota unit, then audits the page (stored like every audit)
    /// while fetching the site's llms.txt.
    async fn audit_with_llms(
        &self,
        url: &Url,
        owner: Option<&crate::UserId>,
        payer: &crate::quota::Payer,
    ) -> Result<(Audited, Llms), AppError> {
        // Admitted and charged before anything is fetched, llms.txt included.
        let paid = self.admit_paid(0, payer).await?;
        let (page, llms) = tokio::join!(self.audit_paid(paid, url, owner), self.fetch_llms(url));
        Ok((page?, llms))
    }

    /// `/llms.txt` at the page's origin. Whatever comes back is data for the report: a 2xx
    /// body is handed to the parser (an HTML page there is one of its findings); any other
    /// status, or no answer at all, means the site has none.
    async fn fetch_llms(&self, page: &Url) -> Llms {
        let Ok(at) = page.join("/llms.txt") else {
            return Llms { url: default_llms_url(page.as_str()), body: None };
        };
        let max = self.fetcher.config().text_max_bytes;
        match self.fetcher.fetch_text(&at, max).await {
            Ok(answer) if (200..300).contains(&answer.status) => Llms {
                url: answer.final_url.to_string(),
                body: Some(String::from_utf8_lossy(&answer.body).into_owned()),
            },
            Ok(_) => Llms { url: at.to_string(), body: None },
            Err(e) => {
                tracing::debug!(url = %at, error = %e, "llms.txt not fetched; reported absent");
                Llms { url: at.to_string(), body: None }
            }
        }
    }
}

/// A stored readiness answer as the report page shows it: read back typed, its query strings
/// removed. A row that does not read back is not shown (logged). The record is bounded when
/// stored (at most `MAX_RECORD_ITEMS` per list, the row at most
/// `store::MAX_READINESS_RECORD_BYTES`), and the caller runs this with the rest of the page
/// ([`App::compute`]).
pub fn shown_readiness(row: &store::StoredReadiness) -> Option<pages::report::ReadinessShown> {
    let mut record: ReadinessRecord = match serde_json::from_str(&row.record_json) {
        Ok(record) => record,
        Err(e) => {
            tracing::warn!(id = %row.id, error = %e, "stored readiness record does not read back; not shown");
            return None;
        }
    };
    pages::readiness::strip_query_strings(&mut record);
    Some(pages::report::ReadinessShown { record, checked_at: crate::format_rfc3339(row.created_at) })
}

/// Runs an engine on the blocking pool (CPU-bound work never stalls the reactor).
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| AppError::internal(format!("ai-visibility engine failed: {e}")))
}
