//! schedule_crawl: the key owner's crawl schedules (docs/API.md, "Scheduled crawls"): make one
//! (a crawl run daily or weekly, each run compared with the previous and alerted on), list
//! them, pause, resume or end one: the use cases of `/api/v1/crawl-schedules`
//! ([`app::crawl::Schedules::act`]), with the same checks of the same request.

use mcp_protocol::ToolResult;

use super::{from_app_error, owner, ToolEnv};

/// Arguments: an action, with the members of the REST request for `create`.
pub type Args = api::schedules::ScheduleCrawlArgs;

/// Result: the schedule (create, pause, resume), the schedules (list), the id ended, or a
/// page of alerts (alerts).
pub type Output = api::schedules::ScheduleCrawlAnswer;

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    owner(env)?;
    env.state.schedules.act(&env.state.app, env.identity, args).await.map_err(|e| from_app_error(e, "crawl schedule"))
}
