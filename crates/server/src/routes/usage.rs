//! `GET /api/v1/usage`: the usage snapshot of the key's owner (docs/API.md, "GET /api/v1/usage").

use crate::auth::{authenticate, payer, KeyRule};
use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;

/// `GET /api/v1/usage` (key required, any scope; consumes no quota): the application's
/// snapshot ([`app::App::usage_snapshot`]) of the caller's standing on the shared limiter.
pub async fn get(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let identity = authenticate(&ctx, KeyRule::Required, None).await?;
    Ok(ok_json(&ctx.state.app.usage_snapshot(&payer(&ctx, &identity)).await?))
}
