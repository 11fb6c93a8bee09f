//! workflow_execute: creates a persisted run and starts it in the background; answers at
//! once with the runId (see [`app::workflows`]).

use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{from_api_error, string_arg, tool_error, url_arg, ToolEnv};
use crate::mcp::tools::workflow_intents;

/// The key owner a write tool acts for; an isError result without one.
pub fn owner(env: &ToolEnv<'_>) -> Result<String, ToolResult> {
    env.identity.user_id().map(str::to_string).ok_or_else(|| {
        tool_error("unauthorized", "This tool needs an API key with the mcp scope in the x-api-key header.")
    })
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let user_id = match owner(env) {
        Ok(u) => u,
        Err(e) => return e,
    };
    let raw = string_arg(args, "intent").unwrap_or_default();
    let Ok(intent) = raw.parse::<store::Intent>() else {
        return tool_error(
            "invalid_request",
            format!("intent must be one of {}, not {raw:?}.", workflow_intents().join(", ")),
        );
    };
    let url = match url_arg(args, "url") {
        Ok(url) => url,
        Err(e) => return e,
    };
    let competitor = if intent == store::Intent::Competitor {
        if string_arg(args, "competitorUrl").is_none() {
            return tool_error("missing_parameter", "The competitor intent needs competitorUrl.");
        }
        match url_arg(args, "competitorUrl") {
            Ok(u) => Some(u.to_string()),
            Err(e) => return e,
        }
    } else {
        None
    };
    let top_n = super::generate_fixes::top_n(args.get("topN"));
    let new = store::NewRun {
        user_id: Some(user_id),
        intent,
        url: url.to_string(),
        competitor_url: competitor,
        top_n: u32::try_from(top_n).ok(),
    };
    let state = env.state.clone();
    let run = match state.db(move |s| s.create_run(new)).await {
        Ok(run) => run,
        Err(e) => return from_api_error(e, "workflow not created"),
    };
    if let Err(e) = state.workflows.plan(&run).await {
        return from_api_error(e.into(), "workflow not planned");
    }
    state.workflows.start(run.id.clone());
    ToolResult::success(json!({
        "runId": run.id,
        "state": "queued",
        "intent": intent,
        "url": run.url,
        "steps": app::workflows::steps_of(intent),
    }))
}
