//! `seo-audit audit TARGET`: one audit, printed as JSON, compact JSON, a terminal report, or
//! for CI as SARIF 2.1.0 or JUnit XML ([`crate::ci_formats`]).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use audit_core::{Audit, HttpFacts};
use fetch::{FetchConfig, Fetcher};

use app::{AppError, ErrorCode};

use crate::cli_error::{fail, CliError};
use crate::{baseline, Global};

/// Exit status when the audit ran and the score is at least `--min-score`.
pub const EXIT_OK: u8 = 0;
/// Exit status when the score is under `--min-score`, or with `--fail-on new` when a finding
/// is new against the baseline.
pub const EXIT_BELOW_MIN_SCORE: u8 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The full audit result (as `GET /api/v1/audit`).
    Json,
    /// The compact result (as `format=compact`).
    Compact,
    /// A readable report: score, then failed checks by category.
    Text,
    /// SARIF 2.1.0 for code scanning: one result per failed rule, located at the page URL
    /// or the audited file.
    Sarif,
    /// JUnit XML for test reports: one test case per rule, a failure per failed rule,
    /// skipped for rules that do not apply.
    Junit,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// A URL (http or https), or the path of a local HTML file.
    pub target: String,
    /// For a file: the URL it will be served at (links, canonical and URL rules use it).
    #[arg(long)]
    pub url: Option<String>,
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Render the page in headless Chromium and audit the rendered DOM, with the `rendering`
    /// section (docs/API.md, "Rendered audits"); a URL only (serve a file to render it).
    #[arg(long)]
    pub render: bool,
    /// Exit with status 1 when the score is under N, 0 to 100 (for CI pipelines).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: Option<u32>,
    /// A previous `--format json` output of `seo-audit audit`: each finding is marked new,
    /// unchanged or resolved against it (docs/API.md, "Command line audits for CI").
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Exit with status 1 when a finding is new against --baseline (beside --min-score).
    #[arg(long, value_enum, value_name = "WHAT", requires = "baseline")]
    pub fail_on: Option<crate::baseline::FailOn>,
    #[command(flatten)]
    pub settings: AuditSettingFlags,
    /// Never colour the text report.
    #[arg(long)]
    pub no_color: bool,
}

/// The settings `audit` takes as flags, on top of the file and the environment; each field
/// serializes under its setting's key.
#[derive(Debug, clap::Args, serde::Serialize)]
pub struct AuditSettingFlags {
    /// Let the address guard through for ADDR (IP, CIDR or host name); for local
    /// development and tests only. Repeatable.
    #[arg(long = "allow-target", value_name = "ADDR", value_delimiter = ',')]
    #[serde(rename = "allow_targets")]
    pub allow_target: Vec<String>,
}

/// Runs the subcommand and returns the process exit status. The fetch settings are the
/// service's (defaults, `--config` file, `SEO_AUDIT_*` variables), `--allow-target` last.
pub async fn run(args: AuditArgs, global: &Global) -> u8 {
    let config = match global.load_config_with(&args.settings) {
        Ok(c) => c,
        Err(e) => {
            return CliError::new(ErrorCode::InvalidRequest, format!("The settings are not valid: {e}")).report();
        }
    };
    // A baseline that cannot be read fails before the audit, not after it.
    let baseline = match args.baseline.as_deref().map(|p| baseline::read(p, baseline::Command::Audit)).transpose() {
        Ok(b) => b,
        Err(e) => return e.report(),
    };
    let limits = app::pipeline::AnalysisLimits::cpu_ms(config.analysis_cpu_ms);
    let render = args.render.then(|| config.render_config());
    let (audit, rendering) = match load(&args, config.fetch_config(), render, limits).await {
        Ok(loaded) => loaded,
        Err(e) => return e.report(),
    };
    let scanned_at = server::now_rfc3339();
    // The JSON result, with a baseline also what this run's findings are read from: the two
    // sides of the comparison are read alike.
    let full = (args.format == Format::Json || baseline.is_some()).then(|| {
        let mut result = audit.to_result(&scanned_at);
        result.rendering = rendering.clone();
        serde_json::to_value(api::FullAnswer::new(result))
    });
    let full = match full.transpose() {
        Ok(f) => f,
        Err(e) => return fail(ErrorCode::Internal, format!("cannot write the result: {e}")),
    };
    let marks = match (&baseline, &full, &args.baseline) {
        (Some(b), Some(value), Some(path)) => {
            let current = baseline::report_of(value, baseline::Command::Audit);
            let marks = baseline::Marks::new(path, baseline::Command::Audit, current, b.clone());
            for note in &marks.notes {
                eprintln!("note: {note}");
            }
            Some(marks)
        }
        _ => None,
    };
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Json => {
            let mut value = full.unwrap_or_default();
            if let Some(marks) = &marks {
                marks.mark_audit(&mut value);
            }
            write_json(&mut out, &value)
        }
        Format::Compact => {
            let mut compact = audit.to_compact(&scanned_at);
            compact.rendering = rendering.as_ref().map(audit_core::CompactRendering::of);
            write_json(&mut out, &api::CompactAnswer::new(compact))
        }
        Format::Text => {
            let color = !args.no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let mut text = audit_core::report::text_of(&audit, color, &location(&args, &audit));
            if let Some(marks) = &marks {
                text.push_str(&marks.text());
            }
            out.write_all(text.as_bytes())
        }
        Format::Sarif => {
            write_json(&mut out, &crate::ci_formats::sarif(&audit, &location(&args, &audit), marks.as_ref()))
        }
        Format::Junit => out.write_all(
            crate::ci_formats::junit(&audit, &location(&args, &audit), &scanned_at, marks.as_ref()).as_bytes(),
        ),
    };
    if let Err(e) = written {
        // A closed pipe (`| head`) is not a failed audit.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail(ErrorCode::Internal, format!("cannot write the result: {e}"));
        }
    }
    let below = args.min_score.is_some_and(|min| audit.score().percentage < min);
    let new = args.fail_on == Some(baseline::FailOn::New) && marks.as_ref().is_some_and(baseline::Marks::has_new);
    if below || new {
        EXIT_BELOW_MIN_SCORE
    } else {
        EXIT_OK
    }
}

/// Where the text report and the CI formats locate the findings: the audited file's path
/// relative to the working directory (as given when it lies outside it), else the page's URL
/// after redirects.
fn location(args: &AuditArgs, audit: &Audit) -> String {
    if !args.target.contains("://") && Path::new(&args.target).is_file() {
        return relative_to_cwd(Path::new(&args.target)).replace('\\', "/");
    }
    let page = &audit.page;
    if page.final_url.is_empty() {
        page.url.clone()
    } else {
        page.final_url.clone()
    }
}

/// A path relative to the working directory, as code scanning matches it against the files
/// of the repository: an absolute path inside the working directory loses that prefix, and a
/// leading `./` goes.
fn relative_to_cwd(path: &Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|d| d.canonicalize().ok());
    if path.is_absolute() {
        let inside = cwd.as_ref().and_then(|cwd| {
            let path = path.canonicalize().ok()?;
            path.strip_prefix(cwd).ok().map(Path::to_path_buf)
        });
        if let Some(inside) = inside {
            return inside.display().to_string();
        }
        return path.display().to_string();
    }
    let text = path.display().to_string();
    text.strip_prefix("./").map_or(text.clone(), str::to_string)
}

fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

/// The audit of the target, and with `render` (the browser pool's settings) the rendered
/// audit and its `rendering` section.
async fn load(
    args: &AuditArgs,
    fetch_config: FetchConfig,
    render: Option<app::RenderConfig>,
    limits: app::pipeline::AnalysisLimits,
) -> Result<(Audit, Option<audit_core::Rendering>), CliError> {
    let is_url = args.target.contains("://");
    let path = Path::new(&args.target);
    if !is_url && path.is_dir() {
        return Err(CliError::verbatim(
            ErrorCode::InvalidRequest,
            format!("{} is a directory, not an HTML file", path.display()),
        ));
    }
    if !is_url && path.is_file() {
        if render.is_some() {
            return Err(CliError::verbatim(
                ErrorCode::InvalidRequest,
                format!(
                    "--render needs a URL: the browser loads pages over HTTP; serve {} (for example with `python3 \
                     -m http.server`) and audit its URL, with --allow-target 127.0.0.1 for a local server",
                    path.display()
                ),
            ));
        }
        let html = std::fs::read(path).map_err(|e| {
            CliError::verbatim(ErrorCode::InvalidRequest, format!("cannot read {}: {e}", path.display()))
        })?;
        if !looks_like_html(path, &html) {
            return Err(CliError::verbatim(ErrorCode::NotHtml, format!("{} is not an HTML file", path.display())));
        }
        let url = match &args.url {
            Some(u) => fetch::validate_url(u).map_err(fetch_failure)?.to_string(),
            None => {
                let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                let url = url::Url::from_file_path(&abs)
                    .map(String::from)
                    .unwrap_or_else(|()| format!("file://{}", abs.display()));
                eprintln!(
                    "note: no --url given: the page is audited at {url}, so its links count as external and the \
                     URL rules judge a file path; pass --url with the address it will be served at"
                );
                url
            }
        };
        return Ok((app::pipeline::audit_html(&url, &html, HttpFacts::default(), limits), None));
    }
    if args.url.is_some() {
        return Err(CliError::verbatim(
            ErrorCode::InvalidRequest,
            "--url is for a local file; the target is fetched from its own URL",
        ));
    }
    if !is_url && looks_like_path(&args.target) {
        return Err(CliError::verbatim(ErrorCode::InvalidRequest, format!("no such file: {}", path.display())));
    }
    let url = fetch::validate_url(&args.target).map_err(fetch_failure)?;
    let fetcher = Fetcher::new(fetch_config).map_err(fetch_failure)?;
    let renderer = match render {
        Some(config) => Some(app::Renderer::new(config, fetcher.clone()).map_err(|e| {
            let e = app::AppError::from(e);
            CliError::verbatim(e.error_code(), format!("{} ({})", e.message(), e.log_detail().unwrap_or_default()))
        })?),
        None => None,
    };
    // The only render of this process: the pool has a free place.
    let place = renderer.map(|r| r.reserve()).transpose().map_err(|e| {
        let message = e.to_string();
        CliError::verbatim(app::AppError::from(e).error_code(), message)
    })?;
    let observer = app::NoObserver;
    match app::pipeline::audit_page(&fetcher, place, &url, None, limits, &observer).await {
        Ok(page) => Ok((page.audit.into_inner(), page.rendering)),
        // A render's failure in the service's sentence; a fetch's in the fetcher's, as always.
        Err(
            e @ (AppError::RenderNotConfigured(_)
            | AppError::RenderTimeout(_)
            | AppError::RenderFailed(_)
            | AppError::RenderStartFailed(_)),
        ) => Err(CliError::verbatim(e.error_code(), e.message())),
        Err(e) => Err(CliError::verbatim(e.error_code(), e.to_string())),
    }
}

/// A fetch's failure in the fetcher's own sentence.
fn fetch_failure(e: fetch::Error) -> CliError {
    CliError::verbatim(e.error_code(), e.to_string())
}

/// Whether a target that is neither a URL with a scheme nor an existing path was meant as a
/// file (a typo to report) rather than a host: it starts like a path (`/`, `./`, `../`,
/// `~`), or its first segment has no dot (`public/index.html`, `dist/`), or it is a bare
/// `.html`/`.htm` name. `example.com/blog/` and `127.0.0.1:8080/a.html` are hosts.
fn looks_like_path(target: &str) -> bool {
    let first = target.split(['/', '\\']).next().unwrap_or_default();
    let html_name = !target.contains('/')
        && Path::new(target)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    target.starts_with(['/', '.', '~', '\\'])
        || (target.contains(['/', '\\']) && !first.contains('.') && !first.contains(':'))
        || html_name
}

/// Whether a local file is HTML: no NUL byte in its first KiB, and either its text starts
/// with markup (`<`, after a BOM and whitespace) or its name ends in `.html`/`.htm`/`.xhtml`.
fn looks_like_html(path: &Path, bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    if head.contains(&0) {
        return false;
    }
    let text = head.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(head);
    let starts_with_markup = text.trim_ascii_start().starts_with(b"<");
    let html_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["html", "htm", "xhtml"].iter().any(|x| e.eq_ignore_ascii_case(x)));
    starts_with_markup || html_name
}
