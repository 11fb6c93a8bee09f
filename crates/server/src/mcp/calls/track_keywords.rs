//! track_keywords: on-page keyword tracking of the key owner ([`app::keywords`]; the
//! arguments checked by [`app::keywords::KeywordArgs::change`]). Never a rank.

use app::keywords::KeywordChange;
use mcp_protocol::ToolResult;

use super::{from_app_error, owner, ToolEnv};

/// Arguments.
pub type Args = app::keywords::KeywordArgs;

/// Result.
pub type Output = app::keywords::KeywordReport;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let app = &env.state.app;
    match args.change().map_err(|e| from_app_error(e, "argument"))? {
        KeywordChange::Add { keyword, url } => {
            app.add_keyword(&user_id, &keyword, &url).await.map_err(|e| from_app_error(e, url.as_str()))?
        }
        KeywordChange::Remove { keyword } => {
            app.remove_keyword(&user_id, &keyword).await.map_err(|e| from_app_error(e, "keyword"))?
        }
        KeywordChange::Nothing => {}
    }
    app.keyword_report(&user_id, args.action).await.map_err(|e| from_app_error(e, "keywords"))
}
