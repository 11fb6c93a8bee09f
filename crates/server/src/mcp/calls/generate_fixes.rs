//! generate_fixes: a ready-to-apply fix, filled with the page's own values, for each of
//! the top-ranked failed checks.

use autofix::{fix_for_rule, FixContext};
use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{audit_url_arg, ranked, Audited, ToolEnv, TopN};
pub use super::{DEFAULT_TOP_N, MAX_TOP_N};
use crate::mcp::tools::shape::{all_required, array_of, object, one_of_strings, t};
use crate::mcp::tools::{Json, Meta, Shape, AUDITS};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Generate fixes",
    category: Category::Write,
    hints: AUDITS,
    description:
        "Audits a page and writes a ready-to-paste fix (HTML, JSON-LD, robots.txt, HTTP header, server config \
         or text) for each of its top issues, filled with the page's own title, URL and text. Deterministic and \
         template-based: the same page gives the same fixes. Needs an API key with the mcp scope. Use it after \
         get_opportunities, or directly when the user wants code.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// How many of the highest-priority issues to fix (1 to 20, default 5)
    #[serde(default)]
    pub top_n: TopN,
}

/// Result.
pub type Output = Json<Fixes>;

/// The shape of [`structured`].
#[derive(Debug)]
pub struct Fixes;

impl Shape for Fixes {
    fn schema() -> Value {
        let fix = all_required(json!({
            "ruleId": t("string"),
            "issueTitle": t("string"),
            "type": one_of_strings(&["html", "json-ld", "robots", "http-header", "server-config", "text"]),
            "difficulty": one_of_strings(&["easy", "medium", "hard"]),
            "fix": t("string"),
            "explanation": t("string")
        }));
        object(json!({ "url": t("string"), "topN": t("integer"), "fixes": array_of(fix) }), &["url", "topN", "fixes"])
    }
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (url, done) = audit_url_arg(env, &args.url).await?;
    Ok(Json::new(structured(url.as_str(), &done, args.top_n.0)))
}

/// The structuredContent of generate_fixes.
pub fn structured(url: &str, done: &Audited, top_n: usize) -> Value {
    let page = &done.audit.page;
    let context = FixContext { url: Some(page.final_url.clone()), page: Some(page), ..FixContext::default() };
    let fixes: Vec<Value> = ranked(&done.audit)
        .iter()
        .filter_map(|r| {
            let fix = fix_for_rule(r.rule.id, Some(&context))?;
            Some(json!({
                "ruleId": r.rule.id,
                "issueTitle": r.finding.title,
                "type": fix.kind.name(),
                "difficulty": fix.difficulty,
                "fix": fix.fix,
                "explanation": fix.explanation,
                "priorityScore": r.priority,
            }))
        })
        .take(top_n)
        .collect();
    json!({ "url": url, "finalUrl": page.final_url, "topN": top_n, "fixes": fixes })
}
