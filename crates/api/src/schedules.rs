//! The wire types and operations of scheduled crawls (docs/API.md, "Scheduled crawls"):
//! `POST /api/v1/crawl-schedules`, `GET /api/v1/crawl-schedules`, `GET .../{id}`,
//! `POST .../{id}/pause`, `POST .../{id}/resume`, `DELETE .../{id}`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use vocab::{CrawlId, ScheduleId, Timestamp};

use crate::body::{Field, JsonBody};
use crate::crawls::CrawlRequest;
use crate::{answer, request, Access, Content, Header, In, Operation, Param, Response};

/// How often a schedule runs.
pub const FREQUENCIES: &[&str] = &["daily", "weekly"];
/// The days of a weekly schedule, Monday first.
pub const WEEKDAYS: &[&str] = &["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
/// The states of a schedule.
pub const SCHEDULE_STATES: &[&str] = &["active", "paused"];
/// Schedules one key owner may hold at most.
pub const MAX_SCHEDULES_PER_OWNER: usize = 20;

/// A day of a weekly schedule as the document names it (`null`, as absent, for a daily one).
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // Only its schema is used: the body reads the day as text and checks it.
enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

/// The body of `POST /api/v1/crawl-schedules`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleRequest {
    /// The crawl each run starts: the body of `POST /api/v1/crawls` (docs/API.md, "Site
    /// crawl"), checked now as that route checks it.
    #[schemars(with = "CrawlRequest")]
    pub crawl: Field<serde_json::Map<String, serde_json::Value>>,
    /// `daily` or `weekly`.
    #[schemars(extend("enum" = FREQUENCIES))]
    pub frequency: Field<String>,
    /// The time of day of each run, `HH:MM` in UTC.
    #[schemars(regex(pattern = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"))]
    pub time: Field<String>,
    /// The day of a weekly schedule (required for `weekly`, refused for `daily`).
    #[serde(default)]
    #[schemars(with = "Option<Weekday>")]
    pub weekday: Field<String>,
    /// Points of site score drop since the previous run from which a run raises a
    /// `score_drop` alert.
    #[serde(default)]
    #[schemars(with = "Option<u64>", range(min = 1, max = 100), extend("default" = 5))]
    pub alert_score_drop: Field<u64>,
}

impl JsonBody for ScheduleRequest {
    const MEMBERS: &'static str = "`crawl`, `frequency` and `time`";
}

/// What the `schedule_crawl` agent tool does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScheduleAction {
    /// Make a schedule (crawl, frequency, time; weekday for weekly).
    Create,
    /// The owner's schedules.
    List,
    /// Pause schedule_id.
    Pause,
    /// Resume schedule_id.
    Resume,
    /// End schedule_id (its crawls stay).
    End,
    /// The owner's alerts, its schedules' and its monitors', newest first (source, cursor,
    /// limit), as GET /api/v1/alerts lists them.
    Alerts,
}

/// The arguments of the `schedule_crawl` agent tool: an action, with the members of
/// [`ScheduleRequest`] for `create` and the schedule's id for the others.
// (The field doc comments are the tool's input schema: agents read them.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleCrawlArgs {
    /// create, list, pause, resume, end or alerts
    pub action: ScheduleAction,
    /// create: the crawl each run starts, as crawl_site's and POST /api/v1/crawls's request
    /// (url required; max_pages, include, exclude, strip_params, sitemaps, render, ...)
    #[schemars(with = "Option<CrawlRequest>")]
    pub crawl: Option<serde_json::Map<String, serde_json::Value>>,
    /// create: daily or weekly
    #[schemars(extend("enum" = FREQUENCIES))]
    pub frequency: Option<String>,
    /// create: the time of day of each run, HH:MM in UTC
    pub time: Option<String>,
    /// create, weekly: the day of the week (monday to sunday)
    #[schemars(extend("enum" = WEEKDAYS))]
    pub weekday: Option<String>,
    /// create: points of site score drop since the previous run that raise an alert (1 to
    /// 100, default 5)
    #[schemars(range(min = 1, max = 100))]
    pub alert_score_drop: Option<u64>,
    /// pause, resume, end: the schedule's id
    #[schemars(with = "Option<String>")]
    pub schedule_id: Option<ScheduleId>,
    /// alerts: only those of crawl schedules (schedule) or of monitors (monitor)
    #[schemars(extend("enum" = crate::alerts::ALERT_SOURCES))]
    pub source: Option<String>,
    /// alerts: the next_cursor of the previous page, as it was given
    #[schemars(length(min = 1, max = 200))]
    pub cursor: Option<String>,
    /// alerts: alerts per page, 1 to 100 (default 50)
    #[schemars(range(min = 1, max = crate::alerts::MAX_ALERTS_PAGE))]
    pub limit: Option<u32>,
}

/// The answer of the `schedule_crawl` agent tool: the schedule (create, pause, resume), the
/// schedules (list), the id ended, or a page of alerts (alerts).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum ScheduleCrawlAnswer {
    /// create, pause, resume.
    Schedule {
        /// The schedule (boxed: the variants differ in size).
        schedule: Box<CrawlSchedule>,
    },
    /// list.
    List {
        /// The schedules, oldest first.
        schedules: Vec<CrawlSchedule>,
    },
    /// end.
    Ended {
        /// The id of the schedule ended.
        #[schemars(with = "String")]
        deleted: ScheduleId,
    },
    /// alerts.
    Alerts {
        /// The alerts, newest first, each with its source (schedule or monitor).
        alerts: Vec<crate::alerts::Alert>,
        /// Pass as cursor for the next page; null on the last.
        next_cursor: Option<String>,
    },
}

/// An alert a scheduled run raised.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ScheduleAlert {
    /// `new_critical` or `score_drop` (the monitors' alert rules).
    #[schemars(extend("enum" = ["new_critical", "score_drop"]))]
    pub rule: String,
    /// `critical` or `warning`.
    #[schemars(extend("enum" = ["critical", "warning"]))]
    pub severity: String,
    /// One sentence for humans.
    pub message: String,
    /// The run that raised it.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// The run it was compared with.
    #[schemars(with = "String")]
    pub against_crawl_id: CrawlId,
    /// When it was raised (ISO 8601 UTC timestamp).
    #[schemars(with = "String")]
    pub created_at: Timestamp,
}

/// The change of a run since the schedule's previous completed run (the counts of
/// `GET /api/v1/crawls/{id}/compare`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ScheduleChange {
    /// The run.
    #[schemars(with = "String")]
    pub crawl_id: CrawlId,
    /// The previous completed run.
    #[schemars(with = "String")]
    pub against_crawl_id: CrawlId,
    /// The site score change (`null` when either has none).
    pub site_score_change: Option<i64>,
    /// Findings new in the run.
    pub new_findings: u64,
    /// Of them, of critical rules.
    pub new_critical_findings: u64,
    /// Findings of the previous run gone.
    pub fixed_findings: u64,
    /// URLs fetched that the previous run did not.
    pub pages_added: u64,
    /// URLs the previous run fetched that this one did not.
    pub pages_gone: u64,
}

/// A crawl schedule.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrawlSchedule {
    /// `cs_` and 32 hexadecimal digits.
    #[schemars(with = "String")]
    pub id: ScheduleId,
    /// The start URL of each run.
    pub url: String,
    /// `daily` or `weekly`.
    #[schemars(extend("enum" = FREQUENCIES))]
    pub frequency: String,
    /// The day of a weekly schedule; `null` for a daily one.
    #[schemars(extend("enum" = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", null]))]
    pub weekday: Option<String>,
    /// The time of day of each run, `HH:MM` UTC.
    pub time: String,
    /// The score drop that raises an alert.
    pub alert_score_drop: u32,
    /// `active` or `paused`.
    #[schemars(extend("enum" = SCHEDULE_STATES))]
    pub state: String,
    /// When the next run is due (ISO 8601 UTC timestamp); `null` while paused.
    #[schemars(with = "Option<String>")]
    pub next_run_at: Option<Timestamp>,
    /// When it was made.
    #[schemars(with = "String")]
    pub created_at: Timestamp,
    /// Runs started.
    pub runs: u32,
    /// When the latest run started, or was skipped.
    #[schemars(with = "Option<String>")]
    pub last_run_at: Option<Timestamp>,
    /// The crawl of the latest run (`GET /api/v1/crawls/{id}`).
    #[schemars(with = "Option<String>")]
    pub last_crawl_id: Option<CrawlId>,
    /// Why the latest run did not start (the key disabled, the quota spent, the site
    /// unreachable), when it did not.
    pub last_error: Option<String>,
    /// The change of the newest ended run since the previous completed one.
    pub last_change: Option<ScheduleChange>,
    /// The alerts of the newest run that raised any.
    pub last_alerts: Vec<ScheduleAlert>,
}

/// The answer of `POST /api/v1/crawl-schedules` and of the routes on one schedule.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScheduleAnswer {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The schedule.
    pub schedule: CrawlSchedule,
}

/// The answer of `GET /api/v1/crawl-schedules`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScheduleList {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The schedules, oldest first.
    pub schedules: Vec<CrawlSchedule>,
}

/// The answer of `DELETE /api/v1/crawl-schedules/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScheduleEnded {
    #[schemars(extend("const" = true))]
    pub ok: bool,
    #[schemars(extend("const" = "v1"))]
    pub api_version: &'static str,
    /// The id of the schedule ended.
    #[schemars(with = "String")]
    pub deleted: ScheduleId,
}

const fn error(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<crate::ErrorBody>) }
}

const E401: Response = error("401", "`unauthorized`: no key, or an unknown key.");
const E403: Response =
    error("403", "`forbidden`: the key is disabled, expired, or lacks the `audit` scope (`details.reason`).");
const E404: Response = error("404", "`not_found`: no such schedule of this key's owner.");
const E500: Response = error("500", "`internal`.");

const ID: Param = Param::Own {
    name: "id",
    at: In::Path,
    required: true,
    description: "The schedule id (`cs_` and 32 hexadecimal digits).",
    schema: |_| json!({"type": "string"}),
};

const E400_BODY: Response = error("400", "`invalid_request`: a body was sent that is not JSON.");
const E413: Response = error("413", "`payload_too_large`: body over 1 MiB.");
const E415: Response = error("415", "`unsupported_media_type`: a body was sent that is not `application/json`.");

const fn one(status: &'static str, description: &'static str) -> Response {
    Response { status, description, headers: &[], content: Content::Json(answer::<ScheduleAnswer>) }
}

/// `POST /api/v1/crawl-schedules`.
pub static CREATE_SCHEDULE: Operation = Operation {
    id: "createCrawlSchedule",
    summary: "Schedule a site crawl, daily or weekly",
    description: "Runs the crawl of `crawl` every day, or every week on `weekday`, at `time` (UTC), for the key's \
        owner. Each run is a crawl of the owner's (listed by `GET /api/v1/crawls`), charged to the key as \
        `POST /api/v1/crawls` is (1 quota unit, 5 with `render`) when it starts; a run the quota refuses is \
        tried again a minute later. Each run that completes is compared with the schedule's previous \
        completed run, and a `crawl.alert` webhook event is sent for new findings of a critical rule or a site \
        score drop of `alert_score_drop` points or more. Requires a key with the `audit` scope; an owner holds \
        at most 20 schedules. Creating one consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[Param::ApiKeyQuery],
    body: Some(request::<ScheduleRequest>),
    responses: &[
        Response {
            status: "201",
            description: "The schedule, `active`.",
            headers: &[Header::Own { name: "location", description: "`/api/v1/crawl-schedules/{id}`." }],
            content: Content::Json(answer::<ScheduleAnswer>),
        },
        error(
            "400",
            "`missing_parameter` (`crawl`, `crawl.url`, `frequency`, `time`, `weekday` of a weekly schedule), \
        `invalid_url` (`crawl.url`), or `invalid_request` (malformed JSON, a member of the wrong type or range \
        or an unknown one, named in `details.parameter`; the owner already holds 20 schedules).",
        ),
        E401,
        E403,
        error("413", "`payload_too_large`: body over 1 MiB."),
        error("415", "`unsupported_media_type`: the body is not `application/json`."),
        E500,
    ],
};

/// `GET /api/v1/crawl-schedules`.
pub static LIST_SCHEDULES: Operation = Operation {
    id: "listCrawlSchedules",
    summary: "The key owner's crawl schedules",
    description: "Oldest first, each with its next run, its latest run's crawl and change, and its newest \
        alerts. Requires a key with the `audit` scope; consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "The schedules.",
            headers: &[],
            content: Content::Json(answer::<ScheduleList>),
        },
        E401,
        E403,
        E500,
    ],
};

/// `GET /api/v1/crawl-schedules/{id}`.
pub static GET_SCHEDULE: Operation = Operation {
    id: "getCrawlSchedule",
    summary: "A crawl schedule",
    description: "Requires a key with the `audit` scope; consumes no quota. Another owner's id answers 404 like \
        an unknown one.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[one("200", "The schedule."), E401, E403, E404, E500],
};

/// `POST /api/v1/crawl-schedules/{id}/pause`.
pub static PAUSE_SCHEDULE: Operation = Operation {
    id: "pauseCrawlSchedule",
    summary: "Pause a crawl schedule",
    description: "No run starts while it is paused (a run already started goes on). Pausing a paused schedule \
        answers it as it is. No body is needed; one that is sent must be JSON and is ignored. Requires a key with \
        the `audit` scope; consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[one("200", "The schedule, `paused`."), E400_BODY, E401, E403, E404, E413, E415, E500],
};

/// `POST /api/v1/crawl-schedules/{id}/resume`.
pub static RESUME_SCHEDULE: Operation = Operation {
    id: "resumeCrawlSchedule",
    summary: "Resume a paused crawl schedule",
    description: "The next run is the schedule's next time from now: runs missed while it was paused are not \
        made up. No body is needed; one that is sent must be JSON and is ignored. Requires a key with the `audit` \
        scope; consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[one("200", "The schedule, `active`."), E400_BODY, E401, E403, E404, E413, E415, E500],
};

/// `DELETE /api/v1/crawl-schedules/{id}`.
pub static END_SCHEDULE: Operation = Operation {
    id: "endCrawlSchedule",
    summary: "End a crawl schedule",
    description: "The schedule is deleted: no run starts any more (a run already started goes on, and its crawl \
        stays, as every earlier run's). Requires a key with the `audit` scope; consumes no quota.",
    tag: "crawl",
    access: Access::KeyRequired,
    params: &[ID, Param::ApiKeyQuery],
    body: None,
    responses: &[
        Response {
            status: "200",
            description: "Ended.",
            headers: &[],
            content: Content::Json(answer::<ScheduleEnded>),
        },
        E401,
        E403,
        E404,
        E500,
    ],
};
