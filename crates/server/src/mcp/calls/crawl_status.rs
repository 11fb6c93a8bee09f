//! crawl_status: a site crawl of the key owner ([`app::crawl::Crawls::owned`]: another
//! owner's crawl answers exactly as an unknown one) with its top issues.

use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{from_app_error, owner, ToolEnv};

/// Issues listed at most.
const TOP_ISSUES: usize = 10;

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The crawl_id returned by crawl_site
    #[schemars(length(min = 1))]
    pub crawl_id: String,
}

/// How far the crawl got.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Progress {
    /// URLs fetched that answered.
    pub pages_done: u64,
    /// URLs waiting or being fetched.
    pub pages_queued: u64,
    /// URLs whose fetch failed.
    pub pages_failed: u64,
    /// URLs never fetched (robots.txt, scope).
    pub pages_skipped: u64,
}

/// A rule with findings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Issue {
    /// The rule id.
    pub id: String,
    /// `site` or `page`.
    pub kind: String,
    /// `critical`, `warning` or `notice`.
    pub severity: String,
    /// Distinct URLs affected.
    pub count: u64,
}

/// Result: the crawl.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Output {
    /// The crawl id.
    pub crawl_id: String,
    /// The start URL.
    pub url: String,
    /// `queued`, `running`, `completed`, `cancelled` or `failed`.
    pub state: String,
    /// Its counts.
    pub progress: Progress,
    /// When it started.
    pub started_at: Option<String>,
    /// When it ended.
    pub finished_at: Option<String>,
    /// 0-100 once it ended with pages audited.
    pub site_score: Option<u32>,
    /// Why it failed.
    pub error: Option<String>,
    /// The top issues: site rules first, then by severity and count.
    pub top_issues: Vec<Issue>,
    /// The human report page.
    pub report_url: String,
    /// Every URL of the crawl (REST, cursor paging).
    pub pages_url: String,
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let user_id = owner(env)?;
    let crawls = &env.state.crawls;
    let crawl = crawls.owned(Some(&user_id), &args.crawl_id).await.map_err(|e| from_app_error(e, "crawl"))?;
    let issues = crawls.issue_counts(&crawl.id).await.map_err(|e| from_app_error(e, "crawl issues"))?;
    let p = crawl.progress;
    Ok(Output {
        report_url: format!("/crawls/{}", crawl.id),
        pages_url: format!("/api/v1/crawls/{}/pages", crawl.id),
        crawl_id: crawl.id,
        url: crawl.url,
        state: crawl.state.as_str().to_string(),
        progress: Progress {
            pages_done: p.pages_done,
            pages_queued: p.pages_queued,
            pages_failed: p.pages_failed,
            pages_skipped: p.pages_skipped,
        },
        started_at: crawl.started_at,
        finished_at: crawl.finished_at,
        site_score: crawl.site_score,
        error: crawl.error,
        top_issues: issues
            .into_iter()
            .take(TOP_ISSUES)
            .map(|c| Issue {
                id: c.rule_id,
                kind: match c.kind {
                    app::crawl::stored::IssueKind::Site => "site".to_string(),
                    app::crawl::stored::IssueKind::Page => "page".to_string(),
                },
                severity: c.severity,
                count: c.count,
            })
            .collect(),
    })
}
