//! `seo-audit crawl URL`: a site crawl on the command line (docs/API.md, "Site crawl",
//! "Command line"). The frontier lives in memory ([`crawl::MemoryStore`]); there is no tier
//! cap. The output: the site score, the site and page issues with their affected URLs, and
//! the pages table, as text, JSON or CSV.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use app::crawl::{CrawlEnd, CrawlOptions, CrawlSummary, MemorySink, Progress};
use audit_core::Severity;
use crawl::{CrawledSite, Limits, MemoryStore, Scope, ScopeConfig, SiteIndex, State};
use fetch::Fetcher;
use serde::Serialize;

use crate::audit_cmd::{AuditSettingFlags, EXIT_BELOW_MIN_SCORE, EXIT_FAILED, EXIT_OK};
use crate::table::{render, Align};
use crate::Global;

/// Affected URLs the text report lists per issue; the JSON lists them all.
const TEXT_URLS_PER_ISSUE: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable report: site score, issues with affected URLs, the pages table.
    Text,
    /// The whole report as one JSON document.
    Json,
    /// The pages table as CSV (RFC 4180), one row per URL.
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct CrawlArgs {
    /// The start URL (http or https); the crawl stays on its site.
    pub url: String,
    /// The most URLs fetched (the start URL, redirects and failures count).
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_pages: u32,
    /// The deepest click depth followed (the start URL is depth 0).
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Exit with status 1 when the site score is under N, 0 to 100 (for CI pipelines).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: Option<u32>,
    /// Requests in flight per host at most (politeness; a robots.txt Crawl-delay makes it 1).
    #[arg(long, value_name = "N", default_value_t = crawl::DEFAULT_MAX_IN_FLIGHT, value_parser = parse_in_flight)]
    pub max_in_flight: usize,
    /// Stop starting fetches after this many seconds and report what was crawled.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    pub time_limit: u64,
    /// Do not read the site's sitemaps.
    #[arg(long)]
    pub no_sitemaps: bool,
    /// Render every HTML page in headless Chromium and audit the rendered DOM (docs/API.md,
    /// "Rendered audits").
    #[arg(long)]
    pub render: bool,
    #[command(flatten)]
    pub settings: AuditSettingFlags,
}

fn parse_in_flight(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err("a number from 1 to 256".to_string()),
    }
}

/// The report of a crawl, as `--format json` prints it.
#[derive(Debug, Serialize)]
pub struct Report {
    ok: bool,
    crawl: CrawlReport,
}

#[derive(Debug, Serialize)]
struct CrawlReport {
    url: String,
    /// `completed`, `cancelled` or `failed`.
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    time_limited: bool,
    /// `None` when no page was audited.
    site_score: Option<u32>,
    mean_page_score: Option<f64>,
    site_penalty: Option<f64>,
    progress: ProgressReport,
    sitemaps_read: bool,
    issues: Vec<Issue>,
    pages: Vec<PageRow>,
}

#[derive(Debug, Serialize)]
struct ProgressReport {
    pages_done: u64,
    pages_queued: u64,
    pages_failed: u64,
    pages_skipped: u64,
    pages_audited: u64,
    seconds: f64,
    pages_per_second: f64,
}

#[derive(Debug, Serialize)]
struct Issue {
    id: String,
    /// `site` (a site rule) or `page` (a page rule failed on these pages).
    kind: &'static str,
    severity: Severity,
    count: usize,
    urls: Vec<Affected>,
}

#[derive(Debug, Serialize)]
struct Affected {
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    linked_from: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    detail: String,
}

#[derive(Debug, Serialize)]
struct PageRow {
    url: String,
    /// `done` (answered), `failed` (no answer) or `skipped` (never fetched).
    state: &'static str,
    status_code: Option<u16>,
    depth: Option<u32>,
    inlinks: usize,
    score: Option<u32>,
    title: Option<String>,
    failed_rules: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect_to: Option<String>,
    /// Why it failed or was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Runs the subcommand and returns the process exit status: as `audit`'s, and
/// [`EXIT_FAILED`] for a crawl that ends `failed` (its report is printed still).
pub async fn run(args: CrawlArgs, global: &Global) -> u8 {
    let config = match global.load_config_with(&args.settings) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: invalid_request: settings: {e}");
            return EXIT_FAILED;
        }
    };
    let fail = |code: &str, message: String| {
        eprintln!("error: {code}: {message}");
        EXIT_FAILED
    };
    let fetcher = match Fetcher::new(config.fetch_config()) {
        Ok(f) => f,
        Err(e) => return fail(e.code(), e.to_string()),
    };
    let renderer = if args.render {
        match app::Renderer::new(config.render_config(), fetcher.clone()) {
            Ok(r) => Some(r),
            Err(e) => {
                let e = app::AppError::from(e);
                return fail(e.code(), format!("{} ({})", e.message(), e.log_detail().unwrap_or_default()));
            }
        }
    } else {
        None
    };
    // The start URL is checked as an audit checks its URL, before anything is crawled.
    let start = match app::crawl::check_start(&fetcher, &args.url).await {
        Ok(url) => url,
        Err(e) => return fail(e.code(), e.message()),
    };
    let scope_config =
        ScopeConfig { max_pages: args.max_pages, max_depth: args.max_depth, include: Vec::new(), exclude: Vec::new() };
    let scope = match Scope::new(start.as_str(), scope_config) {
        Ok(s) => s,
        Err(e) => return fail("invalid_url", e.to_string()),
    };
    let limits = Limits { max_in_flight: args.max_in_flight, ..Limits::default() };
    let options = CrawlOptions {
        limits: app::pipeline::AnalysisLimits::cpu_ms(config.analysis_cpu_ms),
        time_limit: Duration::from_secs(args.time_limit),
        sitemaps: !args.no_sitemaps,
        cancel: Arc::new(AtomicBool::new(false)),
        renderer,
        ..CrawlOptions::default()
    };
    // Ctrl-C (SIGINT) cancels: no fetch starts after it, and the pages done are reported.
    let cancel = Arc::clone(&options.cancel);
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let bar = progress_bar();
    let mut sink = MemorySink::default();
    if let Some(bar) = bar.clone() {
        sink.on_progress = Some(Box::new(move |p: &Progress| {
            bar.set_message(progress_line(p));
            bar.tick();
        }));
    }
    let crawled = app::crawl::run(&fetcher, MemoryStore::new(), scope, limits, sink, options).await;
    interrupt.abort();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let crawled = match crawled {
        Ok(c) => c,
        Err(e) => return fail(e.code(), e.message()),
    };
    let report = report(start.as_str(), &crawled.summary, &crawled.sink, &crawled.store);
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Json => serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        Format::Text => out.write_all(text(&report.crawl).as_bytes()),
        Format::Csv => out.write_all(csv(&report.crawl.pages).as_bytes()),
    };
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail("internal", format!("cannot write the report: {e}"));
        }
    }
    if let CrawlEnd::Failed { reason } = &crawled.summary.end {
        return fail("crawl_failed", reason.clone());
    }
    match (args.min_score, report.crawl.site_score) {
        (Some(min), Some(score)) if score < min => EXIT_BELOW_MIN_SCORE,
        (Some(_), None) => EXIT_BELOW_MIN_SCORE,
        _ => EXIT_OK,
    }
}

/// A progress bar on stderr when it is a terminal (pages done, queued and the rate).
fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    let style = indicatif::ProgressStyle::with_template("{spinner} crawling: {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

fn progress_line(p: &Progress) -> String {
    format!(
        "{} done, {} queued, {} failed, {} skipped, {:.1} pages/s",
        p.done, p.queued, p.failed, p.skipped, p.pages_per_second
    )
}

/// Builds the report: site rules and the site score over the pages kept, the page rules'
/// failures by rule, and one row per URL the crawl knows.
fn report(start: &str, summary: &CrawlSummary, sink: &MemorySink, store: &MemoryStore) -> Report {
    let pages = &sink.pages;
    let results = crawl::run_site_rules(pages, &sink.sitemap_urls, summary.sitemaps_read);
    let score = crawl::site_score(pages.iter().filter_map(|p| p.score), pages.len(), &results);
    let index = SiteIndex::new(pages, &sink.sitemap_urls, summary.sitemaps_read);

    let mut issues: Vec<Issue> = results
        .iter()
        .filter(|r| !r.findings.is_empty())
        .map(|r| Issue {
            id: r.id.to_string(),
            kind: "site",
            severity: r.severity,
            count: r.affected(),
            urls: r
                .findings
                .iter()
                .map(|f| Affected { url: f.url.clone(), linked_from: f.linked_from.clone(), detail: f.detail.clone() })
                .collect(),
        })
        .collect();
    let mut by_rule: BTreeMap<&'static str, (Severity, Vec<String>)> = BTreeMap::new();
    for (page, failed) in pages.iter().zip(&sink.failed) {
        for (id, severity) in failed {
            by_rule.entry(id).or_insert_with(|| (*severity, Vec::new())).1.push(page.url.clone());
        }
    }
    let mut page_issues: Vec<Issue> = by_rule
        .into_iter()
        .map(|(id, (severity, urls))| Issue {
            id: id.to_string(),
            kind: "page",
            severity,
            count: urls.len(),
            urls: urls.into_iter().map(|url| Affected { url, linked_from: None, detail: String::new() }).collect(),
        })
        .collect();
    page_issues.sort_by_key(|i| (i.severity, std::cmp::Reverse(i.count)));
    issues.sort_by_key(|i| i.severity);
    issues.extend(page_issues);

    let mut rows: Vec<PageRow> = pages
        .iter()
        .zip(&sink.failed)
        .map(|(p, failed)| PageRow {
            url: p.url.clone(),
            state: if p.status.is_some() { "done" } else { "failed" },
            status_code: p.status,
            depth: p.depth,
            inlinks: index.inlink_count(&p.url).unwrap_or_default() as usize,
            score: p.score,
            title: p.title.clone(),
            failed_rules: failed.iter().map(|(id, _)| *id).collect(),
            redirect_to: p.redirect_to.clone(),
            reason: p.error.clone(),
        })
        .collect();
    rows.extend(store.entries().into_iter().filter(|e| e.state == State::Skipped).map(|e| PageRow {
        inlinks: index.inlink_count(&e.url).unwrap_or_default() as usize,
        url: e.url,
        state: "skipped",
        status_code: None,
        depth: e.depth,
        score: None,
        title: None,
        failed_rules: Vec::new(),
        redirect_to: None,
        reason: e.reason,
    }));

    let (state, reason) = match &summary.end {
        CrawlEnd::Completed => ("completed", None),
        CrawlEnd::Cancelled => ("cancelled", None),
        CrawlEnd::Failed { reason } => ("failed", Some(reason.clone())),
    };
    let p = &summary.progress;
    Report {
        ok: !matches!(summary.end, CrawlEnd::Failed { .. }),
        crawl: CrawlReport {
            url: start.to_string(),
            state,
            reason,
            time_limited: summary.time_limited,
            site_score: score.as_ref().map(|s| s.score),
            mean_page_score: score.as_ref().map(|s| (s.mean_page_score * 10.0).round() / 10.0),
            site_penalty: score.as_ref().map(|s| (s.penalty * 10.0).round() / 10.0),
            progress: ProgressReport {
                pages_done: p.done,
                pages_queued: p.queued,
                pages_failed: p.failed,
                pages_skipped: p.skipped,
                pages_audited: summary.pages_audited,
                seconds: (p.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                pages_per_second: (p.pages_per_second * 10.0).round() / 10.0,
            },
            sitemaps_read: summary.sitemaps_read,
            issues,
            pages: rows,
        },
    }
}

fn text(r: &CrawlReport) -> String {
    let mut out = String::new();
    let score = r.site_score.map_or_else(|| "-".to_string(), |s| format!("{s}/100"));
    out.push_str(&format!("Site score {score}  ({})  {}\n", r.state, r.url));
    if let Some(reason) = &r.reason {
        out.push_str(&format!("Reason: {reason}\n"));
    }
    let p = &r.progress;
    out.push_str(&format!(
        "{} done, {} failed, {} skipped, {} audited in {:.1} s ({:.1} pages/s){}\n",
        p.pages_done,
        p.pages_failed,
        p.pages_skipped,
        p.pages_audited,
        p.seconds,
        p.pages_per_second,
        if r.time_limited { "; stopped at the time limit" } else { "" }
    ));
    for (kind, heading) in [("site", "Site issues"), ("page", "Page issues")] {
        let issues: Vec<&Issue> = r.issues.iter().filter(|i| i.kind == kind).collect();
        if issues.is_empty() {
            out.push_str(&format!("\n{heading}: none\n"));
        } else {
            out.push_str(&format!("\n{heading}:\n"));
        }
        for issue in issues {
            out.push_str(&format!(
                "  [{}] {} ({} URL{})\n",
                issue.severity,
                issue.id,
                issue.count,
                if issue.count == 1 { "" } else { "s" }
            ));
            for a in issue.urls.iter().take(TEXT_URLS_PER_ISSUE) {
                let mut line = format!("    {}", a.url);
                if !a.detail.is_empty() {
                    line.push_str(&format!("  {}", a.detail));
                }
                if let Some(from) = &a.linked_from {
                    line.push_str(&format!("  (linked from {from})"));
                }
                out.push_str(&line);
                out.push('\n');
            }
            if issue.urls.len() > TEXT_URLS_PER_ISSUE {
                out.push_str(&format!("    ... and {} more\n", issue.urls.len() - TEXT_URLS_PER_ISSUE));
            }
        }
    }
    out.push_str("\nPages:\n");
    let header = [
        ("STATUS", Align::Right),
        ("DEPTH", Align::Right),
        ("INLINKS", Align::Right),
        ("SCORE", Align::Right),
        ("URL", Align::Left),
        ("NOTE", Align::Left),
    ];
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let rows: Vec<Vec<String>> = r
        .pages
        .iter()
        .map(|p| {
            let note = match (p.state, &p.redirect_to, &p.reason) {
                (_, Some(to), _) => format!("-> {to}"),
                ("skipped", _, Some(why)) => format!("skipped: {why}"),
                (_, _, Some(why)) => why.clone(),
                _ => p.title.clone().unwrap_or_default(),
            };
            vec![
                opt(p.status_code.map(|s| s.to_string())),
                opt(p.depth.map(|d| d.to_string())),
                p.inlinks.to_string(),
                opt(p.score.map(|s| s.to_string())),
                p.url.clone(),
                note,
            ]
        })
        .collect();
    out.push_str(&render(&header, &rows));
    out
}

/// The pages table as CSV: a header row, then one row per URL; fields quoted when they
/// hold a comma, a quote or a line break; failed rules joined with spaces.
fn csv(pages: &[PageRow]) -> String {
    fn field(s: &str) -> String {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    }
    let opt = |v: Option<String>| v.unwrap_or_default();
    let mut out = String::from("url,state,status_code,depth,inlinks,score,title,failed_rules,redirect_to,reason\r\n");
    for p in pages {
        let cells = [
            p.url.clone(),
            p.state.to_string(),
            opt(p.status_code.map(|s| s.to_string())),
            opt(p.depth.map(|d| d.to_string())),
            p.inlinks.to_string(),
            opt(p.score.map(|s| s.to_string())),
            opt(p.title.clone()),
            p.failed_rules.join(" "),
            opt(p.redirect_to.clone()),
            opt(p.reason.clone()),
        ];
        out.push_str(&cells.iter().map(|c| field(c)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}
