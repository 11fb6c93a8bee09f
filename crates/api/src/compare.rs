//! The wire types and operation of `GET /api/v1/audits/{id}/compare?against={id}`
//! (docs/API.md, "Comparing two audits"): two stored audits of one URL, each finding new,
//! unchanged or resolved, and the change of the score.

use audit_core::baseline::{Counts, Element, State};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use crate::{answer, Access, Content, In, Operation, Param, Response};

/// The answer of `GET /api/v1/audits/{id}/compare`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "AuditComparison")]
pub struct AuditComparison {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The audit compared (`{id}`).
    #[schemars(with = "String")]
    pub id: vocab::AuditId,
    /// The audit it is compared with (`against`), the baseline.
    #[schemars(with = "String")]
    pub against: vocab::AuditId,
    /// The URL both audited (as `id` asked for it).
    pub url: String,
    /// The scores and their change.
    pub score: ScoreChange,
    /// The ruleset each audit was made with.
    pub ruleset_version: RulesetVersions,
    /// Findings in each state.
    pub counts: Counts,
    /// The findings of `id`, in its order (worst first), then those of `against` that are
    /// resolved.
    pub findings: Vec<ComparedFinding>,
    /// What the reader should know of the comparison: audits of different rulesets, whose
    /// changed rules may show findings as new or resolved.
    pub notes: Vec<String>,
}

/// The scores of the two audits.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ScoreChange {
    /// The score percentage of `id`.
    pub current: u32,
    /// The score percentage of `against`.
    pub baseline: u32,
    /// `current - baseline`.
    pub change: i64,
}

/// The rulesets of the two audits.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RulesetVersions {
    /// The ruleset of `id`.
    pub current: String,
    /// The ruleset of `against`.
    pub baseline: String,
}

/// One finding and how it stands.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ComparedFinding {
    /// The rule's id.
    pub id: String,
    /// `new` (not in the baseline, or failing on an element it did not list), `unchanged`,
    /// or `resolved` (in the baseline only).
    pub state: State,
    /// What the finding says (the baseline's words for a resolved one).
    pub title: String,
    /// The elements it points at, each with its own state; omitted when it lists none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<ComparedLocation>,
}

/// An element of a finding and how it stands.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ComparedLocation {
    /// The element.
    #[serde(flatten)]
    pub element: Element,
    /// `new`, `unchanged`, or `resolved` (the baseline listed it, this audit no longer).
    pub state: State,
}

const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

/// `GET /api/v1/audits/{id}/compare`.
pub static COMPARE_AUDITS: Operation = Operation {
    id: "compareAudits",
    summary: "Two stored audits of one URL compared",
    description: "Each finding of the audit `id` marked `new` or `unchanged` against the audit `against` \
        (its baseline), the baseline's findings that are gone marked `resolved`, and the score's change. \
        Findings are matched by rule, then element by element by CSS selector, then snippet, never by \
        line (docs/API.md, \"Comparing two audits\"). Both audits must be the key owner's and of the same \
        URL. Requires a key with the `audit` scope; consumes no quota.",
    tag: "audit",
    access: Access::KeyRequired,
    params: &[
        Param::Own {
            name: "id",
            at: In::Path,
            required: true,
            description: "The audit compared (`id` of a listed audit).",
            schema: |_| json!({"type": "string"}),
        },
        Param::Own {
            name: "against",
            at: In::Query,
            required: true,
            description: "The audit it is compared with, the baseline (an earlier audit of the same URL).",
            schema: |_| json!({"type": "string", "minLength": 1}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The comparison.",
            headers: &[],
            content: Content::Json(answer::<AuditComparison>),
        },
        error(
            "400",
            "`missing_parameter` (`against`, in `details.parameter`); `invalid_request`: the two audits are of \
             different URLs.",
        ),
        error("401", "`unauthorized`: no key, or an unknown key."),
        error("403", "`forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`)."),
        error("404", "`not_found`: no audit of this owner has the id `id`, or `against`."),
        error("500", "`internal`."),
    ],
};
