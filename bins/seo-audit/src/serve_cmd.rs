//! `seo-audit serve`: the HTTP service until SIGINT or SIGTERM.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use crate::Global;

/// The settings `serve` takes as flags, on top of the file and the environment; each field
/// serializes under its setting's key (docs/API.md, "Running the service").
#[derive(Debug, clap::Args, serde::Serialize)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port) [default: 127.0.0.1:8080].
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Serve Prometheus metrics (GET /metrics, also /livez and /readyz) on ADDR, apart from
    /// the public port (port 0: any free port) [default: off].
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,
    /// Let the address guard through for ADDR (IP, CIDR or host name); for local
    /// development and tests only. Repeatable.
    #[arg(long = "allow-target", value_name = "ADDR", value_delimiter = ',')]
    #[serde(rename = "allow_targets")]
    pub allow_target: Vec<String>,
    #[command(flatten)]
    pub rate_limits: RateLimitFlags,
    /// Audits in flight at once [default: 16].
    #[arg(long, value_name = "N")]
    pub max_concurrent_audits: Option<usize>,
    /// Audits waiting for a slot before 503 overloaded [default: 64].
    #[arg(long, value_name = "N")]
    pub audit_queue: Option<usize>,
    /// Connections open at once, server-wide; 0: only the open-file limit [default: 10000].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections open at once from one client IP; 0: no per-IP cap [default: 256].
    #[arg(long, value_name = "N")]
    pub max_connections_per_ip: Option<usize>,
    /// Milliseconds a connection may stay open with no request in flight [default: 60000].
    #[arg(long, value_name = "MS")]
    pub idle_timeout_ms: Option<u64>,
    /// Milliseconds requests in flight get at shutdown before the process exits anyway
    /// [default: 30000].
    #[arg(long, value_name = "MS")]
    pub shutdown_grace_ms: Option<u64>,
    /// A reverse proxy whose X-Forwarded-For is believed. Repeatable.
    #[arg(long = "trusted-proxy", value_name = "IP", value_delimiter = ',')]
    #[serde(rename = "trusted_proxies")]
    pub trusted_proxy: Vec<IpAddr>,
    /// Prefix length an anonymous IPv6 client counts as, for quota and flood guard
    /// (1 to 128) [default: 64].
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u8).range(1..=128))]
    pub anonymous_ipv6_prefix: Option<u8>,
    /// PEM certificate chain: with --tls-key, serve HTTPS (HTTP/2 and HTTP/1.1).
    #[arg(long, value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE")]
    pub tls_key: Option<PathBuf>,
}

/// The `[rate_limits]` settings `serve` takes as flags.
#[derive(Debug, clap::Args, serde::Serialize)]
pub struct RateLimitFlags {
    /// Requests per minute for anonymous use [default: 10].
    #[arg(long = "rate-limit-anonymous", value_name = "N")]
    pub anonymous: Option<u32>,
}

/// Runs the service and returns the process exit status. `small_pages` is what
/// [`crate::memory::small_pages_only`] gave at the start.
pub async fn run(args: ServeArgs, global: &Global, small_pages: std::io::Result<()>) -> u8 {
    init_logging();
    if let Err(e) = small_pages {
        // The service runs, but its memory may grow past the bounds of docs/SECURITY.md
        // ("Request bodies"): the operator is told once.
        tracing::warn!(error = %e, "transparent huge pages could not be turned off for this process");
    }
    let config = match global.load_config_with(&args) {
        Ok(c) => c,
        Err(e) => return crate::cli_error::CliError::from(e).report(),
    };
    let server = match server::serve(config).await {
        Ok(s) => s,
        Err(e) => return crate::cli_error::CliError::from(e).report(),
    };
    // Scripts wait for this exact line (docs/API.md, "Running the service"): print it once, and
    // only now that the socket accepts connections; `https://` when it speaks TLS.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "listening on {}://{}", server.scheme(), server.local_addr());
    // With metrics on, a second line names the metrics listener (docs/API.md, "Metrics,
    // liveness and readiness").
    if let Some(addr) = server.metrics_addr() {
        let _ = writeln!(out, "metrics on http://{addr}/metrics");
    }
    let _ = out.flush();
    drop(out);
    server::shutdown_signal().await;
    tracing::info!("signal received");
    server.shutdown().await;
    0
}

/// Log lines go to stderr (stdout carries only the `listening on` line); the level comes
/// from `SEO_AUDIT_LOG` (an env-filter directive, default `info`).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SEO_AUDIT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colour only on a terminal: log files and collectors get plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(ansi).with_writer(std::io::stderr).try_init();
}
