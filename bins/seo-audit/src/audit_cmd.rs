//! `seo-audit audit TARGET`: one audit, printed as JSON, compact JSON or a terminal report.

use std::io::{IsTerminal, Write};
use std::path::Path;

use audit_core::{Audit, Category, HttpFacts, Outcome};
use fetch::{FetchConfig, Fetcher};

use crate::Global;

/// Exit status when the audit ran and the score is at least `--min-score`.
pub const EXIT_OK: u8 = 0;
/// Exit status when the score is under `--min-score`.
pub const EXIT_BELOW_MIN_SCORE: u8 = 1;
/// Exit status when the audit could not run.
pub const EXIT_FAILED: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The full audit result (as `GET /api/v1/audit`).
    Json,
    /// The compact result (as `format=compact`).
    Compact,
    /// A readable report: score, then failed checks by category.
    Text,
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
    /// Exit with status 1 when the score is under N (for CI pipelines).
    #[arg(long, value_name = "N")]
    pub min_score: Option<u32>,
    /// Let the address guard through for ADDR (IP, CIDR or host name); for local
    /// development and tests only. Repeatable.
    #[arg(long = "allow-target", value_name = "ADDR", env = "SEO_AUDIT_ALLOW_TARGETS", value_delimiter = ',')]
    pub allow_target: Vec<String>,
    /// Never colour the text report.
    #[arg(long)]
    pub no_color: bool,
}

/// Runs the subcommand and returns the process exit status.
pub async fn run(args: AuditArgs, _global: &Global) -> u8 {
    let audit = match load(&args).await {
        Ok(audit) => audit,
        Err((code, message)) => {
            eprintln!("error: {code}: {message}");
            return EXIT_FAILED;
        }
    };
    let scanned_at = server::now_rfc3339();
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Json => write_json(&mut out, &audit.to_result(&scanned_at)),
        Format::Compact => write_json(&mut out, &audit.to_compact(&scanned_at)),
        Format::Text => {
            let color = !args.no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            out.write_all(render_text(&audit, color).as_bytes())
        }
    };
    if let Err(e) = written {
        // A closed pipe (`| head`) is not a failed audit.
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: internal: cannot write the result: {e}");
            return EXIT_FAILED;
        }
    }
    match args.min_score {
        Some(min) if audit.score().percentage < min => EXIT_BELOW_MIN_SCORE,
        _ => EXIT_OK,
    }
}

fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

async fn load(args: &AuditArgs) -> Result<Audit, (&'static str, String)> {
    let is_url = args.target.starts_with("http://") || args.target.starts_with("https://");
    let path = Path::new(&args.target);
    if !is_url && path.is_file() {
        let html =
            std::fs::read(path).map_err(|e| ("invalid_request", format!("cannot read {}: {e}", path.display())))?;
        let url = match &args.url {
            Some(u) => fetch::validate_url(u).map_err(|e| (e.code(), e.to_string()))?.to_string(),
            None => {
                let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                url::Url::from_file_path(&abs)
                    .map(String::from)
                    .unwrap_or_else(|()| format!("file://{}", abs.display()))
            }
        };
        return Ok(server::pipeline::audit_html(&url, &html, HttpFacts::default()));
    }
    // A target that names a file which is not there is a typo, not a host to look up.
    let looks_like_file =
        path.extension().is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
            || args.target.contains(std::path::MAIN_SEPARATOR);
    if !is_url && looks_like_file && !args.target.contains("://") {
        return Err(("invalid_request", format!("no such file: {}", path.display())));
    }
    let url = fetch::validate_url(&args.target).map_err(|e| (e.code(), e.to_string()))?;
    let config = FetchConfig { allow_targets: args.allow_target.clone(), ..FetchConfig::default() };
    let fetcher = Fetcher::new(config).map_err(|e| (e.code(), e.to_string()))?;
    match server::pipeline::audit_url(&fetcher, &url).await {
        Ok(page) => Ok(page.audit),
        Err(server::pipeline::AuditError::Fetch(e)) => Err((e.code(), e.to_string())),
        Err(e) => Err(("internal", e.to_string())),
    }
}

struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// The terminal report: score, then failed checks grouped by category, worst first.
pub fn render_text(audit: &Audit, color: bool) -> String {
    let paint = Paint(color);
    let score = audit.score();
    let grade = match score.percentage {
        90.. => "32",
        50..=89 => "33",
        _ => "31",
    };
    let p = &audit.page;
    let mut out = String::new();
    out.push_str(&format!("{}\n", paint.wrap("1", &p.final_url)));
    if let Some(status) = p.http.status {
        out.push_str(&format!("HTTP {status}"));
        if let Some(ms) = p.http.load_time_ms {
            out.push_str(&format!(", {ms} ms"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "Score {} ({} of {} checks pass, ruleset {})\n",
        paint.wrap(&format!("1;{grade}"), &format!("{}/100", score.percentage)),
        score.passed,
        score.total,
        score.ruleset_version
    ));
    let failures = audit.failures();
    if failures.is_empty() {
        out.push_str("\nNo problems found.\n");
        return out;
    }
    for cat in Category::ALL {
        let in_cat: Vec<_> = failures.iter().filter(|(r, _)| r.category == cat).collect();
        if in_cat.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{}\n", paint.wrap("1", cat.name())));
        for (rule, finding) in in_cat {
            let sev = match rule.severity {
                audit_core::Severity::Critical => paint.wrap("31", "critical"),
                audit_core::Severity::Warning => paint.wrap("33", "warning "),
                audit_core::Severity::Notice => paint.wrap("36", "notice  "),
            };
            out.push_str(&format!("  {sev} {} [{}]\n", finding.title, rule.id));
            out.push_str(&format!("           {}\n", finding.description));
            if let Some(s) = &finding.suggested_value {
                out.push_str(&format!("           fix: {s}\n"));
            }
        }
    }
    let na = audit.checks.iter().filter(|c| c.outcome == Outcome::NotApplicable).count();
    out.push_str(&format!("\n{} checks did not apply to this page.\n", na));
    out
}
