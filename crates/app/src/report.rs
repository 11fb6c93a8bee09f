//! The public report pages (docs/API.md, "GET /report/{domain}", "GET /report?url="): which
//! audit the report of a domain shows and what it says without one, and where the report
//! of an audit made for a visitor is shown. The HTML is the `pages` crate's; the server sets
//! the status and headers of each answer.

use pages::badge;

use crate::crawl::Crawls;
use crate::{App, AppError, Audited, BadgeQueue, ErrorCode, StoredResult};

/// What the report address of a domain shows.
#[derive(Debug)]
pub enum DomainReport {
    /// The report of the audit shown.
    Page(String),
    /// The page saying the domain has no public audit yet, what the background queue did
    /// and which URL it audits (answered 404).
    NotAudited(String),
}

/// The report of `raw` (the `{domain}` path segment, percent-encoded) for a page whose
/// links start with `base`: the public audit `audit_id` names when it is one of the
/// domain's, else the newest public one ([`App::newest_public_audit`], in either `www.`
/// form), with its score history, the domain's newest public crawl and its public readiness
/// answer; without one, a background audit is queued on `badges`.
///
/// # Errors
/// `invalid_request` naming `domain` when it is not a domain name; the store's failure, or
/// `overloaded` when the page cannot be rendered now.
pub async fn domain_report(
    app: &App,
    crawls: &Crawls,
    badges: &BadgeQueue,
    base: String,
    raw: &str,
    audit_id: Option<vocab::AuditId>,
) -> Result<DomainReport, AppError> {
    // Percent-decoded as a path segment: `+` is a plus sign here, and bytes that are not
    // UTF-8 make no domain.
    let decoded = percent_encoding::percent_decode_str(raw).decode_utf8().map(|d| d.into_owned()).unwrap_or_default();
    let domain = badge::validate_domain(&decoded).ok_or_else(|| {
        let message = "The address must name a domain, such as /report/example.com (no scheme, path or port).";
        AppError::refused(ErrorCode::InvalidRequest, message).with_details(serde_json::json!({ "parameter": "domain" }))
    })?;
    let mut audit = None;
    if let Some(id) = audit_id {
        audit = app.public_audit(id, badge::domain_forms(&domain)).await?;
    }
    if audit.is_none() {
        audit = app.newest_public_audit(badge::domain_forms(&domain)).await?;
    }
    let Some(audit) = audit else {
        // The page tells what the queue did, and the URL it audits for this domain.
        let queued = pages::report::Enqueued::from(badges.enqueue(&domain));
        let audit_url = badges.audit_url(&domain);
        let audit_url = audit_url.as_ref().map(url::Url::as_str);
        let cooldown = crate::badges::BADGE_AUDIT_COOLDOWN;
        let body = pages::report::render_not_audited(&base, &domain, queued, audit_url, cooldown);
        return Ok(DomainReport::NotAudited(body));
    };
    // The score history of the page shown, from its public audits.
    let history = app.public_page_history(&audit).await?;
    let crawl = crawls.newest_public(badge::domain_forms(&domain)).await?;
    let readiness = app.public_readiness_of(&audit).await?;
    let body = app
        .compute(move |_| {
            let result = StoredResult::of(&audit).result;
            crate::fixes::report_page(&base, &domain, result, &history, crawl.as_ref(), readiness.as_ref())
        })
        .await?;
    Ok(DomainReport::Page(body))
}

/// Where the report of an audit made for a visitor is shown.
#[derive(Debug)]
pub enum AuditReport {
    /// The report page itself: the audit is private to the key that made it (the public
    /// page never shows it), names an address rather than a domain, or was not stored.
    Page(String),
    /// The report address of its domain, showing this audit (`/report/{domain}?audit={id}`).
    Redirect(String),
}

/// Where the report of `audited` is shown, for a page whose links start with `base`.
///
/// # Errors
/// The store's failure, or `overloaded` when the page cannot be rendered now.
pub async fn audit_report(app: &App, base: String, audited: &Audited) -> Result<AuditReport, AppError> {
    match &audited.stored {
        Some(stored) if stored.public => match badge::validate_domain(&stored.host) {
            Some(domain) => {
                Ok(AuditReport::Redirect(format!("/report/{}?audit={}", pages::encode_component(&domain), stored.id)))
            }
            None => Ok(AuditReport::Page(stored_page(app, base, stored.clone()).await?)),
        },
        Some(stored) => Ok(AuditReport::Page(stored_page(app, base, stored.clone()).await?)),
        None => {
            // Not stored (logged): still show the user the audit they waited for.
            let host = url::Url::parse(&audited.result.page.final_url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_default();
            let result = audited.result.clone();
            let work =
                move |_: &dyn audit_core::Budget| crate::fixes::report_page(&base, &host, result, &[], None, None);
            Ok(AuditReport::Page(app.compute(work).await?))
        }
    }
}

/// The report page of a stored audit, read back typed (a row that does not parse renders
/// as an empty result: every field shown as missing). Reading the stored result, scrubbing
/// it and rendering it cost in proportion to the result, so they run as the application's
/// work does ([`App::compute`]: in an audit slot, off the async workers).
async fn stored_page(app: &App, base: String, audit: store::StoredAudit) -> Result<String, AppError> {
    // Only a public audit's page shows the page's public readiness answer; a private
    // audit's report shows nothing another caller stored.
    let readiness = if audit.public { app.public_readiness_of(&audit).await? } else { None };
    let work = move |_: &dyn audit_core::Budget| {
        let result = StoredResult::of(&audit).result;
        crate::fixes::report_page(&base, &audit.host, result, &[], None, readiness.as_ref())
    };
    app.compute(work).await
}
