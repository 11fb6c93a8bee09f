//! The service's Prometheus metrics (docs/API.md, "Metrics, liveness and readiness";
//! docs/ARCHITECTURE.md, "Metrics"): `GET /metrics` on a listener of its own
//! (`metrics_listen`, served by the server's `scrape` module), off by default.
//!
//! [`Metrics`] owns a `metrics-exporter-prometheus` recorder of its own (never the process's
//! global one, so every service in a process counts for itself) and keeps a handle to each
//! series whose labels are known in advance; a counter increment is then one atomic add. It is
//! the application's [`app::Observer`] (audit outcomes and phases, store calls, webhook
//! attempts, monitor checks, workflow steps) and the HTTP server's
//! [`http_serve::ConnectionEvents`] (connections open, refused or closed and why). Gauges of
//! the present (queue, slots, webhook backlog, database reachable, the `process_*` series) are
//! read when Prometheus scrapes.
//!
//! Cardinality is bounded by construction: a label is a route template, a method of a fixed
//! list, a status class, a tier, a phase, or a fixed code; never a URL, host, path, query, key,
//! user or client address.

use std::time::Duration;

use http::{Method, StatusCode};
use metrics::{Counter, Gauge, Histogram, Key, Label, Level, Metadata, Recorder, SharedString, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

/// Content type of the exposition (the Prometheus text format, version 0.0.4).
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Buckets of the request and audit durations, in seconds.
const DURATION_BUCKETS: &[f64] = &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];
/// Buckets of the store calls, in seconds.
const DB_BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

/// Route label of a request no route matched (404, 405).
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The label of a connection ended by an over-slow request body (the server's own bound,
/// `body_timeout_ms`); the others are [`http_serve::CloseReason`]'s.
pub const BODY_TIMEOUT: &str = "body_timeout";

/// Error codes an audit commonly ends with, registered at start so that their series exist
/// (at 0) before the first such audit.
const AUDIT_ERROR_CODES: &[&str] = &[
    "blocked_target",
    "invalid_url",
    "target_unreachable",
    "target_timeout",
    "not_html",
    "target_too_large",
    "internal",
];

/// The tiers of the rate limiter's refusals.
pub const TIERS: [&str; 3] = ["anonymous", "free", "pro"];

const HTTP_REQUESTS: &str = "seo_audit_http_requests_total";
const HTTP_DURATION: &str = "seo_audit_http_request_duration_seconds";
const AUDITS: &str = "seo_audit_audits_total";

static METADATA: Metadata<'static> = Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

/// What the gauges of the present read at a scrape.
#[derive(Debug, Clone, Copy, Default)]
pub struct Present {
    /// Audits waiting for a slot.
    pub queued: usize,
    /// Audit slots in use.
    pub busy: usize,
    /// Audit slots in all.
    pub slots: usize,
    /// Whether the service is shutting down.
    pub draining: bool,
    /// Whether the database answered a ping.
    pub database_up: bool,
    /// Deliveries waiting in the webhook outbox; `None`: not read (the gauge keeps its value).
    pub webhooks_pending: Option<usize>,
}

/// The metrics of one service.
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    connections_open: Gauge,
    connections_closed: Vec<(&'static str, Counter)>,
    phases: Vec<(app::Phase, Histogram)>,
    db_calls: Histogram,
    db_up: Gauge,
    queue_depth: Gauge,
    slots_busy: Gauge,
    slots: Gauge,
    rate_limited: Vec<(&'static str, Counter)>,
    webhook_attempts: Vec<(&'static str, Counter)>,
    webhooks_pending: Gauge,
    monitor_checks: Counter,
    workflow_steps: Counter,
    crawl_pages: Vec<(&'static str, Counter)>,
    crawls_running: Gauge,
    draining: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// A recorder of its own with every series of known labels registered (at 0).
    pub fn new() -> Metrics {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full("seo_audit_database_call_duration_seconds".into()), DB_BUCKETS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Suffix("_duration_seconds".into()), DURATION_BUCKETS));
        let recorder = builder.unwrap_or_else(|_| PrometheusBuilder::new()).build_recorder();
        let handle = recorder.handle();
        let r = &recorder;
        describe(r, HTTP_REQUESTS, Unit::Count, "HTTP requests answered, by route template, method and status class.");
        describe(r, HTTP_DURATION, Unit::Seconds, "Time to answer an HTTP request (its body written out excluded).");
        describe(r, "seo_audit_http_connections_open", Unit::Count, "Client connections open now.");
        describe(
            r,
            "seo_audit_http_connections_closed_total",
            Unit::Count,
            "Connections the server refused or closed on its own, by reason.",
        );
        describe(r, AUDITS, Unit::Count, "Audits that got a slot, by outcome (ok or the error code).");
        describe(r, "seo_audit_audit_phase_duration_seconds", Unit::Seconds, "Time of each phase of an audit.");
        describe(r, "seo_audit_audit_queue_depth", Unit::Count, "Audits waiting for a slot.");
        describe(r, "seo_audit_audit_slots_busy", Unit::Count, "Audit slots in use.");
        describe(r, "seo_audit_audit_slots", Unit::Count, "Audit slots in all (max_concurrent_audits).");
        describe(r, "seo_audit_rate_limited_total", Unit::Count, "Requests refused by the rate limiter, by tier.");
        describe(r, "seo_audit_webhook_deliveries_total", Unit::Count, "Webhook delivery attempts, by outcome.");
        describe(r, "seo_audit_webhook_deliveries_pending", Unit::Count, "Webhook deliveries waiting in the outbox.");
        describe(r, "seo_audit_monitor_checks_total", Unit::Count, "Monitor checks run.");
        describe(r, "seo_audit_workflow_steps_total", Unit::Count, "Workflow steps run.");
        describe(r, "seo_audit_crawl_pages_total", Unit::Count, "URLs fetched by site crawls, by outcome.");
        describe(r, "seo_audit_crawls_running", Unit::Count, "Site crawls this process is driving.");
        describe(r, "seo_audit_database_up", Unit::Count, "1 when the database answers a ping, else 0.");
        describe(
            r,
            "seo_audit_database_call_duration_seconds",
            Unit::Seconds,
            "Time of a store call, its wait for the blocking pool included.",
        );
        describe(r, "seo_audit_draining", Unit::Count, "1 from the shutdown signal on (readiness answers 503).");
        describe(r, "seo_audit_build_info", Unit::Count, "Always 1; the labels name the build.");

        let build = r.register_gauge(
            &Key::from_parts(
                "seo_audit_build_info",
                vec![
                    Label::new("version", env!("CARGO_PKG_VERSION")),
                    Label::new("ruleset_version", audit_core::RULESET_VERSION),
                ],
            ),
            &METADATA,
        );
        build.set(1.0);
        let labelled_counter = |name: &'static str, label: &'static str, value: &'static str| {
            r.register_counter(&Key::from_parts(name, vec![Label::from_static_parts(label, value)]), &METADATA)
        };
        for outcome in app::observe::AUDIT_OUTCOMES.iter().chain(AUDIT_ERROR_CODES) {
            let _ = labelled_counter(AUDITS, "outcome", outcome);
        }
        let mut reasons: Vec<&'static str> = http_serve::CloseReason::ALL.iter().map(|r| r.as_str()).collect();
        reasons.push(BODY_TIMEOUT);
        Metrics {
            connections_open: gauge(r, "seo_audit_http_connections_open"),
            connections_closed: reasons
                .into_iter()
                .map(|reason| (reason, labelled_counter("seo_audit_http_connections_closed_total", "reason", reason)))
                .collect(),
            phases: app::Phase::ALL
                .iter()
                .map(|&p| {
                    let key = Key::from_parts(
                        "seo_audit_audit_phase_duration_seconds",
                        vec![Label::from_static_parts("phase", p.as_str())],
                    );
                    (p, r.register_histogram(&key, &METADATA))
                })
                .collect(),
            db_calls: r.register_histogram(&Key::from_name("seo_audit_database_call_duration_seconds"), &METADATA),
            db_up: gauge(r, "seo_audit_database_up"),
            queue_depth: gauge(r, "seo_audit_audit_queue_depth"),
            slots_busy: gauge(r, "seo_audit_audit_slots_busy"),
            slots: gauge(r, "seo_audit_audit_slots"),
            rate_limited: TIERS
                .iter()
                .map(|&t| (t, labelled_counter("seo_audit_rate_limited_total", "tier", t)))
                .collect(),
            webhook_attempts: app::observe::WEBHOOK_OUTCOMES
                .iter()
                .map(|&o| (o, labelled_counter("seo_audit_webhook_deliveries_total", "outcome", o)))
                .collect(),
            webhooks_pending: gauge(r, "seo_audit_webhook_deliveries_pending"),
            monitor_checks: r.register_counter(&Key::from_name("seo_audit_monitor_checks_total"), &METADATA),
            workflow_steps: r.register_counter(&Key::from_name("seo_audit_workflow_steps_total"), &METADATA),
            crawl_pages: app::observe::CRAWL_PAGE_OUTCOMES
                .iter()
                .map(|&o| (o, labelled_counter("seo_audit_crawl_pages_total", "outcome", o)))
                .collect(),
            crawls_running: gauge(r, "seo_audit_crawls_running"),
            draining: gauge(r, "seo_audit_draining"),
            recorder,
            handle,
        }
    }

    /// Counts one answered request: `route` is the matched route's template (or
    /// [`UNMATCHED_ROUTE`]), never the request's path.
    pub fn http_request(&self, route: &'static str, method: &Method, status: StatusCode, took: Duration) {
        let labels = vec![
            Label::from_static_parts("route", route),
            Label::from_static_parts("method", method_label(method)),
            Label::from_static_parts("status_class", status_class(status)),
        ];
        self.recorder.register_counter(&Key::from_parts(HTTP_REQUESTS, labels), &METADATA).increment(1);
        let key = Key::from_parts(HTTP_DURATION, vec![Label::from_static_parts("route", route)]);
        self.recorder.register_histogram(&key, &METADATA).record(took.as_secs_f64());
    }

    /// Counts a connection closed for `reason` ([`BODY_TIMEOUT`] or a
    /// [`http_serve::CloseReason`]'s name).
    pub fn connection_closed(&self, reason: &str) {
        if let Some((_, c)) = self.connections_closed.iter().find(|(r, _)| *r == reason) {
            c.increment(1);
        }
    }

    /// Counts a request the rate limiter refused, by the tier of its identity.
    pub fn rate_limited(&self, tier: &str) {
        if let Some((_, c)) = self.rate_limited.iter().find(|(t, _)| *t == tier) {
            c.increment(1);
        }
    }

    /// The exposition: sets the gauges of the present to `now`, then renders every series in
    /// the Prometheus text format, the `process_*` series last.
    pub fn render(&self, now: &Present) -> String {
        self.queue_depth.set(now.queued as f64);
        self.slots_busy.set(now.busy as f64);
        self.slots.set(now.slots as f64);
        self.draining.set(if now.draining { 1.0 } else { 0.0 });
        self.db_up.set(if now.database_up { 1.0 } else { 0.0 });
        if let Some(pending) = now.webhooks_pending {
            self.webhooks_pending.set(pending as f64);
        }
        self.handle.run_upkeep();
        let mut out = self.handle.render();
        out.push_str(&process_metrics());
        out
    }

    /// Moves the histograms' recent samples into their buckets: called between scrapes, so
    /// that samples never pile up however rarely Prometheus comes.
    pub fn upkeep(&self) {
        self.handle.run_upkeep();
    }
}

fn describe(r: &PrometheusRecorder, name: &'static str, unit: Unit, help: &'static str) {
    if name.ends_with("_total") {
        r.describe_counter(name.into(), Some(unit), SharedString::const_str(help));
    } else if name.ends_with("_seconds") {
        r.describe_histogram(name.into(), Some(unit), SharedString::const_str(help));
    } else {
        r.describe_gauge(name.into(), Some(unit), SharedString::const_str(help));
    }
}

fn gauge(r: &PrometheusRecorder, name: &'static str) -> Gauge {
    r.register_gauge(&Key::from_name(name), &METADATA)
}

/// A method of the fixed list, or `other`.
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// `2xx`, `4xx`, ...
fn status_class(s: StatusCode) -> &'static str {
    match s.as_u16() / 100 {
        1 => "1xx",
        2 => "2xx",
        3 => "3xx",
        4 => "4xx",
        _ => "5xx",
    }
}

impl app::Observer for Metrics {
    fn rate_limited(&self, tier: &'static str) {
        Metrics::rate_limited(self, tier);
    }

    fn audit_phase(&self, phase: app::Phase, took: Duration) {
        if let Some((_, h)) = self.phases.iter().find(|(p, _)| *p == phase) {
            h.record(took.as_secs_f64());
        }
    }

    fn audit_done(&self, outcome: app::observe::Outcome) {
        let key = Key::from_parts(AUDITS, vec![Label::from_static_parts("outcome", outcome)]);
        self.recorder.register_counter(&key, &METADATA).increment(1);
    }

    fn db_call(&self, took: Duration) {
        self.db_calls.record(took.as_secs_f64());
    }

    fn webhook_attempt(&self, outcome: &'static str) {
        if let Some((_, c)) = self.webhook_attempts.iter().find(|(o, _)| *o == outcome) {
            c.increment(1);
        }
    }

    fn monitor_run(&self) {
        self.monitor_checks.increment(1);
    }

    fn workflow_step(&self) {
        self.workflow_steps.increment(1);
    }

    fn crawl_page(&self, outcome: &'static str) {
        if let Some((_, c)) = self.crawl_pages.iter().find(|(o, _)| *o == outcome) {
            c.increment(1);
        }
    }

    fn crawl_running(&self, delta: i64) {
        if delta >= 0 {
            self.crawls_running.increment(delta as f64);
        } else {
            self.crawls_running.decrement((-delta) as f64);
        }
    }
}

impl http_serve::ConnectionEvents for Metrics {
    fn opened(&self) {
        self.connections_open.increment(1.0);
    }

    fn ended(&self) {
        self.connections_open.decrement(1.0);
    }

    fn closed_by_server(&self, reason: http_serve::CloseReason) {
        self.connection_closed(reason.as_str());
    }
}

/// The standard `process_*` series of the running process (Linux: read from `/proc/self`;
/// elsewhere none), in the text format.
fn process_metrics() -> String {
    #[cfg(target_os = "linux")]
    {
        linux_process::render()
    }
    #[cfg(not(target_os = "linux"))]
    {
        String::new()
    }
}

#[cfg(target_os = "linux")]
mod linux_process {
    use std::fmt::Write as _;

    /// Clock ticks per second of `/proc/self/stat` (`sysconf(_SC_CLK_TCK)`, 100 on every
    /// Linux architecture this runs on).
    const TICKS_PER_SECOND: f64 = 100.0;
    const PAGE_SIZE: f64 = 4096.0;

    pub(super) fn render() -> String {
        let mut out = String::new();
        let mut series = |name: &str, kind: &str, help: &str, value: f64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n");
        };
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
            // The fields after the command name, which is in parentheses and may hold spaces.
            let fields: Vec<&str> =
                stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
            let field = |n: usize| fields.get(n - 3).and_then(|v| v.parse::<f64>().ok());
            if let (Some(utime), Some(stime)) = (field(14), field(15)) {
                series(
                    "process_cpu_seconds_total",
                    "counter",
                    "Total user and system CPU time spent in seconds.",
                    (utime + stime) / TICKS_PER_SECOND,
                );
            }
            if let Some(vsize) = field(23) {
                series("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", vsize);
            }
            if let Some(rss) = field(24) {
                series("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", rss * PAGE_SIZE);
            }
            if let (Some(start), Some(boot)) = (field(22), boot_time()) {
                series(
                    "process_start_time_seconds",
                    "gauge",
                    "Start time of the process since unix epoch in seconds.",
                    boot + start / TICKS_PER_SECOND,
                );
            }
        }
        if let Ok(dir) = std::fs::read_dir("/proc/self/fd") {
            series("process_open_fds", "gauge", "Number of open file descriptors.", dir.count() as f64);
        }
        if let Ok((soft, _)) = rlimit_nofile() {
            series("process_max_fds", "gauge", "Maximum number of open file descriptors.", soft as f64);
        }
        out
    }

    fn boot_time() -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        stat.lines().find_map(|l| l.strip_prefix("btime ")).and_then(|v| v.trim().parse().ok())
    }

    fn rlimit_nofile() -> Result<(u64, u64), ()> {
        let limits = std::fs::read_to_string("/proc/self/limits").map_err(drop)?;
        let line = limits.lines().find(|l| l.starts_with("Max open files")).ok_or(())?;
        let mut nums = line.split_whitespace().skip(3);
        let soft = nums.next().and_then(|v| v.parse().ok()).ok_or(())?;
        let hard = nums.next().and_then(|v| v.parse().ok()).unwrap_or(soft);
        Ok((soft, hard))
    }
}
