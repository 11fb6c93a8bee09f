//! compare_competitors: the site's page and a competitor's, audited with the same
//! ruleset and compared per category.

use audit_core::Category;
use mcp_protocol::ToolResult;
use serde_json::{json, Map, Value};

use super::{audit, url_arg, Audited, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let (site_url, competitor_url) = match (url_arg(args, "url"), url_arg(args, "competitorUrl")) {
        (Ok(s), Ok(c)) => (s, c),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let (site, competitor) = tokio::join!(audit(env, &site_url), audit(env, &competitor_url));
    let (site, competitor) = match (site, competitor) {
        (Ok(s), Ok(c)) => (s, c),
        (Err(e), _) => return ToolResult::error(format!("{} (argument url)", e.text())),
        (_, Err(e)) => return ToolResult::error(format!("{} (argument competitorUrl)", e.text())),
    };
    ToolResult::success(structured(site_url.as_str(), &site, competitor_url.as_str(), &competitor))
}

fn winner(site: u32, competitor: u32) -> &'static str {
    match site.cmp(&competitor) {
        std::cmp::Ordering::Greater => "site",
        std::cmp::Ordering::Less => "competitor",
        std::cmp::Ordering::Equal => "tie",
    }
}

/// The structuredContent of compare_competitors.
pub fn structured(site_url: &str, site: &Audited, competitor_url: &str, competitor: &Audited) -> Value {
    // A category with no applicable rule on one side counts as fully passed there, as the
    // overall score does for a page where nothing applies; categories that apply to
    // neither page are left out.
    let categories: Vec<Value> = Category::ALL
        .iter()
        .filter_map(|&cat| {
            let (s, c) = match (site.audit.category_score(cat), competitor.audit.category_score(cat)) {
                (None, None) => return None,
                (s, c) => (s.unwrap_or(100), c.unwrap_or(100)),
            };
            Some(json!({ "category": cat.name(), "site": s, "competitor": c, "winner": winner(s, c) }))
        })
        .collect();
    // The one comparison: a site "wins" a rule that fails on the competitor only.
    let diff = app::Comparison::of(&site.result, &competitor.result);
    let (s, c) = diff.scores;
    json!({
        "url": site_url,
        "competitorUrl": competitor_url,
        "score": { "site": s, "competitor": c },
        "winner": winner(s, c),
        "categories": categories,
        "siteWins": diff.failing_only_in_b,
        "competitorWins": diff.failing_only_in_a,
    })
}
