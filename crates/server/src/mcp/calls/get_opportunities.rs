//! get_opportunities: failed checks ranked by priority (impact points × weight ÷ effort
//! points).

use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{audit_url_arg, ranked, Audited, ToolEnv};
use crate::mcp::tools::shape::{all_required, array_of, level, object, t};
use crate::mcp::tools::{Json, Meta, Shape, AUDITS};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Ranked opportunities",
    category: Category::Write,
    hints: AUDITS,
    description:
        "Audits a page and returns its failed checks ranked by expected gain: a priority score from the rule's \
         weight, impact and effort (high impact, low effort and heavy weight first). Needs an API key with the \
         mcp scope. Use it to decide what to fix first; pass the top ids to generate_fixes or get_seo_concept.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Absolute http or https URL of the page
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
}

/// Result.
pub type Output = Json<Opportunities>;

/// The shape of [`structured`].
#[derive(Debug)]
pub struct Opportunities;

impl Shape for Opportunities {
    fn schema() -> Value {
        let opportunity = all_required(json!({
            "id": t("string"), "title": t("string"), "category": t("string"), "impact": level(), "effort": level(),
            "weight": t("integer"), "priorityScore": t("number"), "rank": json!({ "type": "integer", "minimum": 1 })
        }));
        object(
            json!({ "url": t("string"), "score": t("integer"), "opportunities": array_of(opportunity) }),
            &["url", "score", "opportunities"],
        )
    }
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let (url, done) = audit_url_arg(env, &args.url).await?;
    Ok(Json::new(structured(url.as_str(), &done)))
}

/// The structuredContent of get_opportunities.
pub fn structured(url: &str, done: &Audited) -> Value {
    let opportunities: Vec<Value> = ranked(&done.audit)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": r.rule.id,
                "title": r.finding.title,
                "category": r.rule.category.name(),
                "severity": r.rule.severity.name(),
                "impact": r.rule.impact.name(),
                "effort": r.rule.effort.name(),
                "weight": r.rule.weight,
                "priorityScore": r.priority,
                "rank": i + 1,
            })
        })
        .collect();
    json!({
        "url": url,
        "finalUrl": done.audit.page.final_url,
        "score": done.audit.score().percentage,
        "ranking": "priorityScore = impact points (high 3, medium 2, low 1) x rule weight / effort points (low 1, medium 2, high 3)",
        "opportunities": opportunities,
    })
}
