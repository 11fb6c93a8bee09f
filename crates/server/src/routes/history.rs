//! `GET /api/v1/audits`, `GET /api/v1/audits/{id}`, `GET /api/v1/audits/{id}/compare`,
//! `GET /api/v1/history`: stored audits read back and compared (docs/API.md, "Stored
//! audits", "Comparing two audits"). Reads of stored data consume no quota, like the usage
//! snapshot; the listing, one audit and a comparison need a key with the `audit` scope, the
//! history also answers anonymous callers with public audits.

use api::{ScoreHistory, StoredAuditAnswer, StoredAuditList};
use app::history::{AuditQuery, AuditSummary};
use app::{AuditId, UserId};

use crate::auth::{authenticate, key_owner, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

async fn owner(ctx: &Ctx) -> Result<UserId, ApiError> {
    key_owner(ctx, app::Scope::Audit).await
}

/// The audit id of the path.
fn path_id(ctx: &Ctx) -> AuditId {
    AuditId::from(ctx.param("id").unwrap_or_default())
}

/// `GET /api/v1/audits`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let query = AuditQuery::parse(|name| ctx.query(name))?;
    let page = ctx.state.app.list_audits(user_id, query).await?;
    Ok(ok_json(&StoredAuditList {
        ok: true,
        api_version: audit_core::API_VERSION,
        audits: page.audits.iter().map(AuditSummary::wire).collect(),
        next_cursor: page.next.map(|c| c.encode()),
    }))
}

/// `GET /api/v1/audits/{id}`.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = path_id(&ctx);
    // Another owner's id answers exactly as an unknown one (the use case's `not_found`).
    let record = ctx.state.app.own_audit(user_id, id).await?;
    // Writing the stored result grows with it: the application's work, off the async workers.
    let work = move |_: &dyn audit_core::Budget| {
        ok_json(&StoredAuditAnswer {
            id: record.summary.id,
            created_at: record.summary.created_at.into(),
            answer: api::FullAnswer::new(record.result),
        })
    };
    Ok(ctx.state.app.compute(work).await?)
}

/// `GET /api/v1/audits/{id}/compare?against={id}` (docs/API.md, "Comparing two audits").
pub async fn compare(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = owner(&ctx).await?;
    let id = path_id(&ctx);
    let against = match ctx.query("against") {
        Some(a) if !a.is_empty() => a,
        _ => return Err(app::AppError::missing_parameter("against").into()),
    };
    let comparison = ctx.state.app.compare_audits(user_id, id, against.into()).await?;
    Ok(ok_json(&comparison))
}

/// `GET /api/v1/history`.
pub async fn history(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    if identity.user_id().is_none() {
        // Anonymous reads of public data, as the report page: the same per-IP guard.
        crate::routes::web::flood_guard(&ctx)?;
    }
    let (url, limit) = app::history::parse_history_query(|name| ctx.query(name))?;
    let audits = ctx.state.app.url_history(identity.user_id().cloned(), url.clone(), limit).await?;
    Ok(ok_json(&ScoreHistory {
        ok: true,
        api_version: audit_core::API_VERSION,
        url: url.to_string(),
        audits: audits.iter().map(AuditSummary::wire).collect(),
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn page_sizes_agree_with_the_application() {
        assert_eq!(api::DEFAULT_AUDITS_PAGE, app::history::DEFAULT_PAGE_SIZE);
        assert_eq!(api::MAX_AUDITS_PAGE, app::history::MAX_PAGE_SIZE);
        assert_eq!(api::DEFAULT_HISTORY, app::history::DEFAULT_HISTORY_SIZE);
        assert_eq!(api::MAX_HISTORY, app::history::MAX_HISTORY_SIZE);
    }
}
