//! `POST /api/v1/crawls/{id}/shares`, `GET /api/v1/crawls/{id}/shares`,
//! `DELETE /api/v1/crawls/{id}/shares/{link}`: share links of a crawl's report page
//! (docs/API.md, "Share links"; wire types: `api::crawl_shares`).
//!
//! A key with the `audit` scope is required, the crawl's owner's (another owner's crawl is
//! 404, as an unknown one). None of them consumes quota.

use api::crawl_shares::{CrawlShare, ShareAnswer, ShareList, ShareRequest};
use app::crawl::share::Share;
use http::StatusCode;

use crate::auth::key_owner;
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

async fn owner(ctx: &Ctx) -> Result<app::UserId, ApiError> {
    key_owner(ctx, app::Scope::Audit).await
}

fn id_of(ctx: &Ctx) -> app::CrawlId {
    app::CrawlId::from(ctx.param("id").unwrap_or_default())
}

fn wire(ctx: &Ctx, share: Share) -> CrawlShare {
    app::crawl::share::wire_share(&crate::routes::web::base_url(ctx), share)
}

/// `POST /api/v1/crawls/{id}/shares`.
pub async fn create(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    // The body may be left out; one that is sent is read as every POST body is.
    let request = ctx.body_if_sent::<ShareRequest>().await?;
    let expires_in = request
        .expires_in
        .optional("expires_in", "a whole number of seconds from 60 to 2592000")
        .map_err(|_| app::crawl::share::lifetime_refusal())?;
    let share = ctx.state.crawls.share(&owner, &id_of(&ctx), expires_in).await?;
    Ok(json_response(
        StatusCode::CREATED,
        &ShareAnswer { ok: true, api_version: audit_core::API_VERSION, share: wire(&ctx, share) },
    ))
}

/// `GET /api/v1/crawls/{id}/shares`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let id = id_of(&ctx);
    let shares = ctx.state.crawls.shares(&owner, &id).await?;
    Ok(ok_json(&ShareList {
        ok: true,
        api_version: audit_core::API_VERSION,
        crawl_id: id,
        shares: shares.into_iter().map(|s| wire(&ctx, s)).collect(),
    }))
}

/// `DELETE /api/v1/crawls/{id}/shares/{link}`.
pub async fn revoke(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let link = ctx.param("link").unwrap_or_default().to_string();
    let share = ctx.state.crawls.revoke_share(&owner, &id_of(&ctx), &link).await?;
    Ok(ok_json(&ShareAnswer { ok: true, api_version: audit_core::API_VERSION, share: wire(&ctx, share) }))
}
