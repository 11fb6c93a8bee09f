//! `GET /api/v1/workflows`: the workflow runs of the key's owner (docs/API.md, "Managing
//! what a key created"). A key with the `mcp` scope is required; no quota is consumed.

use api::WorkflowList;

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::response::ok_json;
use crate::routes::monitors::mcp_owner;

/// `GET /api/v1/workflows`.
pub async fn list(ctx: Ctx) -> Result<crate::Response, ApiError> {
    let user_id = mcp_owner(&ctx).await?;
    let runs = ctx.state.workflows.owned_runs(user_id, app::workflows::RUN_LIST_LIMIT).await?;
    let workflows = runs.iter().map(app::workflows::wire_summary).collect();
    Ok(ok_json(&WorkflowList { ok: true, api_version: audit_core::API_VERSION, workflows }))
}
