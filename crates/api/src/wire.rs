//! The REST wire types: the body of each answer the server serialises, and the documented
//! body of each request it reads (docs/API.md). The server builds these values and
//! serialises them; their derived schemas are the document's component schemas.
//!
//! The request types are what the server reads: each derives `Deserialize` and `JsonSchema`
//! once, its members [`Field`]s so that a faulty body is answered field by field in the
//! documented order ([`crate::body`]).

use audit_core::{AuditResult, CompactResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use vocab::{AlertId, AuditId, DeliveryId, EventId, KeyId, MonitorId, Timestamp, UserId, WebhookId, WorkflowId};

use crate::body::{Field, JsonBody};

/// The longest URL accepted anywhere (the fetcher's `MAX_URL_LEN`; a server test checks the
/// two agree).
pub const MAX_URL_LEN: usize = 2048;

/// The scopes a key may hold ([`vocab::Scope`]).
pub const SCOPES: &[&str] = vocab::Scope::NAMES;

/// The events a webhook may subscribe to ([`vocab::WebhookEvent::SUBSCRIBABLE`]).
pub const WEBHOOK_EVENTS: &[&str] = vocab::WebhookEvent::SUBSCRIBABLE;

/// URLs per batch request (docs/API.md, "POST /api/v1/audit/batch").
pub const MAX_BATCH_URLS: usize = 10;

/// Every error code of the REST API (docs/API.md, "Conventions of every endpoint"):
/// [`vocab::ErrorCode::ANSWER_CODES`].
pub const ERROR_CODES: &[&str] = vocab::ErrorCode::ANSWER_CODES;

/// The body of every REST error answer (every route but `/api/mcp`).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "Error", deny_unknown_fields)]
pub struct ErrorBody<'a> {
    /// Always `false`.
    #[schemars(extend("const" = false))]
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'a str,
    /// What went wrong.
    pub error: ErrorDetail<'a>,
}

/// What went wrong, in an error body.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ErrorDetail<'a> {
    /// Stable snake_case code; docs/API.md lists each endpoint's.
    #[schemars(extend("enum" = ERROR_CODES))]
    pub code: &'a str,
    /// One human sentence.
    #[schemars(length(min = 1))]
    pub message: &'a str,
    /// Machine-readable details (`{"parameter": "url"}`), when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub details: Option<&'a Value>,
}

/// Shape of an audit answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum Format {
    /// The full result (docs/API.md, "The audit result").
    Json,
    /// The compact summary.
    Compact,
}

/// An audit answer: the full result or the compact summary (`format`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AuditAnswer {
    /// `format=json`.
    Full(Box<FullAnswer>),
    /// `format=compact`.
    Compact(CompactAnswer),
}

impl AuditAnswer {
    /// The full result in its envelope.
    pub fn full(result: AuditResult) -> AuditAnswer {
        AuditAnswer::Full(Box::new(FullAnswer::new(result)))
    }

    /// The compact result in its envelope.
    pub fn compact(result: CompactResult) -> AuditAnswer {
        AuditAnswer::Compact(CompactAnswer::new(result))
    }
}

/// The full audit result (docs/API.md, "The audit result"): the envelope (`ok`,
/// `api_version`), then the engine's result. The engine builds the result without the
/// envelope; the server, the command line and stored audits write it this way.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "AuditResult")]
pub struct FullAnswer {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The engine's result.
    #[serde(flatten)]
    pub result: AuditResult,
}

impl FullAnswer {
    /// `result` with `ok: true` and the current `api_version`.
    pub fn new(result: AuditResult) -> FullAnswer {
        FullAnswer { ok: true, api_version: audit_core::API_VERSION, result }
    }
}

/// The compact audit result (docs/API.md, "Compact form"): the envelope, then the engine's
/// compact result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "CompactResult", deny_unknown_fields)]
pub struct CompactAnswer {
    /// Always `true`.
    #[schemars(extend("const" = true))]
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The engine's compact result.
    #[serde(flatten)]
    pub result: CompactResult,
}

impl CompactAnswer {
    /// `result` with `ok: true` and the current `api_version`.
    pub fn new(result: CompactResult) -> CompactAnswer {
        CompactAnswer { ok: true, api_version: audit_core::API_VERSION, result }
    }
}

/// The body of `POST /api/v1/audit/batch`.
#[derive(Deserialize, JsonSchema)]
pub struct BatchRequest {
    /// The pages to audit, in order.
    #[schemars(length(min = 1, max = MAX_BATCH_URLS))]
    pub urls: Field<Vec<String>>,
    /// `null` is the same as leaving it out.
    // Read as text so that an unknown format is refused naming the value sent
    // ([`crate::request::parse_format`]); documented as the formats there are.
    #[serde(default)]
    #[schemars(with = "Option<Format>", extend("default" = "json"))]
    pub format: Field<Option<String>>,
    /// Render every page in headless Chromium first (docs/API.md, "Rendered audits"): 5
    /// quota units per distinct URL; `null` is the same as `false`.
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub render: Field<Option<bool>>,
}

impl JsonBody for BatchRequest {
    const MEMBERS: &'static str = "`urls`";
}

/// The answer of `POST /api/v1/audit/batch`: one item per input URL, in order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BatchResult {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// Number of items.
    #[schemars(range(max = MAX_BATCH_URLS))]
    pub count: usize,
    /// Items audited.
    pub succeeded: usize,
    /// Items that failed.
    pub failed: usize,
    /// One per input URL, in order.
    pub results: Vec<BatchItem>,
}

/// One item of a batch answer.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum BatchItem {
    /// The URL was audited.
    Audited {
        /// The URL as given.
        url: String,
        #[schemars(extend("const" = true))]
        ok: bool,
        /// The audit, in the asked `format`.
        result: AuditAnswer,
    },
    /// The URL failed; the batch still answers 200.
    Failed {
        /// The URL as given.
        url: String,
        #[schemars(extend("const" = false))]
        ok: bool,
        /// Why.
        error: BatchError,
    },
}

/// Why one URL of a batch failed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BatchError {
    /// The error code the URL would have had alone.
    #[schemars(extend("enum" = ERROR_CODES))]
    pub code: &'static str,
    /// One human sentence.
    pub message: String,
}

/// The body of the AI-visibility endpoints: the page to check.
#[derive(Deserialize, JsonSchema)]
pub struct UrlRequest {
    /// The page (http or https; a bare host gets https://).
    #[schemars(length(min = 1, max = MAX_URL_LEN))]
    pub url: Field<String>,
}

impl JsonBody for UrlRequest {
    const MEMBERS: &'static str = "`url`";
}

/// The answer of `POST /api/auto-fix-batch`: one fix per issue, in order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AutoFixResult {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// Number of fixes (one per issue).
    #[schemars(range(min = 1, max = autofix::MAX_BATCH))]
    pub count: usize,
    /// The fixes, in input order.
    pub fixes: Vec<autofix::Fix>,
}

impl AutoFixResult {
    /// `fixes` with their count, `ok: true` and the current `api_version`: the answer of the
    /// route and of the `auto_fix_batch` tool alike.
    pub fn new(fixes: Vec<autofix::Fix>) -> AutoFixResult {
        AutoFixResult { ok: true, api_version: audit_core::API_VERSION, count: fixes.len(), fixes }
    }
}

/// The usage snapshot of the key's owner.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Usage {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The owner of the key.
    #[schemars(with = "String", extend("format" = "uuid"))]
    pub user_id: UserId,
    /// The owner's tier.
    #[schemars(extend("enum" = ["free", "pro"]))]
    pub tier: &'static str,
    /// Quota units per minute of the key sending the request.
    pub rate_limit_per_minute: u32,
    /// Units it used in the current minute.
    pub requests_this_minute: u64,
    /// Units it used in the last 24 hours.
    pub requests_last_24h: u64,
    /// The owner's keys (never the keys themselves).
    pub api_keys: Vec<ApiKey>,
    /// The owner's enabled webhook subscriptions.
    pub webhook_subscriptions: u64,
}

/// An API key of the owner, without its secret.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ApiKey {
    /// UUID.
    #[schemars(with = "String", extend("format" = "uuid"))]
    pub id: KeyId,
    /// Human label.
    pub name: String,
    /// The first characters of the key.
    #[schemars(regex(pattern = r"^sa_[0-9A-Za-z]{7}$"))]
    pub key_prefix: String,
    /// Granted scopes.
    #[schemars(extend("items" = { "type": "string", "enum": SCOPES }))]
    pub scopes: Vec<String>,
    /// Requests per minute: the key's own limit, else its tier's.
    pub rate_limit: u32,
    /// Disabled keys are refused (403).
    pub enabled: bool,
    /// Last successful authentication.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub last_used_at: Option<Timestamp>,
    /// Expiry; null never.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub expires_at: Option<Timestamp>,
    /// Creation time.
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
}

/// The answer of `GET /api/status` (200 and 503 alike).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Status {
    /// `true` with 200 (`status: ok`), `false` with 503 (`status: degraded`).
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// `degraded` when the database does not answer.
    #[schemars(extend("enum" = ["ok", "degraded"]))]
    pub status: &'static str,
    /// The database: `up`, `down` (it does not answer) or `corrupt` (the SQLite file is
    /// damaged: a query met a corrupt page, or the periodic integrity check failed).
    #[schemars(extend("enum" = ["up", "down", "corrupt"]))]
    pub db: &'static str,
    /// Version of the audit engine.
    pub engine_version: &'static str,
    /// Version of the rule set.
    pub ruleset_version: &'static str,
    /// Now.
    #[schemars(extend("format" = "date-time"))]
    pub timestamp: String,
    /// Seconds since the service started.
    pub uptime_s: u64,
    /// Round trip of the database ping.
    pub latency_ms: u64,
}

/// The answer of `GET /livez` and `GET /readyz` (docs/API.md, "Metrics, liveness and
/// readiness").
#[derive(Debug, Serialize, JsonSchema)]
pub struct Health {
    /// `true` with 200, `false` with 503.
    pub ok: bool,
    /// `v1`.
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// `live` (`/livez`); `ready`, or with 503 `draining` (shutting down), `db_down` (the
    /// database does not answer) or `db_corrupt` (the SQLite file is damaged) (`/readyz`).
    #[schemars(extend("enum" = ["live", "ready", "draining", "db_down", "db_corrupt"]))]
    pub status: &'static str,
}

/// A webhook subscription as listed (its signing secret never is).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(extend("not" = { "required": ["secret"] }))]
pub struct Webhook {
    /// UUID.
    #[schemars(with = "String")]
    pub id: WebhookId,
    /// Target URL.
    pub url: String,
    /// Subscribed events.
    #[schemars(extend("items" = { "type": "string", "enum": WEBHOOK_EVENTS }))]
    pub events: Vec<String>,
    /// Disabled subscriptions receive nothing.
    pub enabled: bool,
    /// When it was created (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
}

/// A subscription just created: a [`Webhook`] and its signing secret.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NewWebhook {
    /// UUID.
    #[schemars(with = "String")]
    pub id: WebhookId,
    /// Target URL.
    pub url: String,
    /// Subscribed events.
    #[schemars(extend("items" = { "type": "string", "enum": WEBHOOK_EVENTS }))]
    pub events: Vec<String>,
    /// Disabled subscriptions receive nothing.
    pub enabled: bool,
    /// When it was created (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// HMAC-SHA256 signing secret (`whsec_` + 32 characters); shown only in this answer.
    pub secret: String,
}

/// The answer of `POST /api/v1/webhooks`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookCreated {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The subscription, with its signing secret.
    pub webhook: NewWebhook,
}

/// The answer of `GET /api/v1/webhooks`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The subscriptions, oldest first.
    pub webhooks: Vec<Webhook>,
}

/// The answer of `DELETE /api/v1/webhooks/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookDeleted {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// Id of the deleted subscription.
    #[schemars(with = "String")]
    pub deleted: WebhookId,
}

/// The body of `POST /api/v1/webhooks`.
#[derive(Deserialize, JsonSchema)]
pub struct WebhookRequest {
    /// http(s) URL receiving the POSTs.
    #[schemars(length(max = MAX_URL_LEN))]
    pub url: Field<String>,
    /// The events to receive.
    #[schemars(length(min = 1), extend("items" = { "type": "string", "enum": WEBHOOK_EVENTS }))]
    pub events: Field<Vec<String>>,
}

impl JsonBody for WebhookRequest {
    const MEMBERS: &'static str = "`url` and `events`";
}

/// The answer of `POST /api/ai-readiness`: the engine's report with `api_version`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "AiReadiness", deny_unknown_fields)]
pub struct AiReadinessAnswer {
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The report.
    #[serde(flatten)]
    pub report: ai_visibility::AiReadiness,
}

impl AiReadinessAnswer {
    /// `report` with the current `api_version`: the answer of the route and of the
    /// `check_ai_readiness` tool alike.
    pub fn new(report: ai_visibility::AiReadiness) -> AiReadinessAnswer {
        AiReadinessAnswer { api_version: audit_core::API_VERSION, report }
    }
}

/// The answer of `POST /api/ai-visibility-scan`: the engine's scan with `api_version` and
/// the scanned `url`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "AiVisibilityScan", deny_unknown_fields)]
pub struct AiVisibilityScanAnswer {
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The scanned page.
    pub url: String,
    /// The scan.
    #[serde(flatten)]
    pub scan: ai_visibility::AiVisibilityScan,
}

impl AiVisibilityScanAnswer {
    /// `scan` of `url` with the current `api_version`: the answer of the route and of the
    /// `scan_ai_visibility` tool alike.
    pub fn new(url: String, scan: ai_visibility::AiVisibilityScan) -> AiVisibilityScanAnswer {
        AiVisibilityScanAnswer { api_version: audit_core::API_VERSION, url, scan }
    }
}

/// The body of `POST /api/content-gap`; `null` counts as absent for the optional fields.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ContentGapRequest")]
pub struct ContentGapRequest {
    /// The page to analyse (http or https; a bare host gets https://).
    #[schemars(length(max = MAX_URL_LEN))]
    pub url: Field<String>,
    /// Overrides the fetched page's title.
    #[serde(default)]
    pub title: Field<Option<String>>,
    /// Overrides the fetched page's word count.
    #[serde(default)]
    pub word_count: Field<Option<u64>>,
    /// Overrides the fetched page's section headings (h2-h6); `[]` means none.
    #[serde(default)]
    pub headings: Field<Option<Vec<String>>>,
    /// Pages to compare with, instead of the built-in model.
    #[serde(default)]
    #[schemars(length(max = content_gap::MAX_COMPETITORS), inner(length(max = MAX_URL_LEN)))]
    pub competitors: Field<Option<Vec<String>>>,
}

impl JsonBody for ContentGapRequest {
    const MEMBERS: &'static str = "`url`";
}

/// The arguments of the `analyze_content_gap` agent tool: the members of
/// [`ContentGapRequest`], each of its one type. Read by `app::requests::gap_args`.
// (The field doc comments are the tool's input schema: agents read them.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContentGapArgs {
    /// Absolute http or https URL of the page to analyse
    #[schemars(length(min = 1, max = 2048))]
    pub url: String,
    /// Overrides the fetched page's title
    pub title: Option<String>,
    /// Overrides the fetched page's word count
    pub word_count: Option<u64>,
    /// Overrides the fetched page's section headings (h2-h6); an empty list means none
    pub headings: Option<Vec<String>>,
    /// Up to 5 competitor pages to compare with, instead of the built-in model of the page type
    #[schemars(length(max = content_gap::MAX_COMPETITORS), inner(length(min = 1, max = 2048)))]
    pub competitors: Option<Vec<String>>,
}

/// The answer of `POST /api/content-gap`: the engine's report with the page and the
/// competitors compared.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ContentGapResult")]
pub struct ContentGapResult {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[serde(rename = "api_version")]
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The analysed page.
    pub url: String,
    /// The report.
    #[serde(flatten)]
    pub report: content_gap::ContentGapReport,
    /// How many competitors were compared.
    #[schemars(range(max = content_gap::MAX_COMPETITORS))]
    pub competitors_compared: usize,
    /// The competitors left out, in the order given.
    pub skipped_competitors: Vec<SkippedCompetitor>,
}

/// A competitor left out of a content-gap comparison, and why.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SkippedCompetitor {
    /// The competitor's URL.
    pub url: String,
    /// An error code of the fetch (`blocked_target`, `target_unreachable`, ...) or
    /// `target_status` for a non-2xx answer (`details.status`).
    pub code: &'static str,
    /// One human sentence.
    pub message: String,
    /// Machine-readable details, when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub details: Option<Value>,
}

/// The body of `POST /api/auto-fix-batch`.
#[derive(Deserialize, JsonSchema)]
#[schemars(rename = "AutoFixRequest")]
pub struct AutoFixRequest {
    /// The issues to fix, in order.
    #[schemars(length(min = 1, max = autofix::MAX_BATCH))]
    pub issues: Field<Vec<AutoFixItem>>,
}

impl JsonBody for AutoFixRequest {
    const MEMBERS: &'static str = "`issues`";
}

/// One issue of an auto-fix request as sent: the issue, or why it is not one (it is not an
/// object, its `context` is not an object, or a member has the wrong type, in serde's words).
#[derive(Debug)]
pub struct AutoFixItem(pub Result<autofix::Issue<'static>, String>);

impl<'de> Deserialize<'de> for AutoFixItem {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The item is held whole so that a faulty one is refused alone, with its index and
        // serde's sentence about it, rather than failing the body at its first fault.
        let item = Value::deserialize(deserializer)?;
        if !item.is_object() {
            return Ok(AutoFixItem(Err("it must be an object".to_string())));
        }
        if !item.get("context").is_none_or(|c| c.is_null() || c.is_object()) {
            return Ok(AutoFixItem(Err("`context` must be an object".to_string())));
        }
        Ok(AutoFixItem(autofix::Issue::deserialize(item).map_err(|e| e.to_string())))
    }
}

/// An item is documented as the issue it must be.
impl JsonSchema for AutoFixItem {
    fn inline_schema() -> bool {
        <autofix::Issue<'static>>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <autofix::Issue<'static>>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <autofix::Issue<'static>>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <autofix::Issue<'static>>::json_schema(generator)
    }
}

// ---------------------------------------------------------------- stored audits
// docs/API.md, "Stored audits: GET /api/v1/audits, /api/v1/audits/{id}, /api/v1/history".

/// Audits per page of `GET /api/v1/audits` without `limit` (the application's
/// `history::DEFAULT_PAGE_SIZE`; a server test checks the two agree).
pub const DEFAULT_AUDITS_PAGE: usize = 20;
/// The most audits per page of `GET /api/v1/audits`.
pub const MAX_AUDITS_PAGE: usize = 100;
/// Audits in `GET /api/v1/history` without `limit`.
pub const DEFAULT_HISTORY: usize = 100;
/// The most audits in `GET /api/v1/history`.
pub const MAX_HISTORY: usize = 500;

/// How many recommendations of each severity a stored audit has.
#[derive(Debug, Serialize, JsonSchema)]
pub struct IssueCounts {
    /// `critical` recommendations.
    pub critical: usize,
    /// `warning` recommendations.
    pub warning: usize,
    /// `notice` recommendations.
    pub notice: usize,
}

/// A stored audit as listed (without its full result).
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoredAuditItem {
    /// The audit's id (`GET /api/v1/audits/{id}`).
    #[schemars(with = "String")]
    pub id: AuditId,
    /// The URL that was asked for (normalised: a bare host got `https://`).
    pub url: String,
    /// The URL after redirects.
    pub final_url: String,
    /// Score percentage.
    #[schemars(range(min = 0, max = 100))]
    pub score: i64,
    /// The ruleset that produced the score.
    pub ruleset_version: String,
    /// Recommendations by severity.
    pub issues: IssueCounts,
    /// When the audit was made (UTC, milliseconds).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
}

/// The answer of `GET /api/v1/audits`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoredAuditList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The audits of this page, newest first.
    pub audits: Vec<StoredAuditItem>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// The answer of `GET /api/v1/audits/{id}`: the audit result as `GET /api/v1/audit` answered
/// it (its envelope included), with the stored audit's id and time.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "StoredAudit")]
pub struct StoredAuditAnswer {
    /// The audit's id.
    #[schemars(with = "String")]
    pub id: AuditId,
    /// When the audit was stored (UTC, milliseconds).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// The result, as stored.
    #[serde(flatten)]
    pub answer: FullAnswer,
}

/// The answer of `GET /api/v1/history`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScoreHistory {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The URL asked about, normalised as the audit endpoint normalises it.
    pub url: String,
    /// The audits of the URL, oldest first.
    pub audits: Vec<StoredAuditItem>,
}

// What a key created, listed and ended (docs/API.md, "Managing what a key created").

/// The alert rules every monitor applies (the monitors' `AlertRule` names; a server test
/// checks the two agree).
pub const ALERT_RULES: &[&str] = &["score_drop", "new_critical", "status_not_2xx", "unreachable"];

/// The intents of a workflow run (the workflow store's `Intent`).
pub const WORKFLOW_INTENTS: &[&str] = &["audit", "analyze", "fix", "monitor", "competitor"];

/// The states of a workflow run (the workflow store's `RunState`).
pub const WORKFLOW_STATES: &[&str] = &["queued", "running", "awaiting_approval", "completed", "rejected", "failed"];

/// The states of a webhook delivery (the outbox's `OutboxState`).
pub const DELIVERY_STATES: &[&str] = &["pending", "delivered", "failed", "dropped"];

/// The events a delivery may carry: [`WEBHOOK_EVENTS`] and the test event `ping`
/// ([`vocab::WebhookEvent::NAMES`]).
pub const DELIVERED_EVENTS: &[&str] = vocab::WebhookEvent::NAMES;

/// An alert a monitor raised.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonitorAlert {
    /// UUID.
    #[schemars(with = "String")]
    pub id: AlertId,
    /// The rule that fired.
    #[schemars(extend("enum" = ALERT_RULES))]
    pub rule: String,
    /// `critical`, `warning` or `notice`.
    #[schemars(extend("enum" = ["critical", "warning", "notice"]))]
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// When it was raised (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
}

/// A monitor as listed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Monitor {
    /// UUID.
    #[schemars(with = "String")]
    pub id: MonitorId,
    /// The monitored page.
    pub url: String,
    /// Seconds between two scheduled checks.
    pub interval_seconds: u32,
    /// When it was created (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// When its latest scheduled check started (UTC); null before the first.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub last_checked_at: Option<Timestamp>,
    /// When the next check is due (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub next_run_at: Timestamp,
    /// The alert rules it applies.
    #[schemars(extend("items" = { "type": "string", "enum": ALERT_RULES }))]
    pub rules: Vec<&'static str>,
    /// Its newest alert, or null.
    pub last_alert: Option<MonitorAlert>,
}

/// The answer of `GET /api/v1/monitors`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonitorList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The key owner's monitors, oldest first.
    pub monitors: Vec<Monitor>,
}

/// The answer of `DELETE /api/v1/monitors/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonitorStopped {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// Id of the stopped monitor.
    #[schemars(with = "String")]
    pub deleted: MonitorId,
}

/// A workflow run as listed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkflowSummary {
    /// The run id (workflow_status' `runId`).
    #[schemars(with = "String")]
    pub id: WorkflowId,
    /// What the run does.
    #[schemars(extend("enum" = WORKFLOW_INTENTS))]
    pub intent: String,
    /// The page.
    pub url: String,
    /// Where the run stands.
    #[schemars(extend("enum" = WORKFLOW_STATES))]
    pub state: String,
    /// The step it is at (its running step, or the next one to run); null once it ended.
    pub current_step: Option<String>,
    /// When it was created (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// When it last changed (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub updated_at: Timestamp,
}

/// The answer of `GET /api/v1/workflows`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkflowList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The key owner's runs, newest first (at most 100).
    pub workflows: Vec<WorkflowSummary>,
}

/// The body of `PATCH /api/v1/webhooks/{id}`.
#[derive(Deserialize, JsonSchema)]
pub struct WebhookUpdate {
    /// `false` disables the subscription, `true` enables it again.
    pub enabled: Field<bool>,
}

impl JsonBody for WebhookUpdate {
    const MEMBERS: &'static str = "`enabled`";
}

/// The answer of `PATCH /api/v1/webhooks/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookUpdated {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The subscription as it now stands.
    pub webhook: Webhook,
}

/// One delivery of an event to a subscription.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookDelivery {
    /// The delivery id.
    #[schemars(with = "String")]
    pub id: DeliveryId,
    /// The event id: the body's `id` and the `x-webhook-id` header.
    #[schemars(with = "String")]
    pub event_id: EventId,
    /// The event.
    #[schemars(extend("enum" = DELIVERED_EVENTS))]
    pub event: String,
    /// `pending` (waiting, in flight or waiting for a retry), `delivered` (a 2xx answer),
    /// `failed` (attempts exhausted or a refused target), `dropped` (the queue was full).
    #[schemars(extend("enum" = DELIVERY_STATES))]
    pub state: &'static str,
    /// Attempts made.
    pub attempts: u32,
    /// HTTP status of the latest attempt; null when none got an answer.
    pub last_status_code: Option<u16>,
    /// Why the latest attempt failed, or why the event was dropped; null otherwise.
    pub last_error: Option<String>,
    /// When the next attempt is due (UTC); null unless pending.
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub next_attempt_at: Option<Timestamp>,
    /// When the event was written (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub created_at: Timestamp,
    /// When the delivery last changed (UTC).
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub updated_at: Timestamp,
}

/// The answer of `POST /api/v1/webhooks/{id}/test`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookTestQueued {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The test delivery (event `ping`), as the delivery log lists it.
    pub delivery: WebhookDelivery,
}

/// The answer of `GET /api/v1/webhooks/{id}/deliveries`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WebhookDeliveryList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The newest deliveries (at most 50), newest first.
    pub deliveries: Vec<WebhookDelivery>,
}
