//! track_keywords: on-page keyword tracking of the key owner ([`app::keywords`]). Never a
//! rank.

use app::keywords::KeywordAction;
use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{from_app_error, needed_url, owner, text, tool_error, ToolEnv};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// add, remove or list
    pub action: KeywordAction,
    /// The keyword or phrase; required for add and remove
    #[schemars(length(min = 1, max = 100))]
    pub keyword: Option<String>,
    /// The page that should rank for it; required for add
    #[schemars(length(min = 1, max = 2048))]
    pub target_url: Option<String>,
}

/// Result.
pub type Output = app::keywords::KeywordReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let app = &env.state.app;
    let keyword = text(&args.keyword);
    match args.action {
        KeywordAction::Add => {
            let keyword = keyword.ok_or_else(|| tool_error("missing_parameter", "The add action needs `keyword`."))?;
            let url = needed_url(args.target_url.as_deref(), "targetUrl", "add needs targetUrl.")?;
            app.add_keyword(&user_id, &keyword, &url).await.map_err(|e| from_app_error(e, url.as_str()))?;
        }
        KeywordAction::Remove => {
            let keyword = keyword.ok_or_else(|| tool_error("missing_parameter", "The remove action needs `keyword`."))?;
            app.remove_keyword(&user_id, &keyword).await.map_err(|e| from_app_error(e, "keyword"))?;
        }
        KeywordAction::List => {}
    }
    app.keyword_report(&user_id, args.action).await.map_err(|e| from_app_error(e, "keywords"))
}
