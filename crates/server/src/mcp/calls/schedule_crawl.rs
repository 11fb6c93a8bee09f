//! schedule_crawl: the key owner's crawl schedules (docs/API.md, "Scheduled crawls"): make one
//! (a crawl run daily or weekly, each run compared with the previous and alerted on), list
//! them, pause, resume or end one: the use cases of `/api/v1/crawl-schedules`
//! ([`app::crawl::Schedules`]), with the same checks of the same request.

use api::body::Field;
use mcp_protocol::ToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{from_app_error, owner, tool_error, ToolEnv};

/// What schedule_crawl does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
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

/// Arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// create, list, pause, resume, end or alerts
    pub action: Action,
    /// create: the crawl each run starts, as crawl_site's and POST /api/v1/crawls's request
    /// (url required; max_pages, include, exclude, strip_params, sitemaps, render, ...)
    #[schemars(with = "Option<api::crawls::CrawlRequest>")]
    pub crawl: Option<serde_json::Map<String, serde_json::Value>>,
    /// create: daily or weekly
    #[schemars(extend("enum" = api::schedules::FREQUENCIES))]
    pub frequency: Option<String>,
    /// create: the time of day of each run, HH:MM in UTC
    pub time: Option<String>,
    /// create, weekly: the day of the week (monday to sunday)
    #[schemars(extend("enum" = api::schedules::WEEKDAYS))]
    pub weekday: Option<String>,
    /// create: points of site score drop since the previous run that raise an alert (1 to
    /// 100, default 5)
    #[schemars(range(min = 1, max = 100))]
    pub alert_score_drop: Option<u64>,
    /// pause, resume, end: the schedule's id
    pub schedule_id: Option<String>,
    /// alerts: only those of crawl schedules (schedule) or of monitors (monitor)
    #[schemars(extend("enum" = api::alerts::ALERT_SOURCES))]
    pub source: Option<String>,
    /// alerts: the next_cursor of the previous page, as it was given
    #[schemars(length(min = 1, max = 200))]
    pub cursor: Option<String>,
    /// alerts: alerts per page, 1 to 100 (default 50)
    #[schemars(range(min = 1, max = api::alerts::MAX_ALERTS_PAGE))]
    pub limit: Option<u32>,
}

/// Result: the schedule (create, pause, resume), the schedules (list), the id ended, or a
/// page of alerts (alerts).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum Output {
    /// create, pause, resume.
    Schedule {
        /// The schedule (boxed: the variants differ in size).
        schedule: Box<api::schedules::CrawlSchedule>,
    },
    /// list.
    List {
        /// The schedules, oldest first.
        schedules: Vec<api::schedules::CrawlSchedule>,
    },
    /// end.
    Ended {
        /// The id of the schedule ended.
        deleted: String,
    },
    /// alerts.
    Alerts {
        /// The alerts, newest first, each with its source (schedule or monitor).
        alerts: Vec<api::alerts::Alert>,
        /// Pass as cursor for the next page; null on the last.
        next_cursor: Option<String>,
    },
}

fn given<T>(value: Option<T>) -> Field<T> {
    value.map_or(Field::Absent, Field::Given)
}

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: Args) -> Result<Output, ToolResult> {
    let owner = owner(env)?;
    let schedules = &env.state.schedules;
    let failed = |e| from_app_error(e, "crawl schedule");
    let id = || {
        super::text(&args.schedule_id)
            .ok_or_else(|| tool_error("missing_parameter", "The argument schedule_id is needed for this action."))
    };
    let one = |s: &app::crawl::stored::CrawlSchedule| Output::Schedule { schedule: Box::new(app::crawl::schedules::wire(s)) };
    match args.action {
        Action::Create => {
            let app::quota::Identity::Key(key) = env.identity else {
                return Err(tool_error("unauthorized", "This tool needs an API key."));
            };
            // Each run is a crawl charged to this key, which the REST routes let only a key
            // with the `audit` scope start.
            if !key.has_scope(app::Scope::Audit) {
                return Err(tool_error("forbidden", "Scheduling a crawl needs an API key with the audit scope."));
            }
            let request = api::schedules::ScheduleRequest {
                crawl: given(args.crawl.clone()),
                frequency: given(args.frequency.clone()),
                time: given(args.time.clone()),
                weekday: given(args.weekday.clone()),
                alert_score_drop: given(args.alert_score_drop),
            };
            let input = app::crawl::parse_schedule(request).map_err(failed)?;
            schedules.create(key, input).await.map(|s| one(&s)).map_err(failed)
        }
        Action::List => {
            let list = schedules.list(owner).await.map_err(failed)?;
            Ok(Output::List { schedules: list.iter().map(app::crawl::schedules::wire).collect() })
        }
        Action::Pause => schedules.pause(owner, id()?).await.map(|s| one(&s)).map_err(failed),
        Action::Resume => schedules.resume(owner, id()?).await.map(|s| one(&s)).map_err(failed),
        Action::End => {
            let id = id()?;
            schedules.end(owner, id.clone()).await.map_err(failed)?;
            Ok(Output::Ended { deleted: id })
        }
        Action::Alerts => {
            let request =
                api::alerts::ListAlerts { source: args.source.clone(), cursor: args.cursor.clone(), limit: args.limit };
            let listing = env.state.app.list_alerts(owner, request).await.map_err(|e| from_app_error(e, "alerts"))?;
            Ok(Output::Alerts { alerts: listing.alerts, next_cursor: listing.next_cursor })
        }
    }
}
