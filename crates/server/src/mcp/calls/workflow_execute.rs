//! workflow_execute: creates a persisted run and starts it in the background; answers at
//! once with the runId (see [`app::Workflows`]).

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_api_error, needed_url, owner, url_arg, ToolEnv, TopN};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// What the run does
    pub intent: app::Intent,
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Competitor page; required by the competitor intent
    #[schemars(length(min = 1, max = 2048))]
    pub competitor_url: Option<String>,
    /// How many issues the fix plan covers (1 to 20, default 5)
    #[serde(default)]
    pub top_n: TopN,
}

/// Result: the run just created.
pub type Output = app::workflows::Started;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let intent = args.intent;
    let url = url_arg(&args.url, "url")?;
    let competitor = match intent {
        app::Intent::Competitor => Some(
            needed_url(args.competitor_url.as_deref(), "competitorUrl", "The competitor intent needs competitorUrl.")?
                .to_string(),
        ),
        _ => None,
    };
    let new = app::NewRun {
        user_id: Some(user_id),
        intent,
        url: url.to_string(),
        competitor_url: competitor,
        top_n: u32::try_from(args.top_n.0).ok(),
    };
    let run = env
        .state
        .workflows
        .create(new)
        .await
        .map_err(|e| from_api_error(e.into(), "workflow not created"))?;
    Ok(app::workflows::Started::of(&run))
}
