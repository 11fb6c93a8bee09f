//! The wire types and operation of the key owner's alert list (docs/API.md, "Alerts"):
//! `GET /api/v1/alerts`, the alerts of the owner's monitors and of its crawl schedules' runs
//! in one list, each saying which raised it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use vocab::{AlertId, CrawlId, MonitorId, ScheduleId, Timestamp};

use crate::{answer, Access, Content, In, Operation, Param, Response, ALERT_RULES};

/// What may raise an alert: a monitor's check, or a crawl schedule's run.
pub const ALERT_SOURCES: &[&str] = &["monitor", "schedule"];
/// Alerts a page of the list holds by default.
pub const DEFAULT_ALERTS_PAGE: u32 = 50;
/// Alerts a page of the list holds at most.
pub const MAX_ALERTS_PAGE: u32 = 100;

/// The query of `GET /api/v1/alerts`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListAlerts {
    /// Only the alerts of monitors (`monitor`) or of crawl schedules (`schedule`)
    #[schemars(extend("enum" = ALERT_SOURCES))]
    pub source: Option<String>,
    /// The next_cursor of the previous page, as it was given (send the same filter with it)
    #[schemars(length(min = 1, max = 200))]
    pub cursor: Option<String>,
    /// Alerts per page, 1 to 100 (default 50)
    #[schemars(range(min = 1, max = MAX_ALERTS_PAGE))]
    pub limit: Option<u32>,
}

/// An alert of the owner's list: a monitor's or a crawl schedule's.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Alert {
    /// UUID.
    #[schemars(with = "String")]
    pub id: AlertId,
    /// What raised it: a monitor's check (`monitor`) or a crawl schedule's run (`schedule`).
    #[schemars(extend("enum" = ALERT_SOURCES))]
    pub source: String,
    /// The monitor that raised it; null for a schedule's alert.
    #[schemars(with = "Option<String>")]
    pub monitor_id: Option<MonitorId>,
    /// The crawl schedule that raised it (`GET /api/v1/crawl-schedules/{id}`); null for a
    /// monitor's alert.
    #[schemars(with = "Option<String>")]
    pub schedule_id: Option<ScheduleId>,
    /// The schedule's run (a crawl) that raised it; null for a monitor's alert.
    #[schemars(with = "Option<String>")]
    pub crawl_id: Option<CrawlId>,
    /// The monitored page, or the schedule's start URL.
    pub url: String,
    /// The rule that fired (a schedule raises `new_critical` and `score_drop`).
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

/// A page of the owner's alerts.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AlertListing {
    /// The alerts, newest first.
    pub alerts: Vec<Alert>,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// The answer of `GET /api/v1/alerts`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AlertList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The alerts, newest first.
    pub alerts: Vec<Alert>,
    /// Pass as `cursor` for the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

/// `GET /api/v1/alerts`.
pub static LIST_ALERTS: Operation = Operation {
    id: "listAlerts",
    summary: "The key owner's alerts",
    description: "The alerts of the key owner's monitors and of its crawl schedules' runs, newest first, a \
        page at a time (follow `next_cursor`), each with its `source` (`monitor` or `schedule`) and the id of \
        what raised it. Requires a key with the `mcp` or the `audit` scope; consumes no quota. An alert goes \
        with its monitor or schedule when that is stopped or ended.",
    tag: "monitors",
    access: Access::KeyRequired,
    params: &[
        Param::Own {
            name: "source",
            at: In::Query,
            required: false,
            description: "Only the alerts of monitors (`monitor`) or of crawl schedules (`schedule`).",
            schema: |_| json!({"type": "string", "enum": ALERT_SOURCES}),
        },
        Param::Own {
            name: "cursor",
            at: In::Query,
            required: false,
            description: "The `next_cursor` of the previous page, as it was given (opaque). Send the same filter \
        with it.",
            schema: |_| json!({"type": "string", "minLength": 1, "maxLength": 200}),
        },
        Param::Own {
            name: "limit",
            at: In::Query,
            required: false,
            description: "Alerts per page.",
            schema: |_| json!({"type": "integer", "minimum": 1, "maximum": MAX_ALERTS_PAGE, "default": DEFAULT_ALERTS_PAGE}),
        },
        Param::ApiKeyQuery,
    ],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "A page of alerts.",
            headers: &[],
            content: Content::Json(answer::<AlertList>),
        },
        error("400", "`invalid_request` (`details.parameter`): `source`, `cursor` or `limit` is malformed."),
        error("401", "`unauthorized`: no key, or an unknown key."),
        error("403", "`forbidden`: the key is disabled, expired, or has neither the `mcp` nor the `audit` scope."),
        error("500", "`internal`."),
    ],
};
