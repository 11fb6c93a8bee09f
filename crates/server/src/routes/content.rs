//! `POST /api/content-gap` and `POST /api/auto-fix-batch` (docs/API.md): identity, the
//! body, and the answer with its `x-ratelimit-*` headers; the work and its charge are the
//! application's ([`app::App::content_gap`], [`app::App::auto_fix`]).
//!
//! Choices this project made (also in docs/API.md):
//! - A content-gap request costs one quota unit however many competitors it names, and
//!   takes a place in the audit queue for the page and for each competitor (503 when the
//!   server is full); a competitor that cannot be compared is named in `skippedCompetitors`.
//! - Auto-fix never fetches: an issue's `context.url` only fills templates, so a batch of 50
//!   answers at once and cannot be used to make the service fetch 50 pages for one unit.

use api::AutoFixResult;

use crate::auth::{authenticate_metered, billed, payer, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// `POST /api/content-gap` with `{url, title?, wordCount?, headings?, competitors?}`.
pub async fn content_gap(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let req = app::requests::gap(ctx.body().await?)?;
    let url = req.url.clone();
    let payer = payer(&ctx, &identity);
    let answer = billed(&ctx, &payer, ctx.state.app.content_gap(req, identity.user_id(), &payer).await)?;
    Ok(ok_json(&answer.wire(&url)))
}

/// `POST /api/auto-fix-batch` with `{issues: [1..=50 issues]}`.
pub async fn auto_fix_batch(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate_metered(&ctx, KeyRule::Optional, Some(app::Scope::Audit)).await?;
    let issues = app::requests::issues(ctx.body().await?)?;
    let payer = payer(&ctx, &identity);
    let fixes = billed(&ctx, &payer, ctx.state.app.auto_fix(issues, &payer).await)?;
    Ok(ok_json(&AutoFixResult::new(fixes)))
}
