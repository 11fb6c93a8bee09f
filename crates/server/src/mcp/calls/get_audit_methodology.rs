//! get_audit_methodology: the rule table and how the score is computed, optionally for
//! one methodology group.

use audit_core::Group;
use mcp_protocol::{Category, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::ToolEnv;
use crate::mcp::methodology::methodology;
use crate::mcp::tools::shape::{all_required, array_of, one_of_strings, severity, t};
use crate::mcp::tools::{Json, Meta, Shape, READ_ONLY_LOCAL};

/// The tool's card.
pub const META: Meta = Meta {
    title: "Audit methodology",
    category: Category::Public,
    hints: READ_ONLY_LOCAL,
    description:
        "Explains how seo_audit scores a page: every rule (stable id, name, severity, weight, threshold) grouped \
         as technical, content and performance, the ruleset version and fingerprint, and how the percentage is \
         computed. Public: no API key needed. Use it to explain a score, to see which checks exist before an \
         audit, or to cite the exact threshold behind a finding. Pass category to get one group only.",
};

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// Only this methodology group; all groups when absent
    pub category: Option<MethodologyGroup>,
}

/// A methodology group, as the argument names it.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MethodologyGroup {
    /// Speed and resources.
    Performance,
    /// Text, headings, media and structured data.
    Content,
    /// Crawling, indexing and markup.
    Technical,
}

impl MethodologyGroup {
    fn group(self) -> Group {
        match self {
            MethodologyGroup::Performance => Group::Performance,
            MethodologyGroup::Content => Group::Content,
            MethodologyGroup::Technical => Group::Technical,
        }
    }
}

/// Result.
pub type Output = Json<Methodology>;

/// The shape of the methodology document ([`methodology`]).
#[derive(Debug)]
pub struct Methodology;

impl Shape for Methodology {
    fn schema() -> Value {
        let rule = all_required(json!({
            "id": t("string"), "name": t("string"), "severity": severity(), "weight": t("integer"),
            "threshold": t("string")
        }));
        let category = all_required(json!({ "category": t("string"), "rules": array_of(rule) }));
        let groups = ["performance", "content", "technical"];
        let group = all_required(json!({ "group": one_of_strings(&groups), "categories": array_of(category) }));
        all_required(json!({
            "category": { "type": ["string", "null"], "enum": ["performance", "content", "technical", null] },
            "ruleset": all_required(json!({ "version": t("string"), "fingerprint": t("string"), "engineVersion": t("string") })),
            "groups": array_of(group),
            "scoring": t("string")
        }))
    }
}

/// Runs the tool.
pub async fn call(_env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    Ok(Json::new(methodology(args.category.map(MethodologyGroup::group))))
}
