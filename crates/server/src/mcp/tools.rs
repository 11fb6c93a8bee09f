//! The 14 tools of the agent-tool endpoint: names, hints, input schemas and the output
//! schemas every `structuredContent` the server returns must satisfy.
//!
//! The order, names, categories and the two hints (`readOnlyHint`, `openWorldHint`) are
//! fixed: agents and their configurations refer to them. The output schemas are this
//! project's contract too (docs/API.md lists each tool's required fields). Output schemas
//! name required fields but allow additional ones, so a field can be added without
//! breaking a client that validates results.
//!
//! Schemas use only keywords that draft-07 and draft 2020-12 read the same way, and no
//! `$schema`: MCP takes a schema without one as 2020-12, and some clients' validators
//! refuse a `$schema` they do not bundle.

use futures_util::future::BoxFuture;
use mcp_protocol::{Category, ToolAnnotations, ToolDef, ToolResult};
use serde_json::{json, Map, Value};

use super::calls::{self, ToolEnv};

pub use super::calls::generate_fixes::{DEFAULT_TOP_N, MAX_TOP_N};

/// Values of get_audit_methodology's `category` argument (the methodology groups).
pub const METHODOLOGY_CATEGORIES: [&str; 3] = ["performance", "content", "technical"];
/// The workflow intents (workflow_execute's `intent`), by name: the store's vocabulary (`store::Intent`), in its order.
pub fn workflow_intents() -> Vec<&'static str> {
    use strum::VariantArray as _;
    store::Intent::VARIANTS.iter().map(|i| i.as_str()).collect()
}
/// Values of approve_fixes' `decision`.
pub const APPROVAL_DECISIONS: [&str; 2] = ["approved", "rejected"];
/// Values of track_keywords' `action`.
pub const KEYWORD_ACTIONS: [&str; 3] = ["add", "remove", "list"];
/// Values of run_experiment's `action`.
pub const EXPERIMENT_ACTIONS: [&str; 2] = ["create", "list"];
/// States of a workflow run (docs/API.md, "Workflow runs"): the store's `RunState`.
pub fn workflow_states() -> Vec<&'static str> {
    use strum::VariantArray as _;
    store::RunState::VARIANTS.iter().map(|s| s.as_str()).collect()
}

/// Status of one workflow step: the store's `StepStatus`.
pub fn step_statuses() -> Vec<&'static str> {
    use strum::VariantArray as _;
    store::StepStatus::VARIANTS.iter().map(|s| s.as_str()).collect()
}

/// The note track_keywords always returns, so that no agent mistakes presence counts for rank.
pub const KEYWORD_NOTE: &str = "On-page keyword tracking: presence and frequency of each keyword in the title, h1, \
     meta description, URL and body text of the target page, recorded at every audit. It does not measure \
     search-engine rank positions.";

/// How a tool runs: the `call` function of its `calls/<name>.rs`.
pub type Handler = for<'a> fn(&'a ToolEnv<'a>, &'a Map<String, Value>) -> BoxFuture<'a, ToolResult>;

/// One agent tool: its name, its definition (description, hints, input and output schemas)
/// and its handler. [`TOOLS`] is the one table `tools/list` and `tools/call` read.
#[derive(Clone, Copy)]
pub struct Tool {
    /// The tool's fixed name.
    pub name: &'static str,
    /// Its definition, built on demand (schemas are JSON values).
    pub def: fn() -> ToolDef,
    /// Runs it.
    pub call: Handler,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool").field("name", &self.name).finish_non_exhaustive()
    }
}

/// A table row: the definition function and the `calls` module share the tool's name.
macro_rules! tool {
    ($name:ident) => {
        Tool { name: stringify!($name), def: $name, call: |env, args| Box::pin(calls::$name::call(env, args)) }
    };
}

/// Every tool, in the documented order (docs/API.md), which `tools/list` keeps. Adding a
/// tool is a row here, its definition function below and its `calls/<name>.rs`.
pub static TOOLS: &[Tool] = &[
    tool!(get_site_info),
    tool!(get_audit_methodology),
    tool!(get_seo_concept),
    tool!(seo_audit),
    tool!(get_opportunities),
    tool!(generate_fixes),
    tool!(workflow_execute),
    tool!(workflow_status),
    tool!(approve_fixes),
    tool!(detect_regressions),
    tool!(compare_competitors),
    tool!(monitor_site),
    tool!(track_keywords),
    tool!(run_experiment),
];

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Every tool's definition, in order.
pub fn tool_defs() -> Vec<ToolDef> {
    TOOLS.iter().map(|t| (t.def)()).collect()
}

/// Names of all tools, in order.
pub fn tool_names() -> Vec<String> {
    TOOLS.iter().map(|t| t.name.to_string()).collect()
}

// Schema building blocks. Each returns a fresh `Value`, so they compose inside `json!`.

fn string(description: &str) -> Value {
    json!({ "type": "string", "description": description })
}

fn url_arg(description: &str) -> Value {
    json!({ "type": "string", "description": description, "minLength": 1, "maxLength": 2048 })
}

fn string_enum(values: &[&str], description: &str) -> Value {
    json!({ "type": "string", "enum": values, "description": description })
}

fn top_n(description: &str) -> Value {
    json!({ "type": "integer", "minimum": 1, "maximum": MAX_TOP_N, "default": DEFAULT_TOP_N, "description": description })
}

/// An input schema: closed, so a misspelt argument is refused instead of ignored.
fn input(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

/// An output (or nested) object schema: open, so fields can be added later.
fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required })
}

fn all_required(properties: Value) -> Value {
    let required: Vec<String> = properties.as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default();
    json!({ "type": "object", "properties": properties, "required": required })
}

fn t(ty: &str) -> Value {
    json!({ "type": ty })
}

fn nullable(ty: &str) -> Value {
    json!({ "type": [ty, "null"] })
}

fn array_of(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}

fn strings() -> Value {
    array_of(t("string"))
}

fn one_of_strings(values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values })
}

fn level() -> Value {
    one_of_strings(&["high", "medium", "low"])
}

fn severity() -> Value {
    one_of_strings(&["critical", "warning", "notice"])
}

fn timestamp() -> Value {
    json!({ "type": "string", "description": "ISO 8601 UTC timestamp" })
}

fn nullable_timestamp() -> Value {
    json!({ "type": ["string", "null"], "description": "ISO 8601 UTC timestamp, or null" })
}

fn score_object() -> Value {
    all_required(json!({
        "current": t("integer"), "max": t("integer"), "percentage": t("integer"),
        "passed": t("integer"), "total": t("integer")
    }))
}

fn tool(
    name: &str,
    title: &str,
    category: Category,
    hints: (bool, bool, Option<bool>, Option<bool>),
    description: &str,
    input_schema: Value,
    output_schema: Value,
) -> ToolDef {
    let (read_only_hint, open_world_hint, destructive_hint, idempotent_hint) = hints;
    ToolDef {
        name: name.into(),
        title: title.into(),
        description: description.into(),
        input_schema,
        output_schema,
        annotations: ToolAnnotations { read_only_hint, open_world_hint, destructive_hint, idempotent_hint },
        category,
    }
}

// Hint tuples: (readOnlyHint, openWorldHint, destructiveHint, idempotentHint).
// destructiveHint and idempotentHint only mean something for tools that are not read-only,
// so read-only tools leave them out.
const READ_ONLY_LOCAL: (bool, bool, Option<bool>, Option<bool>) = (true, false, None, None);

fn get_site_info() -> ToolDef {
    tool(
        "get_site_info",
        "Site information",
        Category::Public,
        READ_ONLY_LOCAL,
        "Fetches one page and reports what it is: title, HTTP status and final URL after redirects, whether it \
         is indexable (status, noindex, robots.txt verdict for Googlebot), the robots.txt rule that decides, \
         detected technology (CMS, frameworks, server) and HTTPS. Public: no API key needed. Use it first to \
         check that a URL is reachable and crawlable before running a full seo_audit.",
        input(json!({ "url": url_arg("Absolute http or https URL of the page, e.g. https://example.com/") }), &["url"]),
        object(
            json!({
                "url": t("string"),
                "finalUrl": t("string"),
                "title": t("string"),
                "statusCode": t("integer"),
                "indexable": t("boolean"),
                "robotsTxt": all_required(json!({
                    "present": t("boolean"),
                    "allowed": t("boolean"),
                    "rule": nullable("string")
                })),
                "techStack": strings(),
                "server": nullable("string"),
                "https": t("boolean")
            }),
            &["url", "finalUrl", "title", "statusCode", "indexable", "robotsTxt", "techStack", "server", "https"],
        ),
    )
}

fn get_audit_methodology() -> ToolDef {
    let rule = all_required(json!({
        "id": t("string"), "name": t("string"), "severity": severity(), "weight": t("integer"),
        "threshold": t("string")
    }));
    let category = all_required(json!({ "category": t("string"), "rules": array_of(rule) }));
    let group =
        all_required(json!({ "group": one_of_strings(&METHODOLOGY_CATEGORIES), "categories": array_of(category) }));
    tool(
        "get_audit_methodology",
        "Audit methodology",
        Category::Public,
        READ_ONLY_LOCAL,
        "Explains how seo_audit scores a page: every rule (stable id, name, severity, weight, threshold) grouped \
         as technical, content and performance, the ruleset version and fingerprint, and how the percentage is \
         computed. Public: no API key needed. Use it to explain a score, to see which checks exist before an \
         audit, or to cite the exact threshold behind a finding. Pass category to get one group only.",
        input(
            json!({ "category": string_enum(&METHODOLOGY_CATEGORIES, "Only this methodology group; all groups when absent") }),
            &[],
        ),
        object(
            json!({
                "category": { "type": ["string", "null"], "enum": ["performance", "content", "technical", null] },
                "ruleset": all_required(json!({ "version": t("string"), "fingerprint": t("string"), "engineVersion": t("string") })),
                "groups": array_of(group),
                "scoring": t("string")
            }),
            &["category", "ruleset", "groups", "scoring"],
        ),
    )
}

fn get_seo_concept() -> ToolDef {
    tool(
        "get_seo_concept",
        "SEO concept",
        Category::Public,
        READ_ONLY_LOCAL,
        "Explains an SEO term or an audit rule in plain words: definition, why it matters, how to fix or apply \
         it, the audit rule ids that check it and related concepts. Accepts a term in any form ('canonical tag', \
         'og tags', 'JSON-LD', 'LCP', 'llms.txt') or a rule id from an audit ('meta-description-missing'). \
         Public: no API key needed. When the term is unknown the result has found: false and up to 5 suggestions.",
        input(
            json!({ "concept": { "type": "string", "minLength": 1, "maxLength": 200, "description": "An SEO term or an audit rule id" } }),
            &["concept"],
        ),
        json!({
            "type": "object",
            "properties": {
                "concept": { "type": "string", "description": "Slug of the concept found, or the query when not found" },
                "found": t("boolean"),
                "title": t("string"),
                "definition": t("string"),
                "whyItMatters": t("string"),
                "howToFix": t("string"),
                "relatedRules": strings(),
                "related": strings(),
                "suggestions": strings()
            },
            "required": ["concept", "found"],
            "if": { "properties": { "found": { "const": true } } },
            "then": { "required": ["title", "definition", "whyItMatters", "howToFix", "relatedRules", "related"] },
            "else": { "required": ["suggestions"] }
        }),
    )
}

fn seo_audit() -> ToolDef {
    let issue = object(
        json!({
            "id": t("string"), "type": severity(), "category": t("string"), "title": t("string"),
            "description": t("string"), "impact": level(), "effort": level()
        }),
        &["id", "type", "category", "title", "description", "impact", "effort"],
    );
    tool(
        "seo_audit",
        "SEO audit",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Fetches a page and runs the full deterministic SEO audit: score (percentage of applicable rule weight \
         passed), every failed check as an issue with its rule id, severity, category, impact and effort, and \
         the main page facts. Stores the audit (it feeds monitoring, keyword history and experiments). Needs an \
         API key with the mcp scope. Use it for a complete picture of one page; follow with get_opportunities \
         or generate_fixes.",
        input(json!({ "url": url_arg("Absolute http or https URL of the page to audit") }), &["url"]),
        object(
            json!({
                "url": t("string"),
                "score": score_object(),
                "issues": array_of(issue),
                "page": all_required(json!({
                    "title": t("string"), "metaDescription": nullable("string"), "h1": t("string"),
                    "wordCount": t("integer"), "statusCode": t("integer")
                })),
                "rulesetVersion": t("string")
            }),
            &["url", "score", "issues", "page", "rulesetVersion"],
        ),
    )
}

fn get_opportunities() -> ToolDef {
    let opportunity = all_required(json!({
        "id": t("string"), "title": t("string"), "category": t("string"), "impact": level(), "effort": level(),
        "weight": t("integer"), "priorityScore": t("number"), "rank": json!({ "type": "integer", "minimum": 1 })
    }));
    tool(
        "get_opportunities",
        "Ranked opportunities",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Audits a page and returns its failed checks ranked by expected gain: a priority score from the rule's \
         weight, impact and effort (high impact, low effort and heavy weight first). Needs an API key with the \
         mcp scope. Use it to decide what to fix first; pass the top ids to generate_fixes or get_seo_concept.",
        input(json!({ "url": url_arg("Absolute http or https URL of the page") }), &["url"]),
        object(
            json!({
                "url": t("string"),
                "score": t("integer"),
                "opportunities": array_of(opportunity)
            }),
            &["url", "score", "opportunities"],
        ),
    )
}

fn generate_fixes() -> ToolDef {
    let fix = all_required(json!({
        "ruleId": t("string"),
        "issueTitle": t("string"),
        "type": one_of_strings(&["html", "json-ld", "robots", "http-header", "server-config", "text"]),
        "difficulty": one_of_strings(&["easy", "medium", "hard"]),
        "fix": t("string"),
        "explanation": t("string")
    }));
    tool(
        "generate_fixes",
        "Generate fixes",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Audits a page and writes a ready-to-paste fix (HTML, JSON-LD, robots.txt, HTTP header, server config \
         or text) for each of its top issues, filled with the page's own title, URL and text. Deterministic and \
         template-based: the same page gives the same fixes. Needs an API key with the mcp scope. Use it after \
         get_opportunities, or directly when the user wants code.",
        input(
            json!({
                "url": url_arg("Absolute http or https URL of the page"),
                "topN": top_n("How many of the highest-priority issues to fix (1 to 20, default 5)")
            }),
            &["url"],
        ),
        object(json!({ "url": t("string"), "topN": t("integer"), "fixes": array_of(fix) }), &["url", "topN", "fixes"]),
    )
}

fn workflow_execute() -> ToolDef {
    tool(
        "workflow_execute",
        "Start a workflow",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Starts a persisted multi-step run and returns its runId at once. Intents: audit (audit and summary), \
         analyze (audit, then issues ranked as get_opportunities ranks them), fix (audit, a fix plan as \
         generate_fixes makes it, then pauses for approval with \
         approve_fixes), monitor (audit and a daily monitor), competitor (audits the page and competitorUrl and \
         compares them). Needs an API key with the mcp scope. Poll workflow_status with the runId.",
        input(
            json!({
                "intent": string_enum(&workflow_intents(), "What the run does"),
                "url": url_arg("Absolute http or https URL of the page"),
                "competitorUrl": url_arg("Competitor page; required by the competitor intent"),
                "topN": top_n("How many issues the fix plan covers (1 to 20, default 5)")
            }),
            &["intent", "url"],
        ),
        object(
            json!({
                "runId": t("string"),
                "state": one_of_strings(&workflow_states()),
                "intent": one_of_strings(&workflow_intents()),
                "url": t("string")
            }),
            &["runId", "state", "intent", "url"],
        ),
    )
}

fn workflow_status() -> ToolDef {
    let step = all_required(json!({
        "name": t("string"),
        "status": one_of_strings(&step_statuses()),
        "startedAt": nullable_timestamp(),
        "finishedAt": nullable_timestamp()
    }));
    tool(
        "workflow_status",
        "Workflow status",
        Category::Write,
        READ_ONLY_LOCAL,
        "Reports a workflow run: its state (queued, running, awaiting_approval, completed, rejected, failed), \
         each step with its timing, the results gathered so far, approvals waiting for approve_fixes, and the \
         failing step and reason when it failed. A run cut short by a server restart resumes from that step \
         (resumes counts how often). Needs an API key with the mcp scope. Call it after workflow_execute until \
         the state is completed, rejected or failed.",
        input(json!({ "runId": string("The runId returned by workflow_execute") }), &["runId"]),
        object(
            json!({
                "runId": t("string"),
                "intent": one_of_strings(&workflow_intents()),
                "url": t("string"),
                "state": one_of_strings(&workflow_states()),
                "steps": array_of(step),
                "results": { "type": "object", "description": "Results of finished steps, keyed by step name" },
                "pendingApprovals": array_of(all_required(json!({ "approvalId": t("string"), "summary": t("string") }))),
                "error": {
                    "type": ["object", "null"],
                    "properties": { "step": t("string"), "reason": t("string") },
                    "required": ["step", "reason"]
                },
                "resumes": {
                    "type": "integer", "minimum": 0,
                    "description": "Times the run was resumed after a server restart cut it short"
                }
            }),
            &["runId", "intent", "url", "state", "steps", "results", "pendingApprovals", "error", "resumes"],
        ),
    )
}

fn approve_fixes() -> ToolDef {
    tool(
        "approve_fixes",
        "Approve or reject fixes",
        Category::Write,
        (false, false, Some(false), Some(true)),
        "Answers an approval gate of a fix workflow: approved lets the run finish its fix plan, rejected ends \
         the run in the rejected state. The approvalId comes from workflow_status' pendingApprovals. Deciding \
         the same gate again with the same decision changes nothing. Needs an API key with the mcp scope.",
        input(
            json!({
                "runId": string("The run waiting for approval"),
                "approvalId": string("The approvalId listed in workflow_status"),
                "decision": string_enum(&APPROVAL_DECISIONS, "approved or rejected")
            }),
            &["runId", "approvalId", "decision"],
        ),
        object(
            json!({
                "runId": t("string"),
                "approvalId": t("string"),
                "decision": one_of_strings(&APPROVAL_DECISIONS),
                "state": one_of_strings(&workflow_states())
            }),
            &["runId", "approvalId", "decision", "state"],
        ),
    )
}

fn detect_regressions() -> ToolDef {
    let change = all_required(json!({ "field": t("string"), "baseline": {}, "current": {} }));
    tool(
        "detect_regressions",
        "Detect regressions",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Audits two pages (for example production and staging, or a page before and after a release) and \
         reports what got worse or better: score change, rule ids newly failing and newly passing, and page facts \
         that changed (title, meta description, h1, canonical, robots, status, word count). Needs an API key with \
         the mcp scope. Use it before shipping a change.",
        input(
            json!({
                "baselineUrl": url_arg("The reference page (e.g. production)"),
                "currentUrl": url_arg("The page to compare with it (e.g. staging)")
            }),
            &["baselineUrl", "currentUrl"],
        ),
        object(
            json!({
                "baselineUrl": t("string"),
                "currentUrl": t("string"),
                "baselineScore": t("integer"),
                "currentScore": t("integer"),
                "scoreDelta": t("integer"),
                "newlyFailing": strings(),
                "newlyPassing": strings(),
                "changedFacts": array_of(change)
            }),
            &[
                "baselineUrl",
                "currentUrl",
                "baselineScore",
                "currentScore",
                "scoreDelta",
                "newlyFailing",
                "newlyPassing",
                "changedFacts",
            ],
        ),
    )
}

fn compare_competitors() -> ToolDef {
    let side = one_of_strings(&["site", "competitor", "tie"]);
    let category = all_required(json!({
        "category": t("string"), "site": t("integer"), "competitor": t("integer"), "winner": side
    }));
    tool(
        "compare_competitors",
        "Compare with a competitor",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Audits a page and a competitor's page with the same ruleset and compares them: overall scores, the \
         percentage per audit category with the winner of each, and the rule ids only one side passes. Needs an \
         API key with the mcp scope. Use it to find what a better-ranking competitor does that the site does not.",
        input(
            json!({
                "url": url_arg("The user's page"),
                "competitorUrl": url_arg("The competitor's comparable page")
            }),
            &["url", "competitorUrl"],
        ),
        object(
            json!({
                "url": t("string"),
                "competitorUrl": t("string"),
                "score": all_required(json!({ "site": t("integer"), "competitor": t("integer") })),
                "categories": array_of(category),
                "siteWins": { "type": "array", "items": t("string"), "description": "Rule ids the site passes and the competitor fails" },
                "competitorWins": { "type": "array", "items": t("string"), "description": "Rule ids the competitor passes and the site fails" }
            }),
            &["url", "competitorUrl", "score", "categories", "siteWins", "competitorWins"],
        ),
    )
}

fn monitor_site() -> ToolDef {
    let rule = all_required(json!({ "rule": t("string"), "description": t("string") }));
    let alert = all_required(json!({
        "rule": t("string"), "severity": severity(), "message": t("string"), "createdAt": timestamp()
    }));
    tool(
        "monitor_site",
        "Monitor a site",
        Category::Write,
        (false, true, Some(false), Some(true)),
        "Puts a page under monitoring (re-audited daily) or, when it already is, reports on it: the alert rules \
         (score drop of 5 or more, new critical issue, status not 2xx, unreachable), recent alerts, a severity \
         breakdown of the latest audit and when it ran. Alerts also go to the key owner's webhooks. Scheduled \
         re-audits obey the site's robots.txt for SeoAuditBot (a disallowed page raises unreachable instead). \
         Calling it again for the same URL creates nothing new. Needs an API key with the mcp scope.",
        input(json!({ "url": url_arg("Absolute http or https URL of the page to monitor") }), &["url"]),
        object(
            json!({
                "monitorId": t("string"),
                "url": t("string"),
                "intervalSeconds": t("integer"),
                "created": t("boolean"),
                "rules": array_of(rule),
                "recentAlerts": array_of(alert),
                "severityBreakdown": all_required(json!({ "critical": t("integer"), "warning": t("integer"), "notice": t("integer") })),
                "lastAuditAt": nullable_timestamp()
            }),
            &[
                "monitorId",
                "url",
                "intervalSeconds",
                "created",
                "rules",
                "recentAlerts",
                "severityBreakdown",
                "lastAuditAt",
            ],
        ),
    )
}

fn track_keywords() -> ToolDef {
    let latest = json!({
        "type": ["object", "null"],
        "properties": {
            "inTitle": t("boolean"), "inH1": t("boolean"), "inDescription": t("boolean"),
            "inUrl": t("boolean"), "bodyCount": t("integer")
        },
        "required": ["inTitle", "inH1", "inDescription", "inUrl", "bodyCount"]
    });
    let point = all_required(json!({ "auditedAt": timestamp(), "bodyCount": t("integer"), "inTitle": t("boolean") }));
    let keyword = all_required(json!({
        "keyword": t("string"), "targetUrl": t("string"), "latest": latest, "history": array_of(point)
    }));
    tool(
        "track_keywords",
        "Track keywords on a page",
        Category::Write,
        (false, true, Some(true), Some(false)),
        "Manages the key owner's tracked keywords: add (keyword and targetUrl required; audits the page at \
         once), remove (keyword required; the keyword and its history are deleted), list. For each keyword it \
         reports whether it appears in the title, h1, meta description and URL, how often in the body text, and \
         the history over audits. This is on-page tracking, not search-engine rank. Needs an API key with the \
         mcp scope.",
        input(
            json!({
                "action": string_enum(&KEYWORD_ACTIONS, "add, remove or list"),
                "keyword": { "type": "string", "minLength": 1, "maxLength": 100, "description": "The keyword or phrase; required for add and remove" },
                "targetUrl": url_arg("The page that should rank for it; required for add")
            }),
            &["action"],
        ),
        object(
            json!({
                "action": one_of_strings(&KEYWORD_ACTIONS),
                "keywords": array_of(keyword),
                "note": t("string")
            }),
            &["action", "keywords", "note"],
        ),
    )
}

fn run_experiment() -> ToolDef {
    let measure = all_required(json!({ "value": t("number"), "auditedAt": timestamp() }));
    let current = json!({
        "type": ["object", "null"],
        "properties": { "value": t("number"), "auditedAt": timestamp() },
        "required": ["value", "auditedAt"]
    });
    let experiment = all_required(json!({
        "id": t("string"),
        "title": t("string"),
        "hypothesis": t("string"),
        "url": t("string"),
        "experimentType": t("string"),
        "metricTarget": t("string"),
        "baseline": measure,
        "current": current,
        "delta": nullable("number")
    }));
    tool(
        "run_experiment",
        "SEO experiments",
        Category::Write,
        (false, true, Some(false), Some(false)),
        "Records SEO experiments and measures them with audits: create (title, hypothesis and url required; \
         audits the page now as the baseline of the chosen metric) or list (each experiment with its baseline, \
         the latest audit's value and the change). experimentType is free text such as title-rewrite or \
         schema-added; metricTarget names the measured figure: score (default), word_count, or a rule id that \
         counts 1 when passing. Needs an API key with the mcp scope.",
        input(
            json!({
                "action": string_enum(&EXPERIMENT_ACTIONS, "create or list"),
                "title": { "type": "string", "minLength": 1, "maxLength": 200, "description": "Short name; required for create" },
                "hypothesis": { "type": "string", "minLength": 1, "maxLength": 2000, "description": "What the change should achieve; required for create" },
                "url": url_arg("The page under test; required for create"),
                "experimentType": { "type": "string", "maxLength": 100, "description": "Kind of change, e.g. title-rewrite, schema-added, content-expansion" },
                "metricTarget": { "type": "string", "maxLength": 100, "description": "Measured figure: score (default), word_count, or a rule id" }
            }),
            &["action"],
        ),
        object(
            json!({ "action": one_of_strings(&EXPERIMENT_ACTIONS), "experiments": array_of(experiment) }),
            &["action", "experiments"],
        ),
    )
}

#[cfg(test)]
mod table_tests {
    use super::*;

    /// A row's name is its definition's name, and names are unique.
    #[test]
    fn rows_name_their_definitions() {
        for t in TOOLS {
            assert_eq!((t.def)().name, t.name);
        }
        let mut names = tool_names();
        names.dedup();
        assert_eq!(names.len(), TOOLS.len());
    }
}
