//! `POST /api/v1/crawls/{id}/shares`, `GET /api/v1/crawls/{id}/shares`,
//! `DELETE /api/v1/crawls/{id}/shares/{link}`: share links of a crawl's report page
//! (docs/API.md, "Share links"; wire types: `api::crawl_shares`).
//!
//! A key with the `audit` scope is required, the crawl's owner's (another owner's crawl is
//! 404, as an unknown one). None of them consumes quota.

use api::crawl_shares::{CrawlShare, ShareAnswer, ShareList, ShareRequest};
use app::crawl::share::Share;
use http::StatusCode;

use crate::auth::{authenticate, KeyRule};
use crate::ctx::{Ctx, HandlerFuture};
use crate::error::ApiError;
use crate::response::{json_response, ok_json};

/// `POST /api/v1/crawls/{id}/shares`.
pub fn create(ctx: Ctx) -> HandlerFuture {
    Box::pin(create_share(ctx))
}

/// `GET /api/v1/crawls/{id}/shares`.
pub fn list(ctx: Ctx) -> HandlerFuture {
    Box::pin(list_shares(ctx))
}

/// `DELETE /api/v1/crawls/{id}/shares/{link}`.
pub fn revoke(ctx: Ctx) -> HandlerFuture {
    Box::pin(revoke_share(ctx))
}

async fn owner(ctx: &Ctx) -> Result<String, ApiError> {
    let identity = authenticate(ctx, KeyRule::Required, Some(app::Scope::Audit)).await?;
    identity
        .user_id()
        .map(str::to_string)
        .ok_or_else(|| ApiError::unauthorized("This endpoint needs an API key with the `audit` scope."))
}

fn id_of(ctx: &Ctx) -> String {
    ctx.param("id").unwrap_or_default().to_string()
}

fn wire(ctx: &Ctx, share: Share) -> CrawlShare {
    app::crawl::share::wire_share(&crate::routes::web::base_url(ctx), share)
}

async fn create_share(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    // The body may be left out; one that is sent is read as every POST body is.
    let sends_body = match ctx.headers.get(http::header::CONTENT_LENGTH) {
        Some(len) => len.as_bytes() != b"0",
        None => ctx.headers.contains_key(http::header::TRANSFER_ENCODING),
    };
    let request = if sends_body { ctx.body::<ShareRequest>().await? } else { ShareRequest::default() };
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

async fn list_shares(ctx: Ctx) -> Result<crate::Response, ApiError> {
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

async fn revoke_share(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let owner = owner(&ctx).await?;
    let link = ctx.param("link").unwrap_or_default().to_string();
    let share = ctx.state.crawls.revoke_share(&owner, &id_of(&ctx), &link).await?;
    Ok(ok_json(&ShareAnswer { ok: true, api_version: audit_core::API_VERSION, share: wire(&ctx, share) }))
}
